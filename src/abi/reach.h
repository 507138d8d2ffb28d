/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_ABI_REACH_H
#define KF_ABI_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The one formatter of what calls reach (footprint.h, struct fp_reach): both backends collect the same raw
 * observation of an fd (the ptrace backend from /proc and the fd itself, the bpf backend from struct file and
 * its inode) and of other arguments, and turn it into the value strings here, so that they write the same bytes.
 * Names come from tables generated from the kernel's headers (data/reach/, data/gen-reach.sh).
 */

/* Longest value a formatter writes, NUL included ("socket:AF_NETLINK:SOCK_DGRAM:NETLINK_KOBJECT_UEVENT"). */
#define KF_REACH_VALUE_MAX 96

/* What an fd is, as the kernel sees it. */
struct kf_fdraw {
	uint32_t mode;		    /* inode i_mode (the S_IFMT bits matter); 0: not known */
	uint32_t maj, min;	    /* i_rdev, for chr/blk */
	char fstype[32];	    /* sb->s_type->name: "ext4", "pipefs", "anon_inodefs"; "" when not known */
	char name[40];		    /* dentry name, for anon inodes ("[eventfd]") and memfd detection ("memfd:x") */
	int family, type, protocol; /* sockets: sk->sk_family, sk->sk_type, sk->sk_protocol */
	bool anon;		    /* an anonymous inode (anon_inodefs, or the kernel's one anon inode): anon:NAME */
};

/*
 * The fd kind of r into buf (KF_REACH_VALUE_MAX is enough): file:FSTYPE, dir:FSTYPE, fifo:FSTYPE,
 * symlink:FSTYPE, pipe, socket:FAMILY:TYPE:PROTO, anon:NAME, memfd, chr:MAJ:MIN, blk:MAJ:MIN or unknown. An inode
 * without S_IFMT bits that is not anonymous (a pidfd on 6.9's pidfs) is file:FSTYPE; without FSTYPE, unknown.
 * Returns the length written (truncated to len - 1 as snprintf).
 */
int kf_fdraw_format(const struct kf_fdraw *r, char *buf, size_t len);

/* FAMILY:TYPE:PROTO of a socket (type flags SOCK_CLOEXEC/SOCK_NONBLOCK stripped, protocol by family). */
int kf_socket_format(int family, int type, int protocol, char *buf, size_t len);

/*
 * The name of value in a generated table: "af", "sock", "ipproto", "netlink", "ethp", "ioctl", "prctl",
 * "arch_prctl", "bpf_cmd", "bpf_prog", "bpf_map", "perf_type", "keyctl", "clone_ns". A value the table lacks is
 * written into buf as the kind's convention says: "0x%08x" for ioctl, "0x%x" for prctl and arch_prctl, "pmu:N"
 * for perf_type, decimal otherwise. Returns the name or buf.
 */
const char *kf_reach_name(const char *table, long long value, char *buf, size_t len);

/*
 * The namespace flags set in flags (clone, clone3, unshare; setns's nstype), each as its CLONE_NEW* name, in
 * increasing bit order; returns how many were written into names (at most max).
 */
int kf_reach_ns_flags(uint64_t flags, const char **names, int max);

/* A generated table (data/gen-reachtbl.sh): rows sorted by value. */
struct kf_reach_row {
	long long value;
	const char *name;
};
struct kf_reach_table {
	const char *name;
	const struct kf_reach_row *rows;
	size_t len;
};
extern const struct kf_reach_table kf_reach_tables[];

#endif
