// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's index of the workload-wide syscalls[] by (ABI, name): each per-process key and each new row is
 * looked up by name, which a scan of the table made quadratic in the rows (10,000 rows: 1.5 s; 200,000: over a
 * minute). Open addressing, at most half full.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint_json_read.h"
#include "util/fnv.h"
#include "util/xalloc.h"

static uint32_t slot_of(const struct ld_names *n, enum kf_abi abi, const char *name)
{
	return (uint32_t)(fnv1a64(name, FNV1A64_INIT ^ (uint64_t)abi) & (n->cap - 1));
}

const struct fp_sysstat *ld_names_find(const struct ld_names *n, enum kf_abi abi, const char *name)
{
	if (!n->cap)
		return NULL;
	for (uint32_t i = slot_of(n, abi, name);; i = (i + 1) & (n->cap - 1)) {
		const struct fp_sysstat *s = n->slots[i];

		if (!s)
			return NULL;
		if (s->abi == abi && !strcmp(s->name, name))
			return s;
	}
}

static void put(struct ld_names *n, const struct fp_sysstat *s)
{
	uint32_t i = slot_of(n, s->abi, s->name);

	while (n->slots[i])
		i = (i + 1) & (n->cap - 1);
	n->slots[i] = s;
}

void ld_names_add(struct ld_names *n, const struct fp_sysstat *s)
{
	if (2 * (n->count + 1) > n->cap) {
		struct ld_names old = *n;

		n->cap = old.cap ? 2 * old.cap : 64;
		n->slots = xcalloc(n->cap, sizeof(*n->slots));
		for (uint32_t i = 0; i < old.cap; i++)
			if (old.slots[i])
				put(n, old.slots[i]);
		free(old.slots);
	}
	put(n, s);
	n->count++;
}

void ld_names_release(struct ld_names *n)
{
	free(n->slots);
	memset(n, 0, sizeof(*n));
}
