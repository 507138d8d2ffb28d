// SPDX-License-Identifier: GPL-2.0
/*
 * The kernels tailor's report sets its own beside: Debian's (the guest's linux-image, downloaded by
 * tests/guest/run into its cache, never installed: the configuration the built-in database names) and a 64-bit
 * tinyconfig with the baselet (tinyconfig alone has no console, so it could say nothing of its boot), built by
 * the same builder, cached like any other configuration.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tailor/kbuild.h"
#include "tailor/round.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *guest_cache(void)
{
	return getenv("KF_GUEST_CACHE") ? getenv("KF_GUEST_CACHE") : "/var/cache/kfootprint/guest";
}

char *tl_debian_kernel(char **dir)
{
	char *pat = xasprintf("%s/kernel-6.1.*/vmlinuz", guest_cache()), *bz = NULL;
	glob_t g;
	if (glob(pat, 0, NULL, &g) == 0 && g.gl_pathc) {
		bz = xstrdup(g.gl_pathv[g.gl_pathc - 1]); /* sorted: the newest last */
		globfree(&g);
	}
	free(pat);
	if (bz && dir) {
		*dir = xstrdup(bz);
		*strrchr(*dir, '/') = '\0';
	}
	return bz;
}

void tl_baseline_debian(struct tl_figures *f, const char *src, const char *initrd, const char *dir)
{
	char *top = NULL, *bz = tl_debian_kernel(&top);
	f->name = xstrdup("Debian 6.1");
	if (!bz) {
		f->why_not = xasprintf("no Debian linux-image-6.1 in %s (tests/guest/run downloads it)", guest_cache());
		return;
	}
	char *vml = xasprintf("%s/vmlinux", top), *cfg = xasprintf("%s/config", top);
	free(f->name);
	f->name = xasprintf("Debian %s", strrchr(top, '/') + 1 + strlen("kernel-"));
	tl_figures_of(f, bz, access(vml, R_OK) == 0 ? vml : NULL, access(cfg, R_OK) == 0 ? cfg : NULL, initrd, dir);
	if (src && access(cfg, R_OK) == 0)
		tl_figures_sloc(f, src, cfg);
	free(bz);
	free(top);
	free(vml);
	free(cfg);
}

static int add_file(struct strbuf *sb, const char *src, const char *rel)
{
	char *p = xasprintf("%s/%s", src, rel);
	FILE *f = fopen(p, "re");
	char buf[4096];
	size_t n;
	free(p);
	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(sb, buf, n);
	fclose(f);
	return 0;
}

int tl_baseline_tiny(struct tl_ctx *x, struct tl_figures *f, const char *initrd, const char *dir)
{
	f->name = xstrdup("tinyconfig 64-bit");
	struct strbuf sb = STRBUF_INIT;
	if (add_file(&sb, x->src, "kernel/configs/tiny.config") < 0 ||
	    add_file(&sb, x->src, "arch/x86/configs/tiny.config") < 0) {
		f->why_not = xstrdup("the tree has no kernel/configs/tiny.config or arch/x86/configs/tiny.config");
		strbuf_release(&sb);
		return 0;
	}
	size_t nb;
	const struct tl_base *b = tl_baselet(&nb);
	struct kt_want *kw = xcalloc(nb + 1, sizeof(*kw));
	struct tl_wants w = {0};
	for (size_t i = 0; i < nb; i++) {
		kw[i] = (struct kt_want){b[i].option, 'y'};
		tl_wants_add(&w, b[i].option, 'y', b[i].why, 0);
	}
	struct kt_closure c;
	kt_index_closure(x->idx, kw, nb, &c);
	char *frag = tl_fragment(&c, &w);
	strbuf_addstr(&sb, frag);
	struct tl_kernel k;
	fprintf(stderr, "kfootprint: tailor: the tinyconfig 64-bit kernel to compare with (built once)\n");
	int rc = tl_kernel_config(x->src, x->cache, sb.buf, &k);
	if (rc == 0)
		rc = tl_kernel_build(&k, x->cache, x->jobs, x->cache_max);
	if (rc == 0) {
		char *bz = tl_kernel_file(&k, "arch/x86/boot/bzImage"), *vml = tl_kernel_file(&k, "vmlinux");
		char *cfg = tl_kernel_file(&k, ".config");
		tl_figures_of(f, bz, vml, cfg, initrd, dir);
		tl_figures_sloc(f, x->src, cfg);
		free(bz);
		free(vml);
		free(cfg);
	} else {
		f->why_not = xstrdup("its build failed (said above)");
	}
	tl_kernel_release(&k);
	kt_closure_release(&c);
	free(frag);
	free(kw);
	tl_wants_release(&w);
	strbuf_release(&sb);
	return rc;
}
