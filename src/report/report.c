// SPDX-License-Identifier: GPL-2.0
#include "report/report.h"

#include <string.h>

static const struct renderer *const renderers[] = {
    &renderer_text, &renderer_strace, &renderer_rst, &renderer_tree, &renderer_json, &renderer_csv,
};

const struct renderer *renderer_find(const char *name)
{
	for (size_t i = 0; i < sizeof(renderers) / sizeof(renderers[0]); i++)
		if (!strcmp(renderers[i]->name, name))
			return renderers[i];
	return NULL;
}

const char *renderer_names(void)
{
	return "text, strace, rst, tree, json, csv";
}
