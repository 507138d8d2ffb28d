/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_OPTIONS_H
#define KF_UTIL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Table-driven options, in the manner of perf's parse-options: each command has one table of struct kf_option,
 * which gives the parsing (getopt_long underneath, so abbreviations, "--" and argument permutation behave as
 * getopt's always did), the option lines of its --help and its option list in the man page
 * (tests/unit/test_options.c checks that man/kfootprint.1 holds exactly what the tables give).
 *
 * Values go into the command's options struct, at the offset the table names; the OPT_* macros check the
 * field's type at compile time (perf's check_vtype).
 *
 * Usage errors are one line, "kfootprint: unknown option '--bogus': see 'kfootprint CMD --help'", and exit
 * status 1 (strace's convention: every failure of kfootprint itself exits 1; docs/commands.md, "Exit status").
 */
enum kf_opt_type {
	KF_OPT_END,
	KF_OPT_BOOL,	 /* sets a bool */
	KF_OPT_STRING,	 /* stores its value (a const char *) */
	KF_OPT_OPTIONAL, /* --name[=VALUE]: stores VALUE, or dflt when none is given */
	KF_OPT_CALLBACK, /* calls cb(value, opts): range-checked numbers, lists, counters */
	KF_OPT_HELP,	 /* -h, --help */
	KF_OPT_GROUP,	 /* the rows of other tables in its place (each kind's options): group(i) gives the i-th */
};

struct kf_option {
	enum kf_opt_type type;
	int short_name;		      /* 'o', or 0 */
	const char *long_name;	      /* "output" */
	const char *arg;	      /* the value's name in help ("FILE"); NULL when the option takes none */
	size_t offset;		      /* of its field in the options struct */
	const char *help;	      /* one sentence; "%s" stands for choices() */
	const char *(*choices)(void); /* the names the value is one of ("text, strace, ..."), from a registry */
	const char *dflt;	      /* KF_OPT_OPTIONAL */
	int (*cb)(const char *value, void *opts); /* KF_OPT_CALLBACK: 0, or -1 after a message */
	/* KF_OPT_GROUP: the i-th table (NULL after the last) and *values, where its rows' offsets point */
	const struct kf_option *(*group)(size_t i, void **values);
};

/* A compile-time check that field f of T has type t; 0 when it does. */
#define KF_OPT_CHECK(T, f, t) (0 * sizeof(char[1 - 2 * !__builtin_types_compatible_p(__typeof__(((T *)0)->f), t)]))
#define KF_OPT_FIELD(T, f, t) (offsetof(T, f) + KF_OPT_CHECK(T, f, t))

#define OPT_BOOL(s, l, T, f, h)                                                              \
	{                                                                                    \
		KF_OPT_BOOL, s, l, NULL, KF_OPT_FIELD(T, f, bool), h, NULL, NULL, NULL, NULL \
	}
#define OPT_STRING(s, l, T, f, a, h)                                                                \
	{                                                                                           \
		KF_OPT_STRING, s, l, a, KF_OPT_FIELD(T, f, const char *), h, NULL, NULL, NULL, NULL \
	}
/* A string whose value must be one of choices(); the command checks it, help lists them. */
#define OPT_CHOICE(s, l, T, f, a, c, h)                                                          \
	{                                                                                        \
		KF_OPT_STRING, s, l, a, KF_OPT_FIELD(T, f, const char *), h, c, NULL, NULL, NULL \
	}
#define OPT_OPTIONAL(s, l, T, f, a, d, c, h)                                                    \
	{                                                                                       \
		KF_OPT_OPTIONAL, s, l, a, KF_OPT_FIELD(T, f, const char *), h, c, d, NULL, NULL \
	}
#define OPT_CALLBACK(s, l, a, cb, h)                                 \
	{                                                            \
		KF_OPT_CALLBACK, s, l, a, 0, h, NULL, NULL, cb, NULL \
	}
#define OPT_VERBOSE(h) OPT_CALLBACK('v', "verbose", NULL, kf_opt_verbose, h)
#define OPT_HELP()                                                                     \
	{                                                                              \
		KF_OPT_HELP, 'h', "help", NULL, 0, "this help", NULL, NULL, NULL, NULL \
	}
/* Other tables' rows here, as group(i) gives them (the kinds' options of a command). */
#define OPT_GROUP(g)                                                      \
	{                                                                 \
		KF_OPT_GROUP, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL, g \
	}
#define OPT_END()                                                          \
	{                                                                  \
		KF_OPT_END, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL \
	}

enum kf_parse_flags {
	KF_PARSE_STOP_AT_OPERAND = 1 << 0, /* options end at the first operand (record: the workload's own follow) */
};

#define KF_PARSE_HELP (-2)

/*
 * Parses argv (argv[0] is the command's name, cmd) with the table into opts. Returns the index of the first
 * operand; KF_PARSE_HELP for -h/--help; or -1 after a one-line message.
 */
int kf_parse_options(const char *cmd, const struct kf_option *table, unsigned flags, int argc, char **argv, void *opts);

/*
 * The table with its groups' rows in place (and, when opts is not NULL, each row's values in *bases: opts, or
 * its group's); ends with an END row. The caller frees both.
 */
struct kf_option *kf_options_flat(const struct kf_option *table, void *opts, void ***bases);

/* The option lines of --help: "  -o, --output FILE      help", aligned, long help wrapped. */
void kf_options_help(FILE *out, const struct kf_option *table);
/* The same list for the man page: ".TP", the option in roff, its help. */
void kf_options_man(FILE *out, const struct kf_option *table);
/* The help of an option with its choices filled in; malloc'd. */
char *kf_option_help_text(const struct kf_option *o);

/* -v: one more level of diagnostics (kf_verbose). */
int kf_opt_verbose(const char *value, void *opts);

#endif
