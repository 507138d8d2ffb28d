// SPDX-License-Identifier: GPL-2.0
/* The one formatter of what calls reach: see reach.h. */
#include "abi/reach.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

static const struct kf_reach_table *table_of(const char *name)
{
	for (const struct kf_reach_table *t = kf_reach_tables; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static const char *lookup(const struct kf_reach_table *t, long long value)
{
	size_t lo = 0, hi = t ? t->len : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rows[mid].value == value)
			return t->rows[mid].name;
		if (t->rows[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *kf_reach_name(const char *table, long long value, char *buf, size_t len)
{
	const char *name = lookup(table_of(table), value);

	if (name)
		return name;
	if (!strcmp(table, "ioctl"))
		snprintf(buf, len, "0x%08x", (unsigned)value);
	else if (!strcmp(table, "prctl") || !strcmp(table, "arch_prctl"))
		snprintf(buf, len, "0x%llx", (unsigned long long)value);
	else if (!strcmp(table, "perf_type"))
		snprintf(buf, len, "pmu:%lld", value);
	else
		snprintf(buf, len, "%lld", value);
	return buf;
}

int kf_reach_ns_flags(uint64_t flags, const char **names, int max)
{
	const struct kf_reach_table *t = table_of("clone_ns");
	int n = 0;

	/* the table is sorted by value, so by bit */
	for (size_t i = 0; t && i < t->len && n < max; i++)
		if (flags & (uint64_t)t->rows[i].value)
			names[n++] = t->rows[i].name;
	return n;
}

int kf_socket_format(int family, int type, int protocol, char *buf, size_t len)
{
	char fb[24], tb[24], pb[24];
	const char *proto;

	/* sk_type holds no flags; socket()'s type argument may (SOCK_CLOEXEC, SOCK_NONBLOCK: above the low 4 bits) */
	type &= 0xf;
	if (family == AF_INET || family == AF_INET6)
		proto = kf_reach_name("ipproto", protocol, pb, sizeof(pb));
	else if (family == AF_NETLINK)
		proto = kf_reach_name("netlink", protocol, pb, sizeof(pb));
	else if (family == AF_PACKET && protocol)
		/* a packet socket's protocol is the ethertype in network order, as socket() was given it */
		proto = kf_reach_name("ethp", ntohs((uint16_t)protocol), pb, sizeof(pb));
	else
		proto = (snprintf(pb, sizeof(pb), "%d", protocol), pb);
	return snprintf(buf, len, "%s:%s:%s", kf_reach_name("af", family, fb, sizeof(fb)),
			kf_reach_name("sock", type, tb, sizeof(tb)), proto);
}

int kf_fdraw_format(const struct kf_fdraw *r, char *buf, size_t len)
{
	const char *fs = r->fstype[0] ? r->fstype : "unknown";
	char sock[KF_REACH_VALUE_MAX];

	/* anonymous inodes have no S_IFMT bits (anon_inodefs' one inode), or whatever their own filesystem gives */
	if (r->anon)
		return snprintf(buf, len, "anon:%s", r->name[0] ? r->name : "unknown");
	switch (r->mode & S_IFMT) {
	case S_IFSOCK:
		kf_socket_format(r->family, r->type, r->protocol, sock, sizeof(sock));
		return snprintf(buf, len, "socket:%s", sock);
	case S_IFIFO: return strcmp(fs, "pipefs") ? snprintf(buf, len, "fifo:%s", fs) : snprintf(buf, len, "pipe");
	case S_IFCHR: return snprintf(buf, len, "chr:%u:%u", r->maj, r->min);
	case S_IFBLK: return snprintf(buf, len, "blk:%u:%u", r->maj, r->min);
	case S_IFDIR: return snprintf(buf, len, "dir:%s", fs);
	case S_IFLNK: return snprintf(buf, len, "symlink:%s", fs);
	case S_IFREG:
		/* memfd_create()'s files: on the kernel's internal shmem (tmpfs) or hugetlbfs mount, named "memfd:..."
		 */
		if (!strncmp(r->name, "memfd:", 6) && (!strcmp(fs, "tmpfs") || !strcmp(fs, "hugetlbfs")))
			return snprintf(buf, len, "memfd");
		return snprintf(buf, len, "file:%s", fs);
	case 0:
		/*
		 * No type bits, not on anon_inodefs: an inode of the kernel's own filesystem (a pidfd on pidfs since
		 * 6.9, mode 0700): a file of that filesystem, as far as the data says
		 */
		return r->fstype[0] ? snprintf(buf, len, "file:%s", fs) : snprintf(buf, len, "unknown");
	default: return snprintf(buf, len, "unknown");
	}
}
