// SPDX-License-Identifier: GPL-2.0
/*
 * One option table per command gives the parsing, the --help lines and the man page's option list, and
 * docs/commands.md documents each option in a table: this checks that the four agree, for every command of
 * kf_commands[]. `test_options --update-man FILE` rewrites the generated blocks of the man page from the tables
 * (`make man`).
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/cmd.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define BEGIN ".\\\" BEGIN OPTIONS "
#define END   ".\\\" END OPTIONS "
/* the reference of every command, with its option tables */
#define COMMANDS_DOC "docs/commands.md"

static const char *top_path(const char *file)
{
	static char buf[4096];
	const char *top = getenv("KF_TOP");

	snprintf(buf, sizeof(buf), "%s/%s", top && *top ? top : ".", file);
	return buf;
}

static const char *man_path(void)
{
	return top_path("man/kfootprint.1");
}

/* A command's options with the kinds' groups in place (kf_options_flat()), made once per command. */
static const struct kf_option *rows_of(const struct kf_command *c)
{
	static struct {
		const struct kf_command *c;
		struct kf_option *rows;
	} made[64];

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		if (made[i].c == c)
			return made[i].rows;
		if (!made[i].c) {
			made[i].c = c;
			return made[i].rows = kf_options_flat(c->options, NULL, NULL);
		}
	}
	fail_msg("more than 64 commands");
	return NULL;
}

static char *man_block(const struct kf_command *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kf_options_man(f, c->options);
	fclose(f);
	return buf;
}

/* The man page with every command's block between its markers replaced; NULL when a marker is missing. */
static char *regenerate(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *at = text;

	for (size_t i = 0; kf_commands[i]; i++) {
		char begin[64], end[64], *blk;
		const char *b, *e;

		snprintf(begin, sizeof(begin), BEGIN "%s\n", kf_commands[i]->name);
		snprintf(end, sizeof(end), END "%s\n", kf_commands[i]->name);
		b = strstr(at, begin);
		e = b ? strstr(b, end) : NULL;
		if (!e) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_add(&sb, at, (size_t)(b - at) + strlen(begin));
		blk = man_block(kf_commands[i]);
		strbuf_addstr(&sb, blk);
		free(blk);
		at = e;
	}
	strbuf_addstr(&sb, at);
	return strbuf_detach(&sb);
}

static void test_man_page_holds_the_tables(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char *want;

	(void)state;
	if (strbuf_read_file(&sb, man_path()) < 0)
		fail_msg("cannot read %s", man_path());
	want = regenerate(sb.buf);
	if (!want)
		fail_msg("%s: a command's '" BEGIN "NAME' / '" END "NAME' markers are missing", man_path());
	if (strcmp(want, sb.buf))
		fail_msg("%s: the option lists differ from the commands' tables: run make man", man_path());
	free(want);
	strbuf_release(&sb);
}

/* Whitespace runs as one space, so wrapped help lines compare with the table's text. */
static char *squeeze(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\n') {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

static void test_help_holds_the_tables(void **state)
{
	(void)state;
	for (size_t i = 0; kf_commands[i]; i++) {
		const struct kf_command *c = kf_commands[i];
		char *buf = NULL, *help;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		kf_command_help(c, f);
		fclose(f);
		help = squeeze(buf);
		for (const struct kf_option *o = rows_of(c); o->type != KF_OPT_END; o++) {
			char *h = kf_option_help_text(o), line[1024], *want;

			snprintf(line, sizeof(line), "%s%c%s%s%s%s%s%s %s", o->short_name ? "-" : "",
				 o->short_name ? o->short_name : ' ', o->short_name && o->long_name ? ", " : "",
				 o->long_name ? "--" : "", o->long_name ? o->long_name : "",
				 o->arg ? (o->type == KF_OPT_OPTIONAL ? "[=" : " ") : "", o->arg ? o->arg : "",
				 o->arg && o->type == KF_OPT_OPTIONAL ? "]" : "", h);
			want = squeeze(line[0] == ' ' ? line + 1 : line);
			if (!strstr(help, want))
				fail_msg("kfootprint %s --help lacks '%s'", c->name, want);
			free(want);
			free(h);
		}
		free(help);
		free(buf);
	}
}

/*
 * The first cells of the option tables in docs/commands.md's section of command c ("## kfootprint NAME", up to
 * the next heading of its level or above), one per line: "`-o, --output FILE`".
 */
static char *doc_cells(const char *doc, const struct kf_command *c)
{
	struct strbuf sb = STRBUF_INIT;
	char head[64];
	const char *at, *end;

	snprintf(head, sizeof(head), "\n## kfootprint %s\n", c->name);
	at = strstr(doc, head);
	if (!at)
		fail_msg("%s has no section '## kfootprint %s'", COMMANDS_DOC, c->name);
	at += strlen(head);
	end = at + strlen(at); /* the end of the file, unless a heading comes first */
	for (const char *h = at; (h = strstr(h, "\n#")); h++) {
		if (!strncmp(h, "\n# ", 3) || !strncmp(h, "\n## ", 4)) {
			end = h;
			break;
		}
	}
	for (const char *l = at; l < end; l = strchr(l, '\n') + 1) {
		const char *cell_end;

		if (strncmp(l, "| `", 3))
			continue;
		cell_end = strstr(l + 1, " |");
		if (cell_end) {
			strbuf_add(&sb, l + 2, (size_t)(cell_end - l - 2));
			strbuf_addch(&sb, '\n');
		}
	}
	return strbuf_detach(&sb);
}

/* An option named in a cell: "--name" followed by a space, a backquote, '=' or '['. */
static bool cell_names(const char *cells, const char *dashed)
{
	size_t n = strlen(dashed);

	for (const char *p = cells; (p = strstr(p, dashed)); p++)
		if ((p == cells || p[-1] == '`' || p[-1] == ' ') && strchr(" `=[\n", p[n]))
			return true;
	return false;
}

/* docs/commands.md's option tables list each command's options, every one of them and no other. */
static void test_doc_holds_the_tables(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	if (strbuf_read_file(&sb, top_path(COMMANDS_DOC)) < 0)
		fail_msg("cannot read %s", top_path(COMMANDS_DOC));
	for (size_t i = 0; kf_commands[i]; i++) {
		const struct kf_command *c = kf_commands[i];
		char *cells = doc_cells(sb.buf, c), want[128];

		for (const struct kf_option *o = rows_of(c); o->type != KF_OPT_END; o++) {
			if (o->type == KF_OPT_HELP)
				continue;
			snprintf(want, sizeof(want), "--%s", o->long_name);
			if (!cell_names(cells, want))
				fail_msg("%s, kfootprint %s: no table row for %s", COMMANDS_DOC, c->name, want);
			snprintf(want, sizeof(want), "-%c, --%s", o->short_name, o->long_name);
			if (o->short_name && !strstr(cells, want))
				fail_msg("%s, kfootprint %s: '%s' not written as '%s'", COMMANDS_DOC, c->name,
					 o->long_name, want);
		}
		/* and no row names an option the command does not have */
		for (const char *p = cells; (p = strstr(p, "--")); p += 2) {
			size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
			const struct kf_option *o = rows_of(c);

			while (o->type != KF_OPT_END &&
			       (!o->long_name || strlen(o->long_name) != n || strncmp(o->long_name, p + 2, n)))
				o++;
			if (o->type == KF_OPT_END)
				fail_msg("%s, kfootprint %s: a row names --%.*s, which it does not have", COMMANDS_DOC,
					 c->name, (int)n, p + 2);
		}
		free(cells);
	}
	strbuf_release(&sb);
}

/* What a command prints on stderr while parsing argv, and what the parser returns. */
static int parse_capturing(const struct kf_command *c, char **argv, int argc, char *msg, size_t len)
{
	char path[] = "/tmp/kf-test-options.XXXXXX";
	int fd = mkstemp(path), saved, rc;
	/* the table's offsets are into the command's options struct, which must fit */
	static _Alignas(16) char opts[4096];
	ssize_t n;

	assert_true(fd >= 0);
	assert_true(c->opts_size && c->opts_size <= sizeof(opts));
	memset(opts, 0, sizeof(opts));
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	rc = kf_command_parse(c, 0, argc, argv, opts);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, msg, len - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

/* Every option of every table is taken, as -x and as --long; a value where the option wants one. */
static void test_parser_takes_the_tables(void **state)
{
	(void)state;
	for (size_t i = 0; kf_commands[i]; i++) {
		const struct kf_command *c = kf_commands[i];

		for (const struct kf_option *o = rows_of(c); o->type != KF_OPT_END; o++) {
			/* a number of seconds, a name, a file: taken as given; -e wants an expression (allocating none)
			 */
			const char *value = strcmp(o->long_name, "expr") ? "1" : "status=failed";
			char msg[1024], lng[128], shrt[4] = {'-', (char)o->short_name, 0, 0};
			char *argv[4];
			int rc;

			if (o->cb && o->arg && !strcmp(o->long_name, "pid"))
				continue; /* allocates a pid list the opaque options struct cannot free */
			snprintf(lng, sizeof(lng), "--%s%s%s", o->long_name, o->type == KF_OPT_OPTIONAL ? "=" : "",
				 o->type == KF_OPT_OPTIONAL ? value : "");
			argv[0] = (char *)c->name;
			argv[1] = lng;
			argv[2] = (char *)value;
			argv[3] = NULL;
			rc = parse_capturing(c, argv, o->arg && o->type != KF_OPT_OPTIONAL ? 3 : 2, msg, sizeof(msg));
			if (o->type == KF_OPT_HELP ? rc != KF_PARSE_HELP : rc < 0 || *msg)
				fail_msg("kfootprint %s %s: %d, '%s'", c->name, lng, rc, msg);
			if (!o->short_name)
				continue;
			argv[1] = shrt;
			rc = parse_capturing(c, argv, o->arg && o->type != KF_OPT_OPTIONAL ? 3 : 2, msg, sizeof(msg));
			if (o->type == KF_OPT_HELP ? rc != KF_PARSE_HELP : rc < 0 || *msg)
				fail_msg("kfootprint %s %s: %d, '%s'", c->name, shrt, rc, msg);
		}
	}
}

/* Anything else is one line in kfootprint's voice, pointing at the command's --help, and exit status 1. */
static void test_unknown_options(void **state)
{
	(void)state;
	for (size_t i = 0; kf_commands[i]; i++) {
		const struct kf_command *c = kf_commands[i];
		const char *bad[] = {"--bogus", "-Z", "--help=x"};
		const char *want[] = {"unknown option '--bogus'", "unknown option '-Z'",
				      "option '--help' takes no value"};

		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			char msg[1024], line[256], *argv[] = {(char *)c->name, (char *)bad[b], NULL};

			assert_int_equal(parse_capturing(c, argv, 2, msg, sizeof(msg)), -1);
			snprintf(line, sizeof(line), "kfootprint: %s: see 'kfootprint %s --help'\n", want[b], c->name);
			assert_string_equal(msg, line);
		}
	}
}

static int update_man(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *text;
	FILE *f;

	if (strbuf_read_file(&sb, path) < 0) {
		perror(path);
		return 1;
	}
	text = regenerate(sb.buf);
	if (!text) {
		fprintf(stderr, "%s: a command's option markers are missing\n", path);
		return 1;
	}
	if (strcmp(text, sb.buf)) {
		f = fopen(path, "w");
		if (!f || fputs(text, f) < 0 || fclose(f)) {
			perror(path);
			return 1;
		}
		printf("%s: option lists updated\n", path);
	}
	free(text);
	strbuf_release(&sb);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_man_page_holds_the_tables), cmocka_unit_test(test_help_holds_the_tables),
	    cmocka_unit_test(test_doc_holds_the_tables),      cmocka_unit_test(test_parser_takes_the_tables),
	    cmocka_unit_test(test_unknown_options),
	};

	if (argc == 3 && !strcmp(argv[1], "--update-man"))
		return update_man(argv[2]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
