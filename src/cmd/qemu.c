// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint qemu: a kernel and an initramfs booted under QEMU, the syscalls of PID 1 and of every other task of
 * the guest recorded into a footprint, nothing added to the archive (src/qemu/).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "qemu/qemu.h"
#include "qemu/qemu_int.h"
#include "report/report.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/xalloc.h"

struct qemu_opts {
	struct kfq_opts run;
	const char *method, *output, *format, *report, *label, *mem;
};

static const char *arch_names(void)
{
	return "x86_64, aarch64";
}

static const char *method_names(void)
{
	return "tracepoint, gdb";
}

static int opt_duration(const char *value, void *opts)
{
	return parse_seconds("--duration", value, &((struct qemu_opts *)opts)->run.duration);
}

#define Q struct qemu_opts
static const struct kf_option options[] = {
    OPT_STRING(0, "kernel", Q, run.kernel, "BZIMAGE",
	       "the kernel to boot (a bzImage, an ELF vmlinux with a PVH note, an arm64 Image, gzip'd or not)"),
    OPT_STRING(0, "initrd", Q, run.initrd, "INITRD", "its initramfs, booted as it is"),
    OPT_STRING(0, "append", Q, run.append, "ARGS", "more kernel command line, after kfootprint's"),
    OPT_CHOICE(0, "arch", Q, run.arch, "ARCH", arch_names, "the guest's architecture: %s (default x86_64)"),
    OPT_CALLBACK('d', "duration", "SECS", opt_duration,
		 "end the guest after SECS (it is killed; the footprint is marked incomplete); default: its power-off"),
    OPT_CHOICE(0, "method", Q, method, "METHOD", method_names,
	       "%s: the kernel's tracepoints on its console (default), or QEMU's gdb stub"),
    OPT_STRING(0, "vmlinux", Q, run.vmlinux, "FILE",
	       "gdb method: the kernel's ELF vmlinux, for symbols and BTF (default: the one in --kernel's bzImage)"),
    OPT_STRING(0, "kallsyms", Q, run.kallsyms, "FILE",
	       "gdb method: a /proc/kallsyms dump of the kernel, for symbols (default for a bzImage: a probe boot)"),
    OPT_STRING(0, "mem", Q, mem, "MB", "guest memory in MB (default 512)"),
    OPT_STRING('o', "output", Q, output, "FILE", "save the footprint as JSON, atomically ('-': standard output)"),
    OPT_CHOICE('F', "format", Q, format, "FORMAT", renderer_names, "report format: %s (default text)"),
    OPT_STRING(0, "report", Q, report, "FILE", "write the report to FILE instead of standard error ('-': stdout)"),
    OPT_STRING(0, "label", Q, label, "NAME", "a label for this scenario, kept in the footprint"),
    OPT_VERBOSE("diagnostics: the QEMU command line, every console line (-v)"),
    OPT_HELP(),
    OPT_END(),
};
#undef Q

static void on_stop(int sig)
{
	kfq_stop = 1;
}

static int write_json(FILE *out, const void *fp)
{
	return fp__write_json(fp, out);
}

static int render(FILE *out, const void *ctx)
{
	const struct qemu_opts *o = ((const void *const *)ctx)[0];
	const struct footprint *fp = ((const void *const *)ctx)[1];
	struct kmap_view view;
	const struct renderer *r = renderer_find(o->format);
	annotate_view(fp, &view, r->closure); /* before rendering: the renderers resolve nothing */
	struct text_opts text = {.view = &view};
	int rc = renderer_render(r, fp, &text, out);
	kmap_view_release(&view);
	return rc;
}

static int check_opts(struct qemu_opts *o)
{
	unsigned long mem;

	if (!o->method || !strcmp(o->method, "tracepoint"))
		o->run.method = KFQ_TRACEPOINT;
	else if (!strcmp(o->method, "gdb"))
		o->run.method = KFQ_GDB;
	else
		return error("unknown --method '%s': expected one of %s", o->method, method_names());
	if (!o->format)
		o->format = "text";
	if (renderer_check(o->format) < 0)
		return -1;
	if (o->mem) {
		if (parse_ulong("--mem", o->mem, 64, 65536, &mem) < 0)
			return -1;
		o->run.mem_mb = (unsigned)mem;
	}
	if (!o->run.kernel)
		return error("no kernel: give --kernel BZIMAGE (see 'kfootprint qemu --help')");
	if (!o->run.initrd)
		return error("no initramfs: give --initrd INITRD (see 'kfootprint qemu --help')");
	return 0;
}

static int cmd_qemu(int argc, char **argv)
{
	struct qemu_opts o = {0};
	struct atomic_file json = {0}, report = {0};
	struct sigaction sa = {.sa_handler = on_stop};
	struct footprint *fp;
	char *args[8];
	const char *karch, *what;
	int i = kf_command_parse(&kf_cmd_qemu, 0, argc, argv, &o), rc = 0;

	if (i == KF_PARSE_HELP) {
		kf_command_help(&kf_cmd_qemu, stdout);
		return 0;
	}
	if (i < 0)
		return 1;
	if (i < argc)
		return error("unexpected argument '%s': see 'kfootprint qemu --help'", argv[i]), 1;
	/* a guest of the wrong architecture is a usage error (2), found before anything else */
	if (!o.run.arch)
		o.run.arch = "x86_64";
	if (strcmp(o.run.arch, "x86_64") && strcmp(o.run.arch, "aarch64"))
		return error("unknown --arch '%s': expected one of %s", o.run.arch, arch_names()), 2;
	if (o.run.kernel && (karch = kfq_kernel_arch(o.run.kernel, &what)) && strcmp(karch, o.run.arch))
		return error("qemu: --kernel '%s': an %s kernel (%s), not an %s one: give --arch %s", o.run.kernel,
			     karch, what, o.run.arch, karch),
		       2;
	if (check_opts(&o) < 0)
		return 1;
	/* outputs first: a bad path costs no boot */
	if (atomic_file_distinct((const char *[]){o.run.kernel, o.run.initrd, o.run.vmlinux, o.run.kallsyms}, 4,
				 (const char *[]){o.output, o.report}, 2) < 0)
		return 1;
	if ((o.output && atomic_file_open(&json, o.output, 0) < 0) ||
	    (o.report && atomic_file_open(&report, o.report, 0) < 0)) {
		atomic_file_abort(&json);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fp = fp__new();
	fp__start(fp);
	fp->complete = true;
	fp->backend = xstrdup(o.run.method == KFQ_GDB ? "qemu-gdb" : "qemu-tracepoint");
	free(fp->host_arch);
	fp->host_arch = xstrdup(o.run.arch);
	if (o.label)
		fp->label = xstrdup(o.label);
	args[0] = "qemu";
	args[1] = "--kernel";
	args[2] = (char *)o.run.kernel;
	args[3] = "--initrd";
	args[4] = (char *)o.run.initrd;
	args[5] = o.run.append ? "--append" : NULL;
	args[6] = (char *)o.run.append;
	args[7] = NULL;
	fp->argv = fp_argv_dup(args);
	if (kfq_run(&o.run, fp) < 0) {
		atomic_file_abort(&json);
		atomic_file_abort(&report);
		fp__free(fp);
		return 1;
	}
	/* the classes and entry points, as record gives them */
	annotate_classes(fp);
	if (o.output && atomic_file_finish(&json, write_json, fp) < 0)
		rc = 1;
	const void *ctx[2] = {&o, fp};

	if (o.report ? atomic_file_finish(&report, render, ctx) < 0
		     : atomic_file_write(NULL, 0, stderr, render, ctx) < 0)
		rc = 1;
	fp__free(fp);
	return rc;
}

const struct kf_command kf_cmd_qemu = {
    .name = "qemu",
    .fn = cmd_qemu,
    .summary = "boot a kernel and initramfs under QEMU and record the syscalls of PID 1 and every task",
    .synopsis = "kfootprint qemu --kernel BZIMAGE --initrd INITRD [--append ARGS] [--arch ARCH] [-d SECONDS]\n"
		"                [--method tracepoint|gdb] [--vmlinux FILE | --kallsyms FILE] [-o OUT.json]",
    .description =
	"Boots the kernel and initramfs under QEMU (one CPU) and records the syscalls of every task of the guest,\n"
	"told apart by pid, from PID 1's first instruction to the power-off (or -d): nothing is added to the\n"
	"archive. The tracepoint method puts the kernel's raw_syscalls and sched events on its command line\n"
	"(trace_event=, tp_printk) and reads them from the serial console; the gdb method breaks in QEMU's gdb stub\n"
	"at the syscall entry and reads the calls from the registers (entry observations). The report goes to\n"
	"standard error; -o saves the footprint for report, map, diff and seccomp.",
    .options = options,
    .opts_size = sizeof(struct qemu_opts),
    .examples = "  kfootprint qemu --kernel bzImage --initrd initrd.cpio -o boot.json\n"
		"  kfootprint qemu --kernel vmlinux --initrd initrd.cpio --method gdb --vmlinux vmlinux -d 60\n"
		"  kfootprint report -F tree boot.json            the guest's process tree\n",
};
