/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KTREE_KFDEFS_H
#define KF_KTREE_KFDEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The function definitions of a kernel tree: every function defined in its .c files, the static inlines of
 * its headers and the SYM_FUNC_START entries of its assembly, with file:line, for the map of kernel functions
 * (a name as ftrace or kallsyms shows it -> the file that defines it). Read with a line scanner, not a
 * compiler: a definition is a line at column 0 naming `name(` whose parameter list is followed by `{`; the
 * function-defining macros that matter are expanded (SYSCALL_DEFINEn gives __x64_sys_X, __do_sys_X ...,
 * BPF_CALL_n, DEFINE_SHOW_ATTRIBUTE gives X_open); any other MACRO(...) { is counted as not parsed.
 *
 * The tree is read whole but for Documentation, tools, samples, scripts and the other architectures
 * (arch/<arch> only, without arch/x86/um). Cached like the syscall index (kt_cache_dir()), valid while every
 * file read keeps its mtime and size.
 */
struct kt_fdefs;

/* One definition; name and file point into the index. */
struct kt_fdef {
	const char *name;
	const char *file; /* tree-relative: "fs/eventfd.c" */
	int line;
	const char *via; /* the macro that defined it ("SYSCALL_DEFINE2"), NULL for a plain definition */
};

struct kt_fdefs_stats {
	size_t files, bytes;	/* files read and their size */
	size_t defs, names;	/* definitions, distinct names */
	size_t ambiguous;	/* names defined in more than one file */
	size_t by_macro;	/* definitions that came from a known macro */
	size_t unparsed;	/* MACRO(...) { lines at column 0 whose macro is not known: not indexed */
	char unparsed_top[256]; /* the most frequent of those, "TRACE_EVENT_FN 12, ..." */
	bool from_cache;
	double seconds; /* to build or load */
};

enum kt_fdefs_flags {
	KT_FDEFS_NO_CACHE = 1 << 0,
};

/* Indexes the tree at srcdir for arch ("x86"). NULL with *err (malloc'd) when srcdir is not a kernel tree. */
struct kt_fdefs *kt_fdefs_build(const char *srcdir, const char *arch, unsigned flags, char **err);
/* An index of text files given by the caller (tests and fuzzing): each file's tree-relative path and text. */
struct kt_fdefs *kt_fdefs_from_texts(const char *const *paths, const char *const *texts, size_t n);
void kt_fdefs_free(struct kt_fdefs *d);
void kt_fdefs_stats(const struct kt_fdefs *d, struct kt_fdefs_stats *st);

/*
 * The definitions of a name (exactly as given: see kt_fdefs_base() for ".isra.0"), one per distinct file (the
 * first line in that file), in file order. Returns their number and sets *out to them (valid while d lives).
 */
size_t kt_fdefs_find(const struct kt_fdefs *d, const char *name, const struct kt_fdef **out);
/* All definitions, sorted by name then file: 0 <= i < kt_fdefs_count(d), for saving a database. */
size_t kt_fdefs_count(const struct kt_fdefs *d);
const struct kt_fdef *kt_fdefs_at(const struct kt_fdefs *d, size_t i);

/*
 * The name a compiler-made copy stands for: "foo" for "foo.isra.0", "foo.constprop.0", "foo.cold", "foo.part.0"
 * (everything from the first '.'), written into buf; name itself when it has none.
 */
const char *kt_fdefs_base(const char *name, char *buf, size_t len);

#endif
