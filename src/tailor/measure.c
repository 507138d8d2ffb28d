// SPDX-License-Identifier: GPL-2.0
// tailor --measure (tailor.h): a measurement build of a configuration: kcov (or gcov's counters), debugfs, DWARF
// for PCs to lines, the function_graph tracer for --kernel-functions' oracle in the same kernel, and what the
// QEMU harness of tests/guest/run mounts (the host's root over 9p, virtio consoles), on the tailored .config of
// -o DIR, a given .config, or the baselet alone. The same cached builder as tailor's rounds; the tree's conf is
// the judge: an added option it did not keep is an error, never a silent measurement kernel without it.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tailor/kbuild.h"
#include "tailor/tailor.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct tl_add {
	const char *option, *why;
};

static const struct tl_add common[] = {
    {"DEBUG_KERNEL", "the debug options below are behind it"},
    {"DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT", "DWARF: PCs resolve to file:line in the vmlinux"},
    {"DEBUG_FS", "kcov's and gcov's files are in debugfs"},
    {"FTRACE", "the oracle: --kernel-functions in the same kernel"},
    {"FUNCTION_TRACER", "the oracle: --kernel-functions in the same kernel"},
    {"FUNCTION_GRAPH_TRACER", "the oracle: --kernel-functions=graph"},
    {"DYNAMIC_FTRACE", "the function tracers' per-function filters"},
};

static const struct tl_add kcov[] = {
    {"KCOV", "the PCs of each task (record --kernel-lines=kcov)"},
    {"KCOV_INSTRUMENT_ALL", "every object instrumented: allnoconfig answers no"},
};

static const struct tl_add gcov[] = {
    {"GCOV_KERNEL", "gcov's counters in debugfs"},
    {"GCOV_PROFILE_ALL", "every object counted"},
};

/* tests/guest/run's harness boots the measurement kernel with the host's root: kfootprint, addr2line run as they are */
static const struct tl_add harness[] = {
    {"PCI", "virtio devices"},
    {"VIRTIO_MENU", "virtio drivers"},
    {"VIRTIO_PCI", "virtio devices"},
    {"VIRTIO_CONSOLE", "the guest harness's stdout and stderr ports"},
    {"NET", "9p's transport"},
    {"INET", "9P_FS depends on it; lo"},
    {"UNIX", "AF_UNIX, as on any host"},
    {"NETWORK_FILESYSTEMS", "9p"},
    {"NET_9P", "the host's root over 9p"},
    {"NET_9P_VIRTIO", "the host's root over 9p"},
    {"9P_FS", "the host's root over 9p"},
    {"TMPFS", "the harness's /tmp, /run, /dev/shm"},
    {"CGROUPS", "the harness mounts cgroup2"},
    {"UNIX98_PTYS", "the harness mounts devpts"},
};

static void add_rows(struct strbuf *sb, const struct tl_add *a, size_t n, const char ***kept, size_t *nk)
{
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(sb, "# %s\nCONFIG_%s=y\n", a[i].why, a[i].option);
		*kept = xrealloc(*kept, (*nk + 1) * sizeof(**kept));
		(*kept)[(*nk)++] = a[i].option;
	}
}

/* Whether the .config text has CONFIG_<option>=y on a line of its own. */
static bool has_y(const char *config, const char *option)
{
	char *want = xasprintf("CONFIG_%s=y\n", option);
	size_t n = strlen(want);
	bool yes = false;
	for (const char *p = config; p && *p && !yes; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		yes = !strncmp(p, want, n);
	free(want);
	return yes;
}

int tl_measure(const struct tl_measure *m)
{
	/* both in one kernel: kcov's lines and gcov's counts of one workload compared in the same build */
	bool both = !strcmp(m->method, "kcov,gcov") || !strcmp(m->method, "gcov,kcov");
	bool is_kcov = both || !strcmp(m->method, "kcov"), is_gcov = both || !strcmp(m->method, "gcov");
	if (!is_kcov && !is_gcov)
		return error("tailor: --measure %s: expected kcov, gcov or kcov,gcov", m->method);
	/* a comma in the directory would be a separator to QEMU's and lcov's options */
	const char *method = both ? "kcov+gcov" : m->method;
	char *cache = tl_cache_dir(), *base = NULL, *base_from = NULL, *src = NULL, *out = NULL;
	struct strbuf frag = STRBUF_INIT;
	const char **kept = NULL;
	size_t nk = 0;
	struct tl_kernel k = {0};
	int rc = -1;

	char *tailored = xasprintf("%s/.config", m->dir);
	if (m->config) {
		base = tl_read_text(m->config);
		base_from = xstrdup(m->config);
		if (!base)
			perror_msg("tailor: --config '%s'", m->config);
	} else if (access(tailored, F_OK) == 0) {
		base = tl_read_text(tailored);
		base_from = xstrdup(tailored);
		if (!base)
			perror_msg("tailor: '%s'", tailored);
	} else {
		size_t nb;
		const struct tl_base *b = tl_baselet(&nb);
		struct strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < nb; i++)
			strbuf_addf(&sb, "# %s\nCONFIG_%s=y\n", b[i].why, b[i].option);
		base = strbuf_detach(&sb);
		base_from = xstrdup("the baselet (no tailored .config in -o DIR, no --config)");
	}
	free(tailored);
	if (!base)
		goto out;
	strbuf_addf(&frag, "# the base: %s\n%s\n# tailor --measure %s\n", base_from, base, method);
	add_rows(&frag, common, sizeof(common) / sizeof(common[0]), &kept, &nk);
	if (is_kcov)
		add_rows(&frag, kcov, sizeof(kcov) / sizeof(kcov[0]), &kept, &nk);
	if (is_gcov)
		add_rows(&frag, gcov, sizeof(gcov) / sizeof(gcov[0]), &kept, &nk);
	add_rows(&frag, harness, sizeof(harness) / sizeof(harness[0]), &kept, &nk);
	if (!(src = tl_source(m->kernel_src, cache)))
		goto out;
	if (tl_kernel_config(src, cache, frag.buf, &k) < 0)
		goto out;
	size_t lost = 0;
	for (size_t i = 0; i < nk; i++) {
		if (has_y(k.config, kept[i]))
			continue;
		error(
		    "tailor: --measure %s: CONFIG_%s: asked on, the tree's conf left it off (its dependencies are not "
		    "met on %s)",
		    method, kept[i], base_from);
		lost++;
	}
	if (lost)
		goto out;
	fprintf(stderr, "kfootprint: tailor: measurement kernel (%s) on %s: %s%s\n", method, base_from, k.key,
		k.built ? " (from the cache)" : "");
	if (!k.built && tl_kernel_build(&k, cache, m->jobs, 20ull << 30) < 0)
		goto out;
	out = xasprintf("%s/measure-%s", m->dir, method);
	if ((mkdir(m->dir, 0755) < 0 && errno != EEXIST) || (mkdir(out, 0755) < 0 && errno != EEXIST)) {
		perror_msg("tailor: '%s'", out);
		goto out;
	}
	char *bz = tl_kernel_file(&k, "arch/x86/boot/bzImage"), *vm = tl_kernel_file(&k, "vmlinux");
	char *cfg = tl_kernel_file(&k, ".config"), *fr = xasprintf("%s/fragment", out),
	     *cl = xasprintf("%s/cmdline", out);
	FILE *f = fopen(fr, "we");
	bool wrote = f && fputs(frag.buf, f) >= 0;
	wrote = (f && fclose(f) == 0) && wrote;
	f = fopen(cl, "we");
	/* nokaslr: the PCs kcov gives are the vmlinux's addresses as they are */
	wrote = wrote && f && fputs("nokaslr\n", f) >= 0;
	wrote = (f && fclose(f) == 0) && wrote;
	if (!wrote)
		perror_msg("tailor: cannot write '%s'", out);
	else if (tl_copy_into(bz, out, "bzImage") == 0 && tl_copy_into(vm, out, "vmlinux") == 0 &&
		 tl_copy_into(cfg, out, ".config") == 0)
		rc = 0;
	if (rc == 0)
		printf("%s/bzImage\n", out);
	free(bz);
	free(vm);
	free(cfg);
	free(fr);
	free(cl);
out:
	tl_kernel_release(&k);
	strbuf_release(&frag);
	free(kept);
	free(base);
	free(base_from);
	free(src);
	free(out);
	free(cache);
	return rc;
}
