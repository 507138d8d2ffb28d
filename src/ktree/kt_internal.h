/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KERNEL_KT_INTERNAL_H
#define KF_KERNEL_KT_INTERNAL_H

/* Internals of the kernel tree index shared by the kt_*.c files; the public API is kernel/ktree.h. */

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>

#include "ktree/ktree.h"
#include "util/strbuf.h"

/* ---- small containers (kt_util.c) ---- */

/* String-keyed hash map; keys are copied, values are the caller's. */
struct kt_map {
	char **keys;
	void **vals;
	size_t cap, len;
};
void *kt_map_get(const struct kt_map *m, const char *key);
/* Inserts or replaces; returns the previous value (or NULL). */
void *kt_map_put(struct kt_map *m, const char *key, void *val);
void kt_map_release(struct kt_map *m, void (*free_val)(void *));

struct kt_strv {
	char **v;
	size_t n, cap;
};
void kt_strv_push(struct kt_strv *sv, const char *s);
bool kt_strv_has(const struct kt_strv *sv, const char *s);
/* True when word is one of the space-separated words of list ("X86 MMU 64BIT"). */
bool kt_word_in(const char *list, const char *word);
void kt_strv_release(struct kt_strv *sv);

/*
 * Reads a whole regular file into a NUL-terminated malloc'd buffer; NULL with errno set on failure. Anything
 * else is refused without blocking or reading: a directory with EISDIR, a FIFO, a device or a socket with
 * ENODEV (kt_strerror(): "not a regular file"), so that a FIFO planted in a tree cannot hang the index; a file
 * past KT_FILE_MAX with EFBIG.
 */
#define KT_FILE_MAX (256ull << 20) /* the largest file of a 6.1 tree is 24 MB (an amdgpu register header) */
/* kt_read_file() is in ktree.h: the map database reads the tree's syscall table with it. */
/* kt_read_file() for a file of the tree: one that is not a regular file, or too large, is skipped with a warning. */
char *kt_read_tree_file(const char *path, size_t *len);
/* strerror(), with "not a regular file" for kt_read_file()'s ENODEV. */
const char *kt_strerror(int err);
/*
 * Appends to ln the logical line at *l (physical lines ending in a backslash joined, the backslash dropped,
 * sep between the parts: make keeps a space, Kconfig nothing), advances *l past it and counts *lineno.
 */
void kt_logical_line(const char **l, struct strbuf *ln, int *lineno, const char *sep);
/* Joins srcdir and a relative path into a malloc'd string. */
char *kt_path(const char *srcdir, const char *rel);
bool kt_is_dir(const char *path);
/* A directory that is not a symlink (walks never follow links to directories). */
bool kt_is_real_dir(const char *path);
bool kt_is_file(const char *path);
/* Whether a walk takes an entry of a directory: rel is its tree-relative path, name its own name. */
typedef bool (*kt_want_fn)(const char *rel, const char *name, bool is_dir, const void *ctx);
/*
 * Lists the directory rel of srcdir ("": the top) for a walk: the subdirectories and the regular files that want
 * takes, as tree-relative paths appended to dirs and files, each list sorted. Names starting with '.' and
 * symlinked directories are left out. False when the directory cannot be opened.
 */
bool kt_list_dir(const char *srcdir, const char *rel, kt_want_fn want, const void *ctx, struct kt_strv *dirs,
		 struct kt_strv *files);

/* ---- conditions (kt_cond.c) and their expressions (kt_expr.c) ---- */

/* Looks up a symbol's value ("y", "m", string, NULL for n); used to evaluate conditions. */
typedef const char *(*kt_lookup_fn)(void *ctx, const char *name);

struct kt_condv {
	struct kt_cond *v;
	size_t n, cap;
};
void kt_cond_copy(struct kt_cond *dst, const struct kt_cond *src);
void kt_cond_release(struct kt_cond *c);
void kt_condv_push(struct kt_condv *cv, const struct kt_cond *c); /* deep copy */
void kt_condv_release(struct kt_condv *cv);
/* A single-symbol condition; sym without CONFIG_ for options, kind chosen by the caller. */
void kt_cond_single(struct kt_cond *c, enum kt_cond_kind kind, const char *sym, bool negated, const char *expr,
		    const char *where);
/* A compound condition: expr is a C preprocessor expression (or "!(...)" of one). */
void kt_cond_compound(struct kt_cond *c, enum kt_cond_kind kind, const char *expr, bool negated, const char *where);
/*
 * C identifiers: a first character, a following one, the length of the one at p (0: none there). Inline: the
 * scanners call them for every byte of a name.
 */
static inline bool kt_ident_start(int ch)
{
	return isalpha(ch) || ch == '_';
}

static inline bool kt_ident_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

static inline size_t kt_ident_len(const char *p, const char *end)
{
	const char *b = p;

	while (p < end && kt_ident_char((unsigned char)*p))
		p++;
	return (size_t)(p - b);
}
/* Evaluates a cond: true when it holds. Unknown constructs evaluate as true (never exclude code on a guess). */
bool kt_cond_eval(const struct kt_cond *c, kt_lookup_fn lookup, void *ctx);
/* Evaluates a C preprocessor #if expression; *ok false when it could not be parsed (kt_expr.c). */
long kt_cpp_eval(const char *expr, kt_lookup_fn lookup, void *ctx, bool *ok);
/* Evaluates a Kconfig expression to 0 (n), 1 (m) or 2 (y) (kt_expr.c). */
int kt_kexpr_eval(const char *expr, kt_lookup_fn lookup, void *ctx);
/* A number in a Kconfig expression (12, -1, 0x1f), not a symbol such as 64BIT. */
bool kt_kexpr_number(const char *word);

/*
 * Splits a preprocessor condition into an AND of single-symbol conditions when it is one ("defined(CONFIG_A)
 * && !defined(__ARCH_WANT_B)", "IS_ENABLED(CONFIG_X)", "CONFIG_X"), else one compound condition.
 * negate applies to the whole expression (an #else branch). Symbols starting with CONFIG_ lose the prefix and
 * give kind `kind`; __ARCH_WANT_* give KT_COND_ARCH_WANT.
 */
void kt_cpp_conds(struct kt_condv *out, const char *expr, bool negate, enum kt_cond_kind kind, const char *where);

/* ---- source scanner (kt_scan.c) ---- */

struct kt_def {
	char *name;  /* "eventfd2" or "ksys_mmap_pgoff" */
	char *macro; /* "SYSCALL_DEFINE2", "COMPAT_SYSCALL_DEFINE3", "SYS_NI", "FUNC" (ksys_ definition) */
	bool compat;
	char *file; /* tree-relative */
	int line;
	struct kt_condv conds; /* #if stack at the definition, innermost first */
	char *calls_ksys;      /* a short body calling ksys_X(): "ksys_X" */
};

/* `#include "x.c"` of one .c file by another. */
struct kt_inc {
	char *file; /* the included file, tree-relative */
	char *by;   /* the including file */
	int line;
	struct kt_condv conds;
};

struct kt_scan {
	struct kt_def *defs;
	size_t ndefs, capdefs;
	struct kt_inc *incs;
	size_t nincs, capincs;
	struct kt_strv cond_syscalls;	  /* names in kernel/sys_ni.c COND_SYSCALL / COND_SYSCALL_COMPAT */
	struct kt_strv arch_want;	  /* __ARCH_WANT_* defined for the arch (evaluated later): raw entries */
	struct kt_condv *arch_want_conds; /* parallel to arch_want */
	size_t files_read;
	size_t bytes_read;
	struct kt_strv seen;   /* tree-relative files read and directories listed, for the cache's validity check */
	const char *want_func; /* kt_reach: record this function's column-0 definition (as "FUNC"), not ksys_* */
	struct kt_map fn_want; /* kt_reach_switch.c: functions whose definitions are recorded as "fn NAME" facts */
};
/* Scans the directories that can hold syscalls for arch (e.g. "x86"). Returns -1 with *err on a fatal error. */
int kt_scan_tree(struct kt_scan *sc, const char *srcdir, const char *arch, char **err);
/* Scans one file's text (exposed for the tests). rel is the tree-relative path. */
void kt_scan_text(struct kt_scan *sc, const char *rel, const char *text, size_t len);
void kt_scan_release(struct kt_scan *sc);

/*
 * ---- what refinements reach (kt_reach_scan.c: the scanner's half; kt_reach_prepare.c: before resolving;
 * kt_reach.c: keys; kt_resolve.c resolves) ----
 */

/*
 * Registrations are kept as kt_defs whose name is a key with a space: "fs ext4", "af AF_UNIX", "anon [eventfd]",
 * "chr UNIX98_PTY_SLAVE_MAJOR", "chr TTYAUX_MAJOR:2", "misc KVM_MINOR", "blk LOOP_MAJOR", "binfmt script"; macro
 * is how ("register_filesystem"), calls_ksys the registered object ("ext4_fs_type"). Raw facts resolved later:
 * "raw bpf_prog X" (include/linux/bpf_types.h, calls_ksys the ops it names), "def X" (where those ops are
 * defined), "alias X" (calls_ksys the new name of a #define'd binfmt in a file that #includes another).
 */
struct kt_reach_at {
	void (*conds)(const void *st, struct kt_condv *out); /* the #if stack at the line, innermost first */
	const void *st;
};
/* Where the next needles of a file are (kt_reach_scan.c), so that a line is searched only when it holds one. */
#define KT_REACH_NEEDLES 9
struct kt_reach_cursor {
	const char *next[KT_REACH_NEEDLES], *end;
	bool bpf_types; /* the file is include/linux/bpf_types.h */
};
/* Sets the cursor at the start of a file's text; false when it holds no registration (the scanner skips it). */
bool kt_reach_wanted(struct kt_reach_cursor *cur, const char *rel, const char *text, size_t len);
/* One source line [l, eol) of text (the whole file, for initializers): records its registrations. */
void kt_reach_scan_line(struct kt_scan *sc, struct kt_reach_cursor *cur, const char *rel, const char *text, size_t len,
			const char *l, const char *eol, int line, const struct kt_reach_at *at);
/* A #define directive (d: "define A B"): records a binfmt alias. */
void kt_reach_scan_define(struct kt_scan *sc, const char *rel, const char *d, int line, const struct kt_reach_at *at);
/* Appends a kt_def of that key (how: its macro, obj: its calls_ksys, may be NULL) with no conditions yet. */
struct kt_def *kt_reach_push(struct kt_scan *sc, const char *key, const char *how, const char *file, int line,
			     const char *obj);
/* True for a registration (or raw fact) kt_def, which is never a syscall candidate. */
bool kt_reach_def(const struct kt_def *d);
/* True for a registration that is a target (not a raw fact, not a device number the headers do not name). */
bool kt_reach_target(const struct kt_def *d);
/*
 * Before resolving: device numbers from include/uapi/linux/major.h and include/linux/miscdevice.h ("chr 136"),
 * the bpf types at the definitions of their ops, the #define'd binfmts of #including files, and the rows of the
 * reviewed table (data/reach-map.tsv) with their function's #if stack, all as more kt_defs.
 */
struct kt_index;
void kt_reach_prepare(struct kt_index *idx);
/*
 * Refinements that are the cases of a switch (kt_reach_switch.c): before the walk, the functions the cases call
 * become sc->fn_want; the walk records their column-0 definitions in .c files as "fn NAME" facts (files where
 * kt_reach_fn_wanted() is true, lines starting at column 0 through kt_reach_fn_line()); before resolving,
 * kt_reach_switches() makes a target "KIND CASE" of every case ("fcntl F_NOTIFY") at its first callee found.
 */
void kt_reach_switch_want(struct kt_scan *sc, const char *srcdir);
bool kt_reach_fn_wanted(const struct kt_map *want, const char *text, size_t len);
void kt_reach_fn_line(struct kt_scan *sc, const char *rel, const char *l, const char *eol, const char *end, int line,
		      const struct kt_reach_at *at);
void kt_reach_switches(struct kt_scan *sc, const char *srcdir);
/* The reviewed table, embedded (kt_reach_data.c), NUL-terminated. */
extern const char kt_reach_table[];

/* ---- Makefile/Kbuild (kt_makefile.c parses one, kt_kbuild.c walks them) ---- */

struct kt_mkassign {
	char *lhs;    /* expanded left-hand side: "obj-$(CONFIG_X)" kept symbolic, "obj-y", "mmu-y" */
	char *op;     /* ":=", "+=", "=", "?=" */
	char **words; /* right-hand side words, $(VAR) of known variables expanded */
	size_t nwords;
	int line;
	struct kt_condv conds; /* enclosing ifeq/ifdef blocks, innermost first */
};

struct kt_makefile {
	char *path; /* tree-relative: "kernel/Makefile" or "fs/Kbuild" */
	struct kt_mkassign *as;
	size_t nas, capas;
};
/*
 * Parses Makefile text. vars gives the builtin variables (SRCARCH, BITS, ...). Never fails: unparsable lines
 * are skipped.
 */
void kt_makefile_parse(struct kt_makefile *mk, const char *path, const char *text, const struct kt_map *vars);
void kt_makefile_release(struct kt_makefile *mk);
/* "$(CONFIG_X)" -> "X" (malloc'd); NULL when s is not exactly one config reference. */
char *kt_mk_config_ref(const char *s);

struct kt_kbuild;
/* lookup (may be NULL) evaluates conditions when a file is listed by several lines (obj-$(CONFIG_X86_32) and
 * obj-$(CONFIG_IA32_EMULATION) += sys_ia32.o): the first line whose conditions hold is taken, else the first. */
struct kt_kbuild *kt_kbuild_new(const char *srcdir, const struct kt_map *vars, kt_lookup_fn lookup, void *ctx);
void kt_kbuild_free(struct kt_kbuild *kb);
/*
 * Resolves how the tree-relative file dir/x.c gets into vmlinux: appends the Makefile conditions (object, variable,
 * if-blocks, every parent directory up to the top) to out and sets the object, Makefile and line.
 * Returns 0, or -1 with *why set (malloc'd) when the chain breaks.
 */
int kt_kbuild_resolve(struct kt_kbuild *kb, const char *cfile, struct kt_condv *out, char **object, char **makefile,
		      int *line, char **why);

/* ---- Kconfig (kt_kconfig.c) ---- */

struct kt_kconfig {
	struct kt_map opts; /* name -> struct kt_option * */
	struct kt_map raw;  /* name -> struct kt_option_raw * */
	struct kt_map rsel; /* name -> struct kt_strv * of "SELECTOR[ if EXPR]" (reverse select) */
	struct kt_map rimp; /* same for imply */
	size_t nentries;
	size_t nfiles;
	struct kt_strv seen; /* as in struct kt_scan */
};
/* Parses every Kconfig file for arch (arch/<arch> first, then generic; never scripts/kconfig/tests). */
void kt_kconfig_load(struct kt_kconfig *kc, const char *srcdir, const char *arch);
/* Parses one Kconfig text (for tests and fuzzing); rel is the path recorded in the entries. */
void kt_kconfig_parse(struct kt_kconfig *kc, const char *rel, const char *text);
/* Fills selected_by/implied_by; call after the last parse. */
void kt_kconfig_finish(struct kt_kconfig *kc);
void kt_kconfig_release(struct kt_kconfig *kc);
void kt_option_free(struct kt_option *o);
/* Internal: the raw select/default lists of an option (kept out of the public struct). */
struct kt_option_raw {
	struct kt_strv selects; /* "SYM" or "SYM if EXPR" */
	struct kt_strv implies;
	struct kt_strv defaults; /* "EXPR" or "EXPR if COND" */
	/*
	 * Choices: a member names its choice's key here; the choice itself is a raw entry under that key
	 * ("choice@arch/x86/Kconfig:12", which no symbol can be called) with its defaults and members in order.
	 */
	char *choice;
	struct kt_strv members;
};
/* The key of a choice's raw entry starts with this (kt_option_raw(kc, member->choice) finds it). */
#define KT_CHOICE_PREFIX "choice@"
struct kt_option_raw *kt_option_raw(const struct kt_kconfig *kc, const char *name);
void kt_option_raw_free(struct kt_option_raw *r);

/* ---- MAINTAINERS (kt_maintainers.c) ---- */

struct kt_maint;
/* Parses MAINTAINERS text. srcdir (may be NULL) is used to append '/' to patterns naming a directory. */
struct kt_maint *kt_maint_parse(const char *text, const char *srcdir);
void kt_maint_free(struct kt_maint *m);
size_t kt_maint_nsections(const struct kt_maint *m);
/* Matching sections for a tree-relative path, sorted (depth desc, literal before wildcard, file order). */
size_t kt_maint_match(const struct kt_maint *m, const char *path, struct kt_section_match **out);

/* ---- the index (kt_index.c: the tree and option values; kt_resolve.c: the chain of each syscall) ---- */

struct kt_index {
	char *srcdir;
	enum kf_abi abi;
	char *arch;
	char version[128];
	struct kt_config *cfg;
	struct kt_map vars;
	struct kt_scan scan;
	struct kt_kbuild *kb;
	struct kt_kconfig kc;
	struct kt_maint *maint;
	bool have_maint;
	struct kt_map chains;	    /* file -> struct chain * */
	struct kt_map memo;	    /* option -> value string (or &off) for the Kconfig-derived defaults */
	struct kt_map byname;	    /* table name -> (index + 1) */
	struct kt_strv arch_on;	    /* __ARCH_WANT_* in force */
	struct kt_strv tree_rows;   /* names in the tree's own syscall table; empty when it has none */
	struct kt_map compat_entry; /* i386: name -> compat entry point (syscall_32.tbl's 5th column) */
	struct kt_syscall *sys;
	size_t nsys;
	bool from_cache;
	struct kt_syscall *reach; /* what refinements reach, by key (kt_resolve_reach) */
	size_t nreach;
	struct kt_strv reach_keys;  /* their keys, sorted; reach[i].name points here */
	struct kt_map reach_byname; /* key -> (index + 1) */
};

/* Symbols as conditions name them: CONFIG_X, X, __ARCH_WANT_X, a few arch macros; a kt_lookup_fn on an index. */
const char *kt_index_lookup(void *ctx, const char *name);
/* The value of an option (no CONFIG_): the configuration's, or the Kconfig-derived default; NULL for n. */
const char *kt_index_value(struct kt_index *idx, const char *name);
/* Resolves the chain of one table row into s. */
void kt_resolve(struct kt_index *idx, struct kt_syscall *s, const struct kf_syscall *row);
/* Resolves every target a refinement can reach (idx->reach), after the syscalls. */
void kt_resolve_reach(struct kt_index *idx);
/* Frees an entry of idx->chains. */
void kt_chain_free(void *p);

/* ---- cache (kt_cache.c) ---- */

/*
 * The scan and the Kconfig entries are what costs (100 MB of C, 1,500 Kconfig files); the cache keeps both, keyed
 * by the tree's path and architecture, and valid while every file and directory read keeps its mtime and size.
 */
/* The cache file for a tree, or NULL when there is no cache directory. malloc'd. */
char *kt_cache_file(const char *srcdir, const char *arch);
/* Loads into empty sc and kc; 0 when the cache was valid, -1 otherwise (sc and kc left empty). */
int kt_cache_load(const char *file, const char *srcdir, const char *arch, struct kt_scan *sc, struct kt_kconfig *kc);
/* Writes atomically (creating the directory); -1 with *err set on failure. */
int kt_cache_save(const char *file, const char *srcdir, const char *arch, const struct kt_scan *sc,
		  const struct kt_kconfig *kc, char **err);

/*
 * The binary cache files' encoding and writing (kt_util.c, for kt_cache.c and kt_fdefs_cache.c): little-endian u64s; a
 * string is its length then its bytes (NULL: length UINT64_MAX); a tree file is its path, mtime and size, so a changed
 * file is seen.
 */
struct strbuf;
void kt_put_u64(struct strbuf *sb, uint64_t v);
void kt_put_str(struct strbuf *sb, const char *s);
void kt_put_stat(struct strbuf *sb, const char *srcdir, const char *rel);
/* A reader of that encoding: bad is set at the first read past the end, and every later read gives 0. */
struct kt_rd {
	const char *p, *end;
	bool bad;
};
uint64_t kt_get_u64(struct kt_rd *r);
/* A string as kt_put_str() wrote it, malloc'd; NULL for a NULL one and after a bad read. */
char *kt_get_str(struct kt_rd *r);
/* A tree file as kt_put_stat() wrote it: true when it still has that mtime and size (or is still missing). */
bool kt_get_stat(struct kt_rd *r, const char *srcdir);
/*
 * Writes a cache file whole (atomically, under the rule of every output), creating its directory and that
 * directory's parent; -1 with *err set (malloc'd) when it cannot.
 */
int kt_cache_write(const char *file, const struct strbuf *sb, char **err);

#endif
