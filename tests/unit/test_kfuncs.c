// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions -> source: the definition scanner (kt_fdefs) on C text as the kernel writes it, and the map
 * (kfmap) over a saved database with duplicate static names resolved by a kallsyms order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "footprint/footprint.h"
#include "kmap/kfmap.h"
#include "ktree/kfdefs.h"

static const struct kt_fdef *one(const struct kt_fdefs *d, const char *name)
{
	const struct kt_fdef *f;
	size_t n = kt_fdefs_find(d, name, &f);

	return n == 1 ? f : NULL;
}

static void test_scanner(void **state)
{
	const char *paths[] = {"fs/a.c", "include/linux/b.h", "arch/x86/lib/c.S", "fs/d.c", "kernel/rcu/tree_plugin.h"};
	const char *texts[] = {
	    /* fs/a.c */
	    "// SPDX\n"
	    "static int plain(int a)\n" /* 2 */
	    "{\n"
	    "\treturn a;\n"
	    "}\n"
	    "int prototype(int a);\n"		     /* 6: a declaration */
	    "static void __init multi_line(int a,\n" /* 7 */
	    "\t\t\t       struct x *b)\n"
	    "{\n"
	    "}\n"
	    "unsigned long\n"
	    "type_above(void)\n" /* 12: the return type on the line above */
	    "{\n"
	    "}\n"
	    "static void locked(struct x *x) __acquires(x->lock)\n" /* 15: an annotation after the parameters */
	    "{\n"
	    "}\n"
	    "SYSCALL_DEFINE2(eventfd2, unsigned int, count, int, flags)\n" /* 18 */
	    "{\n"
	    "}\n"
	    "BPF_CALL_2(bpf_thing, int, a, int, b)\n" /* 21 */
	    "{\n"
	    "}\n"
	    "DEFINE_SHOW_ATTRIBUTE(stats);\n" /* 24: stats_open */
	    "UNKNOWN_MACRO(foo, bar)\n"	      /* 25: counted, not indexed */
	    "{\n"
	    "}\n"
	    "static const struct file_operations fops = {\n" /* 28: not a function */
	    "\t.open = stats_open,\n"
	    "};\n"
	    "static int (*fnptr)(int) = NULL;\n"  /* 31 */
	    "void with_comment(void) /* why */\n" /* 32 */
	    "{\n"
	    "}\n",
	    /* include/linux/b.h */
	    "static inline int header_inline(int a)\n" /* 1 */
	    "{\n"
	    "\treturn a;\n"
	    "}\n"
	    "int header_extern(int a);\n"
	    "static int header_not_inline(void)\n" /* 6: a header's non-inline is not indexed */
	    "{\n"
	    "}\n",
	    /* arch/x86/lib/c.S */
	    "SYM_FUNC_START(memcpy_asm)\n"
	    "\tret\n"
	    "SYM_FUNC_END(memcpy_asm)\n",
	    /* fs/d.c: a second definition of plain() */
	    "static int plain(void)\n"
	    "{\n"
	    "}\n",
	    /* a private header, #included by a .c next to it: ordinary definitions count */
	    "void rcu_note_context_switch(bool preempt)\n"
	    "{\n"
	    "}\n",
	};
	struct kt_fdefs *d = kt_fdefs_from_texts(paths, texts, 5);
	struct kt_fdefs_stats st;
	const struct kt_fdef *f, *v;
	char buf[64];

	(void)state;
	kt_fdefs_stats(d, &st);
	assert_null(one(d, "plain")); /* two files */
	assert_int_equal(kt_fdefs_find(d, "plain", &v), 2);
	assert_string_equal(v[0].file, "fs/a.c");
	assert_int_equal(v[0].line, 2);
	assert_string_equal(v[1].file, "fs/d.c");
	assert_int_equal(st.ambiguous, 1);
	assert_null(one(d, "prototype"));
	assert_non_null(f = one(d, "multi_line"));
	assert_int_equal(f->line, 7);
	assert_non_null(f = one(d, "type_above"));
	assert_int_equal(f->line, 12);
	assert_non_null(f = one(d, "locked"));
	assert_int_equal(f->line, 15);
	assert_non_null(f = one(d, "__x64_sys_eventfd2"));
	assert_int_equal(f->line, 18);
	assert_string_equal(f->via, "SYSCALL_DEFINE");
	assert_non_null(one(d, "__do_sys_eventfd2"));
	assert_non_null(one(d, "__se_sys_eventfd2"));
	assert_non_null(f = one(d, "bpf_thing"));
	assert_int_equal(f->line, 21);
	assert_non_null(one(d, "____bpf_thing"));
	assert_non_null(f = one(d, "stats_open"));
	assert_int_equal(f->line, 24);
	assert_null(one(d, "UNKNOWN_MACRO"));
	assert_int_equal(st.unparsed, 1);
	assert_non_null(strstr(st.unparsed_top, "UNKNOWN_MACRO 1"));
	assert_null(one(d, "fops"));
	assert_null(one(d, "fnptr"));
	assert_non_null(f = one(d, "with_comment"));
	assert_non_null(f = one(d, "header_inline"));
	assert_string_equal(f->file, "include/linux/b.h");
	assert_null(one(d, "header_extern"));
	assert_null(one(d, "header_not_inline"));
	assert_non_null(f = one(d, "rcu_note_context_switch"));
	assert_string_equal(f->file, "kernel/rcu/tree_plugin.h");
	assert_non_null(f = one(d, "memcpy_asm"));
	assert_string_equal(f->file, "arch/x86/lib/c.S");
	assert_string_equal(kt_fdefs_base("ksys_read.constprop.0", buf, sizeof(buf)), "ksys_read");
	assert_string_equal(kt_fdefs_base("foo.cold", buf, sizeof(buf)), "foo");
	assert_string_equal(kt_fdefs_base("plain", buf, sizeof(buf)), "plain");
	kt_fdefs_free(d);
}

/*
 * A saved database: dup_show in fs/dup_a.c and fs/dup_b.c, dup_open in both as well, alpha_* only in dup_a.c,
 * beta_* only in dup_b.c, and a header inline that neighbours must not be taken from.
 */
static const char db_text[] = "kfootprint-kfuncdb/1\t6.1.0\t\t0\t\n"
			      "O\tDUPA\tfs/Kconfig:1\tdup a\t\n"
			      "F\tfs/dup_a.c\tfs/dup_a.o\tfs/Makefile\t3\t\tDUPA\tFS\t1\t\n"
			      "F\tfs/dup_b.c\tfs/dup_b.o\tfs/Makefile\t4\t\tDUPB\tFS\t1\t\n"
			      "F\tinclude/linux/h.h\t\t\t0\t\t\tTHE REST\t1\ta header\n"
			      "D\talpha_one\t0\t10\n"
			      "D\talpha_two\t0\t20\n"
			      "D\tbeta_one\t1\t10\n"
			      "D\tbeta_two\t1\t20\n"
			      "D\tdup_open\t0\t30\n"
			      "D\tdup_open\t1\t30\n"
			      "D\tdup_show\t0\t15\n"
			      "D\tdup_show\t1\t15\n"
			      "D\thelper\t2\t3\n";

/* In address order: alpha_one, dup_show.isra.0, helper (a header's inline: no vote), alpha_two | beta_one ... */
static const char ksyms_text[] = "ffffffff81000000 T alpha_one\n"
				 "ffffffff81000010 t dup_show.isra.0\n"
				 "ffffffff81000020 t helper\n"
				 "ffffffff81000030 T alpha_two\n"
				 "ffffffff81000040 t dup_open\n"
				 "ffffffff81000050 T beta_one\n"
				 "ffffffff81000060 t dup_open\n"
				 "ffffffff81000070 T beta_two\n"
				 "ffffffff81000080 d some_data\n"
				 "ffffffff81000090 t mod_func\t[mod]\n";

static struct kfm_row *row(struct kfmap *m, const char *name)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (!strcmp(m->rows[i].name, name))
			return &m->rows[i];
	return NULL;
}

static void test_map_kallsyms(void **state)
{
	char *err = NULL, path[] = "/tmp/kf-test-ksyms-XXXXXX";
	struct kfdb *db = kfdb_parse(db_text, sizeof(db_text) - 1, "test", &err);
	struct footprint *fp = fp__new();
	struct kfmap_opts o = {0};
	struct kfmap *m;
	struct kfm_row *r;
	int fd = mkstemp(path);

	(void)state;
	assert_non_null(db);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, ksyms_text, sizeof(ksyms_text) - 1), (ssize_t)(sizeof(ksyms_text) - 1));
	close(fd);
	fp__kfuncs(fp, "function_graph", true);
	fp__kfunc_hit(fp, "dup_show.isra.0", "read", 2);
	fp__kfunc_hit(fp, "dup_open", NULL, 1);
	fp__kfunc_hit(fp, "alpha_one", NULL, 5);
	fp__kfunc_hit(fp, "nowhere", NULL, 1);

	/* without a symbol order: the duplicates stay ambiguous and are counted */
	o.no_running = true;
	m = kfmap_build(db, fp, &o, &err);
	assert_non_null(m);
	assert_int_equal(m->count[KFM_UNIQUE], 1);
	assert_int_equal(m->count[KFM_AMBIGUOUS], 2);
	assert_int_equal(m->count[KFM_UNKNOWN], 1);
	assert_int_equal(row(m, "dup_show.isra.0")->ncands, 2);
	kfmap_free(m);

	/* with it: dup_show sits among dup_a.c's functions; dup_open is built twice, so it stays ambiguous */
	o.kallsyms = path;
	m = kfmap_build(db, fp, &o, &err);
	assert_non_null(m);
	assert_string_equal(m->kallsyms, path);
	r = row(m, "dup_show.isra.0");
	assert_int_equal(r->how, KFM_KALLSYMS);
	assert_string_equal(db->files[r->file].path, "fs/dup_a.c");
	assert_int_equal(r->line, 15);
	r = row(m, "dup_open");
	assert_int_equal(r->how, KFM_AMBIGUOUS);
	assert_non_null(strstr(r->note, "more than once"));
	assert_int_equal(m->count[KFM_KALLSYMS], 1);
	assert_int_equal(m->count[KFM_AMBIGUOUS], 1);
	/* roll-ups: fs has alpha_one and dup_show (7 hits), DUPA both */
	assert_int_equal(m->ndirs, 1);
	assert_string_equal(m->dirs[0].key, "fs");
	assert_int_equal(m->dirs[0].funcs, 2);
	assert_int_equal(m->dirs[0].hits, 7);
	assert_int_equal(m->nopts, 1);
	assert_string_equal(m->opts[0].key, "DUPA");
	assert_string_equal(kfdb_option(db, "DUPA").where, "fs/Kconfig:1");
	kfmap_free(m);

	/* an unreadable --kallsyms is said, not fatal */
	o.kallsyms = "/nonexistent/kallsyms";
	m = kfmap_build(db, fp, &o, &err);
	assert_non_null(m);
	assert_null(m->kallsyms);
	assert_non_null(strstr(m->kallsyms_note, "/nonexistent/kallsyms"));
	kfmap_free(m);

	unlink(path);
	fp__free(fp);
	kfdb_free(db);
}

static void test_db_errors(void **state)
{
	static const char *const bad[] = {
	    "",
	    "something else\n",
	    "kfootprint-kfuncdb/1\t6.1\n"
	    "D\tx\t0\t1\n", /* a definition before its file */
	    "kfootprint-kfuncdb/1\t6.1\n"
	    "Q\tx\n",
	    "kfootprint-kfuncdb/1\t6.1\n"
	    "O\tB\n"
	    "O\tA\n", /* options out of order */
	};
	char *err = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kfdb *db = kfdb_parse(bad[i], strlen(bad[i]), "t", &err);
		assert_null(db);
		assert_non_null(err);
		free(err);
		err = NULL;
	}
	/* the built-in one loads and knows eventfd_write */
	struct kfdb *db = kfdb_builtin(&err);
	const struct kfdb_def *d;
	assert_non_null(db);
	assert_int_equal(kfdb_find(db, "eventfd_write", &d), 1);
	assert_string_equal(kfdb_file(db, d->file)->path, "fs/eventfd.c");
	assert_string_equal(kfdb_file(db, d->file)->opts[0], "EVENTFD");
	kfdb_free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scanner),
	    cmocka_unit_test(test_map_kallsyms),
	    cmocka_unit_test(test_db_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
