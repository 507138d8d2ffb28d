// SPDX-License-Identifier: GPL-2.0
/* The table of mapping renderers, and what they share. */
#include "report/map_report.h"

#include <stdlib.h>
#include <string.h>

#include "kmap/annotate.h"
#include "util/error.h"

static struct format_table map_renderers = {
    8,
    (const struct format *const[]){&map_renderer_text.f, &map_renderer_rst.f, &map_renderer_json.f,
				   &map_renderer_kconfig.f, &map_renderer_lcov.f, NULL},
    "",
};

const struct map_renderer *map_renderer_find(const char *name)
{
	return FORMAT_OF(format_find(&map_renderers, name), struct map_renderer, f);
}

const struct map_renderer *map_renderer_at(size_t i)
{
	return FORMAT_OF(format_at(&map_renderers, i), struct map_renderer, f);
}

const char *map_renderer_names(void)
{
	return format_names(&map_renderers);
}

void map_renderer_help(FILE *out)
{
	format_help(&map_renderers, out);
}

int map_renderer_check(const char *noun, const char *name)
{
	return format_check(&map_renderers, noun, name);
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
		return map_renderer_check("map format", format);
	for (size_t i = 0; i < n; i++) {
		if ((after_report || i) && !r->document)
			fputc('\n', out); /* apart from the footprint report (or the map) before it */
		if (r->render(maps[i], out) < 0)
			return perror_msg("writing the map");
	}
	return 0;
}
