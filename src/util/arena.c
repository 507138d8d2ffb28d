// SPDX-License-Identifier: GPL-2.0
#include "util/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Large enough that a built-in database (0.2 MB of strings) takes a handful. */
#define CHUNK (64u << 10)

struct arena_chunk {
	struct arena_chunk *next;
	alignas(max_align_t) char data[];
};

/* n bytes at a multiple of align (a power of two, at most max_align_t's). */
static void *take(struct arena *a, size_t n, size_t align)
{
	size_t pad = (size_t)(-(uintptr_t)a->next & (align - 1));
	char *p;

	if (n > a->left || pad > a->left - n) {
		/* a piece over a quarter chunk has one of its own, behind the newest (whose free end stays usable) */
		size_t size = n > CHUNK / 4 ? n : CHUNK;
		struct arena_chunk *c;

		if (size > SIZE_MAX - sizeof(*c))
			size = SIZE_MAX - sizeof(*c); /* xmalloc refuses it */
		c = xmalloc(sizeof(*c) + size);
		if (size != CHUNK && a->chunks) {
			c->next = a->chunks->next;
			a->chunks->next = c;
			return c->data;
		}
		c->next = a->chunks;
		a->chunks = c;
		a->next = c->data;
		a->left = size;
		pad = 0;
	}
	p = a->next + pad;
	a->next = p + n;
	a->left -= pad + n;
	return p;
}

void *arena_alloc(struct arena *a, size_t n)
{
	return take(a, n, alignof(max_align_t));
}

void *arena_memdup(struct arena *a, const void *p, size_t n)
{
	void *d = arena_alloc(a, n);

	if (n)
		memcpy(d, p, n);
	return d;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *d = take(a, n + 1, 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void arena_release(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *c = a->chunks;

		a->chunks = c->next;
		free(c);
	}
	a->next = NULL;
	a->left = 0;
}
