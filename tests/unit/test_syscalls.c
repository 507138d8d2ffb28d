// SPDX-License-Identifier: GPL-2.0
/*
 * The generated syscall tables against a second source: the host's own <asm/unistd_*.h> (and, for aarch64,
 * <asm-generic/unistd.h>), read through the C preprocessor when the test runs, like strace's ksysent test.
 * The host headers are older than the tables' newest rows (6.1 vs 6.18), so rows the headers do not know
 * are skipped by name and counted; every __NR_ the headers do know must have its row.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <linux/audit.h>

#include "abi/syscalls.h"
#include "bpf/kfrec.h"

#define MAX_DEFS 2048

struct def {
	char name[64];
	char expr[128];
};

struct defs {
	struct def d[MAX_DEFS];
	int n;
};

/* Runs the preprocessor on `src` (C text) and keeps every "#define NAME VALUE" of an object-like macro. */
static int read_defines(const char *src, struct defs *out)
{
	const char *cc = getenv("CC");
	char cmd[1024], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "printf '%s' | %s -E -dM -x c - 2>/dev/null", src, cc && *cc ? cc : "cc");
	p = popen(cmd, "r");
	if (!p)
		return -1;
	out->n = 0;
	while (fgets(line, sizeof(line), p)) {
		char name[64], expr[128];

		if (sscanf(line, "#define %63[A-Za-z0-9_] %127[^\n]", name, expr) != 2 || out->n == MAX_DEFS)
			continue;
		snprintf(out->d[out->n].name, sizeof(out->d[0].name), "%s", name);
		snprintf(out->d[out->n].expr, sizeof(out->d[0].expr), "%s", expr);
		out->n++;
	}
	return pclose(p) == 0 && out->n > 0 ? 0 : -1;
}

static const struct def *find_def(const struct defs *d, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (!strcmp(d->d[i].name, name))
			return &d->d[i];
	return NULL;
}

/* Evaluates the shapes the uapi headers use: "N", "NAME", "(NAME + N)". -1 when it is anything else. */
static long eval_def(const struct defs *d, const char *name, int depth)
{
	const struct def *def = find_def(d, name);
	const char *s;
	long sum = 0;

	if (!def || depth > 8)
		return -1;
	for (s = def->expr; *s;) {
		char tok[64];
		int len = 0;

		if (*s == ' ' || *s == '(' || *s == ')' || *s == '+') {
			s++;
			continue;
		}
		while (s[len] && !strchr(" ()+", s[len]) && len < 63)
			len++;
		memcpy(tok, s, len);
		tok[len] = '\0';
		s += len;
		if (tok[0] >= '0' && tok[0] <= '9') {
			char *end;
			long v = strtol(tok, &end, 0);

			if (*end && strspn(end, "uUlL") != strlen(end))
				return -1;
			sum += v;
		} else {
			long v = eval_def(d, tok, depth + 1);

			if (v < 0)
				return -1;
			sum += v;
		}
	}
	return sum;
}

static long host_nr(const struct defs *d, const char *name)
{
	char mac[96];

	snprintf(mac, sizeof(mac), "__NR_%s", name);
	return eval_def(d, mac, 0);
}

/*
 * Every row of `abi` named in the host header must have the header's number (minus `bit`, the x32 flag);
 * every __NR_ of the header with a plain number must have a row. Returns how many rows were compared.
 */
static int check_against(enum kf_abi abi, const char *src, long bit, int reverse)
{
	static struct defs d;
	int matched = 0, skipped = 0;

	if (read_defines(src, &d) < 0)
		fail_msg("cannot preprocess host header for %s (is cc installed?)", kf_abi_name(abi));
	for (size_t i = 0; i < kf_syscall_count(abi); i++) {
		const struct kf_syscall *row = kf_syscall_at(abi, i);
		long v = host_nr(&d, row->name);

		if (v < 0) {
			skipped++;
			continue;
		}
		if ((v & ~bit) != row->nr || (bit && !(v & bit)))
			fail_msg("%s %s: table says %d, host header says %ld", kf_abi_name(abi), row->name, row->nr,
				 v & ~bit);
		matched++;
	}
	for (int i = 0; reverse && i < d.n; i++) {
		const char *name = d.d[i].name;

		if (strncmp(name, "__NR_", 5) || !strcmp(name, "__NR_syscalls") || eval_def(&d, name, 0) < 0)
			continue;
		if (!kf_syscall_by_name(abi, name + 5))
			fail_msg("%s: host header has %s, the table has no row", kf_abi_name(abi), name);
	}
	print_message("# %s: %d rows equal to the host header, %d newer rows skipped\n", kf_abi_name(abi), matched,
		      skipped);
	return matched;
}

static void test_x86_64_vs_host(void **state)
{
	assert_true(check_against(KF_ABI_X86_64, "#include <asm/unistd_64.h>\\n", 0, 1) > 300);
}

static void test_i386_vs_host(void **state)
{
	assert_true(check_against(KF_ABI_I386, "#include <asm/unistd_32.h>\\n", 0, 1) > 380);
}

static void test_x32_vs_host(void **state)
{
	/* <asm/unistd.h> picks unistd_x32.h for __ILP32__ and defines __X32_SYSCALL_BIT, the flag in each number. */
	assert_true(check_against(KF_ABI_X32, "#define __ILP32__ 1\\n#include <asm/unistd.h>\\n", 0x40000000L, 1) >
		    300);
}

static void test_aarch64_vs_generic(void **state)
{
	/* As arch/arm64/include/uapi/asm/unistd.h sets them; __BITS_PER_LONG is 64 on this x86_64 host too. */
	const char *src = "#define __ARCH_WANT_RENAMEAT\\n#define __ARCH_WANT_NEW_STAT\\n"
			  "#define __ARCH_WANT_SET_GET_RLIMIT\\n#define __ARCH_WANT_TIME32_SYSCALLS\\n"
			  "#define __ARCH_WANT_SYS_CLONE3\\n#define __ARCH_WANT_MEMFD_SECRET\\n"
			  "#include <asm-generic/unistd.h>\\n";

	/* No reverse check: the generic header also names numbers without a table entry (arch_specific_syscall). */
	assert_true(check_against(KF_ABI_AARCH64, src, 0, 0) > 280);
}

static void test_aarch64_spot(void **state)
{
	static const struct {
		const char *name;
		int nr;
	} spot[] = {{"openat", 56}, {"clone3", 435}, {"execve", 221}, {"fstat", 80}, {"mmap", 222}, {"cachestat", 451}};

	for (size_t i = 0; i < sizeof(spot) / sizeof(spot[0]); i++) {
		const struct kf_syscall *row = kf_syscall_by_name(KF_ABI_AARCH64, spot[i].name);

		assert_non_null(row);
		assert_int_equal(row->nr, spot[i].nr);
	}
	/* The generic table has no open, fork or stat: those are x86 history. */
	assert_null(kf_syscall_by_name(KF_ABI_AARCH64, "open"));
	assert_null(kf_syscall_by_name(KF_ABI_AARCH64, "fork"));
	assert_string_equal(kf_syscall_by_name(KF_ABI_AARCH64, "fstat")->entry, "sys_newfstat");
}

static void test_round_trip(void **state)
{
	for (int abi = 0; abi < KF_ABI_NR; abi++) {
		size_t n = kf_syscall_count(abi);
		int prev = -1;

		assert_true(n > 250);
		for (size_t i = 0; i < n; i++) {
			const struct kf_syscall *row = kf_syscall_at(abi, i);
			char buf[32];

			assert_int_equal(row->abi, abi);
			assert_true(row->nr > prev);
			prev = row->nr;
			assert_ptr_equal(kf_syscall_by_nr(abi, row->nr), row);
			assert_ptr_equal(kf_syscall_by_name(abi, row->name), row);
			assert_string_equal(kf_syscall_name(abi, row->nr, buf, sizeof(buf)), row->name);
			assert_true(row->klass < KF_CLASS_NR);
		}
		assert_int_equal(kf_syscall_max_nr(abi), prev);
		assert_null(kf_syscall_at(abi, n));
	}
	char buf[32];

	assert_null(kf_syscall_by_nr(KF_ABI_X86_64, 400));
	assert_null(kf_syscall_by_nr(KF_ABI_X86_64, -1));
	assert_string_equal(kf_syscall_name(KF_ABI_X86_64, 400, buf, sizeof(buf)), "syscall_400");
	assert_null(kf_syscall_by_name(KF_ABI_X86_64, "no_such_call"));
	assert_null(kf_syscall_by_nr(KF_ABI_NR, 0));
}

/* Rows newer than the 6.1 tree, probed from 6.18: one number on every ABI, x86-only calls on x86_64 only. */
static void test_newer_rows(void **state)
{
	static const char *const everywhere[] = {
	    "cachestat",      "fchmodat2",    "futex_wake",	   "futex_wait",	"futex_requeue",
	    "statmount",      "listmount",    "lsm_get_self_attr", "lsm_set_self_attr", "lsm_list_modules",
	    "mseal",	      "setxattrat",   "getxattrat",	   "listxattrat",	"removexattrat",
	    "open_tree_attr", "file_getattr", "file_setattr"};
	const struct kf_syscall *x = kf_syscall_by_name(KF_ABI_X86_64, "cachestat");

	assert_non_null(x);
	assert_int_equal(x->nr, 451);
	for (size_t i = 0; i < sizeof(everywhere) / sizeof(everywhere[0]); i++) {
		const struct kf_syscall *r64 = kf_syscall_by_name(KF_ABI_X86_64, everywhere[i]);

		assert_non_null(r64);
		assert_true(r64->nr > 450);
		for (int abi = 0; abi < KF_ABI_NR; abi++) {
			const struct kf_syscall *r = kf_syscall_by_name(abi, everywhere[i]);

			if (!r) {
				fail_msg("%s missing from %s", everywhere[i], kf_abi_name(abi));
			} else {
				assert_int_equal(r->nr, r64->nr);
				assert_int_not_equal(r->klass, KF_CLASS_NONE);
			}
		}
	}
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "uretprobe")->nr, 335);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "uretprobe")->klass, KF_CLASS_TRACE);
	assert_null(kf_syscall_by_name(KF_ABI_I386, "uretprobe"));
	assert_null(kf_syscall_by_name(KF_ABI_AARCH64, "uprobe"));
	/* i386 335 stays what it always was. */
	assert_string_equal(kf_syscall_by_nr(KF_ABI_I386, 335)->name, "rt_tgsigqueueinfo");
}

static int not_implemented(const struct kf_syscall *row)
{
	/* lookup_dcookie: still a table row, but 6.1 has no definition left (always ENOSYS). */
	return !row->entry || !strcmp(row->entry, "sys_ni_syscall") || !strcmp(row->name, "lookup_dcookie");
}

static void test_classes(void **state)
{
	static const char *const none[] = {"afs_syscall",  "tuxcall",	"security",	 "vserver",
					   "getpmsg",	   "putpmsg",	"create_module", "get_kernel_syms",
					   "query_module", "nfsservctl"};
	const enum kf_abi abis[] = {KF_ABI_X86_64, KF_ABI_I386, KF_ABI_X32, KF_ABI_AARCH64};

	for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]); a++) {
		for (size_t i = 0; i < kf_syscall_count(abis[a]); i++) {
			const struct kf_syscall *row = kf_syscall_at(abis[a], i);

			if ((row->klass == KF_CLASS_NONE) != not_implemented(row))
				fail_msg("%s %s (%s): class %s", kf_abi_name(abis[a]), row->name,
					 row->entry ? row->entry : "no entry", kf_class_name(row->klass));
		}
	}
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		const struct kf_syscall *r = kf_syscall_by_name(KF_ABI_X86_64, none[i]);

		if (!r)
			r = kf_syscall_by_name(KF_ABI_I386, none[i]);
		assert_non_null(r);
		assert_int_equal(r->klass, KF_CLASS_NONE);
	}
	/* The seed called wait4 "Time"; it lives in kernel/exit.c. */
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "wait4")->klass, KF_CLASS_PROCESS);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "waitid")->klass, KF_CLASS_PROCESS);
	/* uselib: fs/exec.c (CONFIG_USELIB) for i386; syscall_64.tbl gives it no entry point. */
	assert_int_equal(kf_syscall_by_name(KF_ABI_I386, "uselib")->klass, KF_CLASS_FS);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "uselib")->klass, KF_CLASS_NONE);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "mmap")->klass, KF_CLASS_MM);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "sethostname")->klass, KF_CLASS_SYSTEM);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "umask")->klass, KF_CLASS_FS);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "getrlimit")->klass, KF_CLASS_PROCESS);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "gettimeofday")->klass, KF_CLASS_TIME);
	assert_int_equal(kf_syscall_by_name(KF_ABI_X86_64, "io_uring_enter")->klass, KF_CLASS_ASYNCIO);
	assert_int_equal(kf_syscall_by_name(KF_ABI_I386, "socketcall")->klass, KF_CLASS_NET);
	assert_int_equal(kf_syscall_by_name(KF_ABI_I386, "truncate64")->klass, KF_CLASS_FS);
	/* A name has one class whatever the ABI. */
	for (size_t i = 0; i < kf_syscall_count(KF_ABI_I386); i++) {
		const struct kf_syscall *r32 = kf_syscall_at(KF_ABI_I386, i);
		const struct kf_syscall *r64 = kf_syscall_by_name(KF_ABI_X86_64, r32->name);

		if (r64 && r32->klass != KF_CLASS_NONE && r64->klass != KF_CLASS_NONE)
			assert_int_equal(r32->klass, r64->klass);
	}
}

static void test_parse(void **state)
{
	for (int i = 0; i < KF_ABI_NR; i++) {
		enum kf_abi abi = KF_ABI_NR;

		assert_int_equal(kf_abi_parse(kf_abi_name(i), &abi), 0);
		assert_int_equal(abi, i);
	}
	for (int i = 0; i < KF_CLASS_NR; i++) {
		enum kf_class k = KF_CLASS_NR;

		assert_int_equal(kf_class_parse(kf_class_name(i), &k), 0);
		assert_int_equal(k, i);
	}
	enum kf_abi abi;
	enum kf_class k;

	assert_int_equal(kf_abi_parse("sparc", &abi), -1);
	assert_int_equal(kf_class_parse("unknown", &k), -1);
	assert_string_equal(kf_abi_name(KF_ABI_NR), "unknown");
	assert_string_equal(kf_class_name(KF_CLASS_NR), "unknown");
#if defined(__x86_64__) && !defined(__ILP32__)
	assert_int_equal(kf_abi_host(), KF_ABI_X86_64);
#endif
}

/* Every ABI has one complete descriptor, and the calls a tracer sees are named from it. */
static void test_descriptors(void **state)
{
	uint64_t nr;

	(void)state;
	for (int i = 0; i < KF_ABI_NR; i++) {
		const struct kf_abi_desc *d = kf_abi_get((enum kf_abi)i);

		assert_non_null(d);
		assert_int_equal(d->id, i);
		assert_true(d->bits == 32 || d->bits == 64);
		assert_non_null(d->table);
		assert_true(kf_syscall_count((enum kf_abi)i) > 300);
		assert_true(d->audit_arch != 0);
		assert_non_null(d->strace_mode);
		assert_non_null(d->tree_arch);
		assert_non_null(d->tree_on);
		/* the bpf side's per-ABI arrays are indexed by the ABI's number */
		if (d->bpf)
			assert_true(i < KF_BPF_NABI);
		/* a table in the tree names the rows that are the ABI's */
		if (d->tree_table)
			assert_non_null(d->tree_rows);
		/* ABIs sharing an audit arch are told apart by a bit in the number */
		for (int j = 0; j < i; j++)
			if (kf_abi_get((enum kf_abi)j)->audit_arch == d->audit_arch)
				assert_true(d->nr_flag || kf_abi_get((enum kf_abi)j)->nr_flag);
	}
	assert_null(kf_abi_get(KF_ABI_NR));
	nr = 1;
	assert_int_equal(kf_abi_of_call(AUDIT_ARCH_X86_64, &nr), KF_ABI_X86_64);
	assert_int_equal(nr, 1);
	nr = 0x40000000 | 1;
	assert_int_equal(kf_abi_of_call(AUDIT_ARCH_X86_64, &nr), KF_ABI_X32);
	assert_int_equal(nr, 1);
	nr = 5;
	assert_int_equal(kf_abi_of_call(AUDIT_ARCH_I386, &nr), KF_ABI_I386);
	assert_int_equal(kf_abi_of_call(AUDIT_ARCH_AARCH64, &nr), KF_ABI_AARCH64);
	assert_int_equal(kf_abi_of_call(AUDIT_ARCH_PPC64LE, &nr), -1);
	assert_int_equal(kf_abi_get(kf_abi_of_call(AUDIT_ARCH_I386, &nr))->bits, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_x86_64_vs_host), cmocka_unit_test(test_i386_vs_host),
	    cmocka_unit_test(test_x32_vs_host),	   cmocka_unit_test(test_aarch64_vs_generic),
	    cmocka_unit_test(test_aarch64_spot),   cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_newer_rows),	   cmocka_unit_test(test_classes),
	    cmocka_unit_test(test_parse),	   cmocka_unit_test(test_descriptors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
