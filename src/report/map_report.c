// SPDX-License-Identifier: GPL-2.0
/* The table of mapping renderers, and what they share. */
#include "report/map_report.h"

#include <stdlib.h>
#include <string.h>

#include "kmap/annotate.h"
#include "util/error.h"

static const struct map_renderer *const map_renderers[] = {
    &map_renderer_text,
    &map_renderer_rst,
    &map_renderer_json,
    &map_renderer_kconfig,
};

#define NMAP_RENDERERS (sizeof(map_renderers) / sizeof(map_renderers[0]))

const struct map_renderer *map_renderer_find(const char *name)
{
	for (size_t i = 0; name && i < NMAP_RENDERERS; i++)
		if (!strcmp(map_renderers[i]->name, name))
			return map_renderers[i];
	return NULL;
}

const struct map_renderer *map_renderer_at(size_t i)
{
	return i < NMAP_RENDERERS ? map_renderers[i] : NULL;
}

const char *map_renderer_names(void)
{
	static char buf[256];

	if (*buf)
		return buf;
	for (size_t i = 0, len = 0; i < NMAP_RENDERERS && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "", map_renderers[i]->name);
	return buf;
}

void map_renderer_help(FILE *out)
{
	fputs("\nformats:\n", out);
	for (size_t i = 0; i < NMAP_RENDERERS; i++)
		fprintf(out, "  %-8s %s\n", map_renderers[i]->name, map_renderers[i]->help);
}

const char *map_tree_line(const struct fp_kernel_map *m, char *buf, size_t len)
{
	snprintf(buf, len, "Linux %s (%s; configuration: %s)", m->db->version, m->db->origin, m->db->config);
	return buf;
}

const char *map_running_line(const struct fp_kernel_map *m, char *buf, size_t len)
{
	const struct kf_running *r = m->run;

	if (!r) {
		snprintf(buf, len, "not consulted");
		return buf;
	}
	snprintf(buf, len, "%s (options: %s; syscalls: %s)", *r->release ? r->release : "unknown",
		 r->have_config	 ? "/proc/config.gz"
		 : r->config_why ? r->config_why
				 : "unknown",
		 r->have_kallsyms  ? "/proc/kallsyms"
		 : r->kallsyms_why ? r->kallsyms_why
				   : "unknown");
	return buf;
}

void map_count(const struct fp_kernel_map *m, struct map_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->rows = m->nrows;
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		c->required += r->required;
		c->probes += r->probe;
		c->newer += r->newer;
		c->unresolved += r->ks && !r->ks->complete;
	}
}

const char *map_opt_where(const struct kmap_opt *o, char *buf, size_t len)
{
	if (!o->db->opt || !o->db->opt->file)
		return NULL;
	snprintf(buf, len, "%s:%d", o->db->opt->file, o->db->opt->line);
	return buf;
}

const char *map_opt_running(const struct kmap_opt *o)
{
	return o->running ? o->running : "unknown";
}

int map_render_attached(const struct footprint *fp, const char *format, bool after_report, FILE *out)
{
	const struct map_renderer *r = map_renderer_find(format);
	const struct fp_kernel_map *const *maps;
	size_t n = annotate_maps(fp, &maps);

	if (!r)
		return error("unknown map format '%s': expected one of %s", format, map_renderer_names());
	for (size_t i = 0; i < n; i++) {
		if ((after_report || i) && strcmp(r->name, "json") && strcmp(r->name, "kconfig"))
			fputc('\n', out); /* apart from the footprint report (or the map) before it */
		if (r->render(maps[i], out) < 0)
			return perror_msg("writing the map");
	}
	return 0;
}
