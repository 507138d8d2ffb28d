/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_QEMU_INT_H
#define KF_QEMU_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "qemu/qemu.h"

/* A running QEMU: its console (stdout, the guest's serial port) and what it said on stderr. */
struct kfq_qemu {
	pid_t pid;
	int out, err;
	int status;	  /* waitpid's, once reaped */
	bool reaped;	  /* QEMU exited (or was ended) and was waited for */
	bool timed_out;	  /* -d ran out: QEMU was ended */
	bool interrupted; /* *stop was set: QEMU was ended */
	char *errtext;	  /* the first KB of its stderr */
	size_t errlen;
	char **argv;
	char cbuf[8192]; /* the console's line being read */
	size_t clen;
};

/*
 * The architecture of a kernel file by its header ("x86_64", "aarch64"), what it is in *what ("a bzImage"); NULL
 * when not known (QEMU then says what it thinks of it).
 */
const char *kfq_kernel_arch(const char *path, const char **what);
/* The inputs exist and are regular files. 0, or -1 after a message. */
int kfq_check(const struct kfq_opts *o);
/* Starts QEMU on o's kernel and initrd with cmdline before o->append, and extra arguments. 0 or -1. */
int kfq_qemu_start(struct kfq_qemu *q, const struct kfq_opts *o, const char *cmdline, char *const *extra);
/*
 * Reads the console until QEMU exits, duration (seconds, 0: none) runs out or *stop is set, giving each line to
 * line(); ends QEMU in the last two cases. 0, or -1 after a message.
 */
int kfq_qemu_console(struct kfq_qemu *q, double duration, volatile sig_atomic_t *stop,
		     void (*line)(void *ctx, const char *l), void *ctx);
/* One read of the console (and of stderr) after poll said so; 1 at its end of file, else 0. */
int kfq_qemu_pump(struct kfq_qemu *q, short out_revents, short err_revents, void (*line)(void *ctx, const char *l),
		  void *ctx);
/* Ends QEMU when timed out or interrupted, else waits for it; reads the rest of its stderr. */
void kfq_qemu_end(struct kfq_qemu *q);
double kfq_now(void);
void kfq_qemu_stop(struct kfq_qemu *q);
void kfq_qemu_release(struct kfq_qemu *q);
const char *kfq_qemu_said(const struct kfq_qemu *q);

/* Set by kfootprint qemu's signal handlers: end the guest, keep what was recorded. */
extern volatile sig_atomic_t kfq_stop;
/* The gdb-stub method (gdb_method.c). */
int kfq_run_gdb(const struct kfq_opts *o, struct footprint *fp, enum kf_abi abi);

/* The gdb method's knowledge of the kernel (ksyms.c). */
struct kfq_sym {
	const char *name;
	uint64_t addr; /* 0 until found */
};
struct kfq_member {
	const char *type, *member;
	uint32_t offset; /* bytes */
	bool found;
};
bool kfq_is_elf(const char *path);
/* bzimage.c: whether img is an x86 bzImage (the boot protocol's header) */
bool kfq_is_bzimage(const unsigned char *img, size_t len);
/* The ELF vmlinux in the bzImage img of path (read from path: for messages), malloc'd; NULL after a message. */
unsigned char *kfq_bzimage_vmlinux(const char *path, const unsigned char *img, size_t len, size_t *out_len);
/* The addresses of want[] from --kallsyms, else --vmlinux's or --kernel's ELF symbols. 0, or -1 after a message. */
int kfq_symbols(const struct kfq_opts *o, struct kfq_sym *want, size_t n);
/* The addresses of want[] from kallsyms lines in text (what: their source, for messages). 0, or -1 after a message. */
int kfq_symbols_text(const char *what, const char *text, struct kfq_sym *want, size_t n);
/*
 * probe.c: the kallsyms lines of names for o's kernel booted nokaslr (x86_64), from a probe boot of kfootprint's
 * own /init, cached by the kernel's SHA-256; malloc'd, or NULL after a message.
 */
char *kfq_probe_kallsyms(const struct kfq_opts *o, const char *const *names, size_t n);
/* The offsets of want[] from the .BTF of --vmlinux, else of --kernel. 0, or -1 after a message. */
int kfq_btf_offsets(const struct kfq_opts *o, struct kfq_member *want, size_t n);

#endif
