// SPDX-License-Identifier: GPL-2.0
/* What every renderer registry does with its table: find, list, help, and the unknown-name error. */
#include "report/format.h"

#include <string.h>

#include "util/error.h"

const struct format *format_find(const struct format_table *t, const char *name)
{
	for (size_t i = 0; name && t->rows[i]; i++)
		if (!strcmp(t->rows[i]->name, name))
			return t->rows[i];
	return NULL;
}

const struct format *format_at(const struct format_table *t, size_t i)
{
	for (size_t k = 0; t->rows[k]; k++)
		if (k == i)
			return t->rows[k];
	return NULL;
}

const char *format_names(struct format_table *t)
{
	if (!*t->names)
		for (size_t i = 0, len = 0; t->rows[i] && len < sizeof(t->names); i++)
			len += (size_t)snprintf(t->names + len, sizeof(t->names) - len, "%s%s", i ? ", " : "",
						t->rows[i]->name);
	return t->names;
}

void format_help(const struct format_table *t, FILE *out)
{
	fputs("\nformats:\n", out);
	for (size_t i = 0; t->rows[i]; i++)
		fprintf(out, "  %-*s %s\n", t->width, t->rows[i]->name, t->rows[i]->help);
}

int format_check(struct format_table *t, const char *noun, const char *name)
{
	if (format_find(t, name))
		return 0;
	return error("unknown %s '%s': expected one of %s", noun ? noun : "format", name ? name : "", format_names(t));
}
