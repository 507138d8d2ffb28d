/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_XALLOC_H
#define KF_UTIL_XALLOC_H

#include <stddef.h>

/* Allocation failure is not recoverable for a tracer holding stopped tasks: these die with a message. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);

/* Grow `*arr` (elements of `size`) so that index `need - 1` is valid; doubles the capacity. */
void xgrow(void *arr, size_t *cap, size_t need, size_t size);
#define XGROW(arr, cap, need) xgrow(&(arr), &(cap), (need), sizeof(*(arr)))

#endif
