// SPDX-License-Identifier: GPL-2.0
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static void *check(void *p, size_t n)
{
	if (!p && n)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1), n);
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check(calloc(nmemb ? nmemb : 1, size ? size : 1), nmemb * size);
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1), n);
}

char *xstrdup(const char *s)
{
	return check(strdup(s), strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n), n + 1);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory formatting a string");
	return s;
}

void xgrow(void *arr, size_t *cap, size_t need, size_t size)
{
	void **p = arr;
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*p = xrealloc(*p, n * size);
	memset((char *)*p + *cap * size, 0, (n - *cap) * size);
	*cap = n;
}
