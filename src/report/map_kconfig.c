// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping's needs (kmap/kneeds.h) as a Kconfig fragment for scripts/kconfig/merge_config.sh: a CONFIG_X=y
 * line for every option a required syscall or a kernel function needs, each under a comment naming what needs
 * it. What must not be set is said in comments that never start with "# CONFIG_": merge_config.sh reads such a
 * line as "is not set" and would switch the option off in the merged configuration.
 */
#include <inttypes.h>
#include <string.h>

#include "kmap/kneeds.h"
#include "report/kind_report.h"
#include "report/map_report.h"

static void names(FILE *out, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", v[i]);
}

/* A hidden option cannot be set by a fragment: say what sets it. */
static void hidden(FILE *out, const struct kneed_kconfig *k)
{
	fputs("#   hidden: ", out);
	if (k->nselected_by) {
		fputs("selected by ", out);
		names(out, k->selected_by, k->nselected_by);
	} else {
		fprintf(out, "follows its default (%s)", k->defaults ? k->defaults : "none");
	}
	if (k->depends)
		fprintf(out, "; depends on %s", k->depends);
	fputc('\n', out);
}

static void option(FILE *out, const struct fp_kernel_map *m, const struct kneed *o)
{
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
	if (!o->kc.entry)
		fputs("#   no Kconfig entry in the source tree: merge_config.sh will ignore it\n", out);
	else if (!o->kc.prompt)
		hidden(out, &o->kc);
	if (o->nprobed) {
		fputs("#   also on the path of probes: ", out);
		names(out, o->probed_by, o->nprobed);
		fputc('\n', out);
	}
	if (o->lacking) {
		fprintf(out, "#   left out: the running kernel %s has it not set%s\n", m->run->release,
			m->mismatch ? ", and it differs from the source tree" : "");
		fprintf(out, "#   (to set it anyway: CONFIG_%s=y)\n", o->name);
		return;
	}
	fprintf(out, "CONFIG_%s=y\n", o->name);
}

/* The options of the kernel functions' files; one a syscall already sets is named once. */
static void functions(FILE *out, const struct fp_kernel_map *m)
{
	const struct kneeds *k = m->needs;

	for (const struct fp_kind *const *kd = fp_kinds; *kd; kd++)
		if ((*kd)->report && (*kd)->report->map_kconfig)
			(*kd)->report->map_kconfig(m, out);
	for (size_t i = 0; i < k->nfuncs; i++) {
		const struct kneed_func *f = &k->funcs[i];
		const struct kneed *o = &k->v[f->need];

		if (f->off) {
			fprintf(out, "\n# %s: must be off for the files of %zu functions; not set here\n", o->name,
				f->funcs);
			continue;
		}
		fprintf(out, "\n# %s: %zu kernel function%s (%" PRIu64 " hits)\n", o->name, f->funcs,
			f->funcs == 1 ? "" : "s", f->hits);
		if (o->nneeded) {
			fputs("#   named above for the syscalls\n", out);
			continue;
		}
		if (!f->kc.entry)
			fputs("#   no Kconfig entry in the source tree: merge_config.sh will ignore it\n", out);
		else if (!f->kc.prompt)
			fprintf(out, "#   hidden (%s): set by what selects it%s%s\n", f->kc.where,
				f->kc.depends ? "; depends on " : "", f->kc.depends ? f->kc.depends : "");
		fprintf(out, "CONFIG_%s=y\n", o->name);
	}
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	const struct kneeds *k = m->needs;
	char buf[1024];

	fprintf(out, "# Kconfig fragment: kfootprint %s map of %s, %s\n", KF_VERSION, m->subject, kf_abi_name(m->abi));
	fprintf(out, "# source tree: %s\n", map_tree_line(m, buf, sizeof(buf)));
	fprintf(out, "# running kernel: %s\n", map_running_line(m, buf, sizeof(buf)));
	if (m->mismatch)
		fprintf(out, "# version mismatch: %s\n", m->mismatch);
	fputs("# use: scripts/kconfig/merge_config.sh .config THIS_FILE\n", out);
	for (size_t i = 0; i < k->n; i++)
		option(out, m, &k->v[i]);
	for (size_t i = 0; i < k->n; i++) {
		const struct kneed *o = &k->v[i];

		if (!o->noff)
			continue;
		fprintf(out, "\n# %s: off for the definition chosen for ", o->name);
		names(out, o->off_for, o->noff);
		fputs(" (the alternative built when it is off); not set here\n", out);
	}
	for (size_t i = 0; i < k->nconds; i++)
		fprintf(out, "\n# %s also needs: %s (%s)\n", k->conds[i].item,
			k->conds[i].expr ? k->conds[i].expr : "?", k->conds[i].where ? k->conds[i].where : "?");
	for (size_t i = 0; i < k->nnotes; i++)
		fprintf(out, "\n# %s: %s, not required\n", k->notes[i].item, k->notes[i].why);
	functions(out, m);
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_kconfig = {
    {"kconfig", "a fragment for scripts/kconfig/merge_config.sh"}, render, true};
