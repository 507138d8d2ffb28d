// SPDX-License-Identifier: GPL-2.0
/*
 * Who to ask about a file, as scripts/get_maintainer.pl (6.1) prints it for `-f FILE --nogit --nogit-fallback`:
 * the sections matching the file, most specific first; of each its M: lines ("maintainer:SECTION", or the role
 * its S: status gives: "supporter", "odd fixer", ...), its R: lines ("reviewer:SECTION"), then every section's
 * L: lists ("open list:SECTION", "moderated list:..."; THE REST's without a name; subscribers-only ones left
 * out). A person or list named twice keeps the first role; the chief penguin (THE REST's M:) is left out, as the
 * script does; a section's name in a role is cut at 50 characters as the script cuts it. Not followed: K:
 * keywords matched in the file's text, .mailmap, git history.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/kmaint.h"
#include "kmap/kmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CHIEF_PENGUIN "Linus Torvalds <torvalds@linux-foundation.org>"

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* parse_email() and format_email() of the script: "Name <addr>", the name quoted when it has more than words. */
static char *format_email(const char *line, char **address)
{
	const char *lt = strchr(line, '<'), *gt = lt ? strrchr(lt, '>') : NULL;
	char *name, *addr;

	if (lt && gt && memchr(lt, '@', (size_t)(gt - lt))) {
		name = trimmed(line, (size_t)(lt - line));
		addr = trimmed(lt + 1, (size_t)(gt - lt - 1));
	} else {
		const char *at = strrchr(line, '@');
		name = xstrdup("");
		addr = at ? trimmed(line, (size_t)(at - line) + strcspn(at, " \t")) : xstrdup("");
	}
	size_t n = strlen(name);
	if (n && name[0] == '"')
		memmove(name, name + 1, n--);
	if (n && name[n - 1] == '"')
		name[--n] = '\0';
	struct strbuf sb = STRBUF_INIT;
	bool quote = false;
	for (const char *c = name; *c; c++)
		quote |= !(isalnum((unsigned char)*c) || *c == '_' || *c == ' ' || *c == '-');
	if (quote) {
		strbuf_addch(&sb, '"');
		for (const char *c = name; *c; c++) {
			if (*c == '"' && (c == name || c[-1] != '\\'))
				strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, *c);
		}
		strbuf_addch(&sb, '"');
	} else {
		strbuf_addstr(&sb, name);
	}
	if (sb.len)
		strbuf_addf(&sb, " <%s>", addr);
	else
		strbuf_addstr(&sb, addr);
	free(name);
	*address = addr;
	return strbuf_detach(&sb);
}

static char *section_name(const struct kt_section *s)
{
	size_t n = strlen(s->name);

	if (n <= 50)
		return xstrdup(s->name);
	n = 47;
	while (n && isspace((unsigned char)s->name[n - 1]))
		n--;
	return xasprintf("%.*s...", (int)n, s->name);
}

static const char *role_of(const struct kt_section *s, char *buf, size_t len)
{
	static const char *const roles[][2] = {
	    {"supported", "supporter"},	     {"maintained", "maintainer"},
	    {"odd fixes", "odd fixer"},	     {"orphan", "orphan minder"},
	    {"obsolete", "obsolete minder"}, {"buried alive in reporters", "chief penguin"},
	};
	size_t i = 0;

	snprintf(buf, len, "%s", s->status ? s->status : "unknown");
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (!strcmp(buf, roles[i][0]))
			return roles[i][1];
	return buf;
}

/* The keys seen, each "\nkey\n" in lower case (the script's hashes of lc($name), lc($address)). */
static bool has_key(const struct strbuf *keys, const char *key, bool add, struct strbuf *into)
{
	struct strbuf k = STRBUF_INIT;

	strbuf_addf(&k, "\n%s\n", key);
	for (char *c = k.buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	bool seen = keys->len && strstr(keys->buf, k.buf) != NULL;
	if (add)
		strbuf_addstr(into, k.buf);
	strbuf_release(&k);
	return seen;
}

static void push(struct kmap_person **v, size_t *n, char *who, char *role)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct kmap_person){who, role};
}

static void people(const struct kt_section *s, char *const *lines, size_t nlines, const char *role, struct strbuf *keys,
		   struct kmap_person **v, size_t *n)
{
	char *name = section_name(s);

	for (size_t i = 0; i < nlines; i++) {
		char *addr = NULL, *who = format_email(lines[i], &addr);
		const char *lt = strchr(who, '<');
		char *person = lt ? xstrndup(who, (size_t)(lt - who)) : xstrdup("");
		bool dup = false;

		if (*person) {
			person[strlen(person) - 1] = '\0'; /* the space before '<' */
			dup = has_key(keys, person, false, NULL);
		}
		dup |= has_key(keys, addr, false, NULL);
		if (!*addr || dup) {
			free(who);
		} else {
			if (*person)
				has_key(keys, person, true, keys);
			has_key(keys, addr, true, keys);
			/* the chief penguin is named, then taken out of the list */
			if (strstr(who, CHIEF_PENGUIN))
				free(who);
			else
				push(v, n, who, xasprintf("%s:%s", role, name));
		}
		free(person);
		free(addr);
	}
	free(name);
}

static void lists(const struct kt_section *s, struct strbuf *keys, struct kmap_person **v, size_t *n)
{
	char *name = section_name(s);
	bool rest = !strcmp(s->name, "THE REST");

	for (size_t i = 0; i < s->nlists; i++) {
		const char *l = s->lists[i];
		size_t len = strcspn(l, " \t");
		char *addr = xstrndup(l, len);
		const char *more = l + len;

		if (strstr(more, "subscribers-only") || has_key(keys, addr, false, NULL)) {
			free(addr);
			continue;
		}
		has_key(keys, addr, true, keys);
		push(v, n, addr,
		     xasprintf("%s list%s%s", strstr(more, "moderated") ? "moderated" : "open", rest ? "" : ":",
			       rest ? "" : name));
	}
	free(name);
}

size_t kmap_maintainers(const struct kt_section_match *m, size_t nm, struct kmap_person **out)
{
	struct strbuf people_keys = STRBUF_INIT, list_keys = STRBUF_INIT;
	struct kmap_person *v = NULL;
	size_t n = 0;
	char buf[64];

	for (size_t i = 0; i < nm; i++) {
		const struct kt_section *s = m[i].section;

		people(s, s->maintainers, s->nmaintainers, role_of(s, buf, sizeof(buf)), &people_keys, &v, &n);
		people(s, s->reviewers, s->nreviewers, "reviewer", &people_keys, &v, &n);
	}
	for (size_t i = 0; i < nm; i++)
		lists(m[i].section, &list_keys, &v, &n);
	strbuf_release(&people_keys);
	strbuf_release(&list_keys);
	*out = v;
	return n;
}

void kmap_maintainers_free(struct kmap_person *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].who);
		free(v[i].role);
	}
	free(v);
}

static void asked_add(struct kmap_asked **v, size_t *n, const struct kt_syscall *k, char *const *opts, size_t nopts)
{
	struct kmap_asked *w = NULL;

	if (!k || !k->nsections)
		return;
	for (size_t i = 0; i < *n && !w; i++)
		w = (*v)[i].section->section == k->sections[0].section ? &(*v)[i] : NULL;
	if (!w) {
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		w = &(*v)[(*n)++];
		*w = (struct kmap_asked){.section = &k->sections[0]};
	}
	w->items++;
	for (size_t i = 0; i < nopts; i++) {
		bool have = false;
		for (size_t j = 0; j < w->nopts && !have; j++)
			have = !strcmp(w->opts[j], opts[i]);
		if (have)
			continue;
		w->opts = xrealloc(w->opts, (w->nopts + 1) * sizeof(*w->opts));
		w->opts[w->nopts++] = opts[i];
	}
}

static int asked_cmp(const void *a, const void *b)
{
	const struct kmap_asked *x = a, *y = b;

	if (x->items != y->items)
		return x->items < y->items ? 1 : -1;
	return strcmp(x->section->section->name, y->section->section->name);
}

size_t kmap_who_to_ask(const struct fp_kernel_map *m, struct kmap_asked **out, size_t *items)
{
	struct kmap_asked *v = NULL;
	size_t n = 0;

	*items = 0;
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].required && m->rows[i].ks) {
			asked_add(&v, &n, m->rows[i].ks, m->rows[i].opts, m->rows[i].nopts);
			++*items;
		}
	for (size_t i = 0; i < m->nreach; i++)
		if (m->reach[i].required && m->reach[i].ks) {
			asked_add(&v, &n, m->reach[i].ks, m->reach[i].opts, m->reach[i].nopts);
			++*items;
		}
	if (n)
		qsort(v, n, sizeof(*v), asked_cmp);
	*out = v;
	return n;
}

void kmap_who_to_ask_free(struct kmap_asked *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].opts);
	free(v);
}
