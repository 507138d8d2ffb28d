// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping's needs (kmap/kneeds.h) as a Kconfig fragment for scripts/kconfig/merge_config.sh: a CONFIG_X=y
 * line for every option a required syscall or a kernel function needs, each under a comment naming what needs
 * it. What must not be set is said in comments that never start with "# CONFIG_": merge_config.sh reads such a
 * line as "is not set" and would switch the option off in the merged configuration.
 *
 * The fragment carries what its options need on allnoconfig (the closure, kneeds.h): the ABI's word size, and
 * each option brought in by another's `depends on`, prompt, default or select, under a comment naming which and
 * why. An option the closure finds cannot hold is left out with the reason, so that merge_config.sh keeps every
 * value the fragment sets.
 */
#include <inttypes.h>
#include <string.h>

#include "kmap/kneeds.h"
#include "report/csite.h"
#include "report/kind_report.h"
#include "report/map_report.h"

/*
 * A source condition in a comment, its options without "CONFIG_": merge_config.sh takes every line that names
 * CONFIG_X as a word for X's requested value, and would warn that a comment is not in the final .config.
 */
static void unprefixed(FILE *out, const char *expr)
{
	for (const char *p = expr; *p;) {
		const char *c = strstr(p, "CONFIG_");

		if (!c) {
			fputs(p, out);
			break;
		}
		fwrite(p, 1, (size_t)(c - p), out);
		p = c + strlen("CONFIG_");
	}
}

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

/* The line that sets a wanted option, or why the closure leaves it out. */
static void set_line(FILE *out, const struct kneed *o, bool entry)
{
	if (!entry) {
		fprintf(out, "#   (left out; to set it anyway: CONFIG_%s=y)\n", o->name);
		return;
	}
	if (o->unmet) {
		fprintf(out, "#   cannot hold on allnoconfig: %s\n", o->unmet);
		fprintf(out, "#   (to set it anyway: CONFIG_%s=y)\n", o->name);
		return;
	}
	if (o->closed && o->final == 'n') {
		fputs("#   left out: allnoconfig plus this fragment leaves it off\n", out);
		fprintf(out, "#   (to set it anyway: CONFIG_%s=y)\n", o->name);
		return;
	}
	fprintf(out, "CONFIG_%s=y\n", o->name);
}

/* An option the closure brought in (or the ABI asked for): what needs it, and its line. */
static void brought(FILE *out, const struct kneed *o)
{
	if (o->abi)
		fprintf(out, "\n# %s: the ABI (the architecture's allnoconfig may answer another)\n", o->name);
	else
		fprintf(out, "\n# %s: for %s (%s %s)\n", o->name, o->because ? o->because : "?", o->how,
			o->expr ? o->expr : "");
	if (o->hidden) {
		fprintf(out, "#   hidden: follows from the others (%s)\n", o->value == 'n' ? "off" : "on");
		return;
	}
	if (o->value == 'n') {
		fprintf(out, "# CONFIG_%s is not set\n", o->name);
		return;
	}
	set_line(out, o, true);
}

/* Whether the closure brought an entry in for o: a hidden one of the ABI's (X86, MMU) is named only then. */
static bool needs_of(const struct kneeds *k, const struct kneed *o)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].via == o)
			return true;
	return false;
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
		if (o->closed && o->because) {
			fprintf(out, "; set below all the same, for %s\n", o->because);
			return;
		}
		fputs(reached ? " (every call of each failed), so it is left out\n"
			      : " (every call failed with ENOSYS), so it is left out\n",
		      out);
		fprintf(out, "#   (to keep them: CONFIG_%s=y)\n", o->name);
		return;
	}
	fputc('\n', out);
	csite_kconfig(out, m, o->needed_by, o->nneeded);
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
		if (o->closed && o->because) { /* no CONFIG_ word here: merge_config.sh would read the comment too */
			fprintf(out, "#   but set below all the same, for %s\n", o->because);
			return;
		}
		fprintf(out, "#   (to set it anyway: CONFIG_%s=y)\n", o->name);
		return;
	}
	set_line(out, o, o->kc.entry);
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
		if (f->kc.entry && k->closure && !o->closed) {
			fputs("#   not in the database's Kconfig facts, so not closed: merge_config.sh may drop it\n",
			      out);
			fprintf(out, "#   (to set it anyway: CONFIG_%s=y)\n", o->name);
			continue;
		}
		if (!f->kc.entry)
			fputs("#   no Kconfig entry in the source tree: merge_config.sh will ignore it\n", out);
		else if (!f->kc.prompt)
			fprintf(out, "#   hidden (%s): set by what selects it%s%s\n", f->kc.where,
				f->kc.depends ? "; depends on " : "", f->kc.depends ? f->kc.depends : "");
		set_line(out, o, f->kc.entry);
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
	if (k->closure)
		fprintf(out, "# closed over %s: %zu option%s brought in, each marked \"for\" what needs it\n",
			k->closure, k->nbrought, k->nbrought == 1 ? "" : "s");
	else
		fprintf(out, "# not closed over Kconfig: %s\n", k->no_closure ? k->no_closure : "?");
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].abi && (!k->v[i].hidden || needs_of(k, &k->v[i])))
			brought(out, &k->v[i]);
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
	for (size_t i = 0; i < k->nconds; i++) {
		fprintf(out, "\n# %s also needs: ", k->conds[i].item);
		unprefixed(out, k->conds[i].expr ? k->conds[i].expr : "?");
		fprintf(out, " (%s)\n", k->conds[i].where ? k->conds[i].where : "?");
	}
	for (size_t i = 0; i < k->nnotes; i++)
		fprintf(out, "\n# %s: %s, not required\n", k->notes[i].item, k->notes[i].why);
	functions(out, m);
	if (k->nbrought)
		fprintf(out, "\n# what the options above need on allnoconfig: %zu more\n", k->nbrought);
	for (size_t i = 0; i < k->n; i++) {
		const struct kneed *o = &k->v[i];

		if (o->closed && o->because && !o->nneeded && !o->nfuncs)
			brought(out, o);
	}
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_kconfig = {
    {"kconfig", "a fragment for scripts/kconfig/merge_config.sh"}, render, true, NULL};
