/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_ARENA_H
#define KF_UTIL_ARENA_H

#include <stddef.h>

/*
 * Memory handed out in pieces and given back at once: what lives exactly as long as one structure (a loaded
 * map database's strings and lists), so that freeing it is one call and a piece is never freed alone. Like
 * xmalloc(), an allocation never fails: the process dies with a message.
 */
struct arena_chunk;
struct arena {
	struct arena_chunk *chunks; /* newest first */
	char *next;		    /* the free end of the newest chunk */
	size_t left;
};

/* n bytes aligned for any type (not zeroed). */
void *arena_alloc(struct arena *a, size_t n);
void *arena_memdup(struct arena *a, const void *p, size_t n);
/* The n bytes at s and a NUL. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Gives every piece back; the arena is empty and reusable. */
void arena_release(struct arena *a);

#endif
