// SPDX-License-Identifier: GPL-2.0
// What a refinement reached (the spec of issue 8: an fd kind, a socket family, a filesystem, a binfmt, a bpf
// program or map type...) -> the file of the tree that registers it, through keys: registrations and facts are
// kt_defs named by a key with a space ("fs ext4", "chr 136"). The scanner records them (kt_reach_scan.c), they
// are completed before resolving (kt_reach_prepare.c), and kt_resolve.c resolves each target; this file holds
// what the three share: making such a kt_def, telling one apart, and the keys a refinement's kind and value give.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

/* One kt_def more in sc, its strings copied; the pointer holds until the next push. */
struct kt_def *kt_reach_push(struct kt_scan *sc, const char *key, const char *how, const char *file, int line,
			     const char *obj)
{
	XGROW(sc->defs, sc->capdefs, sc->ndefs + 1);
	struct kt_def *d = &sc->defs[sc->ndefs++];

	memset(d, 0, sizeof(*d));
	d->name = xstrdup(key);
	d->macro = xstrdup(how);
	d->file = xstrdup(file);
	d->line = line;
	d->calls_ksys = obj ? xstrdup(obj) : NULL;
	return d;
}

bool kt_reach_def(const struct kt_def *d)
{
	return strchr(d->name, ' ') != NULL;
}

bool kt_reach_target(const struct kt_def *d)
{
	static const char *const facts[] = {"raw ", "def ", "alias ", "skip ", "misc ", "fn "};

	if (!kt_reach_def(d))
		return false;
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		if (!strncmp(d->name, facts[i], strlen(facts[i])))
			return false;
	/* a device number the headers do not name (a driver's own #define, a variable) is no target */
	if (!strncmp(d->name, "chr ", 4) || !strncmp(d->name, "blk ", 4))
		return isdigit((unsigned char)d->name[4]) != 0;
	return true;
}

/* ---- from a refinement to its target ---- */

size_t kt_reach_keys(const char *kind, const char *value, char **out, size_t max)
{
	size_t n = 0;
	const char *c;

	if (!kind || !value || max < 2)
		return 0;
	if (!strcmp(kind, "fd") && !strncmp(value, "socket:", 7))
		return kt_reach_keys("socket", value + 7, out, max);
	if (!strcmp(kind, "fd")) {
		static const char *const fs[] = {"file:", "dir:", "fifo:", "symlink:"};
		for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
			if (!strncmp(value, fs[i], strlen(fs[i])))
				out[n++] = xasprintf("fs %s", value + strlen(fs[i]));
		if (n)
			return n;
		if (!strcmp(value, "pipe"))
			out[n++] = xstrdup("fs pipefs");
		else if (!strncmp(value, "socket:", 7))
			out[n++] = xasprintf("af %.*s", (int)strcspn(value + 7, ":"), value + 7);
		else if (!strncmp(value, "anon:", 5))
			out[n++] = xasprintf("anon %s", value + 5);
		else if ((!strncmp(value, "chr:", 4) || !strncmp(value, "blk:", 4)) && (c = strchr(value + 4, ':'))) {
			out[n++] = xasprintf("%.3s %s", value, value + 4);
			out[n++] = xasprintf("%.3s %.*s", value, (int)(c - value - 4), value + 4);
		} else
			out[n++] = xasprintf("fd %s", value);
	} else if (!strcmp(kind, "socket") && max >= 3 && (c = strrchr(value, ':')) && c > strchr(value, ':')) {
		/* a netlink protocol's kernel socket; else the protocol's own switch entry, else the family's wildcard
		 * one (raw sockets), else the family */
		if (!strncmp(value, "AF_NETLINK:", 11) && max >= 4)
			out[n++] = xasprintf("netlink %s", c + 1);
		out[n++] = xasprintf("proto %s", value);
		out[n++] = xasprintf("proto %.*s:IPPROTO_IP", (int)(c - value), value);
		out[n++] = xasprintf("af %.*s", (int)strcspn(value, ":"), value);
	} else if (!strcmp(kind, "socket") || !strcmp(kind, "af")) {
		out[n++] = xasprintf("af %.*s", (int)strcspn(value, ":"), value);
	} else if (!strcmp(kind, "fstype")) {
		out[n++] = xasprintf("fs %s", value);
	} else {
		out[n++] = xasprintf("%s %s", kind, value);
	}
	return n;
}

const struct kt_syscall *kt_reach_find(const struct kt_syscall *const *t, size_t n, const char *kind, const char *value)
{
	char *keys[4];
	size_t nk = kt_reach_keys(kind, value, keys, 4);
	const struct kt_syscall *best = NULL, *wild = NULL;
	size_t wild_len = 0;

	for (size_t k = 0; k < nk && !best; k++)
		for (size_t i = 0; i < n && !best; i++)
			if (!strcmp(t[i]->name, keys[k]))
				best = t[i];
	/* "ioctl TC*": the longest pattern the first key starts with */
	for (size_t i = 0; !best && nk && i < n; i++) {
		size_t len = strlen(t[i]->name);
		if (len && t[i]->name[len - 1] == '*' && (!wild || len - 1 > wild_len) &&
		    !strncmp(t[i]->name, keys[0], len - 1)) {
			wild_len = len - 1;
			wild = t[i];
		}
	}
	if (!best)
		best = wild;
	for (size_t k = 0; k < nk; k++)
		free(keys[k]);
	return best;
}
