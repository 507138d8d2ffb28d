// SPDX-License-Identifier: GPL-2.0
/* The one registry of footprint renderers: lookup, and the name lists of --help and error messages. */
#include "report/report.h"

#include <string.h>

static const struct renderer *const renderers[] = {
    &renderer_text, &renderer_strace, &renderer_rst, &renderer_tree, &renderer_json, &renderer_csv, &renderer_html,
};

#define NRENDERERS (sizeof(renderers) / sizeof(renderers[0]))

const struct renderer *renderer_find(const char *name)
{
	for (size_t i = 0; name && i < NRENDERERS; i++)
		if (!strcmp(renderers[i]->name, name))
			return renderers[i];
	return NULL;
}

const struct renderer *renderer_at(size_t i)
{
	return i < NRENDERERS ? renderers[i] : NULL;
}

const char *renderer_names(void)
{
	static char buf[256];

	if (*buf)
		return buf;
	for (size_t i = 0, len = 0; i < NRENDERERS && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "", renderers[i]->name);
	return buf;
}

void renderer_help(FILE *out)
{
	fputs("\nformats:\n", out);
	for (size_t i = 0; i < NRENDERERS; i++)
		fprintf(out, "  %-8s %s\n", renderers[i]->name, renderers[i]->help);
}

int renderer_render(const struct renderer *r, const struct footprint *fp, const struct text_opts *o, FILE *out)
{
	return r == &renderer_text ? text_render(fp, o, out) : r->render(fp, out);
}
