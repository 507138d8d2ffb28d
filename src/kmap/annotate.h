/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_ANNOTATE_H
#define KF_KMAP_ANNOTATE_H

#include <stddef.h>

#include "footprint/footprint.h"
#include "kmap/kfmap.h"
#include "kmap/kmap.h"

/*
 * The annotate stage of the pipeline: backend -> footprint -> annotate -> renderers. It joins the items of a
 * footprint with kernel knowledge and attaches the result to the footprint itself (the struct fp_annot of each
 * item, and a struct fp_attachment owning what they point at), where the renderers and the JSON writer find
 * it: a footprint annotated once is written once. Items are syscalls and what their calls reached (fd kinds,
 * socket families, filesystems, ioctl commands, namespaces...: struct fp_reach) and kernel functions (struct
 * fp_kfunc, annotate_kfuncs() below).
 */

/*
 * The class and the API entry point of every syscall that has none yet, from the syscall tables (a loaded
 * footprint keeps the class it was saved with). Runs before every rendering.
 */
void annotate_classes(struct footprint *fp);

/*
 * Maps the syscalls of fp of db's ABI, and what their calls reached, with db and the running kernel (run NULL: not
 * consulted), sets each one's fp_annot.kernel (the workload-wide refinements' too) and adds the options to the
 * footprint's "configs" roll-up. db and run are borrowed: they must
 * outlive fp. Returns the mapping, which fp owns, for the map renderers.
 */
const struct fp_kernel_map *annotate_kernel(struct footprint *fp, const struct mapdb *db, const struct kf_running *run,
					    const char *subject);

/*
 * record --map: annotate_kernel() with the built-in database of the host ABI, and of every other ABI that has
 * one and that fp used, and the running kernel; fp owns them. 0, or -1 after reporting.
 */
int annotate_builtin(struct footprint *fp, const char *subject);

/*
 * Maps the kernel functions of fp (fp->kfuncs) with db and sets each one's fp_annot.kernel; fp owns the map and
 * writes its roll-ups as the top-level "kernel_functions_map". db is borrowed and must outlive fp. NULL when fp
 * has no kernel functions.
 */
const struct kfmap *annotate_kfuncs(struct footprint *fp, struct kfdb *db, const struct kfmap_opts *o);

/* The mappings attached to fp, in the order they were made; *maps stays valid while fp lives. */
size_t annotate_maps(const struct footprint *fp, const struct fp_kernel_map *const **maps);

#endif
