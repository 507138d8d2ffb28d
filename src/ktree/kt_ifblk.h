/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KTREE_KT_IFBLK_H
#define KF_KTREE_KT_IFBLK_H

/*
 * The preprocessor blocks of a C source file that name a Kconfig option: each #if / #ifdef / #ifndef / #elif /
 * #else branch whose condition names CONFIG_X (CONFIG_X, defined(CONFIG_X), IS_ENABLED(CONFIG_X),
 * IS_BUILTIN/IS_MODULE/IS_REACHABLE(CONFIG_X)), with the lines of its body, for kernel lines: which #ifdef blocks a
 * workload entered, and which were compiled and never entered.
 *
 * A branch's options are as its body holds them: #ifdef CONFIG_X gives "X", its #else "!X"; #ifndef the other way
 * round; an #if or #elif gives the options its expression names, its #else the negation when the expression
 * is one option alone (else the names, with negated set: an #else of an expression of several is not one option's
 * state). Directives are read past comments and line continuations; text outside directives is skipped (a
 * comment may hide a '#' line: block comments are followed across lines).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kt_ifblk {
	uint32_t directive;   /* the line of the #if/#ifdef/#elif/#else that opens the branch (1-based) */
	uint32_t first, last; /* its body: the lines after the directive, up to the one before the next */
	uint32_t depth;	      /* 0: outermost */
	char kind[16];	      /* "ifdef", "ifndef", "if", "elif", "else" */
	bool negated;	      /* the body holds when the options are off (#ifndef, #else of #ifdef/#if X) */
	char **opts;	      /* the options named, without CONFIG_, "!" before one the body needs off */
	size_t nopts;
};

/*
 * The branches of text (len bytes) that name an option, in the order they open. 0, or -1 with one line in why
 * (len bytes) on an unbalanced #endif/#else/#elif or an #if left open: the text is not a file the preprocessor
 * reads.
 */
int kt_ifblk_scan(const char *text, size_t len, struct kt_ifblk **out, size_t *n, char *why, size_t whylen);
void kt_ifblk_free(struct kt_ifblk *v, size_t n);

#endif
