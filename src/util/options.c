// SPDX-License-Identifier: GPL-2.0
/* Table-driven options: parsing through getopt_long, --help and man page lines from the same table. */
#include "util/options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* getopt_long's value for an entry: its short name, or 256 + its index for a long-only one. */
static int opt_val(const struct kf_option *table, const struct kf_option *o)
{
	return o->short_name ? o->short_name : 256 + (int)(o - table);
}

static const struct kf_option *by_val(const struct kf_option *table, int val)
{
	for (const struct kf_option *o = table; o->type != KF_OPT_END; o++)
		if (opt_val(table, o) == val)
			return o;
	return NULL;
}

static int arg_kind(const struct kf_option *o)
{
	if (o->type == KF_OPT_OPTIONAL)
		return optional_argument;
	return o->arg ? required_argument : no_argument;
}

/* "--name" as the user wrote it (up to any '='), for messages. */
static char *as_given(const char *arg)
{
	return xstrndup(arg, strcspn(arg, "="));
}

/* The long options a prefix matches, when more than one does: "--no-pin, --no-time". */
static char *ambiguous(const struct kf_option *table, const char *given)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(given + 2), hits = 0;

	if (strncmp(given, "--", 2) || !n)
		return NULL;
	for (const struct kf_option *o = table; o->type != KF_OPT_END; o++)
		if (o->long_name && !strncmp(o->long_name, given + 2, n))
			strbuf_addf(&sb, "%s--%s", hits++ ? ", " : "", o->long_name);
	if (hits > 1)
		return strbuf_detach(&sb);
	strbuf_release(&sb);
	return NULL;
}

/*
 * The message for what getopt refused. getopt leaves in optopt the short option or the value of the long one it
 * refused (0 for a long option it does not know), and in argv[optind - 1] a long option as written.
 */
static int refuse(const char *cmd, const struct kf_option *table, int c, char **argv)
{
	const struct kf_option *o = optopt ? by_val(table, optopt) : NULL;
	const char *last = argv[optind - 1];
	char *given, *alts = NULL;
	int rc;

	if (o && o->short_name && !(o->long_name && !strncmp(last, "--", 2)))
		return error(c == ':' ? "option '-%c' needs a value: see 'kfootprint %s --help'"
				      : "option '-%c' is malformed: see 'kfootprint %s --help'",
			     o->short_name, cmd);
	if (!o && optopt > 0 && optopt < 256)
		return error("unknown option '-%c': see 'kfootprint %s --help'", optopt, cmd);
	given = as_given(last);
	if (c == ':')
		rc = error("option '%s' needs a value: see 'kfootprint %s --help'", given, cmd);
	else if (o)
		rc = error("option '%s' takes no value: see 'kfootprint %s --help'", given, cmd);
	else if ((alts = ambiguous(table, given)))
		rc = error("ambiguous option '%s' (%s): see 'kfootprint %s --help'", given, alts, cmd);
	else
		rc = error("unknown option '%s': see 'kfootprint %s --help'", given, cmd);
	free(given);
	free(alts);
	return rc;
}

struct flat {
	struct kf_option *rows;
	void **bases;
	size_t n, cap;
};

static void push(struct flat *f, const struct kf_option *o, void *base)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 32;
		f->rows = xrealloc(f->rows, f->cap * sizeof(*f->rows));
		f->bases = xrealloc(f->bases, f->cap * sizeof(*f->bases));
	}
	f->bases[f->n] = base;
	f->rows[f->n++] = *o;
}

struct kf_option *kf_options_flat(const struct kf_option *table, void *opts, void ***bases)
{
	static const struct kf_option end = OPT_END();
	struct flat f = {0};

	for (const struct kf_option *o = table; o->type != KF_OPT_END; o++) {
		const struct kf_option *sub;
		void *values = NULL;

		if (o->type != KF_OPT_GROUP) {
			push(&f, o, opts);
			continue;
		}
		for (size_t g = 0; (sub = o->group(g, &values)); g++)
			for (; sub->type != KF_OPT_END; sub++)
				push(&f, sub, values);
	}
	push(&f, &end, NULL);
	if (bases)
		*bases = f.bases;
	else
		free(f.bases);
	return f.rows;
}

int kf_parse_options(const char *cmd, const struct kf_option *tab, unsigned flags, int argc, char **argv, void *opts)
{
	struct strbuf shorts = STRBUF_INIT;
	struct option *longs;
	void **bases;
	struct kf_option *table = kf_options_flat(tab, opts, &bases);
	size_t n = 0;
	int c, rc = 0;

	while (table[n].type != KF_OPT_END)
		n++;
	longs = xcalloc(n + 1, sizeof(*longs));
	/* "+": stop at the first operand; ":": report a missing value as ':' and print nothing ourselves */
	strbuf_addstr(&shorts, flags & KF_PARSE_STOP_AT_OPERAND ? "+:" : ":");
	for (size_t i = 0; i < n; i++) {
		const struct kf_option *o = &table[i];

		longs[i] = (struct option){o->long_name, arg_kind(o), NULL, opt_val(table, o)};
		if (o->short_name)
			strbuf_addf(&shorts, "%c%s", o->short_name, o->arg && o->type != KF_OPT_OPTIONAL ? ":" : "");
	}
	optind = 0; /* a full reset, the "+" included, for every parse */
	opterr = 0;
	while (!rc && (c = getopt_long(argc, argv, shorts.buf, longs, NULL)) != -1) {
		const struct kf_option *o = c == '?' || c == ':' ? NULL : by_val(table, c);
		void *base = o ? bases[o - table] : NULL;
		void *field = o ? (char *)base + o->offset : NULL;

		if (!o) {
			rc = refuse(cmd, table, c, argv);
			break;
		}
		switch (o->type) {
		case KF_OPT_BOOL: *(bool *)field = true; break;
		case KF_OPT_STRING: *(const char **)field = optarg; break;
		case KF_OPT_OPTIONAL: *(const char **)field = optarg ? optarg : o->dflt; break;
		case KF_OPT_CALLBACK: rc = o->cb(optarg, base) < 0 ? -1 : 0; break;
		case KF_OPT_HELP: rc = KF_PARSE_HELP; break;
		case KF_OPT_END:
		case KF_OPT_GROUP: break;
		}
	}
	strbuf_release(&shorts);
	free(longs);
	free(table);
	free(bases);
	return rc ? rc : optind;
}

int kf_opt_verbose(const char *value, void *opts)
{
	(void)value;
	(void)opts;
	kf_verbose++;
	return 0;
}

char *kf_option_help_text(const struct kf_option *o)
{
	const char *h = o->help ? o->help : "";

	if (o->choices && strstr(h, "%s")) {
		struct strbuf sb = STRBUF_INIT;
		const char *at = strstr(h, "%s");

		strbuf_add(&sb, h, (size_t)(at - h));
		strbuf_addstr(&sb, o->choices());
		strbuf_addstr(&sb, at + 2);
		return strbuf_detach(&sb);
	}
	return xstrdup(h);
}

/* "-o, --output FILE", "    --map[=FORMAT]" */
static char *synopsis(const struct kf_option *o)
{
	struct strbuf sb = STRBUF_INIT;

	if (o->short_name)
		strbuf_addf(&sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else
		strbuf_addstr(&sb, "    ");
	if (o->long_name)
		strbuf_addf(&sb, "--%s", o->long_name);
	if (o->arg)
		strbuf_addf(&sb, o->type == KF_OPT_OPTIONAL ? "[=%s]" : " %s", o->arg);
	return strbuf_detach(&sb);
}

#define HELP_WIDTH 110 /* the lines of --help, as the rest of kfootprint's output */

void kf_options_help(FILE *out, const struct kf_option *tab)
{
	struct kf_option *table = kf_options_flat(tab, NULL, NULL);
	size_t col = 0;

	for (const struct kf_option *o = table; o->type != KF_OPT_END; o++) {
		char *s = synopsis(o);

		if (strlen(s) > col)
			col = strlen(s);
		free(s);
	}
	col += 4; /* two before, two after */
	for (const struct kf_option *o = table; o->type != KF_OPT_END; o++) {
		char *s = synopsis(o), *h = kf_option_help_text(o);
		const char *p = h;
		size_t width = HELP_WIDTH > col + 20 ? HELP_WIDTH - col : 20;

		fprintf(out, "  %-*s", (int)(col - 2), s);
		/* wrap at spaces; continuation lines start under the help column */
		while (strlen(p) > width) {
			size_t cut = width;

			while (cut && p[cut] != ' ')
				cut--;
			if (!cut)
				cut = strcspn(p, " ");
			fprintf(out, "%.*s\n%*s", (int)cut, p, (int)col, "");
			p += cut + (p[cut] == ' ');
		}
		fprintf(out, "%s\n", p);
		free(s);
		free(h);
	}
	free(table);
}

/* Text for roff: a backslash is \e, a '-' is \- (so that man shows and searches an ASCII hyphen). */
static void roff(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

void kf_options_man(FILE *out, const struct kf_option *tab)
{
	struct kf_option *table = kf_options_flat(tab, NULL, NULL);

	for (const struct kf_option *o = table; o->type != KF_OPT_END; o++) {
		char *h = kf_option_help_text(o);

		fputs(".TP\n", out);
		if (o->short_name) {
			fprintf(out, "\\fB\\-%c\\fR", o->short_name);
			if (o->long_name)
				fputs(", ", out);
		}
		if (o->long_name) {
			fputs("\\fB\\-\\-", out);
			roff(out, o->long_name);
			fputs("\\fR", out);
		}
		if (o->arg) {
			fputs(o->type == KF_OPT_OPTIONAL ? "[=\\fI" : " \\fI", out);
			roff(out, o->arg);
			fputs(o->type == KF_OPT_OPTIONAL ? "\\fR]" : "\\fR", out);
		}
		fputc('\n', out);
		/* a line starting with '.' or '\'' would be a request */
		if (*h == '.' || *h == '\'')
			fputs("\\&", out);
		roff(out, h);
		fputc('\n', out);
		free(h);
	}
	free(table);
}
