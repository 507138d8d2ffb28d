/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KMAINT_H
#define KF_KMAP_KMAINT_H

#include <stddef.h>

#include "ktree/ktree.h"

/*
 * Who to ask about a file of the tree, from its MAINTAINERS sections (most specific first), as get_maintainer.pl
 * prints it (kmaint.c): who is "Name <addr>" or a list's address, role "maintainer:SECTION", "open list:SECTION";
 * people first, then lists, each once. A pure function of the sections, for the renderers and the map's JSON.
 */
struct kmap_person {
	char *who, *role;
};
size_t kmap_maintainers(const struct kt_section_match *m, size_t n, struct kmap_person **out);
void kmap_maintainers_free(struct kmap_person *v, size_t n);

/*
 * The summary of who to ask: for each MAINTAINERS section that is the most specific of a required syscall's or
 * refinement's chain, how many such items, and the options on their paths ("EVENTFD", "!POSIX_TIMERS"); most
 * items first. *items: how many required items have a chain. Free with kmap_who_to_ask_free().
 */
struct fp_kernel_map;
struct kmap_asked {
	const struct kt_section_match *section;
	size_t items;
	const char **opts;
	size_t nopts;
};
size_t kmap_who_to_ask(const struct fp_kernel_map *m, struct kmap_asked **out, size_t *items);
void kmap_who_to_ask_free(struct kmap_asked *v, size_t n);

#endif
