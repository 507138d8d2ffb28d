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
 * arm64: the same with do_el0_svc(regs) as the entry: x0 points to the saved user registers, whose x8 is the
 * number and x0 the first argument (and, at the return, the result); the return address is in x30 at the entry.
 * The current task is in SP_EL0, which QEMU's stub shows only among its system registers: its number comes from
 * the target description (qXfer:features:read, target.xml and its includes) and it is read with 'p'.
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
/* aarch64's: x0..x30, sp, pc, cpsr (target/arm/gdbstub64.c) */
#define G_X0  0
#define G_X30 240
#define G_SP  248
#define G_PC  256

/*
 * arm64's struct pt_regs begins with struct user_pt_regs (uapi: u64 regs[31], sp, pc, pstate), inside an
 * anonymous union that a member lookup by name does not reach: regs[n] is at 8 * n by the ABI.
 */
#define A64_PT_REGS(n) (8u * (n))

enum { SYM_KERNEL_INIT, SYM_ENTRY, SYM_CURRENT, NSYMS };
enum { M_PID, M_TGID, M_COMM, M_DI, M_AX, NMEMBERS };

/* What a task's open call needs at its return. */
struct pending {
	pid_t tid, tgid;
	uint64_t sp; /* arm64: the kernel stack pointer at the entry, the same at the return */
	long nr;
	uint64_t arg0, pt; /* pt: the saved user registers (arm64's result is read there) */
	char *filename;	   /* execve's */
	struct pending *next;
};

struct gdb_run {
	const struct kfq_opts *o;
	struct footprint *fp;
	bool arm;	 /* aarch64: do_el0_svc, SP_EL0 */
	unsigned sp_el0; /* its register number in QEMU's stub */
	struct kfq_qemu q;
	struct kfq_gdb g;
	struct kfq_sink *sink;
	struct kfq_sym syms[NSYMS];
	struct kfq_member off[NMEMBERS];
	uint64_t ret_bp; /* do_syscall_64's return address, 0 until known */
	double t0;
	struct pending *pending;
	uint64_t entries, returns, repeats;
	long nr_exit, nr_exit_group, nr_execve, nr_clone, nr_fork, nr_vfork; /* the guest's numbers (-1: none) */
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

/* The current task: x86_64's through GS's base (the per-CPU area) and current_task, arm64's in SP_EL0. */
static int current_task(struct gdb_run *r, const unsigned char *regs, uint64_t *task)
{
	unsigned char b[8];

	if (!r->arm)
		return read_u64(r, kfq_le64(regs + G_GS_BASE, 8) + r->syms[SYM_CURRENT].addr, task) ? -1 : 0;
	if (cmd(r, "p%s%llx", "", r->sp_el0) < 0 || kfq_gdb_hex(r->reply, b, 8) != 8)
		return -1;
	*task = kfq_le64(b, 8);
	return 0;
}

/* The current task's pid and tgid, at their offsets in its task_struct. */
static int current_pid(struct gdb_run *r, const unsigned char *regs, pid_t *pid, pid_t *tgid, uint64_t *taskp)
{
	uint64_t task, ids;

	if (current_task(r, regs, &task) < 0 || r->off[M_TGID].offset != r->off[M_PID].offset + 4 ||
	    read_u64(r, task + r->off[M_PID].offset, &ids))
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

/* The open call whose entry had this stack pointer: a kernel stack is one task's while it runs a call. */
static struct pending *pending_at(struct gdb_run *r, uint64_t sp)
{
	for (struct pending **p = &r->pending; *p; p = &(*p)->next)
		if ((*p)->sp == sp) {
			struct pending *found = *p;

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

/* The number, first argument, saved registers and return address of the call stopped at its entry. */
static int entry_regs(struct gdb_run *r, const unsigned char *regs, uint64_t *nr, uint64_t *arg0, uint64_t *pt,
		      uint64_t *ret)
{
	unsigned char user[9 * 8];

	if (!r->arm) {
		*nr = kfq_le64(regs + G_RSI, 4);
		*pt = kfq_le64(regs + G_RDI, 8);
		/* pt_regs not mapped (1): the call is still counted, with 0 as its argument */
		if (read_u64(r, *pt + r->off[M_DI].offset, arg0) < 0)
			return -1;
		/* do_syscall_64's return address: on the stack at its entry */
		if (!r->ret_bp && read_u64(r, kfq_le64(regs + G_RSP, 8), ret))
			*ret = 0;
		return 0;
	}
	*pt = kfq_le64(regs + G_X0, 8);
	if (kfq_gdb_mem(&r->g, *pt, user, sizeof(user), console_line, r))
		return -1;
	*nr = kfq_le64(user + A64_PT_REGS(8), 8);
	*arg0 = kfq_le64(user + A64_PT_REGS(0), 8);
	*ret = kfq_le64(regs + G_X30, 8);
	return 0;
}

static int on_entry(struct gdb_run *r, const unsigned char *regs)
{
	uint64_t nr, pt, arg0 = 0, ret = 0;
	pid_t pid, tgid;
	uint64_t t = now_ns(r), task;
	struct fp_proc *proc;
	char comm[16];

	if (current_pid(r, regs, &pid, &tgid, &task) < 0)
		return error("qemu: gdb: cannot read the current task at a syscall entry");
	if (entry_regs(r, regs, &nr, &arg0, &pt, &ret) < 0)
		return error("qemu: gdb: cannot read a syscall's saved registers at its entry");
	/* the first stop: the entry's return address, where each call's result is read */
	if (!r->ret_bp && ret) {
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
	if ((long)nr == r->nr_exit || (long)nr == r->nr_exit_group) {
		if ((long)nr == r->nr_exit_group || pid == tgid)
			kfq_sink_task_exit(r->sink, tgid, t);
		return 0;
	}
	if (r->ret_bp <= 1)
		return 0;
	struct pending *p = pending_of(r, pid, true);

	pending_free(p);
	/* arm64: a task that died in a call left its stack to another, which now makes one */
	if (r->arm)
		pending_free(pending_at(r, kfq_le64(regs + G_SP, 8)));
	p = xcalloc(1, sizeof(*p));
	p->tid = pid;
	p->tgid = tgid;
	p->sp = r->arm ? kfq_le64(regs + G_SP, 8) : 0;
	p->nr = (long)nr;
	p->arg0 = arg0;
	p->pt = pt;
	if ((long)nr == r->nr_execve)
		p->filename = user_string(r, arg0);
	p->next = r->pending;
	r->pending = p;
	return 0;
}

static int on_return(struct gdb_run *r, const unsigned char *regs)
{
	uint64_t ax, t = now_ns(r);
	pid_t pid, tgid;
	struct pending *p;

	/*
	 * arm64: the call is known by its kernel stack, as sp is at the return what it was at the entry, without
	 * reading the current task (two requests of the eight a return stop costs); its task is the entry's even
	 * when an execve by a thread gave it its process's pid.
	 */
	if (r->arm) {
		p = pending_at(r, kfq_le64(regs + G_SP, 8));
		if (!p)
			return 0;
		pid = p->tid;
		tgid = p->tgid;
	} else {
		if (current_pid(r, regs, &pid, &tgid, NULL) < 0)
			return error("qemu: gdb: cannot read the current task at a syscall's return");
		p = pending_of(r, pid, true);
		if (!p)
			return 0;
	}
	/* x86_64: pt_regs is where the stack is at the return; arm64: x0 is gone, the entry's pointer is kept */
	if (r->arm ? read_u64(r, p->pt + A64_PT_REGS(0), &ax)
		   : read_u64(r, kfq_le64(regs + G_RSP, 8) + r->off[M_AX].offset, &ax)) {
		pending_free(p);
		return error("qemu: gdb: cannot read a syscall's result");
	}
	long ret = (long)ax;

	r->returns++;
	kfq_sink_exit(r->sink, tgid, pid, p->nr, ret, t);
	if (p->nr == r->nr_execve && ret == 0 && p->filename)
		kfq_sink_exec(r->sink, tgid, p->filename, t);
	/* clone without CLONE_THREAD, fork, vfork, clone3: a new process */
	if (ret > 0 && ((p->nr == r->nr_clone && !(p->arg0 & 0x10000)) || p->nr == r->nr_fork || p->nr == r->nr_vfork ||
			p->nr == 435))
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

static const char *entry_name(const struct gdb_run *r)
{
	return r->arm ? "do_el0_svc" : "do_syscall_64";
}

/* A file of the target description (qXfer:features:read), unescaped; NULL after a message. */
static char *xfer(struct gdb_run *r, const char *annex)
{
	char *out = NULL;
	size_t len = 0;

	for (;;) {
		if (cmd(r, "qXfer:features:read:%s:%llx,7f0", annex, len) < 0) {
			free(out);
			return NULL;
		}
		/* QEMU's are a few KB (its system registers, the longest, 30 KB or so): more is a stub gone wrong */
		if ((r->reply[0] != 'm' && r->reply[0] != 'l') || len > 1u << 20) {
			free(out);
			return error("qemu: gdb: the stub gives no target description '%s': %.40s", annex, r->reply),
			       NULL;
		}
		out = xrealloc(out, len + strlen(r->reply) + 1);
		for (const char *c = r->reply + 1; *c; c++)
			out[len++] = *c == '}' && c[1] ? *++c ^ 0x20 : *c;
		out[len] = 0;
		if (r->reply[0] == 'l' || r->reply[1] == 0)
			return out;
	}
}

/* An XML attribute's value in the tag at tag (up to its '>'), into buf; false when absent. */
static bool xml_attr(const char *tag, const char *name, char *buf, size_t cap)
{
	size_t n = strlen(name);
	const char *end = strchr(tag, '>');

	for (const char *a = strstr(tag, name); a && (!end || a < end); a = strstr(a + 1, name))
		if (a[-1] == ' ' && a[n] == '=' && a[n + 1] == '"') {
			size_t l = strcspn(a + n + 2, "\"");

			snprintf(buf, cap, "%.*s", (int)(l < cap ? l : cap - 1), a + n + 2);
			return true;
		}
	return false;
}

/*
 * SP_EL0's number in QEMU's stub. Registers are numbered in the order of target.xml's includes, each <reg> the
 * next number unless its regnum says otherwise; QEMU lists the system registers it can read in
 * system-registers.xml, SP_EL0 among them.
 */
static int sp_el0_regnum(struct gdb_run *r)
{
	char *target = xfer(r, "target.xml"), href[128], name[64], num[16];
	unsigned regno = 0;

	if (!target)
		return -1;
	for (const char *inc = strstr(target, "<xi:include"); inc; inc = strstr(inc + 1, "<xi:include")) {
		char *feature;

		if (!xml_attr(inc, "href", href, sizeof(href)) || !(feature = xfer(r, href))) {
			free(target);
			return -1;
		}
		for (const char *reg = strstr(feature, "<reg "); reg; reg = strstr(reg + 1, "<reg ")) {
			if (xml_attr(reg, "regnum", num, sizeof(num)))
				regno = (unsigned)strtoul(num, NULL, 10);
			if (xml_attr(reg, "name", name, sizeof(name)) && !strcmp(name, "SP_EL0")) {
				free(feature);
				free(target);
				r->sp_el0 = regno;
				debug("qemu: gdb: SP_EL0 is register %u (%s)", regno, href);
				return 0;
			}
			regno++;
		}
		free(feature);
	}
	free(target);
	return error("qemu: gdb: QEMU's stub shows no SP_EL0 among its registers (a QEMU older than 5.2?): the "
		     "current task cannot be read");
}

static int run(struct gdb_run *r)
{
	const struct kfq_opts *o = r->o;
	double end = o->duration > 0 ? kfq_now() + o->duration : 0;
	unsigned char regs[512];
	int rc;

	if (cmd(r, "qSupported:swbreak+;hwbreak+%s", "", 0) < 0 || cmd(r, "QStartNoAckMode%s", "", 0) < 0)
		return -1;
	r->g.noack = !strcmp(r->reply, "OK");
	if (r->arm && sp_el0_regnum(r) < 0)
		return -1;
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
		if (kfq_gdb_hex(r->reply, regs, sizeof(regs)) < (r->arm ? G_PC : G_GS_BASE) + 8)
			return error("qemu: gdb: a register reply too short for %s (%zu hex digits)", o->arch,
				     strlen(r->reply));
		uint64_t rip = kfq_le64(regs + (r->arm ? G_PC : G_RIP), 8);

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

/*
 * The symbols: from --kallsyms, --vmlinux or the kernel's ELF; a bzImage's vmlinux has none (stripped when it is
 * built), so x86_64's come from a probe boot of the same kernel (probe.c), once per kernel.
 */
static int kernel_symbols(struct gdb_run *r)
{
	const struct kfq_opts *o = r->o;
	const char *what, *names[NSYMS];
	size_t n = r->arm ? SYM_CURRENT : NSYMS;
	char *text, *src;
	int rc;

	if (o->kallsyms || o->vmlinux || r->arm || !kfq_kernel_arch(o->kernel, &what) || strcmp(what, "a bzImage"))
		return kfq_symbols(o, r->syms, n);
	for (size_t i = 0; i < n; i++)
		names[i] = r->syms[i].name;
	text = kfq_probe_kallsyms(o, names, n);
	if (!text)
		return -1;
	src = xasprintf("'%s' booted nokaslr (the probe boot's /proc/kallsyms)", o->kernel);
	rc = kfq_symbols_text(src, text, r->syms, n);
	free(src);
	free(text);
	return rc;
}

int kfq_run_gdb(const struct kfq_opts *o, struct footprint *fp, enum kf_abi abi)
{
	struct gdb_run r = {.o = o, .fp = fp};
	char dir[] = "/tmp/kfootprint-qemu.XXXXXX", sock[64], gdbarg[96];
	int rc;

	r.arm = abi == KF_ABI_AARCH64;
	r.syms[SYM_KERNEL_INIT].name = "kernel_init";
	r.syms[SYM_ENTRY].name = entry_name(&r);
	r.syms[SYM_CURRENT].name = "current_task";
	r.off[M_PID] = (struct kfq_member){"task_struct", "pid", 0, false};
	r.off[M_TGID] = (struct kfq_member){"task_struct", "tgid", 0, false};
	r.off[M_COMM] = (struct kfq_member){"task_struct", "comm", 0, false};
	r.off[M_DI] = (struct kfq_member){"pt_regs", "di", 0, false};
	r.off[M_AX] = (struct kfq_member){"pt_regs", "ax", 0, false};
	if (r.arm) {
		r.nr_exit = 93, r.nr_exit_group = 94, r.nr_execve = 221, r.nr_clone = 220, r.nr_fork = r.nr_vfork = -1;
	} else {
		r.nr_exit = 60, r.nr_exit_group = 231, r.nr_execve = 59, r.nr_clone = 56, r.nr_fork = 57;
		r.nr_vfork = 58;
	}
	/* what the kernel must offer, before the boot (arm64: no current_task, no pt_regs members by name) */
	if (kfq_btf_offsets(o, r.off, r.arm ? M_DI : NMEMBERS) < 0 || kernel_symbols(&r) < 0)
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
		rc = error("qemu: '%s': no syscall reached %s%s%s", o->kernel, entry_name(&r), r.last_words ? ": " : "",
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
			"seen at %s, %llu results read at its return; GDB threads in QEMU represent vCPUs, "
			"not Linux tasks (tasks told apart by the current task's pid)",
			(unsigned long long)r.entries, entry_name(&r), (unsigned long long)r.returns);
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
