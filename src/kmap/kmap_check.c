// SPDX-License-Identifier: GPL-2.0
/* The mapping's self-check against the running kernel: see kmap_check.h. */
#include "kmap/kmap_check.h"

#include <string.h>

#include "util/xalloc.h"

/* The calls of the required syscall or refinement named by that succeeded; 0 when none is named so. */
static uint64_t succeeded(const struct fp_kernel_map *m, const char *by)
{
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].required && m->rows[i].observed && !strcmp(m->rows[i].name, by))
			return m->rows[i].calls - m->rows[i].errors;
	for (size_t i = 0; i < m->nreach; i++)
		if (m->reach[i].required && !strcmp(m->reach[i].label, by))
			return m->reach[i].calls - m->reach[i].errors;
	return 0;
}

enum kmap_check_state kmap_check(const struct fp_kernel_map *m, struct kmap_contra **out, size_t *n)
{
	size_t cap = 0;
	bool observed = false;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < m->nrows && !observed; i++)
		observed = m->rows[i].observed;
	if (!observed)
		return KMAP_CHECK_NO_FOOTPRINT;
	if (!m->run || !m->run->have_config)
		return KMAP_CHECK_NO_CONFIG;
	if (!m->recorded_on || strcmp(m->recorded_on, m->run->release))
		return KMAP_CHECK_OTHER_KERNEL;
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];
		bool listed = kf_running_config_listed(m->run, o->name);
		const char *v = !o->running || strcmp(o->running, "n") ? NULL : listed ? "n" : "absent";

		/* an option another version does not name may have been renamed or merged: only off, then */
		if (!v || (!listed && m->mismatch))
			continue;
		for (size_t j = 0; j < o->nneeded; j++) {
			uint64_t ok = succeeded(m, o->needed_by[j]);
			if (!ok)
				continue;
			XGROW(*out, cap, *n + 1);
			(*out)[(*n)++] = (struct kmap_contra){o->name, v, o->needed_by[j], ok};
		}
	}
	return KMAP_CHECKED;
}

const char *kmap_check_state_name(enum kmap_check_state s)
{
	switch (s) {
	case KMAP_CHECKED: return "checked";
	case KMAP_CHECK_NO_FOOTPRINT: return "no footprint";
	case KMAP_CHECK_NO_CONFIG: return "no running configuration";
	case KMAP_CHECK_OTHER_KERNEL: return "recorded on another kernel";
	}
	return "?";
}
