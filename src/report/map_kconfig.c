// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping as a Kconfig fragment for scripts/kconfig/merge_config.sh: a CONFIG_X=y line for every option a
 * required syscall needs, each under a comment naming those syscalls. What must not be set is said in comments
 * that never start with "# CONFIG_": merge_config.sh reads such a line as "is not set" and would switch the
 * option off in the merged configuration.
 */
#include <string.h>

#include "report/map_report.h"

static void names(FILE *out, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", v[i]);
}

/* A hidden option cannot be set by a fragment: say what sets it. */
static void hidden(FILE *out, const struct kt_option *k)
{
	fputs("#   hidden: ", out);
	if (k->nselected_by) {
		fputs("selected by ", out);
		names(out, (const char *const *)k->selected_by, k->nselected_by);
	} else {
		fprintf(out, "follows its default (%s)", k->defaults ? k->defaults : "none");
	}
	if (k->depends)
		fprintf(out, "; depends on %s", k->depends);
	fputc('\n', out);
}

static void option(FILE *out, const struct fp_kernel_map *m, const struct kmap_opt *o)
{
	const struct kt_option *k = o->db->opt;
	bool lacks = o->running && !strcmp(o->running, "n");

	if (!o->nneeded && !o->nprobed)
		return;
	fprintf(out, "\n# %s: ", o->name);
	if (o->nneeded) {
		fputs("needed by ", out);
		names(out, o->needed_by, o->nneeded);
	} else {
		/* a refinement's label has a space ("socket AF_PACKET:..."): its calls all failed, not with ENOSYS */
		bool reached = false;
		for (size_t i = 0; i < o->nprobed; i++)
			reached |= strchr(o->probed_by[i], ' ') != NULL;
		fputs(reached ? "only failed calls need it: " : "only probes need it: ", out);
		names(out, o->probed_by, o->nprobed);
		fputs(reached ? " (every call of each failed), so it is left out\n"
			      : " (every call failed with ENOSYS), so it is left out\n",
		      out);
		fprintf(out, "#   (to keep them: CONFIG_%s=y)\n", o->name);
		return;
	}
	fputc('\n', out);
	if (!k)
		fputs("#   no Kconfig entry in the source tree: merge_config.sh will ignore it\n", out);
	else if (!k->prompt)
		hidden(out, k);
	if (o->nprobed) {
		fputs("#   also on the path of probes: ", out);
		names(out, o->probed_by, o->nprobed);
		fputc('\n', out);
	}
	if (lacks) {
		fprintf(out, "#   left out: the running kernel %s has it not set%s\n", m->run->release,
			m->mismatch ? ", and it differs from the source tree" : "");
		fprintf(out, "#   (to set it anyway: CONFIG_%s=y)\n", o->name);
		return;
	}
	fprintf(out, "CONFIG_%s=y\n", o->name);
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	char buf[1024];

	fprintf(out, "# Kconfig fragment: kfootprint %s map of %s, %s\n", KF_VERSION, m->subject, kf_abi_name(m->abi));
	fprintf(out, "# source tree: %s\n", map_tree_line(m, buf, sizeof(buf)));
	fprintf(out, "# running kernel: %s\n", map_running_line(m, buf, sizeof(buf)));
	if (m->mismatch)
		fprintf(out, "# version mismatch: %s\n", m->mismatch);
	fputs("# use: scripts/kconfig/merge_config.sh .config THIS_FILE\n", out);
	for (size_t i = 0; i < m->nopts; i++)
		option(out, m, &m->opts[i]);
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];

		if (!o->noff)
			continue;
		fprintf(out, "\n# %s: off for the definition chosen for ", o->name);
		names(out, o->off_for, o->noff);
		fputs(" (the alternative built when it is off); not set here\n", out);
	}
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		if (!r->ks)
			continue;
		for (size_t c = 0; c < r->ks->nconds; c++) {
			const struct kt_cond *k = &r->ks->conds[c];

			if (k->option || k->kind == KT_COND_ARCH_WANT || !r->required)
				continue;
			fprintf(out, "\n# %s also needs: %s (%s)\n", r->name, k->expr ? k->expr : "?",
				k->where ? k->where : "?");
		}
	}
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		if (r->probe || r->newer)
			fprintf(out, "\n# %s: %s, not required\n", r->name, kmap_row_note(m, r, buf, sizeof(buf)));
	}
	map_kfuncs_kconfig(m, out);
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_kconfig = {
    {"kconfig", "a fragment for scripts/kconfig/merge_config.sh"}, render, true};
