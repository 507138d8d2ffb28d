// SPDX-License-Identifier: GPL-2.0
/*
 * What refinements reach (issue 8, the map side): every registration pattern of tests/fixtures/reach-tree (one
 * file each), the reviewed table's rows, finding a refinement's target, the cache and the map database round
 * trip; the annotate stage on tests/fixtures/reach/footprint.json with the built-in database. With KF_KSRC set
 * (tests/integration/map_reach.sh sets it), the same questions on the real linux-source-6.1 tree.
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

#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "kmap/mapdb.h"
#include "ktree/ktree.h"

static char *path_of(const char *rel)
{
	const char *top = getenv("KF_TOP");
	char *p;

	if (asprintf(&p, "%s/%s", top ? top : ".", rel) < 0)
		abort();
	return p;
}

static struct kt_index *build(const char *dir, const struct kt_config *cfg, unsigned flags)
{
	char *err = NULL;
	struct kt_index *idx = kt_index_build(dir, KF_ABI_X86_64, cfg, flags, &err);

	if (!idx)
		fail_msg("index of %s: %s", dir, err);
	return idx;
}

static struct kt_index *fixture(const struct kt_config *cfg)
{
	char *dir = path_of("tests/fixtures/reach-tree");
	struct kt_index *idx = build(dir, cfg, KT_BUILD_NO_CACHE);

	free(dir);
	return idx;
}

static const struct kt_syscall *target(const struct kt_index *idx, const char *key)
{
	for (size_t i = 0; i < kt_index_nreach(idx); i++)
		if (!strcmp(kt_index_reach_at(idx, i)->name, key))
			return kt_index_reach_at(idx, i);
	return NULL;
}

static size_t count_prefix(const struct kt_index *idx, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < kt_index_nreach(idx); i++)
		n += !strncmp(kt_index_reach_at(idx, i)->name, prefix, strlen(prefix));
	return n;
}

static bool has_option(const struct kt_syscall *s, const char *o)
{
	for (size_t i = 0; i < s->noptions; i++)
		if (!strcmp(s->options[i], o))
			return true;
	return false;
}

/* The end of expect()'s options: a pointer, as a variadic argument must be. */
#define END ((const char *)NULL)

/* The target key, where it is registered, how, and the options on its path (END-terminated), all as expected. */
static void expect(const struct kt_index *idx, const char *key, const char *file, int line, const char *how,
		   enum kt_status st, ...)
{
	const struct kt_syscall *s = target(idx, key);
	va_list ap;
	size_t n = 0;

	if (!s)
		fail_msg("no target '%s'", key);
	assert_string_equal(s->file, file);
	assert_int_equal(s->line, line);
	if (how)
		assert_string_equal(s->macro, how);
	assert_int_equal(s->status, st);
	va_start(ap, st);
	for (const char *o; (o = va_arg(ap, const char *)); n++)
		if (!has_option(s, o))
			fail_msg("%s: option %s not on the path", key, o);
	va_end(ap);
	assert_int_equal(s->noptions, n);
}

static void test_registrations(void **state)
{
	struct kt_index *idx = fixture(NULL);

	(void)state;
	expect(idx, "fs pipefs", "fs/pipe.c", 9, "register_filesystem", KT_RESOLVED, END);
	assert_string_equal(target(idx, "fs pipefs")->def_name, "pipe_fs_type");
	assert_string_equal(target(idx, "fs pipefs")->object, "fs/pipe.o");
	assert_true(target(idx, "fs pipefs")->complete);
	expect(idx, "fs ext4", "fs/ext4/super.c", 24, "register_filesystem", KT_RESOLVED, "EXT4_FS", END);
	/* with no configuration every option with a prompt is on: EXT2_FS is, so ext4 does not register ext2 */
	assert_int_equal(target(idx, "fs ext2")->status, KT_NOT_BUILT);
	expect(idx, "fs tmpfs", "mm/shmem.c", 9, NULL, KT_RESOLVED, "SHMEM", END);
	assert_int_equal(target(idx, "fs tmpfs")->nalternatives, 1);
	expect(idx, "af AF_UNIX", "net/unix/af_unix.c", 10, "sock_register", KT_RESOLVED, "UNIX", "NET", END);
	assert_string_equal(target(idx, "af AF_UNIX")->def_name, "unix_family_ops");
	assert_int_equal(count_prefix(idx, "af "), 1); /* net/socket.c defines sock_register(): no registration */
	expect(idx, "anon [eventfd]", "fs/eventfd.c", 7, "anon_inode_getfile", KT_RESOLVED, "EVENTFD", END);
	expect(idx, "anon bpf-map", "kernel/bpf/syscall.c", 4, "anon_inode_getfd", KT_RESOLVED, "BPF_SYSCALL", END);
	assert_int_equal(count_prefix(idx, "anon "), 2); /* not the one a comment names */
	expect(idx, "chr 1", "drivers/char/mem.c", 4, "register_chrdev", KT_RESOLVED, END);
	expect(idx, "chr 5:0", "drivers/tty/tty_io.c", 5, "register_chrdev_region", KT_RESOLVED, END);
	expect(idx, "chr 128", "drivers/tty/pty.c", 5, NULL, KT_RESOLVED, "UNIX98_PTYS", END);
	/* UNIX98_PTY_SLAVE_MAJOR is an expression of major.h: (UNIX98_PTY_MASTER_MAJOR+UNIX98_PTY_MAJOR_COUNT) */
	expect(idx, "chr 136", "drivers/tty/pty.c", 6, NULL, KT_RESOLVED, "UNIX98_PTYS", END);
	expect(idx, "chr 10:237", "drivers/block/loop.c", 20, "misc_register", KT_RESOLVED, "BLK_DEV_LOOP", END);
	expect(idx, "blk 7", "drivers/block/loop.c", 22, "__register_blkdev", KT_RESOLVED, "BLK_DEV_LOOP", END);
	/* a dynamic major (0), a dynamic minor, a major that is a variable: no target */
	assert_int_equal(count_prefix(idx, "chr "), 5);
	assert_int_equal(count_prefix(idx, "blk "), 1);
	expect(idx, "binfmt script", "fs/binfmt_script.c", 9, "register_binfmt", KT_RESOLVED, "BINFMT_SCRIPT", END);
	expect(idx, "binfmt elf", "fs/binfmt_elf.c", 9, "register_binfmt", KT_RESOLVED, "BINFMT_ELF", END);
	/* compat_binfmt_elf.c renames elf_format and #includes binfmt_elf.c */
	expect(idx, "binfmt compat_elf", "fs/compat_binfmt_elf.c", 8, "register_binfmt", KT_RESOLVED,
	       "COMPAT_BINFMT_ELF", END);
	/* a protocol switch's element, at the definition of its struct proto; raw's wildcard, where none is */
	expect(idx, "proto AF_INET:SOCK_STREAM:IPPROTO_TCP", "net/ipv4/tcp_ipv4.c", 2, "inet_register_protosw",
	       KT_RESOLVED, "INET", "NET", END);
	assert_string_equal(target(idx, "proto AF_INET:SOCK_STREAM:IPPROTO_TCP")->def_name, "tcp_prot");
	expect(idx, "proto AF_INET:SOCK_RAW:IPPROTO_IP", "net/ipv4/af_inet.c", 11, NULL, KT_RESOLVED, "INET", "NET",
	       END);
	expect(idx, "bpf_map BPF_MAP_TYPE_HASH", "kernel/bpf/hashtab.c", 2, "BPF_MAP_TYPE", KT_RESOLVED, "BPF_SYSCALL",
	       END);
	/* the #ifdef CONFIG_NET of bpf_types.h, at the file that defines the verifier ops */
	expect(idx, "bpf_prog BPF_PROG_TYPE_SOCKET_FILTER", "net/core/filter.c", 2, "BPF_PROG_TYPE", KT_RESOLVED, "NET",
	       END);
	kt_index_free(idx);
}

static void test_configuration(void **state)
{
	struct kt_config *cfg = kt_config_new();
	struct kt_index *idx;

	(void)state;
	kt_config_set(cfg, "EXT4_FS", "y");
	kt_config_set(cfg, "EXT4_USE_FOR_EXT2", "y");
	kt_config_set(cfg, "NET", "y");
	idx = fixture(cfg);
	/* without EXT2_FS, ext4 registers ext2; without SHMEM, the ramfs-based tmpfs of the #else */
	expect(idx, "fs ext2", "fs/ext4/super.c", 9, "register_filesystem", KT_RESOLVED, "EXT2_FS", "EXT4_USE_FOR_EXT2",
	       "EXT4_FS", END);
	expect(idx, "fs tmpfs", "mm/shmem.c", 18, NULL, KT_RESOLVED, "SHMEM", END);
	assert_true(target(idx, "fs tmpfs")->conds[0].negated);
	assert_int_equal(target(idx, "anon [eventfd]")->status, KT_NOT_BUILT);
	assert_non_null(strstr(target(idx, "anon [eventfd]")->not_built, "CONFIG_EVENTFD is off"));
	kt_index_free(idx);
	kt_config_free(cfg);
}

static void test_table(void **state)
{
	struct kt_index *idx = fixture(NULL);
	const struct kt_syscall *s;

	(void)state;
	/* the row's function gives the line and its #if stack, the file its Makefile path */
	expect(idx, "ns CLONE_NEWNET", "net/core/net_namespace.c", 3, NULL, KT_RESOLVED, "NET_NS", "NET", END);
	assert_string_equal(target(idx, "ns CLONE_NEWNET")->def_name, "copy_net_ns");
	assert_non_null(strstr(target(idx, "ns CLONE_NEWNET")->macro, "data/reach-map.tsv:"));
	expect(idx, "fd memfd", "mm/memfd.c", 2, NULL, KT_RESOLVED, "MEMFD_CREATE", END);
	expect(idx, "ioctl LOOP_*", "drivers/block/loop.c", 12, NULL, KT_RESOLVED, "BLK_DEV_LOOP", END);
	/* a row without a function stands for the whole file (line 0) */
	expect(idx, "prctl *", "kernel/sys.c", 0, NULL, KT_RESOLVED, END);
	assert_true(target(idx, "prctl *")->complete);
	/* a function the file lacks: said, never guessed */
	s = target(idx, "ns CLONE_NEWUTS");
	assert_non_null(s);
	assert_false(s->complete);
	assert_non_null(strstr(s->unresolved, "no definition of copy_utsname() in kernel/utsname.c"));
	/* a file the tree lacks (ipc/namespace.c): no target at all */
	assert_null(target(idx, "ns CLONE_NEWIPC"));
	kt_index_free(idx);
}

static const char *found(const struct kt_index *idx, const char *kind, const char *value)
{
	const struct kt_syscall *v[512];
	size_t n = kt_index_nreach(idx);
	const struct kt_syscall *s;

	assert_true(n <= 512);
	for (size_t i = 0; i < n; i++)
		v[i] = kt_index_reach_at(idx, i);
	s = kt_reach_find(v, n, kind, value);
	return s ? s->name : NULL;
}

static void test_find(void **state)
{
	struct kt_index *idx = fixture(NULL);

	(void)state;
	assert_string_equal(found(idx, "fd", "file:ext4"), "fs ext4");
	assert_string_equal(found(idx, "fd", "dir:tmpfs"), "fs tmpfs");
	assert_string_equal(found(idx, "fd", "pipe"), "fs pipefs");
	assert_string_equal(found(idx, "fd", "chr:136:2"), "chr 136");
	assert_string_equal(found(idx, "fd", "chr:5:0"), "chr 5:0");
	assert_string_equal(found(idx, "fd", "chr:10:237"), "chr 10:237");
	assert_string_equal(found(idx, "fd", "blk:7:0"), "blk 7");
	assert_string_equal(found(idx, "fd", "anon:[eventfd]"), "anon [eventfd]");
	assert_string_equal(found(idx, "fd", "socket:AF_UNIX:SOCK_DGRAM:0"), "af AF_UNIX");
	assert_string_equal(found(idx, "fd", "memfd"), "fd memfd");
	assert_string_equal(found(idx, "socket", "AF_UNIX:SOCK_STREAM:0"), "af AF_UNIX");
	assert_string_equal(found(idx, "af", "AF_UNIX"), "af AF_UNIX");
	assert_string_equal(found(idx, "fstype", "ext4"), "fs ext4");
	assert_string_equal(found(idx, "binfmt", "compat_elf"), "binfmt compat_elf");
	/* the longest pattern wins: SIOCGIFCONF has a row of its own, SIOCGIFNAME the SIOC* one */
	assert_string_equal(found(idx, "ioctl", "SIOCGIFCONF"), "ioctl SIOCGIFCONF");
	assert_string_equal(found(idx, "ioctl", "SIOCGIFNAME"), "ioctl SIOC*");
	assert_string_equal(found(idx, "ioctl", "LOOP_GET_STATUS64"), "ioctl LOOP_*");
	expect(idx, "ioctl SIOCGIFCONF", "net/ipv4/devinet.c", 2, NULL, KT_RESOLVED, "INET", "NET", END);
	expect(idx, "ioctl SIOC*", "net/core/dev_ioctl.c", 2, NULL, KT_RESOLVED, "NET", END);
	assert_string_equal(found(idx, "prctl", "PR_SET_NAME"), "prctl *");
	/* the fixture has no security/keys/: the table's keyctl rows are no targets of it */
	assert_null(found(idx, "keyctl", "KEYCTL_READ"));
	assert_null(found(idx, "fd", "file:pidfs"));
	assert_null(found(idx, "fd", "unknown"));
	assert_null(found(idx, "socket", "AF_INET:SOCK_DGRAM:IPPROTO_UDP"));
	assert_string_equal(found(idx, "socket", "AF_INET:SOCK_STREAM:IPPROTO_TCP"),
			    "proto AF_INET:SOCK_STREAM:IPPROTO_TCP");
	assert_string_equal(found(idx, "fd", "socket:AF_INET:SOCK_STREAM:IPPROTO_TCP"),
			    "proto AF_INET:SOCK_STREAM:IPPROTO_TCP");
	assert_string_equal(found(idx, "socket", "AF_INET:SOCK_RAW:IPPROTO_ICMP"), "proto AF_INET:SOCK_RAW:IPPROTO_IP");
	assert_null(found(idx, "ioctl", "0x0000abcd"));
	kt_index_free(idx);
}

static void same_targets(const struct kt_index *a, const struct kt_index *b)
{
	assert_int_equal(kt_index_nreach(a), kt_index_nreach(b));
	for (size_t i = 0; i < kt_index_nreach(a); i++) {
		const struct kt_syscall *x = kt_index_reach_at(a, i), *y = kt_index_reach_at(b, i);

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->file, y->file);
		assert_int_equal(x->line, y->line);
		assert_int_equal(x->noptions, y->noptions);
	}
}

static void test_cache(void **state)
{
	char dir[] = "/tmp/kf-reach-cache.XXXXXX", *tree = path_of("tests/fixtures/reach-tree");
	struct kt_index *a, *b;
	char *old = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	a = build(tree, NULL, 0);
	b = build(tree, NULL, 0);
	assert_false(kt_index_from_cache(a));
	assert_true(kt_index_from_cache(b));
	same_targets(a, b);
	kt_index_free(a);
	kt_index_free(b);
	if (old)
		setenv("XDG_CACHE_HOME", old, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(old);
	free(tree);
	char *cmd;
	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void test_mapdb_round_trip(void **state)
{
	struct mapdb *db = mapdb_from_index(fixture(NULL), "test"), *back;
	char *buf = NULL, *err = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	const struct kt_syscall *s;

	(void)state;
	assert_int_equal(mapdb_save(db, m), 0);
	fclose(m);
	back = mapdb_parse(buf, "saved", &err);
	if (!back)
		fail_msg("%s", err);
	assert_int_equal(back->nreach, db->nreach);
	s = mapdb_reach(back, "fd", "anon:[eventfd]");
	assert_non_null(s);
	assert_string_equal(s->name, "anon [eventfd]");
	assert_string_equal(s->file, "fs/eventfd.c");
	assert_int_equal(s->line, 7);
	assert_int_equal(s->noptions, 1);
	assert_string_equal(s->options[0], "EVENTFD");
	assert_non_null(mapdb_option(back, "EVENTFD"));
	assert_non_null(mapdb_option(back, "BLK_DEV_LOOP")); /* an option only a target's path has */
	assert_string_equal(mapdb_reach(back, "ioctl", "LOOP_SET_FD")->name, "ioctl LOOP_*");
	/* the longest pattern: /dev/loop-control's own ioctls */
	assert_string_equal(mapdb_reach(back, "ioctl", "LOOP_CTL_ADD")->name, "ioctl LOOP_CTL_*");
	mapdb_free(back);
	mapdb_free(db);
	free(buf);
}

/* The annotate stage on a footprint with refinements: each points at its row, the roll-up names them. */
static void test_annotate(void **state)
{
	char *path = path_of("tests/fixtures/reach/footprint.json"), *err = NULL;
	struct footprint *fp = fp__load(path);
	struct mapdb *db = mapdb_builtin(KF_ABI_X86_64, &err);
	const struct fp_kernel_map *m;
	const struct fp_sysstat *read = NULL;
	size_t annotated = 0;

	(void)state;
	assert_non_null(fp);
	assert_non_null(db);
	m = annotate_kernel(fp, db, NULL, "test");
	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i] && !strcmp(fp->syscalls.slots[i]->name, "read"))
			read = fp->syscalls.slots[i];
	assert_non_null(read);
	for (uint32_t k = 0; k < read->nreach; k++)
		annotated += read->reach[k].annot.kernel != NULL;
	assert_int_equal(annotated, read->nreach);
	const struct kmap_reach *r = kmap_reach_row(m, "fd", "anon:[eventfd]");
	assert_non_null(r);
	assert_true(r->required);
	assert_string_equal(r->ks->file, "fs/eventfd.c");
	/* the same socket family by two syscalls is one option need, named once per refinement */
	bool eventfd = false, unix_fd = false;
	for (size_t i = 0; i < m->nopts; i++) {
		for (size_t j = 0; j < m->opts[i].nneeded; j++) {
			eventfd |= !strcmp(m->opts[i].name, "EVENTFD") &&
				   !strcmp(m->opts[i].needed_by[j], "fd anon:[eventfd]");
			unix_fd |= !strcmp(m->opts[i].name, "UNIX") &&
				   !strcmp(m->opts[i].needed_by[j], "fd socket:AF_UNIX:SOCK_STREAM:0");
		}
	}
	assert_true(eventfd);
	assert_true(unix_fd);
	/* every call failed: on the path, not required */
	r = kmap_reach_row(m, "socket", "AF_PACKET:SOCK_RAW:768");
	assert_non_null(r);
	assert_false(r->required);
	/* what 6.1 has no registration of */
	r = kmap_reach_row(m, "fd", "file:pidfs");
	assert_non_null(r);
	assert_null(r->ks);
	fp__free(fp);
	mapdb_free(db);
	free(path);
}

/* ---- the real tree (KF_KSRC) ---- */

static struct kt_index *real;

static int real_setup(void **state)
{
	const char *src = getenv("KF_KSRC");

	(void)state;
	if (src && *src && !real)
		real = build(src, NULL, 0);
	return 0;
}

static int real_teardown(void **state)
{
	(void)state;
	kt_index_free(real);
	real = NULL;
	return 0;
}

/* The refinement's target has the option on its path, in the tree and in the built-in database alike. */
static void real_needs(const char *kind, const char *value, const char *option)
{
	const struct kt_syscall *v[1024];
	size_t n = kt_index_nreach(real);
	char *err = NULL;
	struct mapdb *db = mapdb_builtin(KF_ABI_X86_64, &err);
	const struct kt_syscall *t, *b;

	assert_true(n <= 1024);
	for (size_t i = 0; i < n; i++)
		v[i] = kt_index_reach_at(real, i);
	t = kt_reach_find(v, n, kind, value);
	b = db ? mapdb_reach(db, kind, value) : NULL;
	if (!t || !b)
		fail_msg("%s %s: no target (tree %p, built-in database %p)", kind, value, (void *)t, (void *)b);
	if (option && !has_option(t, option))
		fail_msg("%s %s (%s at %s): %s not on the path", kind, value, t->name, t->file, option);
	if (option && !has_option(b, option))
		fail_msg("%s %s: %s not on the built-in database's path", kind, value, option);
	if (!option && t->noptions)
		fail_msg("%s %s (%s at %s): expected always built, has %s", kind, value, t->name, t->file,
			 t->options[0]);
	assert_string_equal(t->file, b->file);
	mapdb_free(db);
}

static void test_real(void **state)
{
	(void)state;
	assert_non_null(real);
	real_needs("socket", "AF_UNIX:SOCK_STREAM:0", "UNIX");
	real_needs("socket", "AF_INET:SOCK_DGRAM:IPPROTO_UDP", "INET");
	real_needs("socket", "AF_INET6:SOCK_STREAM:IPPROTO_TCP", "IPV6");
	real_needs("fd", "socket:AF_INET:SOCK_STREAM:IPPROTO_TCP", "INET");
	assert_non_null(target(real, "proto AF_INET:SOCK_STREAM:IPPROTO_TCP"));
	assert_string_equal(target(real, "proto AF_INET:SOCK_STREAM:IPPROTO_TCP")->file, "net/ipv4/tcp_ipv4.c");
	assert_non_null(target(real, "proto AF_INET6:SOCK_DGRAM:IPPROTO_UDP"));
	assert_string_equal(target(real, "proto AF_INET6:SOCK_DGRAM:IPPROTO_UDP")->file, "net/ipv6/udp.c");
	real_needs("socket", "AF_PACKET:SOCK_RAW:768", "PACKET");
	/* net/netlink is obj-y under net/: netlink sockets need NET, and no option of their own */
	real_needs("socket", "AF_NETLINK:SOCK_RAW:NETLINK_ROUTE", "NET");
	assert_int_equal(target(real, "af AF_NETLINK")->noptions, 1);
	real_needs("fd", "file:ext4", "EXT4_FS");
	real_needs("fd", "file:tmpfs", "SHMEM");
	real_needs("fd", "chr:136:0", "UNIX98_PTYS");
	real_needs("fd", "chr:5:2", "UNIX98_PTYS"); /* /dev/ptmx */
	real_needs("fd", "chr:1:3", NULL);	    /* /dev/null: drivers/char/mem.c, always built */
	real_needs("fd", "pipe", NULL);
	real_needs("ns", "CLONE_NEWNET", "NET_NS");
	real_needs("ns", "CLONE_NEWPID", "PID_NS");
	real_needs("fd", "anon:[timerfd]", "TIMERFD");
	real_needs("fd", "anon:[eventfd]", "EVENTFD");
	real_needs("fd", "anon:[signalfd]", "SIGNALFD");
	real_needs("fd", "anon:[eventpoll]", "EPOLL");
	real_needs("fd", "anon:inotify", "INOTIFY_USER");
	real_needs("fd", "anon:[fanotify]", "FANOTIFY");
	real_needs("fd", "anon:[io_uring]", "IO_URING");
	real_needs("fd", "anon:bpf-map", "BPF_SYSCALL");
	real_needs("fd", "anon:[perf_event]", "PERF_EVENTS");
	real_needs("fd", "anon:[userfaultfd]", "USERFAULTFD");
	real_needs("fd", "memfd", "MEMFD_CREATE");
	real_needs("binfmt", "script", "BINFMT_SCRIPT");
	real_needs("binfmt", "elf", "BINFMT_ELF");
	real_needs("binfmt", "compat_elf", "COMPAT_BINFMT_ELF");
	real_needs("ioctl", "SIOCGIFCONF", "INET");
	real_needs("ioctl", "TCGETS", "TTY");
	real_needs("ioctl", "LOOP_GET_STATUS64", "BLK_DEV_LOOP");
	real_needs("bpf_map", "BPF_MAP_TYPE_HASH", "BPF_SYSCALL");
	real_needs("bpf_prog", "BPF_PROG_TYPE_SOCKET_FILTER", "NET");
	real_needs("perf_type", "PERF_TYPE_TRACEPOINT", "EVENT_TRACING");
	real_needs("keyctl", "KEYCTL_DH_COMPUTE", "KEY_DH_OPERATIONS");
	real_needs("fstype", "cgroup2", "CGROUPS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_registrations), cmocka_unit_test(test_configuration),
	    cmocka_unit_test(test_table),	  cmocka_unit_test(test_find),
	    cmocka_unit_test(test_cache),	  cmocka_unit_test(test_mapdb_round_trip),
	    cmocka_unit_test(test_annotate),	  cmocka_unit_test_setup_teardown(test_real, real_setup, real_teardown),
	};
	size_t n = sizeof(tests) / sizeof(tests[0]);

	/* cmocka's skip() has no reason; the real tree's test is left out with one instead */
	if (!getenv("KF_KSRC") || !*getenv("KF_KSRC")) {
		printf("ok - real_tree # SKIP KF_KSRC is not set (tests/integration/map_reach.sh sets it)\n");
		n--;
	}
	return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
