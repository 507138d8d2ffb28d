/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_MAPDB_INT_H
#define KF_KMAP_MAPDB_INT_H

#include "kmap/mapdb.h"

/* What mapdb.c (from an index) and mapdb_load.c (from a saved database) share. */
void mapdb_set_version(struct mapdb *db, const char *version); /* "6.1.192": db->version, ver, patch */
int mapdb_opt_cmp(const void *a, const void *b);	       /* options by name, for qsort and bsearch */

#endif
