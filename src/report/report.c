// SPDX-License-Identifier: GPL-2.0
/* The registry of footprint renderers (report/format.h's shape). */
#include "report/report.h"

static struct format_table renderers = {
    8,
    (const struct format *const[]){&renderer_text.f, &renderer_strace.f, &renderer_rst.f, &renderer_tree.f,
				   &renderer_json.f, &renderer_csv.f, &renderer_html.f, NULL},
    "",
};

const struct renderer *renderer_find(const char *name)
{
	return FORMAT_OF(format_find(&renderers, name), struct renderer, f);
}

const struct renderer *renderer_at(size_t i)
{
	return FORMAT_OF(format_at(&renderers, i), struct renderer, f);
}

const char *renderer_names(void)
{
	return format_names(&renderers);
}

void renderer_help(FILE *out)
{
	format_help(&renderers, out);
}

int renderer_check(const char *name)
{
	return format_check(&renderers, NULL, name);
}

int renderer_render(const struct renderer *r, const struct footprint *fp, const struct text_opts *o, FILE *out)
{
	return r->render_opts ? r->render_opts(fp, o, out) : r->render(fp, out);
}
