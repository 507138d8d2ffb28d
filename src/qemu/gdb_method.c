// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb-stub method, the seed's: QEMU starts stopped (-S) with its gdb stub on a unix socket and the kernel
 * booted nokaslr; a breakpoint at kernel_init lets the kernel initialise, then one at the syscall entry
 * (do_syscall_64) stops every task's every call. At each stop the number is in a register and the user's
 * arguments in the saved registers (struct pt_regs), and the task is the CPU's current one: its per-CPU
 * current_task read through GS's base, its pid and tgid at offsets from the kernel's BTF. GDB threads in QEMU
 * are vCPUs, not tasks, so the guest has one. The first stop also gives do_syscall_64's return address in the
 * entry code, where a second breakpoint reads each call's result from pt_regs->ax (a call that does not return
 * there, such as a new task's first return, has none).
 *
 * x86_64 only: arm64's entry (do_el0_svc) takes the same approach with current in SP_EL0, which QEMU's stub
 * shows only among its system registers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qemu/gdb_remote.h"
#include "qemu/qemu_int.h"
#include "util/error.h"
#include "util/xalloc.h"

/* x86_64's registers in QEMU's 'g' reply (target/i386/gdbstub.c): byte offsets */
#define G_RSI	  32
#define G_RDI	  40
#define G_RSP	  56
#define G_RIP	  128
#define G_GS_BASE 172

enum { SYM_KERNEL_INIT, SYM_ENTRY, SYM_CURRENT, NSYMS };
enum { M_PID, M_TGID, M_COMM, M_DI, M_AX, NMEMBERS };

/* What a task's open call needs at its return. */
struct pending {
	pid_t tid;
	long nr;
	uint64_t arg0;
	char *filename; /* execve's */
	struct pending *next;
};

struct gdb_run {
	const struct kfq_opts *o;
	struct footprint *fp;
	struct kfq_qemu q;
	struct kfq_gdb g;
	struct kfq_sink *sink;
	struct kfq_sym syms[NSYMS];
	struct kfq_member off[NMEMBERS];
	uint64_t ret_bp; /* do_syscall_64's return address, 0 until known */
	double t0;
	struct pending *pending;
	uint64_t entries, returns, repeats;
	char *last_words;
	char reply[4096];
};

static void console_line(void *ctx, const char *line)
{
	struct gdb_run *r = ctx;

	debug("console: %s", line);
	if (!r->last_words && (strstr(line, "Kernel panic") || strstr(line, "BUG: ")))
		r->last_words = xstrdup(line);
}

static uint64_t now_ns(struct gdb_run *r)
{
	return (uint64_t)((kfq_now() - r->t0) * 1e9);
}

static int cmd(struct gdb_run *r, const char *fmt, const char *a, uint64_t b)
{
	if (kfq_gdb_cmd(&r->g, r->reply, sizeof(r->reply), console_line, r, fmt, a, (unsigned long long)b) < 0)
		return -1;
	return 0;
}

static int read_u64(struct gdb_run *r, uint64_t addr, uint64_t *v)
{
	unsigned char b[8];
	int rc = kfq_gdb_mem(&r->g, addr, b, 8, console_line, r);

	if (rc == 0)
		*v = kfq_le64(b, 8);
	return rc;
}

/* The current task's pid and tgid, through GS's base (the per-CPU area) and current_task. */
static int current_pid(struct gdb_run *r, uint64_t gs_base, pid_t *pid, pid_t *tgid, uint64_t *taskp)
{
	uint64_t task, ids;

	if (read_u64(r, gs_base + r->syms[SYM_CURRENT].addr, &task) ||
	    r->off[M_TGID].offset != r->off[M_PID].offset + 4 || read_u64(r, task + r->off[M_PID].offset, &ids))
		return -1;
	*pid = (pid_t)(uint32_t)ids;
	*tgid = (pid_t)(uint32_t)(ids >> 32);
	if (taskp)
		*taskp = task;
	return 0;
}

static struct pending *pending_of(struct gdb_run *r, pid_t tid, bool take)
{
	for (struct pending **p = &r->pending; *p; p = &(*p)->next)
		if ((*p)->tid == tid) {
			struct pending *found = *p;

			if (take)
				*p = found->next;
			return found;
		}
	return NULL;
}

static void pending_free(struct pending *p)
{
	if (p) {
		free(p->filename);
		free(p);
	}
}

/* A user string (execve's path), cut at the end of its page when the next one is not mapped. */
static char *user_string(struct gdb_run *r, uint64_t addr)
{
	unsigned char buf[256];
	size_t len = sizeof(buf);

	if ((addr & 4095) + len > 4096)
		len = 4096 - (addr & 4095);
	if (kfq_gdb_mem(&r->g, addr, buf, len, console_line, r))
		return NULL;
	return xstrndup((const char *)buf, strnlen((const char *)buf, len));
}

static int on_entry(struct gdb_run *r, const unsigned char *regs)
{
	uint64_t nr = kfq_le64(regs + G_RSI, 4), pt = kfq_le64(regs + G_RDI, 8), arg0 = 0, ret;
	pid_t pid, tgid;
	uint64_t t = now_ns(r), task;
	struct fp_proc *proc;
	char comm[16];

	if (current_pid(r, kfq_le64(regs + G_GS_BASE, 8), &pid, &tgid, &task) < 0)
		return error("qemu: gdb: cannot read the current task at a syscall entry");
	if (read_u64(r, pt + r->off[M_DI].offset, &arg0) < 0)
		return -1;
	/* the first stop: do_syscall_64's return address, on the stack at its entry */
	if (!r->ret_bp && read_u64(r, kfq_le64(regs + G_RSP, 8), &ret) == 0 && ret) {
		if (cmd(r, "Z0,%s%llx,1", "", ret) < 0)
			return -1;
		if (!strcmp(r->reply, "OK"))
			r->ret_bp = ret;
		else
			r->ret_bp = 1; /* refused: entry observations only */
	}
	/*
	 * With the return breakpoint in place every call passes it before its task's next entry: an entry while
	 * the task's call is still open is the same stop reported again (seen once in many runs), not a call.
	 */
	struct pending *open = r->ret_bp > 1 ? pending_of(r, pid, false) : NULL;

	if (open && open->nr == (long)nr) {
		r->repeats++;
		return 0;
	}
	r->entries++;
	kfq_sink_enter(r->sink, tgid, pid, (long)nr, arg0, t);
	/* a process first seen here (PID 1: the kernel exec'd it): its name from the task */
	proc = fp__proc_find(r->fp, tgid);
	if (proc && !proc->comm[0] && !kfq_gdb_mem(&r->g, task + r->off[M_COMM].offset, comm, 16, console_line, r))
		snprintf(proc->comm, sizeof(proc->comm), "%.15s", comm);
	if (nr == 60 || nr == 231) {
		if (nr == 231 || pid == tgid)
			kfq_sink_task_exit(r->sink, tgid, t);
		return 0;
	}
	if (r->ret_bp <= 1)
		return 0;
	struct pending *p = pending_of(r, pid, true);

	pending_free(p);
	p = xcalloc(1, sizeof(*p));
	p->tid = pid;
	p->nr = (long)nr;
	p->arg0 = arg0;
	if (nr == 59)
		p->filename = user_string(r, arg0);
	p->next = r->pending;
	r->pending = p;
	return 0;
}

static int on_return(struct gdb_run *r, const unsigned char *regs)
{
	uint64_t ax, pt = kfq_le64(regs + G_RSP, 8), t = now_ns(r);
	pid_t pid, tgid;
	struct pending *p;

	if (current_pid(r, kfq_le64(regs + G_GS_BASE, 8), &pid, &tgid, NULL) < 0 ||
	    read_u64(r, pt + r->off[M_AX].offset, &ax))
		return error("qemu: gdb: cannot read a syscall's result");
	p = pending_of(r, pid, true);
	if (!p)
		return 0;
	long ret = (long)ax;

	r->returns++;
	kfq_sink_exit(r->sink, tgid, pid, p->nr, ret, t);
	if (p->nr == 59 && ret == 0 && p->filename)
		kfq_sink_exec(r->sink, tgid, p->filename, t);
	/* clone without CLONE_THREAD, fork, vfork, clone3: a new process */
	if (ret > 0 && ((p->nr == 56 && !(p->arg0 & 0x10000)) || p->nr == 57 || p->nr == 58 || p->nr == 435))
		kfq_sink_fork(r->sink, tgid, (pid_t)ret, t);
	pending_free(p);
	return 0;
}

/*
 * Continues the guest; 1 when it stopped at a breakpoint, 0 when it ended (or -d), -1 on error. From a
 * breakpoint, as gdb does: the stub would stop at once on the same one, so it is taken out for one step.
 */
static int cont(struct gdb_run *r, double end, uint64_t at_bp)
{
	int rc;

	if (at_bp) {
		if (cmd(r, "z0,%s%llx,1", "", at_bp) < 0 || cmd(r, "s%s", "", 0) < 0)
			return -1;
		if (r->reply[0] == 'W' || r->reply[0] == 'X')
			return 0;
		if (cmd(r, "Z0,%s%llx,1", "", at_bp) < 0)
			return -1;
	}
	if (kfq_gdb_send(&r->g, "c") < 0)
		return -1;
	if (r->g.closed)
		return 0;
	for (;;) {
		rc = kfq_gdb_recv(&r->g, r->reply, sizeof(r->reply), end, &kfq_stop, console_line, r);
		if (rc <= 0)
			return rc;
		if (r->reply[0] == 'T' || r->reply[0] == 'S')
			return 1;
		if (r->reply[0] == 'W' || r->reply[0] == 'X')
			return 0;
		/* an 'O' console packet or a notification: wait on */
	}
}

static int run(struct gdb_run *r)
{
	const struct kfq_opts *o = r->o;
	double end = o->duration > 0 ? kfq_now() + o->duration : 0;
	unsigned char regs[256];
	int rc;

	if (cmd(r, "qSupported:swbreak+;hwbreak+%s", "", 0) < 0 || cmd(r, "QStartNoAckMode%s", "", 0) < 0)
		return -1;
	r->g.noack = !strcmp(r->reply, "OK");
	if (cmd(r, "Z0,%s%llx,1", "", r->syms[SYM_KERNEL_INIT].addr) < 0)
		return -1;
	if (strcmp(r->reply, "OK"))
		return error("qemu: gdb: the stub refused a breakpoint at kernel_init: %s", r->reply);
	rc = cont(r, end, 0);
	if (rc <= 0)
		return rc;
	if (cmd(r, "z0,%s%llx,1", "", r->syms[SYM_KERNEL_INIT].addr) < 0 ||
	    cmd(r, "Z0,%s%llx,1", "", r->syms[SYM_ENTRY].addr) < 0)
		return -1;
	r->t0 = kfq_now();
	uint64_t at_bp = 0;

	while ((rc = cont(r, end, at_bp)) > 0) {
		if (cmd(r, "g%s", "", 0) < 0)
			return -1;
		if (r->g.closed)
			break;
		if (kfq_gdb_hex(r->reply, regs, sizeof(regs)) < G_GS_BASE + 8)
			return error("qemu: gdb: a register reply too short for x86_64 (%zu hex digits)",
				     strlen(r->reply));
		uint64_t rip = kfq_le64(regs + G_RIP, 8);

		at_bp = 0;
		if (rip == r->syms[SYM_ENTRY].addr)
			rc = on_entry(r, regs), at_bp = rip;
		else if (rip == r->ret_bp)
			rc = on_return(r, regs), at_bp = rip;
		if (rc < 0)
			return -1;
	}
	return rc;
}

int kfq_run_gdb(const struct kfq_opts *o, struct footprint *fp, enum kf_abi abi)
{
	struct gdb_run r = {.o = o, .fp = fp};
	char dir[] = "/tmp/kfootprint-qemu.XXXXXX", sock[64], gdbarg[96];
	int rc;

	if (abi != KF_ABI_X86_64)
		return error("qemu: --method gdb: x86_64 guests only (use --method tracepoint for %s)", o->arch);
	r.syms[SYM_KERNEL_INIT].name = "kernel_init";
	r.syms[SYM_ENTRY].name = "do_syscall_64";
	r.syms[SYM_CURRENT].name = "current_task";
	r.off[M_PID] = (struct kfq_member){"task_struct", "pid", 0, false};
	r.off[M_TGID] = (struct kfq_member){"task_struct", "tgid", 0, false};
	r.off[M_COMM] = (struct kfq_member){"task_struct", "comm", 0, false};
	r.off[M_DI] = (struct kfq_member){"pt_regs", "di", 0, false};
	r.off[M_AX] = (struct kfq_member){"pt_regs", "ax", 0, false};
	/* what the kernel must offer, before any boot */
	if (kfq_symbols(o, r.syms, NSYMS) < 0 || kfq_btf_offsets(o, r.off, NMEMBERS) < 0)
		return -1;
	if (!mkdtemp(dir))
		return perror_msg("qemu: mkdtemp '%s'", dir);
	snprintf(sock, sizeof(sock), "%s/gdb", dir);
	snprintf(gdbarg, sizeof(gdbarg), "unix:%s,server=on,wait=off", sock);
	char *extra[] = {"-S", "-gdb", gdbarg, NULL};

	rc = kfq_qemu_start(&r.q, o, "nokaslr loglevel=3", extra);
	if (!rc) {
		if (kfq_gdb_connect(&r.g, sock, &r.q, 30) < 0) {
			rc = -1;
			if (r.q.reaped)
				error("qemu: '%s': QEMU cannot boot it: %s", o->kernel,
				      *kfq_qemu_said(&r.q) ? kfq_qemu_said(&r.q) : "QEMU exited at once");
		} else {
			r.sink = kfq_sink_new(fp, abi);
			rc = run(&r);
			kfq_sink_finish(r.sink);
		}
	}
	kfq_gdb_close(&r.g);
	if (r.q.pid > 0)
		kfq_qemu_end(&r.q);
	if (!rc && !r.entries)
		rc = error("qemu: '%s': no syscall reached do_syscall_64%s%s", o->kernel, r.last_words ? ": " : "",
			   r.last_words	   ? r.last_words
			   : r.q.timed_out ? " before -d ran out"
					   : "");
	if (!rc) {
		if (r.q.timed_out)
			fp__set_incomplete(fp, "duration");
		if (r.q.interrupted)
			fp__set_incomplete(fp, "interrupted");
		/* the seed's words, and what this method adds to them */
		warning("qemu: these are entry observations, not decoded arguments or syscall results: %llu calls "
			"seen at do_syscall_64, %llu results read at its return; GDB threads in QEMU represent vCPUs, "
			"not Linux tasks (tasks told apart by the current task's pid)",
			(unsigned long long)r.entries, (unsigned long long)r.returns);
		debug("qemu: gdb: %llu packets, %llu stops at an entry seen twice", (unsigned long long)r.g.packets,
		      (unsigned long long)r.repeats);
	}
	while (r.pending) {
		struct pending *p = r.pending;

		r.pending = p->next;
		pending_free(p);
	}
	kfq_sink_free(r.sink);
	kfq_qemu_release(&r.q);
	unlink(sock);
	rmdir(dir);
	free(r.last_words);
	return rc;
}
