/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KTREE_KEXPR_TREE_H
#define KF_KTREE_KEXPR_TREE_H

#include <stdbool.h>

/* A Kconfig expression parsed: `A && (B || !C)`, `X = y`, `"x86" = "x86"` (macros expanded by the caller). */
enum kexpr_op { KX_SYM, KX_NOT, KX_AND, KX_OR, KX_EQ, KX_NE, KX_LT, KX_LE, KX_GT, KX_GE };

struct kexpr {
	enum kexpr_op op;
	struct kexpr *l, *r; /* operands (KX_NOT: l only); a comparison's are KX_SYM */
	char *sym;	     /* KX_SYM: the word or the quoted text */
	bool quoted;	     /* KX_SYM: it was a quoted string, never a symbol */
};

/* Never NULL; *ok (when given) is false when the text had garbage, which then reads as "n" in its place. */
struct kexpr *kexpr_parse(const char *text, bool *ok);
void kexpr_free(struct kexpr *e);
/* y, m, n, a number or a quoted string: a KX_SYM that no configuration changes. */
bool kexpr_is_const(const struct kexpr *e);

#endif
