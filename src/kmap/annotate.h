/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_ANNOTATE_H
#define KF_KMAP_ANNOTATE_H

#include <stddef.h>

#include "footprint/footprint.h"
#include "kmap/kmap.h"
#include "util/options.h"

/*
 * The annotate stage of the pipeline: backend -> footprint -> annotate -> renderers. It joins the items of a
 * footprint with kernel knowledge and attaches the result to the footprint itself (the struct fp_annot of each
 * item, and a struct fp_attachment owning what they point at), where the renderers and the JSON writer find
 * it: a footprint annotated once is written once. Items are syscalls and what their calls reached (fd kinds,
 * socket families, filesystems, ioctl commands, namespaces...: struct fp_reach) and the parts of each kind of
 * observation (annotate_kinds(): each kind's annotator). Everything a renderer shows is resolved here, before it runs:
 * the chains of the functions' files, the options a mapping needs with their Kconfig facts (kmap/kneeds.h).
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
 * What the annotate stage is given for the kinds of observation: map's inputs and options, or record --map's
 * built-in ones. Each kind's database, made once (to be saved, then used), is the context's.
 */
struct annotate_ctx {
	const struct mapdb *db;	      /* the syscalls' database (its tree index with --kernel-src) */
	enum kf_abi abi;	      /* db's */
	const char *kernel_src;	      /* --kernel-src; NULL: a saved database */
	bool no_cache;		      /* --no-cache */
	bool db_given;		      /* --db: a saved database that is not the built-in one */
	const char *vmlinux;	      /* --vmlinux */
	const char *source_root;      /* inventory --source-root: sources read for kernel lines; NULL: kernel_src */
	const char *kallsyms;	      /* --kallsyms */
	bool no_running;	      /* --no-running */
	const struct kf_running *run; /* the running kernel; NULL when not consulted */
	const char *file;	      /* the footprint's file (map); NULL: record --map */
	const char *err_prefix;	      /* before a message ("--map: "), or "" */
	void *kind_db[FP_KINDS_MAX];  /* each kind's database once made, by its index in fp_kinds[] */
};

/* A kind's annotator (struct fp_kind's annotator). */
struct kind_annotator {
	/* Its options of map (their values in its own struct), in map's table where OPT_GROUP puts them; or NULL. */
	const struct kf_option *map_options;
	void *map_values;
	size_t map_values_size;
	/* Checks them against map's --kernel-src; 0, or -1 after a message. */
	int (*check)(const char *kernel_src);
	/* The file map is asked to save the kind's database into (an output of map), or NULL. */
	const char *(*save_path)(void);
	/* Makes its database with ctx into *db (when not made yet): 0, or -1 after a message. */
	int (*make_db)(const struct annotate_ctx *ctx, void **db);
	/* Writes a database it made (the saved form): 0, or -1 on a write error (errno set). */
	int (*write_db)(FILE *out, const void *db);
	/*
	 * Maps fp's part of the kind with ctx and its database (*db, made when NULL) and attaches the result to fp;
	 * map, one of fp's mappings or NULL, takes it too. 0 (also when fp has no part, or the kind said why it
	 * could not map it and the syscalls' map stands), or -1 after a message: the mapping cannot go on.
	 */
	int (*annotate)(struct footprint *fp, const struct fp_kernel_map *map, struct annotate_ctx *ctx, void **db);
	/*
	 * For inventory, which must place every item as map would whatever the footprint carries: maps fp's part as
	 * annotate() does, and tells o each item with the place it got now (NULL: none). 0, or -1 after a message.
	 */
	int (*observe)(struct footprint *fp, struct annotate_ctx *ctx, void **db, struct fp_observer *o);
	void (*free_db)(void *db);
};

/* Every kind's annotate(), in the order of fp_kinds[]: 0, or -1 at the first that failed. */
int annotate_kinds(struct footprint *fp, const struct fp_kernel_map *map, struct annotate_ctx *ctx);
/* The kinds' databases of ctx, freed. */
void annotate_ctx_release(struct annotate_ctx *ctx);
/* map as fp's own mapping, which a kind's annotator may change (kmap.h's kinds' parts); NULL when it is not fp's. */
struct fp_kernel_map *annotate_own_map(const struct footprint *fp, const struct fp_kernel_map *map);

/* The mappings attached to fp, in the order they were made; *maps stays valid while fp lives. */
size_t annotate_maps(const struct footprint *fp, const struct fp_kernel_map *const **maps);

/*
 * A mapping of fp by the built-in database of each ABI it used, held beside it, not attached: fp is not
 * changed, so what it writes is not either. For the text summary's kconfig: and maintainers: lines of a
 * footprint without a mapping of its own; renderers read it (text_opts.view) and resolve nothing.
 */
struct kmap_view {
	struct fp_kernel_map **maps;
	struct mapdb **dbs;
	size_t n;
};
/* kfacts: with the databases' Kconfig facts (a renderer that reads the closure), else without: 3x faster to load. */
void annotate_view(const struct footprint *fp, struct kmap_view *v, bool kfacts);
void kmap_view_release(struct kmap_view *v);

#endif
