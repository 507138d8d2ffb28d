/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KERNEL_KTREE_H
#define KF_KERNEL_KTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "abi/syscalls.h"

/*
 * The kernel tree index: from a kernel source tree to, for every syscall of an ABI, the chain
 *
 *   table row -> SYSCALL_DEFINE file:line (and the real implementation behind a wrapper)
 *             -> Makefile/Kbuild object and every condition that gates its build
 *             -> Kconfig entries of those options -> MAINTAINERS sections
 *
 * plus the kernel/sys_ni.c COND_SYSCALL "optional" mark. See docs/ktree.md for the rules followed.
 *
 * Lifetime: everything returned by kt_index_*() points into the index and stays valid until kt_index_free().
 * Paths are relative to the tree root ("fs/eventfd.c"); option names never carry the "CONFIG_" prefix.
 * Nothing here prints: errors come back as a malloc'd message in *err ("not a kernel tree: ..."), which the
 * caller reports and frees.
 */

/* ---- configuration ------------------------------------------------------------------------------------ */

/*
 * A kernel configuration: CONFIG_X -> "y", "m" or a string value. Options that are missing or
 * "# CONFIG_X is not set" read as NULL (i.e. 'n').
 */
struct kt_config;

/* An empty configuration (every option 'n'), to fill with kt_config_set(). */
struct kt_config *kt_config_new(void);
/*
 * Loads a .config-style file of at most KF_CONFIG_MAX bytes (util/input.h). kt_config_load_gz() reads gzip
 * (/proc/config.gz, config.gz, decompressed within the same limit) and plain files too; kt_config_load_file()
 * reads plain files only. NULL with *err set on failure.
 */
struct kt_config *kt_config_load_file(const char *path, char **err);
struct kt_config *kt_config_load_gz(const char *path, char **err);
/* name with or without "CONFIG_"; value "y", "m", a string, or NULL to unset. */
void kt_config_set(struct kt_config *cfg, const char *name, const char *value);
/* "y", "m", the string value (quotes kept as in the file), or NULL for 'n'. name with or without "CONFIG_". */
const char *kt_config_get(const struct kt_config *cfg, const char *name);
/* True when the option is "y" or "m". */
bool kt_config_enabled(const struct kt_config *cfg, const char *name);
size_t kt_config_count(const struct kt_config *cfg);
/* A deep copy (NULL for NULL). */
struct kt_config *kt_config_dup(const struct kt_config *cfg);
void kt_config_free(struct kt_config *cfg);

/* ---- data model --------------------------------------------------------------------------------------- */

/* Where a condition on the path from a definition to vmlinux was found. */
enum kt_cond_kind {
	KT_COND_MAKEFILE_OBJ, /* obj-$(CONFIG_X) += x.o (also through a composite: landlock-y -> landlock.o) */
	KT_COND_MAKEFILE_VAR, /* variable indirection: mmu-$(CONFIG_MMU) := mmap.o ... obj-y += $(mmu-y) */
	KT_COND_MAKEFILE_DIR, /* a parent directory: obj-$(CONFIG_NET) += net/ (up to the top-level Kbuild) */
	KT_COND_MAKEFILE_IF,  /* ifeq/ifneq/ifdef/ifndef block in a Makefile; the else branch is negated */
	KT_COND_SOURCE_IF,    /* #if/#ifdef/#ifndef/#elif/#else CONFIG_X around the definition in the .c file */
	KT_COND_INCLUDE,      /* #ifdef CONFIG_X around the #include of the .c file by another .c file */
	KT_COND_ARCH_WANT,    /* #ifdef __ARCH_WANT_X: defined (or not) by arch/<arch>/include/asm/unistd.h */
};

/*
 * One condition. All conditions of a syscall must hold together (AND). A condition is either one symbol
 * (option != NULL, possibly negated), or a compound preprocessor/Makefile expression that cannot be split
 * into an AND of symbols (option == NULL; expr holds the text and symbols[] every symbol it mentions).
 */
struct kt_cond {
	enum kt_cond_kind kind;
	char *option;	/* "EVENTFD" (no CONFIG_), "__ARCH_WANT_SYS_CLONE3" for KT_COND_ARCH_WANT, or NULL */
	bool negated;	/* the code is built when the option is OFF (else branch, #ifndef, !defined) */
	char *expr;	/* the source text of the condition, e.g. "ifeq ($(CONFIG_POSIX_TIMERS),y)" */
	char *where;	/* "kernel/time/Makefile:6" */
	char **symbols; /* every symbol the condition mentions (option alone when option != NULL) */
	size_t nsymbols;
	bool holds; /* evaluated against the configuration the index was built with (see kt_index_build) */
};

/* A MAINTAINERS section, by the rules of scripts/get_maintainer.pl. */
struct kt_section {
	char *name;	    /* "FUTEX SUBSYSTEM", "THE REST" */
	char *status;	    /* S: line, e.g. "Maintained"; NULL when absent */
	char **maintainers; /* M: lines, "Name <mail>" */
	size_t nmaintainers;
	char **reviewers; /* R: lines, "Name <mail>" */
	size_t nreviewers;
	char **lists; /* L: lines, "list@host" with what follows ("(moderated for non-subscribers)") */
	size_t nlists;
};

/* A matching section for a file, with the get_maintainer.pl depth it matched at (higher is more specific). */
struct kt_section_match {
	const struct kt_section *section;
	int depth;
};

enum kt_status {
	KT_RESOLVED,	  /* a definition was found and chosen (see unresolved for gaps further down the chain) */
	KT_NO_ENTRY,	  /* the table row has no entry point (afs_syscall, tuxcall, ...) */
	KT_NI_SYSCALL,	  /* the entry point is sys_ni_syscall (always -ENOSYS) */
	KT_NO_DEFINITION, /* no SYSCALL_DEFINE for the entry point in this tree (lookup_dcookie in 6.1) */
	KT_NOT_BUILT,	  /* definitions exist, but none is built for this architecture and configuration */
	KT_NOT_IN_TREE,	  /* the row is not in the tree's own syscall table: newer than the tree, never guessed */
};

struct kt_syscall {
	const char *name;  /* table name, "stat" */
	const char *entry; /* entry point, "sys_newstat" (NULL for KT_NO_ENTRY); for i386 on a 64-bit configuration
			    * the compat one of the tree's syscall_32.tbl, "compat_sys_ia32_mmap" */
	char *def_name;	   /* name inside SYSCALL_DEFINEn(...), "newstat"; NULL when not found */
	char *macro;	   /* "SYSCALL_DEFINE3", "COMPAT_SYSCALL_DEFINE2", "SYS_NI" */
	enum kt_status status;
	char *file; /* "fs/stat.c" */
	int line;
	/* Where the real work happens when the definition is a thin wrapper (x86_64 mmap -> ksys_mmap_pgoff). */
	char *impl_name; /* "ksys_mmap_pgoff", or NULL when the definition itself is the implementation */
	char *impl_file; /* "mm/mmap.c", or NULL */
	int impl_line;
	/* The object that carries the definition into vmlinux, and the Makefile line that builds it. */
	char *object;	/* "fs/eventfd.o" (the composite "security/landlock/landlock.o" when one) */
	char *makefile; /* "fs/Makefile" or ".../Kbuild" */
	int makefile_line;
	char *included_by;     /* "kernel/sched/build_utility.c" when the file is #included, not built itself */
	struct kt_cond *conds; /* innermost first: source #if, then object, then directories up to the top */
	size_t nconds;
	/* Distinct options on the path (no __ARCH_WANT_*), in the order of conds; for roll-ups. */
	char **options;
	size_t noptions;
	/* Matching MAINTAINERS sections, most specific first, THE REST last. */
	struct kt_section_match *sections;
	size_t nsections;
	bool optional; /* kernel/sys_ni.c has COND_SYSCALL(def_name) or COND_SYSCALL_COMPAT */
	/* Other definitions of the same name that were not chosen, as "file:line" (e.g. "mm/nommu.c:380"). */
	char **alternatives;
	size_t nalternatives;
	/*
	 * True when every link is known: definition, object + Makefile line (or the #include), a Kconfig entry for
	 * every option on the path, and at least one MAINTAINERS section.
	 */
	bool complete;
	char *unresolved; /* why the chain is not complete ("no SYSCALL_DEFINE in this tree"), or NULL */
	/* KT_NOT_BUILT: the first condition that fails, "CONFIG_MODULES is off (kernel/Makefile:55)"; else NULL */
	char *not_built;
};

/* A Kconfig entry (config or menuconfig). */
struct kt_option {
	char *name; /* "EVENTFD" */
	char *file; /* "init/Kconfig" */
	int line;
	char *type;	    /* "bool", "tristate", "int", "hex", "string"; NULL when untyped */
	char *prompt;	    /* the prompt text; NULL for a hidden option */
	char *prompt_if;    /* the "if" of the prompt ("EXPERT" for `bool "..." if EXPERT`), or NULL */
	char *depends;	    /* all "depends on" (and enclosing if/menu depends) joined with " && ", or NULL */
	char *defaults;	    /* "default"/"def_bool"/"def_tristate" values joined with "; ", or NULL */
	char **selected_by; /* reverse map: "X86_64" or "X86 if X86_64" for each `select NAME [if ...]` */
	size_t nselected_by;
	char **implied_by; /* same for `imply` */
	size_t nimplied_by;
	char *help;	  /* first paragraph of the help text, lines joined with spaces; NULL when none */
	int ndefinitions; /* how many entries define the name in the files considered (first one kept) */
};

/* "makefile-obj", "resolved": the names map databases and map JSON use; parse: -1 when unknown. */
const char *kt_cond_kind_name(enum kt_cond_kind k);
int kt_cond_kind_parse(const char *name);
const char *kt_status_name(enum kt_status s);
int kt_status_parse(const char *name);

/* ---- the index ---------------------------------------------------------------------------------------- */

struct kt_index;

/*
 * Builds (or loads from the cache) the index of the tree at srcdir for one ABI (x86_64, i386 and x32 use
 * arch/x86; aarch64 uses arch/arm64 and the generic table rows). cfg chooses between alternative definitions
 * and evaluates every kt_cond.holds; the index keeps its own copy, so the caller may free cfg afterwards.
 * With cfg NULL, options are evaluated from the tree's Kconfig for the architecture: the arch symbols
 * (X86, X86_64, 64BIT, MMU; X86_32 instead of X86_64/64BIT for the i386 ABI, i.e. a native 32-bit kernel) are
 * on, a hidden option is on only when a default or a select by an enabled option turns it on, and any option
 * with a prompt is assumed on (when its depends on allows it). For i386 with a configuration that has X86_64,
 * rows use the compat entry points of the tree's syscall_32.tbl (a 64-bit kernel with IA32_EMULATION).
 * Rows missing from the tree's own syscall table are KT_NOT_IN_TREE (newer than the tree).
 *
 * Returns NULL with *err set when srcdir is not a readable kernel tree (no Makefile with VERSION, no
 * kernel/, no arch/<arch>/). Problems with single files (unreadable Makefile, garbage Kconfig) do not fail
 * the build: the affected syscalls carry an unresolved reason.
 *
 * flags: KT_BUILD_NO_CACHE skips reading and writing the cache (see kt_cache_dir()).
 */
enum kt_build_flags {
	KT_BUILD_NO_CACHE = 1 << 0,
};
struct kt_index *kt_index_build(const char *srcdir, enum kf_abi abi, const struct kt_config *cfg, unsigned flags,
				char **err);
void kt_index_free(struct kt_index *idx);

/* "6.1.192" from the tree's top Makefile (VERSION.PATCHLEVEL.SUBLEVEL + EXTRAVERSION). */
const char *kt_index_version(const struct kt_index *idx);
/* The absolute path of the tree the index was built from. */
const char *kt_index_srcdir(const struct kt_index *idx);
enum kf_abi kt_index_abi(const struct kt_index *idx);
/* True when the index came from the cache (for -v diagnostics and the benchmark). */
bool kt_index_from_cache(const struct kt_index *idx);

/* By table name ("stat") for the index's ABI; NULL when the name is not in that ABI's table. */
const struct kt_syscall *kt_index_syscall(const struct kt_index *idx, const char *name);
/* All rows of the ABI's table in table order: 0 <= i < kt_index_nsyscalls(idx). */
size_t kt_index_nsyscalls(const struct kt_index *idx);
const struct kt_syscall *kt_index_syscall_at(const struct kt_index *idx, size_t i);

/* The Kconfig entry for an option (no "CONFIG_"); NULL when the tree does not define it for the arch. */
const struct kt_option *kt_index_option(const struct kt_index *idx, const char *name);
/*
 * The value the index used for an option: the configuration's value when cfg was given, otherwise the
 * Kconfig-derived default described at kt_index_build(). NULL means 'n'.
 */
const char *kt_index_option_value(const struct kt_index *idx, const char *name);

/*
 * MAINTAINERS sections for any tree-relative path, most specific first, THE REST last. Returns the count and
 * stores a malloc'd array in *out (free() it; the sections point into the index).
 */
size_t kt_index_file_sections(const struct kt_index *idx, const char *path, struct kt_section_match **out);

/*
 * What refinements reach (a footprint's "reached": an fd kind, a socket family, a filesystem, an ioctl command, a
 * namespace, a binfmt, a bpf program or map type...): every target the tree registers, each as a kt_syscall chain
 * (the same fields, resolved by the same rules) whose name is its key, in key order:
 *   "fs ext4"           register_filesystem() of a file_system_type whose .name is "ext4"
 *   "af AF_UNIX"        sock_register() of a net_proto_family whose .family is PF_UNIX
 *   "anon [eventfd]"    anon_inode_getfd/getfile*("[eventfd]", ...)
 *   "chr 136", "chr 5:2", "chr 10:232", "blk 7"   register_chrdev*, a tty driver's major, misc_register's
 *                       minor, register_blkdev (numbers from include/uapi/linux/major.h, include/linux/miscdevice.h)
 *   "binfmt script"     register_binfmt(&script_format) (compat_elf: compat_binfmt_elf.c's #define)
 *   "bpf_prog BPF_PROG_TYPE_XDP", "bpf_map BPF_MAP_TYPE_HASH"   include/linux/bpf_types.h, at the ops' definition
 *   "ioctl TC*", "ns CLONE_NEWNET", "prctl *", ...  rows of the reviewed table data/reach-map.tsv
 * macro says how it is registered ("register_filesystem", "data/reach-map.tsv:12"), def_name the registered
 * object or the table's function, file:line the registration (or the function); entry is NULL.
 */
size_t kt_index_nreach(const struct kt_index *idx);
const struct kt_syscall *kt_index_reach_at(const struct kt_index *idx, size_t i);
/*
 * The keys a refinement (kind, value as footprint.h spells them) may reach, best first, malloc'd into out (at most
 * max, 4 is enough): ("fd", "file:ext4") -> "fs ext4"; ("fd", "chr:136:3") -> "chr 136:3", "chr 136";
 * ("socket", "AF_INET:SOCK_STREAM:IPPROTO_TCP") -> "af AF_INET"; ("ioctl", "TCGETS") -> "ioctl TCGETS".
 */
size_t kt_reach_keys(const char *kind, const char *value, char **out, size_t max);
/*
 * The target of a refinement among n: the first key of kt_reach_keys() that one has, else the longest pattern
 * ("ioctl TC*") the first key starts with; NULL when none.
 */
const struct kt_syscall *kt_reach_find(const struct kt_syscall *const *t, size_t n, const char *kind,
				       const char *value);

/*
 * How any file of the tree gets into vmlinux, for kernel functions: the Makefile object (or the .c file that
 * #includes it), the options on that path ("NET", "!X" for one that must be off), whether all its conditions
 * hold in the index's configuration, and its MAINTAINERS sections (most specific first). A header has no
 * object (why says so). Returns 0 when the chain is complete, else -1 with why set; release with
 * kt_file_chain_release().
 */
struct kt_file_chain {
	char *object, *makefile, *included_by, *why;
	int line;
	char **options;
	size_t noptions;
	bool built;
	struct kt_section_match *sections;
	size_t nsections;
};
int kt_index_file_chain(struct kt_index *idx, const char *file, struct kt_file_chain *out);
void kt_file_chain_release(struct kt_file_chain *c);

/* The cache directory: $XDG_CACHE_HOME/kfootprint, else $HOME/.cache/kfootprint. malloc'd; NULL when neither set. */
char *kt_cache_dir(void);

/*
 * A file of the tree, read whole and NUL-terminated (*len, when given, its size): only a regular file of at most
 * 256 MiB; NULL with errno set otherwise (ENODEV for a FIFO, a device or a socket: see kt_internal.h).
 */
char *kt_read_file(const char *path, size_t *len);

/* ---- the compiled inventory (kt_compiled.c) ----------------------------------------------------------- */

/* How an object gets into the kernel. */
enum kt_built {
	KT_BUILT_IN,	 /* obj-y of a directory linked into vmlinux */
	KT_BUILT_LIB,	 /* lib-y: in a lib.a, linked into vmlinux only when something references it */
	KT_BUILT_MODULE, /* obj-m: a module */
};
const char *kt_built_name(enum kt_built b);

/* One source file Kbuild compiles under a configuration. */
struct kt_cfile {
	char *path;	/* tree-relative: "fs/eventfd.c", "arch/x86/entry/entry_64.S" */
	char *object;	/* the object it is linked as: "fs/eventfd.o", a composite's "security/landlock/landlock.o" */
	char *makefile; /* the Makefile or Kbuild that lists it */
	enum kt_built built;
	bool generated; /* no such source in the tree: the build makes it (path is then the would-be "dir/x.c") */
	bool assembler; /* a .S file */
	char **options; /* every option on the way from the top-level Kbuild to the object, outermost first */
	size_t noptions;
};

struct kt_compiled {
	struct kt_cfile *files; /* sorted by path, each once (built-in wins over lib.a over module) */
	size_t nfiles;
	size_t nmakefiles; /* Makefiles and Kbuild files read */
	size_t nmissing;   /* directories named by a Makefile that have neither */
	size_t nunknown;   /* words make would compute ($(addprefix ...), $(obj)/...): not evaluated */
};

/*
 * Every source file Kbuild compiles for arch ("x86") under cfg, walking forward from the top-level Kbuild (plus
 * the ARCH_CORE, ARCH_LIB and ARCH_DRIVERS directories of the top and arch Makefiles). NULL with *err set
 * (malloc'd) when srcdir is not a kernel tree. See docs/inventory.md for the rules and their limits.
 */
struct kt_compiled *kt_compiled_eval(const char *srcdir, const char *arch, const struct kt_config *cfg, char **err);
void kt_compiled_free(struct kt_compiled *c);

/* ---- the closure of needed options over Kconfig (kt_closure.c) ---------------------------------------- */

/* An option a footprint needs: value 'y' (or 'm') to be on, 'n' to be off. */
struct kt_want {
	const char *option; /* no CONFIG_ */
	char value;
};

/* How an option came into the closure: asked for, or which condition of `because` needs it. */
enum kt_need_how {
	KT_NEED_ROOT,	 /* asked for */
	KT_NEED_DEPENDS, /* in the `depends on` of because (with its enclosing if/menu) */
	KT_NEED_VISIBLE, /* in the `if` of because's prompt: without it the prompt, and so the assignment, is gone */
	KT_NEED_SELECTS, /* it selects the hidden because, which nothing else turns on */
	KT_NEED_DEFAULT, /* in the default that turns the hidden because on */
	KT_NEED_OFF,	 /* must stay off: because's condition says !option */
};
const char *kt_need_how_name(enum kt_need_how h);

struct kt_need {
	char *option;
	char value; /* 'y' or 'n': what the fragment asks */
	char final; /* 'y', 'm' or 'n': what the closure computes allnoconfig then gives it */
	enum kt_need_how how;
	char *because; /* the option whose condition brought it in; NULL for one asked for */
	char *expr;    /* that condition, macros expanded ("MISC_FILESYSTEMS && BLOCK") */
	bool hidden;   /* no visible prompt: a fragment cannot set it, it follows from the others */
};

struct kt_unmet {
	char *option;
	char *why; /* "needs X86_32 off (...)", "not defined by this tree's Kconfig" */
};

struct kt_closure {
	struct kt_need *needs; /* what was asked and holds, in the order asked, then what it brought in */
	size_t nneeds, capneeds;
	struct kt_unmet *unmet; /* what cannot hold, with why; what it would have brought in is left out */
	size_t nunmet, capunmet;
};

/*
 * The assignments that make every wanted value hold on allnoconfig for the index's architecture (give "64BIT"
 * among want for x86_64: x86's allnoconfig answers 32-bit). 0 when all hold, -1 when
 * some cannot (out->unmet). The kernel's own conf is the judge; this proposes what to hand it.
 */
int kt_index_closure(const struct kt_index *idx, const struct kt_want *want, size_t n, struct kt_closure *out);
void kt_closure_release(struct kt_closure *c);

/*
 * The Kconfig facts the closure reads (kt_kfacts.c), apart from a tree, for a map database to carry: of each symbol
 * its type, whether it has a prompt, the prompt's `if`, its `depends on`, its defaults as written ("EXPR" or "EXPR
 * if COND"), its selectors ("X86_64", "X86 if X86_64") and its choice; of a choice (name "choice@FILE:LINE") its
 * members and defaults. kt_kfacts_from_index() takes every symbol the closure of roots can look at (with the ABI's
 * tree_on words), by name; kt_kfacts_closure() is kt_index_closure() over them: the same solver, the same answer.
 */
struct kt_kfact {
	const char *name, *type, *prompt, *prompt_if, *depends, *choice;
	const char *const *defaults;
	size_t ndefaults;
	const char *const *selected_by;
	size_t nselected_by;
	const char *const *members;
	size_t nmembers;
};
struct kt_kfacts;
struct kt_kfacts *kt_kfacts_new(const char *arch);		   /* arch: $(SRCARCH), "x86" */
void kt_kfacts_add(struct kt_kfacts *f, const struct kt_kfact *k); /* copied; a name already there is kept */
struct kt_kfacts *kt_kfacts_from_index(const struct kt_index *idx, const char *const *roots, size_t n);
size_t kt_kfacts_count(const struct kt_kfacts *f);
bool kt_kfacts_has(const struct kt_kfacts *f, const char *name);
/* In the order added (from an index: by name); k points into f. */
void kt_kfacts_each(const struct kt_kfacts *f, void (*fn)(void *ctx, const struct kt_kfact *k), void *ctx);
int kt_kfacts_closure(const struct kt_kfacts *f, const struct kt_want *want, size_t n, struct kt_closure *out);
void kt_kfacts_free(struct kt_kfacts *f);

#endif
