// SPDX-License-Identifier: GPL-2.0
/* What each call reached: the model's bound, JSON round-trip, merge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "abi/reach.h"
#include "fp_load.h"
#include "fp_sample.h"
#include "footprint/footprint_json.h"
#include "footprint/merge.h"
#include "report/report.h"

static char *to_json(const struct footprint *fp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(fp__write_json(fp, f), 0);
	fclose(f);
	return buf;
}

static int nr(const char *name)
{
	return sample_nr(KF_ABI_X86_64, name);
}

/* The sample with refinements: wc reads a pipe and a file, sh clones into two namespaces, ls ioctls a tty. */
static struct footprint *reach_fp(void)
{
	struct footprint *fp = sample_fp();
	struct fp_proc *sh = fp->procs[0], *ls = fp->procs[1], *wc = fp->procs[2];

	fp__reach(fp, wc, KF_ABI_X86_64, nr("read"), "fd", "pipe", NULL, 0, 10);
	fp__reach(fp, wc, KF_ABI_X86_64, nr("read"), "fd", "file:ext4", NULL, 0, 2);
	fp__reach(fp, sh, KF_ABI_X86_64, nr("clone"), "ns", "CLONE_NEWNS", NULL, 0, 1);
	fp__reach(fp, sh, KF_ABI_X86_64, nr("clone"), "ns", "CLONE_NEWPID", NULL, 0, 1);
	fp__account(fp, ls, KF_ABI_X86_64, nr("ioctl"), ENOTTY, 3, MS(1));
	fp__reach(fp, ls, KF_ABI_X86_64, nr("ioctl"), "ioctl", "TCGETS", "chr:136:0", 0, 0);
	fp__reach(fp, ls, KF_ABI_X86_64, nr("ioctl"), "ioctl", "TCGETS", "pipe", ENOTTY, 3);
	return fp;
}

static void test_reach_model(void **state)
{
	struct footprint *fp = reach_fp();
	struct fp_sysstat *rd = fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, nr("read"));
	struct fp_sysstat *io = fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, nr("ioctl"));
	struct fp_reach **v;

	assert_true(fp->reach);
	assert_int_equal(rd->nreach, 2);
	v = fp_sysstat_reach_sorted(rd);
	assert_string_equal(v[0]->value, "pipe");
	assert_int_equal(v[0]->calls, 10);
	assert_string_equal(v[1]->value, "file:ext4");
	assert_null(v[2]);
	free(v);
	/* n == 0 adds nothing; the same (kind, value) on another fd kind is another refinement */
	assert_int_equal(io->nreach, 1);
	assert_string_equal(io->reach[0].fd, "pipe");
	assert_int_equal(io->reach[0].errors, 3);
	/* per process too */
	assert_int_equal(fp_sctab_find(&fp->procs[2]->syscalls, KF_ABI_X86_64, nr("read"))->nreach, 2);
	assert_null(fp_sctab_find(&fp->procs[1]->syscalls, KF_ABI_X86_64, nr("read")));
	/* interned: one copy of each string */
	assert_ptr_equal(rd->reach[0].kind,
			 fp_sctab_find(&fp->procs[2]->syscalls, KF_ABI_X86_64, nr("read"))->reach[0].kind);
	fp__free(fp);
}

/* Past FP_REACH_MAX the first in byte order are kept, whatever order they came in; the rest are counted. */
static void test_reach_bound(void **state)
{
	struct footprint *a = sample_fp(), *b = sample_fp();
	char value[32];

	for (int i = 0; i < 2 * FP_REACH_MAX; i++) {
		snprintf(value, sizeof(value), "chr:1:%03d", i);
		fp__reach(a, NULL, KF_ABI_X86_64, nr("read"), "fd", value, NULL, 0, (uint64_t)i + 1);
		snprintf(value, sizeof(value), "chr:1:%03d", 2 * FP_REACH_MAX - 1 - i);
		fp__reach(b, NULL, KF_ABI_X86_64, nr("read"), "fd", value, NULL, 0, (uint64_t)(2 * FP_REACH_MAX - i));
	}
	for (int i = 0; i < 3; i++)
		fp__reach(b, NULL, KF_ABI_X86_64, nr("read"), "fd", "chr:1:127", NULL, 0, 1);
	fp__reach(a, NULL, KF_ABI_X86_64, nr("read"), "fd", "chr:1:127", NULL, 0, 3);

	struct fp_sysstat *ra = fp_sctab_find(&a->syscalls, KF_ABI_X86_64, nr("read"));
	struct fp_sysstat *rb = fp_sctab_find(&b->syscalls, KF_ABI_X86_64, nr("read"));
	uint64_t sum = 0;

	assert_int_equal(ra->nreach, FP_REACH_MAX);
	assert_int_equal(rb->nreach, FP_REACH_MAX);
	for (uint32_t i = 0; i < ra->nreach; i++) {
		struct fp_reach *r = fp_sysstat_find_reach(rb, "fd", ra->reach[i].value, NULL);

		assert_non_null(r);
		assert_int_equal(r->calls, ra->reach[i].calls);
		assert_true(strcmp(ra->reach[i].value, "chr:1:064") < 0);
		sum += r->calls;
	}
	assert_int_equal(ra->reach_other, rb->reach_other);
	/* every call is either kept or counted: 1 + ... + 128, and 3 more */
	assert_int_equal(sum + ra->reach_other, 128 * 129 / 2 + 3);
	char *ja = to_json(a), *jb = to_json(b);

	assert_non_null(strstr(ja, "\"reached_other\": "));
	fp__free(a);
	fp__free(b);
	free(ja);
	free(jb);
}

static void test_reach_json_round_trip(void **state)
{
	struct footprint *fp = reach_fp(), *back;
	char *a = to_json(fp), *b, *msg = NULL;

	assert_non_null(strstr(a, "\"reached\": true,\n"));
	/* a row is one line, its refinements with it, most calls first */
	assert_non_null(strstr(a, "\"class\": \"Filesystem\", \"reached\": [{\"kind\": \"fd\", \"value\": \"pipe\", "
				  "\"calls\": 10, \"errors\": 0}, {\"kind\": \"fd\", \"value\": \"file:ext4\", "
				  "\"calls\": 2, \"errors\": 0}]},\n"));
	assert_non_null(strstr(a, "{\"kind\": \"ioctl\", \"value\": \"TCGETS\", \"fd\": \"pipe\", \"calls\": 3, "
				  "\"errors\": 3}"));
	/* per process: the syscall's inline object holds its list */
	assert_non_null(strstr(a, "\"read\": {\"calls\": 12, \"errors\": 0, \"time_s\": 0.024000000, \"reached\": "
				  "[{\"kind\": \"fd\", \"value\": \"pipe\", \"calls\": 10, \"errors\": 0}, {\"kind\": "
				  "\"fd\", \"value\": \"file:ext4\", \"calls\": 2, \"errors\": 0}]}"));
	back = load_capturing(a, "f.json", &msg);
	assert_non_null(back);
	free(msg);
	assert_true(back->reach);
	b = to_json(back);
	assert_string_equal(a, b);
	assert_int_equal(fp_sctab_find(&back->procs[0]->syscalls, KF_ABI_X86_64, nr("clone"))->nreach, 2);
	free(a);
	free(b);
	fp__free(back);
	fp__free(fp);
}

static void test_reach_json_errors(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3, \"reached\": [{\"kind\": \"fd\", \"calls\": 1}]}]}",
	     "kfootprint: 'f.json': syscalls[0].reached[0].value: missing\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3, \"reached\": [{\"kind\": \"fd\", \"value\": \"pipe\", \"calls\": 1, \"errors\": 2}]}]}",
	     "kfootprint: 'f.json': syscalls[0].reached[0].errors: 2 is out of range\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3, \"reached\": [{\"kind\": \"fd\", \"value\": \"pipe\", \"calls\": 1}, "
	     "{\"kind\": \"fd\", \"value\": \"pipe\", \"calls\": 1}]}]}",
	     "kfootprint: 'f.json': syscalls[0].reached[1]: fd 'pipe' given twice\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3, \"reached\": [{\"kind\": \"\", \"value\": \"pipe\", \"calls\": 1}]}]}",
	     "kfootprint: 'f.json': syscalls[0].reached[0].kind: empty\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"syscalls\": {\"read\": {\"calls\": 1, "
	     "\"reached\": [{\"kind\": \"fd\", \"value\": \"pipe\"}]}}}]}",
	     "kfootprint: 'f.json': processes[0].syscalls.read.reached[0].calls: missing\n"},
	    {"{\"schema\": \"kfootprint/1\", \"reached\": 1}", "kfootprint: 'f.json': reached: expected boolean"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *msg;
		struct footprint *fp = load_capturing(cases[i].text, "f.json", &msg);

		if (fp)
			fail_msg("case %zu loaded: %s", i, cases[i].text);
		if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, msg);
		free(msg);
	}
}

/* Merged: workload-wide refinements add up (once per source), per-process ones come with their process. */
static void test_reach_merge(void **state)
{
	struct footprint *a = reach_fp(), *b = reach_fp(), *m = fp_merge_new(), *m2 = fp_merge_new();
	struct fp_sysstat *rd;
	char *ja, *jb;

	free(b->label);
	b->label = xstrdup("steady");
	fp__reach(b, b->procs[2], KF_ABI_X86_64, nr("read"), "fd", "socket:AF_UNIX:SOCK_STREAM:0", NULL, 0, 5);
	assert_int_equal(fp_merge_add(m, a), 1);
	assert_int_equal(fp_merge_add(m, b), 1);
	assert_int_equal(fp_merge_add(m, a), 0); /* again: nothing */
	fp_merge_finish(m, NULL);
	rd = fp_sctab_find(&m->syscalls, KF_ABI_X86_64, nr("read"));
	assert_true(m->reach);
	assert_int_equal(fp_sysstat_find_reach(rd, "fd", "pipe", NULL)->calls, 20);
	assert_int_equal(fp_sysstat_find_reach(rd, "fd", "socket:AF_UNIX:SOCK_STREAM:0", NULL)->calls, 5);
	assert_int_equal(fp_sctab_find(&m->procs[5]->syscalls, KF_ABI_X86_64, nr("read"))->nreach, 3);
	/* the other order gives the same bytes */
	fp_merge_add(m2, b);
	fp_merge_add(m2, a);
	fp_merge_finish(m2, NULL);
	ja = to_json(m);
	jb = to_json(m2);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	fp__free(m);
	fp__free(m2);
	fp__free(a);
	fp__free(b);
}

static const char *fmt(struct kf_fdraw r)
{
	static char buf[KF_REACH_VALUE_MAX];

	kf_fdraw_format(&r, buf, sizeof(buf));
	return buf;
}

/* The formatter: every fd kind, socket triples by family, names from the generated tables. */
static void test_reach_format(void **state)
{
	char buf[KF_REACH_VALUE_MAX];
	const char *ns[8];

	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFREG | 0644, .fstype = "ext4"}), "file:ext4");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFDIR | 0755, .fstype = "proc"}), "dir:proc");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFIFO | 0600, .fstype = "pipefs"}), "pipe");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFIFO | 0600, .fstype = "tmpfs"}), "fifo:tmpfs");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFLNK | 0777, .fstype = "ext4"}), "symlink:ext4");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFCHR | 0620, .maj = 136, .min = 3}), "chr:136:3");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFBLK | 0660, .maj = 7, .min = 0}), "blk:7:0");
	assert_string_equal(
	    fmt((struct kf_fdraw){.mode = 0600, .fstype = "anon_inodefs", .name = "[eventfd]", .anon = true}),
	    "anon:[eventfd]");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFREG | 0600, .fstype = "tmpfs", .name = "memfd:x"}),
			    "memfd");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFREG | 0600, .fstype = "ext4", .name = "memfd:x"}),
			    "file:ext4");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFREG | 0600, .fstype = "pidfs", .name = "pidfd"}),
			    "file:pidfs");
	assert_string_equal(fmt((struct kf_fdraw){.mode = 0700, .fstype = "pidfs", .name = "[pidfd]"}), "file:pidfs");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFREG}), "file:unknown");
	assert_string_equal(fmt((struct kf_fdraw){0}), "unknown");
	assert_string_equal(
	    fmt((struct kf_fdraw){.mode = S_IFSOCK | 0777, .family = AF_INET, .type = SOCK_STREAM, .protocol = 6}),
	    "socket:AF_INET:SOCK_STREAM:IPPROTO_TCP");
	assert_string_equal(fmt((struct kf_fdraw){.mode = S_IFSOCK, .family = AF_UNIX, .type = SOCK_DGRAM}),
			    "socket:AF_UNIX:SOCK_DGRAM:0");
	kf_socket_format(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 17, buf, sizeof(buf));
	assert_string_equal(buf, "AF_INET6:SOCK_DGRAM:IPPROTO_UDP");
	kf_socket_format(AF_NETLINK, SOCK_RAW, 0, buf, sizeof(buf));
	assert_string_equal(buf, "AF_NETLINK:SOCK_RAW:NETLINK_ROUTE");
	kf_socket_format(AF_PACKET, SOCK_RAW, htons(3), buf, sizeof(buf));
	assert_string_equal(buf, "AF_PACKET:SOCK_RAW:ETH_P_ALL");
	kf_socket_format(AF_PACKET, SOCK_DGRAM, 0, buf, sizeof(buf));
	assert_string_equal(buf, "AF_PACKET:SOCK_DGRAM:0");
	kf_socket_format(200, 9, 300, buf, sizeof(buf));
	assert_string_equal(buf, "200:9:300");
	/* the tables, and each kind's form for a number they lack */
	assert_string_equal(kf_reach_name("ioctl", 0x5401, buf, sizeof(buf)), "TCGETS");
	assert_string_equal(kf_reach_name("ioctl", 0x541b, buf, sizeof(buf)), "FIONREAD");
	assert_string_equal(kf_reach_name("ioctl", 0x8912, buf, sizeof(buf)), "SIOCGIFCONF");
	assert_string_equal(kf_reach_name("ioctl", 0xae01, buf, sizeof(buf)), "KVM_CREATE_VM");
	assert_string_equal(kf_reach_name("ioctl", 0x4c05, buf, sizeof(buf)), "LOOP_GET_STATUS64");
	assert_string_equal(kf_reach_name("ioctl", 0xdead, buf, sizeof(buf)), "0x0000dead");
	assert_string_equal(kf_reach_name("prctl", 15, buf, sizeof(buf)), "PR_SET_NAME");
	assert_string_equal(kf_reach_name("prctl", 0x1234, buf, sizeof(buf)), "0x1234");
	assert_string_equal(kf_reach_name("arch_prctl", 0x1002, buf, sizeof(buf)), "ARCH_SET_FS");
	assert_string_equal(kf_reach_name("bpf_cmd", 5, buf, sizeof(buf)), "BPF_PROG_LOAD");
	assert_string_equal(kf_reach_name("bpf_prog", 5, buf, sizeof(buf)), "BPF_PROG_TYPE_TRACEPOINT");
	assert_string_equal(kf_reach_name("bpf_map", 1, buf, sizeof(buf)), "BPF_MAP_TYPE_HASH");
	assert_string_equal(kf_reach_name("perf_type", 2, buf, sizeof(buf)), "PERF_TYPE_TRACEPOINT");
	assert_string_equal(kf_reach_name("perf_type", 11, buf, sizeof(buf)), "pmu:11");
	assert_string_equal(kf_reach_name("keyctl", 11, buf, sizeof(buf)), "KEYCTL_READ");
	assert_string_equal(kf_reach_name("af", 1, buf, sizeof(buf)), "AF_UNIX");
	assert_int_equal(kf_reach_ns_flags(0x40000000 | 0x20000 | 0x11, ns, 8), 2);
	assert_string_equal(ns[0], "CLONE_NEWNS");
	assert_string_equal(ns[1], "CLONE_NEWNET");
}

static char *render(const struct renderer *r, const struct footprint *fp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(r->render(fp, f), 0);
	fclose(f);
	return buf;
}

/* The text report's section and the CSV column, exactly. */
static void test_reach_reports(void **state)
{
	struct footprint *fp = reach_fp();
	char *text, *csv;

	fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, nr("read"))->reach_other = 4;
	text = render(&renderer_text, fp);
	assert_non_null(strstr(text, "\nreached, by system call: calls of each fd kind, socket, ioctl command, ...\n"
				     "  read: 10 pipe, 2 file:ext4; 4 more, past the 64 kept\n"
				     "  ioctl: ioctl 3 TCGETS on pipe (3 failed)\n"
				     "  clone: ns 1 CLONE_NEWNS, 1 CLONE_NEWPID\n"));
	csv = render(&renderer_csv, fp);
	assert_non_null(strstr(csv, "abi,name,nr,calls,errors,time_s,class,reached\n"));
	assert_non_null(strstr(csv, ",read,0,12,0,0.024000000,Filesystem,fd:pipe=10;fd:file:ext4=2;other=4\n"));
	assert_non_null(strstr(csv, ",ioctl,16,3,3,0.001000000,unknown,ioctl:TCGETS@pipe=3\n"));
	assert_non_null(strstr(csv, ",wait4,61,3,1,0.300000000,Process Mgmt.,\n"));
	free(text);
	free(csv);
	/* without refinements, the reports are as before */
	fp->reach = false;
	csv = render(&renderer_csv, fp);
	assert_non_null(strstr(csv, "abi,name,nr,calls,errors,time_s,class\n"));
	free(csv);
	fp__free(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reach_format),      cmocka_unit_test(test_reach_model),
	    cmocka_unit_test(test_reach_bound),	      cmocka_unit_test(test_reach_json_round_trip),
	    cmocka_unit_test(test_reach_json_errors), cmocka_unit_test(test_reach_merge),
	    cmocka_unit_test(test_reach_reports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
