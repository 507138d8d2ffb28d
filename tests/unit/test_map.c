// SPDX-License-Identifier: GPL-2.0
/*
 * The map database format (parse, save, round trip, bad input), the mapping (probes, newer-than-tree rows,
 * the option roll-up, the version mismatch) and the four map renderers, on a small hand-written database.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kmap/kmap.h"
#include "kmap/mapdb.h"
#include "kernel/running.h"
#include "kmap/kneeds.h"
#include "report/map_report.h"
#include "util/json_reader.h"
#include "util/strbuf.h"

static const char db_text[] =
    "{\"schema\":\"kfootprint-mapdb/1\",\"tree\":\"6.1.192\",\"abi\":\"x86_64\",\"config\":\"test\",\n"
    "\"syscalls\": [\n"
    "{\"name\":\"eventfd2\",\"entry\":\"sys_eventfd2\",\"def\":\"eventfd2\",\"macro\":\"SYSCALL_DEFINE2\","
    "\"status\":\"resolved\",\"file\":\"fs/eventfd.c\",\"line\":435,\"object\":\"fs/eventfd.o\",\"makefile\":"
    "\"fs/Makefile\",\"makefile_line\":32,\"conds\":[{\"kind\":\"makefile-obj\",\"option\":\"EVENTFD\","
    "\"where\":\"fs/Makefile:32\",\"holds\":true}],\"options\":[\"EVENTFD\"],\"sections\":[[0,2],[1,-1]],"
    "\"optional\":true,\"complete\":true},\n"
    "{\"name\":\"kexec_load\",\"entry\":\"sys_kexec_load\",\"compat\":\"compat_sys_kexec_load\",\"def\":\"kexec_load\","
    "\"macro\":\"SYSCALL_DEFINE4\","
    "\"status\":\"resolved\",\"file\":\"kernel/kexec.c\",\"line\":242,\"object\":\"kernel/kexec.o\",\"makefile\":"
    "\"kernel/Makefile\",\"makefile_line\":70,\"conds\":[{\"kind\":\"makefile-obj\",\"option\":\"KEXEC\","
    "\"where\":\"kernel/Makefile:70\",\"holds\":true}],\"options\":[\"KEXEC\"],\"sections\":[[1,-1]],"
    "\"optional\":true,\"complete\":true},\n"
    "{\"name\":\"timer_create\",\"entry\":\"sys_timer_create\",\"def\":\"timer_create\",\"macro\":\"SYS_NI\","
    "\"status\":\"resolved\",\"file\":\"kernel/time/posix-stubs.c\",\"line\":30,\"object\":"
    "\"kernel/time/posix-stubs.o\",\"makefile\":\"kernel/time/Makefile\",\"makefile_line\":9,\"conds\":["
    "{\"kind\":\"makefile-if\",\"option\":\"POSIX_TIMERS\",\"negated\":true,\"expr\":\"ifeq "
    "($(CONFIG_POSIX_TIMERS),y)\","
    "\"where\":\"kernel/time/Makefile:6\",\"holds\":true},{\"kind\":\"source-if\",\"expr\":\"defined(CONFIG_A) || "
    "defined(CONFIG_B)\",\"symbols\":[\"A\",\"B\"],\"where\":\"kernel/time/posix-stubs.c:20\",\"holds\":true},"
    "{\"kind\":\"arch-want\",\"option\":\"__ARCH_WANT_X\",\"holds\":true}],\"sections\":[[1,-1]],\"complete\":true},\n"
    "{\"name\":\"lookup_dcookie\",\"entry\":\"sys_lookup_dcookie\",\"status\":\"no-definition\",\"complete\":false,"
    "\"unresolved\":\"no SYSCALL_DEFINE in this tree\"}\n"
    "],\n"
    "\"options\": [\n"
    "{\"name\":\"A\",\"value\":\"y\"},\n"
    "{\"name\":\"EVENTFD\",\"value\":\"y\",\"kconfig\":true,\"file\":\"init/Kconfig\",\"line\":1650,\"type\":\"bool\","
    "\"prompt\":\"Enable eventfd() system call\",\"prompt_if\":\"EXPERT\",\"defaults\":\"y\",\"help\":\"Enable the "
    "eventfd() system call.\"},\n"
    "{\"name\":\"KEXEC\",\"value\":\"y\",\"kconfig\":true,\"file\":\"arch/Kconfig\",\"line\":22,\"type\":\"bool\","
    "\"depends\":\"MMU && *weird|rst_\",\"selected_by\":[\"X86_64 if X\"]},\n"
    "{\"name\":\"POSIX_TIMERS\",\"kconfig\":true,\"file\":\"init/Kconfig\",\"line\":1500,\"type\":\"bool\"}\n"
    "],\n"
    "\"sections\": [\n"
    "{\"name\":\"FILESYSTEMS (VFS and infrastructure)\",\"status\":\"Maintained\",\"maintainers\":[\"A V <a@b>\"]},\n"
    "{\"name\":\"THE REST\",\"status\":\"Buried alive in reporters\"}\n"
    "]}\n";

static struct mapdb *load(void)
{
	char *err = NULL;
	struct mapdb *db = mapdb_parse(db_text, "test", &err);

	if (!db)
		fail_msg("%s", err);
	return db;
}

static char *save_to_string(const struct mapdb *db)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(mapdb_save(db, f), 0);
	fclose(f);
	return buf;
}

static void test_parse(void **state)
{
	struct mapdb *db = load();
	const struct kt_syscall *s;
	const struct mapdb_opt *o;

	(void)state;
	assert_string_equal(db->version, "6.1.192");
	assert_int_equal(db->ver, 6);
	assert_int_equal(db->patch, 1);
	assert_int_equal(db->abi, KF_ABI_X86_64);
	assert_int_equal(db->nsys, 4);
	s = mapdb_syscall(db, "eventfd2");
	assert_non_null(s);
	assert_string_equal(s->file, "fs/eventfd.c");
	assert_int_equal(s->line, 435);
	assert_int_equal(s->nsections, 2);
	assert_string_equal(s->sections[0].section->name, "FILESYSTEMS (VFS and infrastructure)");
	assert_int_equal(s->sections[1].depth, -1);
	assert_true(s->optional);
	assert_int_equal(mapdb_syscall(db, "lookup_dcookie")->status, KT_NO_DEFINITION);
	assert_null(mapdb_syscall(db, "cachestat"));
	assert_string_equal(mapdb_compat_entry(db, "kexec_load"), "compat_sys_kexec_load");
	assert_null(mapdb_compat_entry(db, "eventfd2"));
	o = mapdb_option(db, "EVENTFD");
	assert_non_null(o);
	assert_non_null(o->opt);
	assert_string_equal(o->opt->prompt_if, "EXPERT");
	assert_null(mapdb_option(db, "A")->opt);
	assert_null(mapdb_option(db, "NOPE"));
	assert_true(mapdb_max_nr(db) >= 290); /* eventfd2 is 290 in the x86_64 table */
	mapdb_free(db);
}

/* Saving and loading again gives the same text: the database diffs cleanly when regenerated. */
static void test_round_trip(void **state)
{
	struct mapdb *db = load(), *db2;
	char *a = save_to_string(db), *b, *err = NULL;

	(void)state;
	db2 = mapdb_parse(a, "saved", &err);
	assert_non_null(db2);
	b = save_to_string(db2);
	assert_string_equal(a, b);
	/* one record a line: 4 syscalls, 4 options, 2 sections; the head, 3 array openers, 3 closers */
	size_t lines = 0;
	for (const char *p = a; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 4 + 4 + 2 + 1 + 3 + 3);
	free(a);
	free(b);
	mapdb_free(db);
	mapdb_free(db2);
}

/* Any bytes in a tree's strings come back as they were: the writer's byte rule, undone by the loader. */
static void test_round_trip_bytes(void **state)
{
	static const char text[] =
	    "{\"schema\":\"kfootprint-mapdb/1\",\"tree\":\"6.1.192\",\"abi\":\"x86_64\",\"config\":\"t\","
	    "\"generated_by\":\"kfootprint " KF_VERSION " map --save-db\",\n"
	    "\"syscalls\": [\n"
	    "{\"name\":\"read\",\"entry\":\"sys_read\",\"status\":\"resolved\",\"file\":\"fs/caf\\\\xe9 \\\\\\\\ x.c\","
	    "\"sections\":[[0,-1]],\"complete\":true}\n"
	    "],\n\"options\": [\n],\n\"sections\": [\n"
	    "{\"name\":\"THE\\tREST \\\\\\\\x41\"}\n"
	    "]}\n";
	char *err = NULL, *again;
	struct mapdb *db = mapdb_parse(text, "bytes", &err);

	(void)state;
	if (!db)
		fail_msg("%s", err);
	assert_string_equal(mapdb_syscall(db, "read")->file, "fs/caf\xe9 \\ x.c");
	assert_string_equal(mapdb_syscall(db, "read")->sections[0].section->name, "THE\tREST \\x41");
	again = save_to_string(db);
	assert_string_equal(again, text);
	free(again);
	mapdb_free(db);
}

/*
 * Each problem has its message, the same whatever order the file gives the members in: the checks run once the
 * document is read (a syscall's sections come last in a saved file, its schema first).
 */
static void test_bad_db(void **state)
{
#define HEAD   "{\"schema\":\"kfootprint-mapdb/1\",\"abi\":\"x86_64\","
#define SYS(x) "\"syscalls\":[{\"name\":\"x\",\"status\":\"resolved\"" x "}]"
	static const struct {
		const char *text, *msg;
	} bad[] = {
	    {"", "not JSON: empty file"},
	    {"{", "not JSON: unexpected end of data at line 1, column 2"},
	    {"{\"schema\":\"kfootprint-mapdb/1\",}", "not JSON: unexpected character at line 1, column 32"},
	    {"[]", "schema is '', expected 'kfootprint-mapdb/1'"},
	    {"{\"schema\":\"other/1\"}", "schema is 'other/1', expected 'kfootprint-mapdb/1'"},
	    {"{\"schema\":7}", "schema is '', expected 'kfootprint-mapdb/1'"},
	    {"{\"schema\":\"kfootprint-mapdb/1\",\"abi\":\"vax\"}", "unknown abi"},
	    {HEAD "\"syscalls\":[]}", "no syscalls"},
	    {HEAD "\"syscalls\":[{\"name\":\"x\",\"status\":\"odd\"}]}",
	     "syscall record without a name or a known status"},
	    {HEAD "\"syscalls\":[\"x\"]}", "syscall record without a name or a known status"},
	    {HEAD SYS(",\"sections\":[[5,1]]") "}", "syscall 'x': section 5 out of range"},
	    {HEAD SYS(",\"conds\":[{\"kind\":\"nope\"}]") "}", "syscall 'x': unknown condition kind"},
	    /* the kind is checked before the sections, and a section's name before any syscall */
	    {HEAD SYS(",\"sections\":[[5,1]],\"conds\":[{\"kind\":\"nope\"}]") "}",
	     "syscall 'x': unknown condition kind"},
	    {HEAD SYS(",\"sections\":[[5,1]]") ",\"sections\":[{\"status\":\"S\"}]}", "section 0 without a name"},
	    {HEAD SYS("") ",\"reach\":[{\"name\":\"fs x\",\"status\":\"resolved\",\"sections\":[[1,0]]}],"
			  "\"sections\":[{\"name\":\"A\"}]}",
	     "reach syscall 'fs x': section 1 out of range"},
	    {HEAD SYS("") ",\"options\":[{\"name\":\"A\"},{\"value\":\"y\"}]}", "option 1 without a name"},
	    /* the schema is checked first wherever it is */
	    {"{\"syscalls\":[{\"name\":\"x\"}],\"schema\":\"kfootprint-mapdb/0\"}",
	     "schema is 'kfootprint-mapdb/0', expected 'kfootprint-mapdb/1'"},
	};
	static const char good[] =
	    HEAD SYS(",\"sections\":[[0,2]],\"future\":{\"a\":[1]}") ",\"sections\":[{\"name\":\"A\"}],"
								     "\"syscalls\":[{\"name\":\"y\",\"status\":"
								     "\"resolved\",\"sections\":[[0,-1]]}]}";
	struct mapdb *db;
	char *err = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		db = mapdb_parse(bad[i].text, "bad", &err);
		assert_null(db);
		assert_non_null(err);
		assert_string_equal(err, bad[i].msg);
		free(err);
	}
	/* members it does not know are read past; a repeated one replaces the one before, as a later key does */
	db = mapdb_parse(good, "good", &err);
	if (!db)
		fail_msg("%s", err);
	assert_int_equal(db->nsys, 1);
	assert_string_equal(db->sys[0]->name, "y");
	assert_string_equal(db->sys[0]->sections[0].section->name, "A");
	mapdb_free(db);
#undef HEAD
#undef SYS
}

/*
 * --db reads files users hand us: truncated and byte-flipped databases must load or be refused, never crash or
 * leak (the ASan/UBSan build runs this too). A fixed seed keeps failures reproducible.
 */
static void test_mutated_db(void **state)
{
	size_t len = strlen(db_text);
	char *buf = malloc(len + 1);
	unsigned seed = 12345;
	int loaded = 0;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		struct mapdb *db;
		char *err = NULL;

		memcpy(buf, db_text, len + 1);
		for (int k = 0; k < 1 + round % 4; k++) {
			size_t at = (size_t)rand_r(&seed) % len;

			buf[at] = (char)(" \"{}[],:0aZ\\"[rand_r(&seed) % 13]);
		}
		if (round % 7 == 0)
			buf[(size_t)rand_r(&seed) % len] = '\0';
		db = mapdb_parse(buf, "mutated", &err);
		if (db) {
			char *saved = save_to_string(db);

			loaded++;
			free(saved);
			mapdb_free(db);
		} else {
			assert_non_null(err);
			free(err);
		}
	}
	free(buf);
	assert_true(loaded > 0); /* some mutations land in strings and still load */
}

struct fixture {
	struct mapdb *db;
	struct kf_running run;
	struct fp_kernel_map *m;
	char cfg[32], ks[32];
};

static void write_file(char *tmpl, const char *text)
{
	int fd = mkstemp(tmpl);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct fixture *x = calloc(1, sizeof(*x));
	struct kmap_input in[] = {
	    {.name = "eventfd2", .abi = KF_ABI_X86_64, .nr = 290, .observed = true, .calls = 3},
	    /* every call failed with ENOSYS: a probe */
	    {.name = "kexec_load",
	     .abi = KF_ABI_X86_64,
	     .nr = 246,
	     .observed = true,
	     .calls = 2,
	     .errors = 2,
	     .enosys = 2},
	    {.name = "timer_create", .abi = KF_ABI_X86_64, .nr = 222, .observed = true, .calls = 1},
	    /* not in the tree's table */
	    {.name = "cachestat", .abi = KF_ABI_X86_64, .nr = 451, .observed = true, .calls = 1},
	};

	strcpy(x->cfg, "/tmp/kf-mapcfg.XXXXXX");
	strcpy(x->ks, "/tmp/kf-mapks.XXXXXX");
	write_file(x->cfg, "CONFIG_EVENTFD=y\n# CONFIG_KEXEC is not set\n");
	write_file(x->ks, "0 T __x64_sys_eventfd2\n0 W __x64_sys_kexec_load\n0 T __x64_sys_cachestat\n");
	x->db = load();
	kf_running__load(&x->run, x->cfg, x->ks);
	/* a release that cannot be 6.1's, whatever this machine runs */
	snprintf(x->run.release, sizeof(x->run.release), "9.9.9-test");
	x->run.version = x->run.patchlevel = 9;
	x->m = kmap_build(x->db, &x->run, in, sizeof(in) / sizeof(in[0]), "test footprint");
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *x = *state;

	kmap_free(x->m);
	mapdb_free(x->db);
	kf_running__release(&x->run);
	unlink(x->cfg);
	unlink(x->ks);
	free(x);
	return 0;
}

static const struct kmap_row *row(const struct fp_kernel_map *m, const char *name)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, name))
			return &m->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

static const struct kmap_opt *opt(const struct fp_kernel_map *m, const char *name)
{
	for (size_t i = 0; i < m->nopts; i++)
		if (!strcmp(m->opts[i].name, name))
			return &m->opts[i];
	return NULL;
}

static void test_mapping(void **state)
{
	struct fixture *x = *state;
	const struct fp_kernel_map *m = x->m;
	const struct kmap_row *r;
	const struct kmap_opt *o;

	assert_int_equal(m->nrows, 4);
	assert_string_equal(m->rows[0].name, "eventfd2"); /* by calls, descending */
	r = row(m, "eventfd2");
	assert_true(r->required);
	assert_false(r->probe);
	assert_int_equal(r->running, KF_RUN_BUILTIN);
	assert_int_equal(r->nopts, 1);
	assert_string_equal(r->opts[0], "EVENTFD");
	r = row(m, "kexec_load");
	assert_true(r->probe);
	assert_false(r->required);
	assert_int_equal(r->running, KF_RUN_STUB);
	r = row(m, "cachestat");
	assert_true(r->newer);
	assert_false(r->required);
	assert_null(r->ks);
	assert_int_equal(r->running, KF_RUN_BUILTIN);
	r = row(m, "timer_create");
	assert_int_equal(r->nopts, 2);
	assert_string_equal(r->opts[0], "!POSIX_TIMERS");
	assert_string_equal(r->opts[1], "defined(CONFIG_A) || defined(CONFIG_B)");
	assert_int_equal(r->running, KF_RUN_ABSENT);

	o = opt(m, "EVENTFD");
	assert_non_null(o);
	assert_int_equal(o->nneeded, 1);
	assert_string_equal(o->needed_by[0], "eventfd2");
	assert_string_equal(o->running, "y");
	o = opt(m, "KEXEC");
	assert_int_equal(o->nneeded, 0);
	assert_int_equal(o->nprobed, 1);
	assert_string_equal(o->running, "n");
	o = opt(m, "POSIX_TIMERS");
	assert_int_equal(o->noff, 1);
	assert_int_equal(o->nneeded, 0);
	assert_null(opt(m, "__ARCH_WANT_X"));
	assert_non_null(m->mismatch);
	assert_non_null(strstr(m->mismatch, "6.1.192"));
	assert_non_null(strstr(m->mismatch, "9.9.9-test"));
}

static char *render(const struct fp_kernel_map *m, const char *format)
{
	const struct map_renderer *r = map_renderer_find(format);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(r);
	f = open_memstream(&buf, &len);
	assert_int_equal(r->render(m, f), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_text(void **state)
{
	struct fixture *x = *state;
	char *t = render(x->m, "text");

	assert_int_equal(count(t, "version mismatch"), 1);
	assert_non_null(strstr(t, "newer than the source tree (6.1)"));
	assert_non_null(strstr(t, "fs/eventfd.c:435"));
	assert_non_null(strstr(t, "FILESYSTEMS (VFS and infrastructure)"));
	assert_non_null(strstr(t, "probe: every call failed with ENOSYS"));
	assert_non_null(strstr(t, "CONFIG_EVENTFD  running: y"));
	assert_null(map_renderer_find("html"));
	free(t);
}

/* A database with Kconfig facts: the fragment carries what EXT4_FS needs on allnoconfig, and the ABI's 64BIT. */
static const char closure_db[] =
    "{\"schema\":\"kfootprint-mapdb/1\",\"tree\":\"6.1.192\",\"abi\":\"x86_64\",\"config\":\"test\",\n"
    "\"syscalls\": [\n"
    "{\"name\":\"read\",\"status\":\"resolved\",\"file\":\"fs/read_write.c\",\"line\":1,\"conds\":[{\"kind\":"
    "\"makefile-obj\",\"option\":\"EXT4_FS\",\"holds\":true}],\"options\":[\"EXT4_FS\"],\"complete\":true},\n"
    "{\"name\":\"write\",\"status\":\"resolved\",\"file\":\"fs/read_write.c\",\"line\":2,\"conds\":[{\"kind\":"
    "\"makefile-obj\",\"option\":\"ORPHAN\",\"holds\":true}],\"options\":[\"ORPHAN\"],\"complete\":true}\n"
    "],\n"
    "\"options\": [\n"
    "{\"name\":\"EXT4_FS\",\"kconfig\":true,\"file\":\"fs/ext4/Kconfig\",\"line\":1,\"type\":\"tristate\","
    "\"prompt\":\"ext4\",\"depends\":\"BLOCK\"},\n"
    "{\"name\":\"ORPHAN\",\"kconfig\":true,\"file\":\"x/Kconfig\",\"line\":1,\"type\":\"bool\","
    "\"prompt\":\"orphan\",\"depends\":\"S390\"}\n"
    "],\n"
    "\"sections\": [\n],\n"
    "\"kconfig\": [\n"
    "{\"name\":\"64BIT\",\"type\":\"bool\",\"prompt\":true,\"prompt_if\":\"\\\"$(ARCH)\\\" = \\\"x86\\\"\","
    "\"defaults\":[\"\\\"$(ARCH)\\\" != \\\"i386\\\"\"]},\n"
    "{\"name\":\"BLOCK\",\"type\":\"bool\",\"prompt\":true},\n"
    "{\"name\":\"EXT4_FS\",\"type\":\"tristate\",\"prompt\":true,\"depends\":\"BLOCK\"},\n"
    "{\"name\":\"MMU\",\"type\":\"bool\",\"defaults\":[\"y\"]},\n"
    "{\"name\":\"ORPHAN\",\"type\":\"bool\",\"prompt\":true,\"depends\":\"S390\"},\n"
    "{\"name\":\"X86\",\"type\":\"bool\",\"defaults\":[\"y\"]},\n"
    "{\"name\":\"X86_64\",\"type\":\"bool\",\"depends\":\"64BIT\",\"defaults\":[\"y\"]}\n"
    "]}\n";

static void test_kconfig_closure(void **state)
{
	char *err = NULL;
	struct mapdb *db = mapdb_parse(closure_db, "test", &err);
	struct kmap_input in[] = {{.name = "read", .abi = KF_ABI_X86_64, .nr = 0, .observed = true, .calls = 1},
				  {.name = "write", .abi = KF_ABI_X86_64, .nr = 1, .observed = true, .calls = 1}};
	struct fp_kernel_map *m;
	const struct kneed *b;
	char *t;

	if (!db)
		fail_msg("%s", err);
	m = kmap_build(db, NULL, in, 2, "closure");
	b = kneeds_find(m->needs, "BLOCK");
	assert_non_null(b);
	assert_non_null(b->via);
	assert_string_equal(b->via->name, "EXT4_FS");
	assert_string_equal(b->how, "depends on");
	assert_int_equal(b->nneeded, 0);
	t = render(m, "kconfig");
	assert_non_null(strstr(t, "# closed over the database's Kconfig facts: 2 options brought in"));
	assert_non_null(strstr(t, "\n# EXT4_FS: needed by read\nCONFIG_EXT4_FS=y\n"));
	assert_non_null(strstr(t, "\n# BLOCK: for EXT4_FS (depends on BLOCK)\nCONFIG_BLOCK=y\n"));
	assert_non_null(strstr(t, "\n# 64BIT: for X86_64 (depends on 64BIT)\nCONFIG_64BIT=y\n"));
	/* S390 is no symbol of x86: ORPHAN cannot hold, and no line sets it */
	assert_non_null(strstr(t, "# ORPHAN: needed by write\n#   cannot hold on allnoconfig: "));
	assert_null(strstr(t, "\nCONFIG_ORPHAN=y"));
	free(t);
	kmap_free(m);
	mapdb_free(db);
}

static void test_kconfig(void **state)
{
	struct fixture *x = *state;
	char *t = render(x->m, "kconfig"), *save = NULL;
	size_t set = 0;

	for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		/* merge_config.sh reads "# CONFIG_X" as "is not set": never written */
		assert_true(strncmp(l, "# CONFIG_", 9) != 0);
		assert_true(l[0] == '#' || !strncmp(l, "CONFIG_", 7));
		if (l[0] != '#') {
			assert_string_equal(l, "CONFIG_EVENTFD=y");
			set++;
		}
	}
	assert_int_equal(set, 1);
	free(t);
	t = render(x->m, "kconfig");
	assert_non_null(strstr(t, "# EVENTFD: needed by eventfd2\nCONFIG_EVENTFD=y\n"));
	assert_non_null(strstr(t, "# KEXEC: only probes need it: kexec_load"));
	assert_non_null(strstr(t, "POSIX_TIMERS: off for the definition chosen for timer_create"));
	/* without CONFIG_: merge_config.sh would take the comment for a requested value */
	assert_non_null(strstr(t, "# timer_create also needs: defined(A) || defined(B)"));
	assert_non_null(strstr(t, "# not closed over Kconfig: the database was saved without Kconfig facts"));
	assert_non_null(strstr(t, "# cachestat: newer than the source tree (6.1), not required"));
	free(t);
}

/*
 * The document flattened by the project's reader, one "path=value" a line ("syscalls[0].kernel.file=fs/eventfd.c",
 * "configs#=3" for an array's length). -1 when it is not JSON.
 */
static int flatten(struct json_reader *jr, enum jr_event ev, struct strbuf *path, struct strbuf *out)
{
	size_t len = path->len, n = 0;

	switch (ev) {
	case JR_OBJECT:
		while ((ev = jr_next(jr)) == JR_KEY) {
			strbuf_addf(path, "%s%s", len ? "." : "", jr->text.buf);
			if (flatten(jr, jr_next(jr), path, out) < 0)
				return -1;
			path->buf[path->len = len] = '\0';
		}
		return ev == JR_OBJECT_END ? 0 : -1;
	case JR_ARRAY:
		while ((ev = jr_next(jr)) != JR_ARRAY_END) {
			strbuf_addf(path, "[%zu]", n++);
			if (flatten(jr, ev, path, out) < 0)
				return -1;
			path->buf[path->len = len] = '\0';
		}
		strbuf_addf(out, "%s#=%zu\n", path->buf, n);
		return 0;
	case JR_STRING:
	case JR_NUMBER: strbuf_addf(out, "%s=%s\n", path->buf, jr->text.buf); return 0;
	case JR_TRUE:
	case JR_FALSE:
	case JR_NULL:
		strbuf_addf(out, "%s=%s\n", path->buf, ev == JR_TRUE ? "true" : ev == JR_FALSE ? "false" : "null");
		return 0;
	default: return -1;
	}
}

static void test_json(void **state)
{
	struct fixture *x = *state;
	char *t = render(x->m, "json");
	struct json_reader jr;
	struct strbuf path = STRBUF_INIT, flat = STRBUF_INIT;

	strbuf_addch(&flat, '\n');
	jr_init_mem(&jr, t, strlen(t), 64);
	assert_int_equal(flatten(&jr, jr_next(&jr), &path, &flat), 0);
	assert_int_equal(jr_next(&jr), JR_EOF);
	assert_non_null(strstr(flat.buf, "\nschema=kfootprint-map/1\n"));
	assert_non_null(strstr(flat.buf, "\nsyscalls#=4\n"));
	assert_non_null(strstr(flat.buf, "\nsyscalls[0].kernel.file=fs/eventfd.c\n"));
	assert_non_null(strstr(flat.buf, "\nconfigs#=3\n")); /* EVENTFD, KEXEC, POSIX_TIMERS */
	assert_non_null(strstr(flat.buf, "\nrunning.mismatch"));
	assert_null(strstr(flat.buf, "\nrunning.mismatch=null\n"));
	jr_release(&jr);
	strbuf_release(&path);
	strbuf_release(&flat);
	free(t);
}

static void test_rst(void **state)
{
	struct fixture *x = *state;
	char *t = render(x->m, "rst");

	/* markup characters in Kconfig text are escaped outside literals */
	assert_non_null(strstr(t, "``MMU && *weird|rst_``"));
	assert_non_null(strstr(t, ".. list-table::"));
	assert_int_equal(count(t, ":Version mismatch:"), 1);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_round_trip_bytes),
	    cmocka_unit_test(test_bad_db),
	    cmocka_unit_test(test_mutated_db),
	    cmocka_unit_test_setup_teardown(test_mapping, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kconfig, setup, teardown),
	    cmocka_unit_test(test_kconfig_closure),
	    cmocka_unit_test_setup_teardown(test_json, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rst, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
