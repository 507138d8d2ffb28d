/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_BPF_INT_H
#define KF_TRACE_BPF_INT_H

/* Private to the bpf backend: src/trace/bpf.c (load, loop, teardown), bpf_task.c, bpf_events.c. */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi/syscalls.h"
#include "bpf/kfrec.h"
#include "footprint/footprint.h"
#include "trace/trace.h"

struct kfrec_bpf;
struct ring_buffer;

struct bpf_session {
	const struct trace_opts *opts;
	struct footprint *fp;
	struct kfrec_bpf *skel;
	struct ring_buffer *rb;
	pid_t root; /* the started command, 0 when attaching */
	bool root_reaped;
	int root_status;	 /* its wait status once reaped */
	struct fp_proc **byproc; /* process instance id -> footprint process */
	size_t byproc_cap;
	uint32_t nlive;		/* processes seen starting and not yet seen ending */
	uint64_t events;	/* events read from the ring */
	uint64_t stats_drained; /* stats entries read and deleted while running */
};

/* bpf_events.c */
int bpf_on_event(void *ctx, void *data, size_t size);
/* The process of an instance id, or NULL when its start was never seen. */
struct fp_proc *bpf_proc(struct bpf_session *s, uint32_t proc);
void bpf_set_proc(struct bpf_session *s, uint32_t proc, struct fp_proc *p);
/*
 * Reads the kernel's per-process aggregates into the footprint. ended_only: only those of processes that
 * ended, deleting them from the map, which keeps it small on long runs. Returns 0 or -1 after reporting.
 */
int bpf_read_stats(struct bpf_session *s, bool ended_only);

/* bpf_task.c */
/* Forks the command, held before its execve until bpf_release_command(). Returns 0 or -1 after reporting. */
int bpf_start_command(struct bpf_session *s, int *go_fd);
int bpf_release_command(struct bpf_session *s, int go_fd);
/* Seeds the task storage with every thread of the -p processes. Returns 0 or -1 after reporting. */
int bpf_attach_pids(struct bpf_session *s);

#endif
