/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_QEMU_H
#define KF_QEMU_H

#include <stdint.h>
#include <sys/types.h>

#include "abi/abi.h"
#include "footprint/footprint.h"

/*
 * kfootprint qemu: a kernel and an initramfs booted under QEMU, the syscalls of every task of the guest recorded
 * into a footprint, nothing added to the archive. Two methods feed the same event sink (kfq_sink_*): the kernel's
 * own tracepoints printed on the serial console (tp_reader.c) and QEMU's gdb stub driven by a built-in GDB
 * remote-protocol client (gdb_method.c).
 */
enum kfq_method { KFQ_TRACEPOINT, KFQ_GDB };

struct kfq_opts {
	const char *kernel, *initrd, *append, *arch; /* arch: "x86_64" or "aarch64" */
	double duration;			     /* -d: 0 waits for the guest to power off */
	enum kfq_method method;
	const char *vmlinux, *kallsyms; /* gdb method: symbols (and BTF) */
	unsigned mem_mb;
};

/*
 * Events of the guest, as either method sees them, into a footprint. Times are the guest's clock in ns since its
 * boot; pids are the guest's. Tasks appear when they first do something: a fork seen from a recorded parent, an
 * exec, a syscall.
 */
struct kfq_sink;
struct kfq_sink *kfq_sink_new(struct footprint *fp, enum kf_abi abi);
/* Task tid of process pid entered a syscall: its number and first argument (an exit code for exit and exit_group). */
void kfq_sink_enter(struct kfq_sink *s, pid_t pid, pid_t tid, long nr, uint64_t arg0, uint64_t t_ns);
/* The call returned ret (a negative errno on failure); a return without an entry (a fork's child) is ignored. */
void kfq_sink_exit(struct kfq_sink *s, pid_t pid, pid_t tid, long nr, long ret, uint64_t t_ns);
void kfq_sink_fork(struct kfq_sink *s, pid_t parent, pid_t child, uint64_t t_ns);
void kfq_sink_exec(struct kfq_sink *s, pid_t pid, const char *filename, uint64_t t_ns);
void kfq_sink_task_exit(struct kfq_sink *s, pid_t pid, uint64_t t_ns);
/* Calls still open are accounted as not returned; the footprint's elapsed time is the last event's. */
void kfq_sink_finish(struct kfq_sink *s);
uint64_t kfq_sink_events(const struct kfq_sink *s);
void kfq_sink_free(struct kfq_sink *s);

/* The tracepoint method's console reader: one line of the serial console at a time (no newline needed). */
struct kfq_tp;
struct kfq_tp *kfq_tp_new(struct kfq_sink *sink, struct footprint *fp);
void kfq_tp_line(struct kfq_tp *tp, const char *line);
/* The first line that says why the guest stopped ("Kernel panic - ..."), or NULL. */
const char *kfq_tp_last_words(const struct kfq_tp *tp);
void kfq_tp_free(struct kfq_tp *tp);
/* The kernel command line the tracepoint method adds (before the user's --append). */
extern const char kfq_tp_cmdline[];

/* Runs the guest with the chosen method into fp. 0, or -1 after a message. */
int kfq_run(const struct kfq_opts *o, struct footprint *fp);

#endif
