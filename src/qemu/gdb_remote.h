/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_QEMU_GDB_REMOTE_H
#define KF_QEMU_GDB_REMOTE_H

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>

#include "qemu/qemu_int.h"

/* A connection to QEMU's gdb stub (gdb_remote.c). */
struct kfq_gdb {
	int fd;
	bool noack;  /* QStartNoAckMode accepted */
	bool closed; /* QEMU closed the connection: the guest ended */
	struct kfq_qemu *q;
	char in[16384];
	size_t inlen;
	uint64_t packets; /* sent */
};

/* Connects to the stub's unix socket, retrying while QEMU starts. 0, or -1 (after a message unless QEMU exited). */
int kfq_gdb_connect(struct kfq_gdb *g, const char *path, struct kfq_qemu *q, double timeout);
void kfq_gdb_close(struct kfq_gdb *g);
int kfq_gdb_send(struct kfq_gdb *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The next packet's body into out, reading the console meanwhile (lines to line()). 1; 0 when the stub went
 * away, end (absolute, kfq_now()) passed or *stop was set (q->timed_out, q->interrupted say which); -1 on error.
 */
int kfq_gdb_recv(struct kfq_gdb *g, char *out, size_t cap, double end, volatile sig_atomic_t *stop,
		 void (*line)(void *ctx, const char *l), void *ctx);
/* A command and its reply ("X00" once the guest ended). 0, or -1 after a message. */
int kfq_gdb_cmd(struct kfq_gdb *g, char *reply, size_t cap, void (*line)(void *ctx, const char *l), void *ctx,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Guest memory at a virtual address: 0; 1 when not mapped; -1 after a message. len at most 512. */
int kfq_gdb_mem(struct kfq_gdb *g, uint64_t addr, void *buf, size_t len, void (*line)(void *ctx, const char *l),
		void *ctx);
/* Hex digits into bytes; how many. */
size_t kfq_gdb_hex(const char *hex, unsigned char *out, size_t cap);
/* A little-endian value of n bytes. */
uint64_t kfq_le64(const unsigned char *b, size_t n);

#endif
