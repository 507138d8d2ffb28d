// SPDX-License-Identifier: GPL-2.0
// What a refinement reached (the spec of issue 8: an fd kind, a socket family, a filesystem, a binfmt, a bpf
// program or map type...) -> the file of the tree that registers it. The scanner (kt_scan.c) hands every line
// that names a registration to kt_reach_scan_line(), which records it as a kt_def named by its target key
// ("fs ext4", "af AF_UNIX", "anon [eventfd]", "chr UNIX98_PTY_SLAVE_MAJOR", "binfmt script"); the struct a
// registration passes by address is read from its initializer in the same file (.name, .family, .minor).
// Where the tree cannot say (ioctl command families, namespaces, prctl...), rows of the reviewed table
// data/reach-map.tsv (embedded: kt_reach_data.c) name the file, and the function whose #if stack gates it.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

static size_t ident(const char *p, const char *end)
{
	const char *b = p;

	while (p < end && kt_ident_char((unsigned char)*p))
		p++;
	return (size_t)(p - b);
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	return p;
}

/* An identifier or a number argument: "UNIX98_PTY_SLAVE_MAJOR", "1"; NULL when the text there is neither. */
static char *sym_arg(const char *p, const char *end)
{
	p = skip_ws(p, end);
	size_t n = ident(p, end);

	if (!n)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (islower((unsigned char)p[i]))
			return NULL; /* a variable (driver->major), not a constant the headers name */
	return xstrndup(p, n);
}

/* The string literal at p ("[eventfd]"), or NULL. */
static char *str_arg(const char *p, const char *end)
{
	p = skip_ws(p, end);
	if (p >= end || *p != '"')
		return NULL;
	const char *q = memchr(p + 1, '"', (size_t)(end - p - 1));
	if (!q || q - p > 64)
		return NULL;
	return xstrndup(p + 1, (size_t)(q - p - 1));
}

/* "&var" at p: the variable's name, or NULL. */
static char *addr_arg(const char *p, const char *end)
{
	p = skip_ws(p, end);
	if (p >= end || *p != '&')
		return NULL;
	p++;
	size_t n = ident(p, end);
	return n ? xstrndup(p, n) : NULL;
}

/*
 * The initializer of var in text ("var = {" or "var[] = {"): the one last defined before off, else the first
 * after it (mm/shmem.c defines shmem_fs_type twice, for SHMEM and !SHMEM). *body and *bend delimit what is
 * inside the braces; false when there is none.
 */
static bool initializer(const char *text, size_t len, const char *var, size_t off, const char **body, const char **bend)
{
	const char *end = text + len, *best = NULL;
	size_t vn = strlen(var);

	for (const char *p = text; (p = memmem(p, (size_t)(end - p), var, vn));) {
		const char *q = p + vn;
		bool word = (p == text || !kt_ident_char((unsigned char)p[-1])) &&
			    (q >= end || !kt_ident_char((unsigned char)*q));
		p = q;
		if (!word)
			continue;
		q = skip_ws(q, end);
		if (q + 1 < end && q[0] == '[' && q[1] == ']')
			q = skip_ws(q + 2, end);
		if (q >= end || *q != '=')
			continue;
		q = skip_ws(q + 1, end);
		if (q >= end || *q != '{')
			continue;
		if (!best || (size_t)(q - text) < off)
			best = q;
		if ((size_t)(q - text) > off)
			break;
	}
	if (!best)
		return false;
	int depth = 0;
	for (const char *q = best; q < end; q++) {
		if (*q == '{')
			depth++;
		else if (*q == '}' && --depth == 0) {
			*body = best + 1;
			*bend = q;
			return true;
		}
	}
	return false;
}

/* The value of ".member = VALUE" at the initializer's top level, as text (a literal without its quotes). */
static char *member(const char *b, const char *e, const char *name)
{
	size_t n = strlen(name);
	int depth = 0;

	for (const char *p = b; p < e; p++) {
		if (*p == '{' || *p == '(')
			depth++;
		else if (*p == '}' || *p == ')')
			depth--;
		if (depth || *p != '.' || (size_t)(e - p) <= n + 1 || memcmp(p + 1, name, n) ||
		    kt_ident_char((unsigned char)p[n + 1]))
			continue;
		const char *q = skip_ws(p + 1 + n, e);
		if (q >= e || *q != '=')
			continue;
		q = skip_ws(q + 1, e);
		char *s = str_arg(q, e);
		if (s)
			return s;
		if (q < e && *q == '&') /* .prot = &tcp_prot */
			q = skip_ws(q + 1, e);
		size_t m = ident(q, e);
		return m ? xstrndup(q, m) : NULL;
	}
	return NULL;
}

/* The first positional element of an initializer ({ KVM_MINOR, "kvm", &fops }), or NULL. */
static char *first_element(const char *b, const char *e)
{
	const char *q = skip_ws(b, e);

	return q < e && *q != '.' ? sym_arg(q, e) : NULL;
}

static void add(struct kt_scan *sc, const char *rel, int line, const char *key, const char *how, const char *obj,
		const struct kt_reach_at *at)
{
	XGROW(sc->defs, sc->capdefs, sc->ndefs + 1);
	struct kt_def *d = &sc->defs[sc->ndefs++];

	memset(d, 0, sizeof(*d));
	d->name = xstrdup(key);
	d->macro = xstrdup(how);
	d->file = xstrdup(rel);
	d->line = line;
	d->calls_ksys = obj ? xstrdup(obj) : NULL;
	at->conds(at->st, &d->conds);
}

/*
 * The needles that tell a line may hold a registration. The scanner reads 110 MB: each file is searched once for
 * each needle, and then a line only when the next occurrence of one falls in it (struct kt_reach_cursor).
 */
static const char *const needles[KT_REACH_NEEDLES] = {"register",
						      "anon_inode_",
						      "driver->major",
						      "const struct bpf_map_ops ",
						      "const struct bpf_verifier_ops ",
						      "insert_binfmt",
						      "struct inet_protosw ",
						      "struct proto "};
enum { N_REGISTER, N_ANON, N_MAJOR, N_BPF, N_BPF2, N_INSERT, N_PROTOSW, N_PROTO };
/* "register" is everywhere: a file is read line by line only when it calls one of these */
static const char *const calls[] = {"sock_register(",  "register_filesystem(", "misc_register(",
				    "register_chrdev", "register_blkdev(",     "register_binfmt("};

bool kt_reach_wanted(struct kt_reach_cursor *cur, const char *rel, const char *text, size_t len)
{
	bool any = cur->bpf_types = !strcmp(rel, "include/linux/bpf_types.h");

	cur->end = text + len;
	for (size_t i = 0; i < KT_REACH_NEEDLES; i++)
		cur->next[i] = memmem(text, len, needles[i], strlen(needles[i]));
	bool reg = false;
	/* the calls start at most 8 bytes before their "register" ("misc_register(") */
	const char *from = cur->next[N_REGISTER] && cur->next[N_REGISTER] - text > 8 ? cur->next[N_REGISTER] - 8 : text;
	for (size_t i = 0; cur->next[N_REGISTER] && !reg && i < sizeof(calls) / sizeof(calls[0]); i++)
		reg = memmem(from, (size_t)(cur->end - from), calls[i], strlen(calls[i])) != NULL;
	if (!reg)
		cur->next[N_REGISTER] = NULL;
	for (size_t i = 0; i < KT_REACH_NEEDLES; i++)
		any |= cur->next[i] != NULL;
	return any;
}

/* True when needle i occurs in [l, eol): the cursor moves past the occurrences before l. */
static bool in_line(struct kt_reach_cursor *cur, int i, const char *l, const char *eol)
{
	const char *n = cur->next[i];

	while (n && n < l) {
		n++;
		n = memmem(n, (size_t)(cur->end - n), needles[i], strlen(needles[i]));
	}
	cur->next[i] = n;
	return n && n < eol;
}

/* Where a call's name is found in the line and is a call (not part of a longer name). */
static const char *call(const char *l, const char *eol, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = l; (p = memmem(p, (size_t)(eol - p), name, n)); p += n)
		if (p == l || !kt_ident_char((unsigned char)p[-1]))
			return p + n;
	return NULL;
}

/* A registration that passes &var: the initializer's member (or NULL: the variable's own name is the value). */
static void by_struct(struct kt_scan *sc, const char *rel, const char *text, size_t len, const char *a, const char *eol,
		      int line, const char *kind, const char *how, const char *mem, const struct kt_reach_at *at)
{
	char *var = addr_arg(a, eol), *val = NULL;
	const char *b, *e;

	if (!var)
		return;
	if (mem && initializer(text, len, var, (size_t)(a - text), &b, &e)) {
		val = member(b, e, mem);
		if (!val && !strcmp(mem, "minor"))
			val = first_element(b, e);
	}
	if (!mem) {
		/* a binfmt is named by its struct linux_binfmt: elf_format -> elf */
		size_t n = strlen(var);
		val = n > 7 && !strcmp(var + n - 7, "_format") ? xstrndup(var, n - 7) : xstrdup(var);
	}
	if (val && *val) {
		if (!strncmp(val, "PF_", 3))
			memcpy(val, "AF", 2); /* the footprint names families AF_*, the same numbers */
		char *key = xasprintf("%s %s", kind, val);
		add(sc, rel, line, key, how, var, at);
		free(key);
	}
	free(val);
	free(var);
}

static void registrations(struct kt_scan *sc, const char *rel, const char *text, size_t len, const char *l,
			  const char *eol, int line, const struct kt_reach_at *at)
{
	const char *a;
	char *s, *t, *key;

	if ((a = call(l, eol, "sock_register(")))
		by_struct(sc, rel, text, len, a, eol, line, "af", "sock_register", "family", at);
	if ((a = call(l, eol, "register_filesystem(")))
		by_struct(sc, rel, text, len, a, eol, line, "fs", "register_filesystem", "name", at);
	if ((a = call(l, eol, "misc_register(")))
		by_struct(sc, rel, text, len, a, eol, line, "misc", "misc_register", "minor", at);
	if ((a = call(l, eol, "register_binfmt(")))
		by_struct(sc, rel, text, len, a, eol, line, "binfmt", "register_binfmt", NULL, at);
	if ((a = call(l, eol, "insert_binfmt(")))
		by_struct(sc, rel, text, len, a, eol, line, "binfmt", "insert_binfmt", NULL, at);
	static const char *const majors[] = {"register_chrdev(", "__register_chrdev(", "register_blkdev(",
					     "__register_blkdev("};
	for (size_t i = 0; i < sizeof(majors) / sizeof(majors[0]); i++) {
		if (!(a = call(l, eol, majors[i])) || !(s = sym_arg(a, eol)))
			continue;
		key = xasprintf("%s %s", i < 2 ? "chr" : "blk", s);
		t = xstrndup(majors[i], strlen(majors[i]) - 1);
		add(sc, rel, line, key, t, NULL, at);
		free(t);
		free(key);
		free(s);
	}
	if ((a = call(l, eol, "register_chrdev_region(")) && (a = call(a, eol, "MKDEV(")) && (s = sym_arg(a, eol))) {
		const char *c = memchr(a, ',', (size_t)(eol - a));
		t = c ? sym_arg(c + 1, eol) : NULL;
		key = t ? xasprintf("chr %s:%s", s, t) : xasprintf("chr %s", s);
		add(sc, rel, line, key, "register_chrdev_region", NULL, at);
		free(key);
		free(t);
		free(s);
	}
}

static void anon_inodes(struct kt_scan *sc, const char *rel, const char *text, size_t len, const char *l,
			const char *eol, int line, const struct kt_reach_at *at)
{
	const char *a;
	char *s, *t, *key;

	static const char *const anon[] = {"anon_inode_getfd(", "anon_inode_getfile(", "anon_inode_getfd_secure(",
					   "anon_inode_getfile_secure(", "anon_inode_create_getfile("};
	for (size_t i = 0; i < sizeof(anon) / sizeof(anon[0]); i++) {
		if (!(a = call(l, eol, anon[i])) || !(s = str_arg(a, text + len)))
			continue;
		key = xasprintf("anon %s", s);
		t = xstrndup(anon[i], strlen(anon[i]) - 1);
		add(sc, rel, line, key, t, NULL, at);
		free(t);
		free(key);
		free(s);
	}
}

static void tty_major(struct kt_scan *sc, const char *rel, const char *l, const char *eol, int line,
		      const struct kt_reach_at *at)
{
	const char *a;
	char *s, *key;

	/* a tty driver's major: tty_register_driver() registers the region (drivers/tty/pty.c) */
	if ((a = memmem(l, (size_t)(eol - l), "driver->major", 13))) {
		a = skip_ws(a + 13, eol);
		if (a < eol && *a == '=' && (s = sym_arg(a + 1, eol))) {
			key = xasprintf("chr %s", s);
			add(sc, rel, line, key, "tty_driver major", NULL, at);
			free(key);
			free(s);
		}
	}
}

static void bpf_types(struct kt_scan *sc, const char *rel, const char *l, const char *eol, int line,
		      const struct kt_reach_at *at)
{
	char *s, *t, *key;

	/* include/linux/bpf_types.h: the program and map types, under the #ifdefs that gate them */
	bool prog = !strncmp(l, "BPF_PROG_TYPE(", 14), map = !strncmp(l, "BPF_MAP_TYPE(", 13);
	if ((prog || map) && l + 14 < eol) {
		const char *q = l + (prog ? 14 : 13);
		const char *c = memchr(q, ',', (size_t)(eol - q));
		size_t n = ident(q, eol), m;
		if (c && n) {
			c = skip_ws(c + 1, eol);
			m = ident(c, eol);
			s = xstrndup(q, n);
			t = xasprintf("%.*s%s", (int)m, c, prog ? "_verifier_ops" : "");
			key = xasprintf("raw %s %s", prog ? "bpf_prog" : "bpf_map", s);
			add(sc, rel, line, key, prog ? "BPF_PROG_TYPE" : "BPF_MAP_TYPE", t, at);
			free(key);
			free(s);
			free(t);
		}
	}
}

static void bpf_ops(struct kt_scan *sc, const char *rel, const char *l, const char *eol, int line,
		    const struct kt_reach_at *at)
{
	char *s, *key;

	/* the definitions those name: const struct bpf_map_ops array_map_ops = { */
	if (!strncmp(l, "const struct bpf_", 17)) {
		const char *q = l + 17;
		bool ok = !strncmp(q, "map_ops ", 8) || !strncmp(q, "verifier_ops ", 13);
		q = ok ? skip_ws(memchr(q, ' ', (size_t)(eol - q)), eol) : NULL;
		size_t n = q ? ident(q, eol) : 0;
		if (n && memchr(q + n, '=', (size_t)(eol - q - n))) {
			s = xstrndup(q, n);
			key = xasprintf("def %s", s);
			add(sc, rel, line, key, "DEF", s, at);
			free(key);
			free(s);
		}
	}
}

/*
 * The family whose table a struct inet_protosw var joins: the call that registers &var, else the one of the two
 * calls the file makes (net/ipv4/af_inet.c registers the elements of inetsw_array[] through a pointer).
 */
static const char *protosw_family(const char *text, size_t len, const char *var)
{
	char v4[128], v6[128];

	snprintf(v4, sizeof(v4), "inet_register_protosw(&%s)", var);
	snprintf(v6, sizeof(v6), "inet6_register_protosw(&%s)", var);
	if (memmem(text, len, v6, strlen(v6)))
		return "AF_INET6";
	if (memmem(text, len, v4, strlen(v4)))
		return "AF_INET";
	bool four = memmem(text, len, "inet_register_protosw(", 22),
	     six = memmem(text, len, "inet6_register_protosw(", 23);
	return four == six ? NULL : four ? "AF_INET" : "AF_INET6";
}

/* The line number of p, given that l starts line. */
static int line_of(const char *p, const char *l, int line)
{
	for (const char *q = l; q < p; q++)
		line += *q == '\n';
	return line;
}

/* One element { .type = SOCK_STREAM, .protocol = IPPROTO_TCP, .prot = &tcp_prot, ... } of a protocol switch. */
static void protosw(struct kt_scan *sc, const char *rel, const char *family, const char *b, const char *e, int line,
		    const struct kt_reach_at *at)
{
	char *type = member(b, e, "type"), *proto = member(b, e, "protocol"), *prot = member(b, e, "prot");

	if (type && proto && prot) {
		char *key = xasprintf("raw proto %s:%s:%s", family, type, proto);
		add(sc, rel, line, key, strcmp(family, "AF_INET6") ? "inet_register_protosw" : "inet6_register_protosw",
		    prot, at);
		free(key);
	}
	free(type);
	free(proto);
	free(prot);
}

/* `static struct inet_protosw inetsw_array[] =` or `... tcpv6_protosw = {`: its elements, by socket type. */
static void protocols(struct kt_scan *sc, const char *rel, const char *text, size_t len, const char *l, const char *eol,
		      int line, const struct kt_reach_at *at)
{
	const char *a = memmem(l, (size_t)(eol - l), "struct inet_protosw ", 20), *b, *e;

	if (!a || (l[0] != 's' && l[0] != 'c'))
		return; /* a definition starts its line */
	a += 20;
	char *var = xstrndup(a, ident(a, eol));
	const char *family = *var ? protosw_family(text, len, var) : NULL;
	if (family && initializer(text, len, var, (size_t)(l - text), &b, &e)) {
		const char *q = skip_ws(b, e);
		if (q < e && *q == '{') {
			/* an array: every top-level { ... } */
			int depth = 0;
			const char *start = NULL;
			for (const char *p = q; p < e; p++) {
				if (*p == '{' && depth++ == 0)
					start = p + 1;
				else if (*p == '}' && --depth == 0 && start)
					protosw(sc, rel, family, start, p, line_of(start, l, line), at);
			}
		} else {
			protosw(sc, rel, family, b, e, line, at);
		}
	}
	free(var);
}

/* `struct proto tcp_prot = {`: where a protocol switch's .prot is defined. */
static void proto_def(struct kt_scan *sc, const char *rel, const char *l, const char *eol, int line,
		      const struct kt_reach_at *at)
{
	const char *q = l;

	if (!strncmp(q, "static ", 7))
		q += 7;
	if (strncmp(q, "struct proto ", 13))
		return;
	q = skip_ws(q + 13, eol);
	size_t n = ident(q, eol);
	const char *r = skip_ws(q + n, eol);
	if (!n || r >= eol || *r != '=')
		return;
	char *name = xstrndup(q, n), *key = xasprintf("def %s", name);
	add(sc, rel, line, key, "DEF", name, at);
	free(key);
	free(name);
}

void kt_reach_scan_line(struct kt_scan *sc, struct kt_reach_cursor *cur, const char *rel, const char *text, size_t len,
			const char *l, const char *eol, int line, const struct kt_reach_at *at)
{
	bool reg = in_line(cur, N_REGISTER, l, eol) | in_line(cur, N_INSERT, l, eol);
	bool anon = in_line(cur, N_ANON, l, eol), major = in_line(cur, N_MAJOR, l, eol);
	bool bpf = in_line(cur, N_BPF, l, eol) | in_line(cur, N_BPF2, l, eol);
	bool protosw = in_line(cur, N_PROTOSW, l, eol), proto = in_line(cur, N_PROTO, l, eol);
	const char *p;

	if (!reg && !anon && !major && !bpf && !protosw && !proto && !cur->bpf_types)
		return;
	p = skip_ws(l, eol);
	if (p < eol && (*p == '*' || (*p == '/' && p + 1 < eol && (p[1] == '*' || p[1] == '/'))))
		return; /* a comment naming a call is not one */
	if (reg)
		registrations(sc, rel, text, len, l, eol, line, at);
	if (anon)
		anon_inodes(sc, rel, text, len, l, eol, line, at);
	if (major)
		tty_major(sc, rel, l, eol, line, at);
	if (cur->bpf_types)
		bpf_types(sc, rel, l, eol, line, at);
	if (bpf)
		bpf_ops(sc, rel, l, eol, line, at);
	if (protosw)
		protocols(sc, rel, text, len, l, eol, line, at);
	if (proto)
		proto_def(sc, rel, l, eol, line, at);
}
/* `#define elf_format compat_elf_format` in a .c file that #includes another: a renamed registration. */
void kt_reach_scan_define(struct kt_scan *sc, const char *rel, const char *d, int line, const struct kt_reach_at *at)
{
	const char *e = d + strlen(d);
	const char *p = skip_ws(d + 6, e);
	size_t n = ident(p, e);
	const char *q = skip_ws(p + n, e);
	size_t m = ident(q, e);

	if (n < 8 || !m || strncmp(p + n - 7, "_format", 7) || *skip_ws(q + m, e))
		return;
	char *from = xstrndup(p, n), *to = xstrndup(q, m), *key = xasprintf("alias %s", from);
	add(sc, rel, line, key, "ALIAS", to, at);
	free(key);
	free(from);
	free(to);
}

bool kt_reach_def(const struct kt_def *d)
{
	return strchr(d->name, ' ') != NULL;
}

bool kt_reach_target(const struct kt_def *d)
{
	static const char *const facts[] = {"raw ", "def ", "alias ", "skip ", "misc "};

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

/* ---- before resolving ---- */

static const char *num_lookup(void *ctx, const char *name)
{
	return kt_map_get(ctx, name);
}

/*
 * "#define NAME VALUE" of a header into nums (name -> decimal string), VALUE evaluated as cpp would with the
 * names defined before it: UNIX98_PTY_SLAVE_MAJOR is (UNIX98_PTY_MASTER_MAJOR+UNIX98_PTY_MAJOR_COUNT).
 */
static void read_numbers(struct kt_index *idx, const char *rel, struct kt_map *nums)
{
	char *path = kt_path(idx->srcdir, rel);
	char *text = kt_read_tree_file(path, NULL), *save = NULL;

	free(path);
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char name[64];
		int off = 0;
		if (sscanf(l, "#define %63s %n", name, &off) != 1 || !off || strchr(name, '(') ||
		    kt_map_get(nums, name))
			continue;
		char *c = strstr(l + off, "/*");
		if (c)
			*c = '\0';
		bool ok = true;
		long v = kt_cpp_eval(l + off, num_lookup, nums, &ok);
		if (ok && *(l + off)) {
			char buf[24];
			snprintf(buf, sizeof(buf), "%ld", v);
			kt_map_put(nums, name, xstrdup(buf));
		}
	}
	free(text);
}

static const char *number(const struct kt_map *nums, const char *sym)
{
	return isdigit((unsigned char)sym[0]) ? sym : kt_map_get(nums, sym);
}

/* "chr TTYAUX_MAJOR:2" -> "chr 5:2", "misc KVM_MINOR" -> "chr 10:232"; an unknown or dynamic number -> "skip ...". */
static void device_numbers(struct kt_def *d, const struct kt_map *nums)
{
	bool misc = !strncmp(d->name, "misc ", 5);
	char *sym = xstrdup(d->name + (misc ? 5 : 4)), *minor = strchr(sym, ':'), *key;
	const char *maj = misc ? number(nums, "MISC_MAJOR") : number(nums, sym);
	/* MISC_DYNAMIC_MINOR is a request for any free minor, no minor of its own */
	const char *min = misc && strcmp(sym, "MISC_DYNAMIC_MINOR") ? number(nums, sym) : NULL;

	if (minor) {
		*minor++ = '\0';
		maj = number(nums, sym);
		min = number(nums, minor);
	}
	if (!maj || !strcmp(maj, "0") || ((misc || minor) && !min))
		key = xasprintf("skip %s", d->name);
	else if (min)
		key = xasprintf("chr %s:%s", maj, min);
	else
		key = xasprintf("%.3s %s", d->name, maj);
	free(d->name);
	d->name = key;
	free(sym);
}

static struct kt_def *push_def(struct kt_scan *sc, const char *key, const char *how, const char *file, int line,
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

static const struct kt_def *find_def(const struct kt_scan *sc, const char *prefix, const char *name, size_t *from)
{
	size_t pn = strlen(prefix);

	for (size_t i = from ? *from : 0; i < sc->ndefs; i++) {
		const struct kt_def *d = &sc->defs[i];
		if (!strncmp(d->name, prefix, pn) && !strcmp(d->name + pn, name)) {
			if (from)
				*from = i + 1;
			return d;
		}
	}
	return NULL;
}

/*
 * A bpf program or map type: the file that defines its ops, under the #ifdefs of include/linux/bpf_types.h. A
 * protocol of a family: the file that defines its struct proto, under the #ifdefs of its protocol switch.
 */
static void raw_target(struct kt_scan *sc, size_t i)
{
	bool bpf = !strncmp(sc->defs[i].name, "raw bpf_", 8);
	char *key = xstrdup(sc->defs[i].name + 4), *ops = xstrdup(sc->defs[i].calls_ksys);
	const struct kt_def *def = find_def(sc, "def ", ops, NULL);
	size_t di = def ? (size_t)(def - sc->defs) : 0;
	/* without a definition: the bpf table's user (kernel/bpf/syscall.c #includes it), or the protocol switch */
	char *file = xstrdup(def ? def->file : bpf ? "kernel/bpf/syscall.c" : sc->defs[i].file);
	int line = def ? def->line : bpf ? 1 : sc->defs[i].line;
	struct kt_def *d = push_def(sc, key, sc->defs[i].macro, file, line, ops);
	free(file);
	def = def ? &sc->defs[di] : NULL; /* push_def may have moved the array */
	for (size_t j = 0; j < sc->defs[i].conds.n; j++)
		kt_condv_push(&d->conds, &sc->defs[i].conds.v[j]);
	for (size_t j = 0; def && j < def->conds.n; j++)
		kt_condv_push(&d->conds, &def->conds.v[j]);
	free(key);
	free(ops);
}

/* compat_binfmt_elf.c: `#define elf_format compat_elf_format` then `#include "binfmt_elf.c"`. */
static void binfmt_aliases(struct kt_scan *sc, size_t n0)
{
	for (size_t a = 0; a < n0; a++) {
		if (strncmp(sc->defs[a].name, "alias ", 6))
			continue;
		for (size_t k = 0; k < sc->nincs; k++) {
			const struct kt_inc *inc = &sc->incs[k];
			if (strcmp(inc->by, sc->defs[a].file))
				continue;
			for (size_t r = 0; r < n0; r++) {
				const struct kt_def *reg = &sc->defs[r];
				if (strncmp(reg->name, "binfmt ", 7) || strcmp(reg->file, inc->file) ||
				    !reg->calls_ksys || strcmp(reg->calls_ksys, sc->defs[a].name + 6))
					continue;
				const char *to = sc->defs[a].calls_ksys;
				size_t tn = strlen(to);
				char *key = xasprintf("binfmt %.*s", (int)(tn > 7 ? tn - 7 : tn), to);
				struct kt_def *d = push_def(sc, key, sc->defs[r].macro, inc->by, inc->line, to);
				reg = &sc->defs[r];
				for (size_t j = 0; j < reg->conds.n; j++)
					kt_condv_push(&d->conds, &reg->conds.v[j]);
				for (size_t j = 0; j < sc->incs[k].conds.n; j++)
					kt_condv_push(&d->conds, &sc->incs[k].conds.v[j]);
				free(key);
			}
		}
	}
}

/* A row of the reviewed table: the function's definition in the file gives the line and its #if stack. */
static void table_row(struct kt_index *idx, int lineno, char **f)
{
	char *key = xasprintf("%s %s", f[0], f[1]), *how = xasprintf("data/reach-map.tsv:%d", lineno);
	const char *func = strcmp(f[3], "-") ? f[3] : NULL;
	struct kt_scan t = {.want_func = func};
	const struct kt_def *fd = NULL;

	if (func) {
		char *path = kt_path(idx->srcdir, f[2]);
		size_t len;
		char *text = kt_read_tree_file(path, &len);
		free(path);
		if (text)
			kt_scan_text(&t, f[2], text, len);
		free(text);
		for (size_t i = 0; i < t.ndefs && !fd; i++)
			if (!strcmp(t.defs[i].macro, "FUNC") && !strcmp(t.defs[i].name, func))
				fd = &t.defs[i];
	}
	/* line 0: the whole file; with a function, kt_resolve_reach() says the file lacks it */
	struct kt_def *d = push_def(&idx->scan, key, how, f[2], fd ? fd->line : 0, func);
	for (size_t j = 0; fd && j < fd->conds.n; j++)
		kt_condv_push(&d->conds, &fd->conds.v[j]);
	kt_scan_release(&t);
	free(key);
	free(how);
}

static void table(struct kt_index *idx)
{
	char *text = xstrdup(kt_reach_table), *save = NULL;
	int lineno = 0;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[5] = {0}, *p = l;
		int n = 0;
		lineno++; /* strtok_r skips empty lines: the table has none */
		if (*l == '#')
			continue;
		while (n < 5 && p) {
			f[n++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		/* a row of a file this tree does not have says nothing about it (a tree without virt/, another version)
		 */
		char *path = n == 5 ? kt_path(idx->srcdir, f[2]) : NULL;
		if (path && kt_is_file(path))
			table_row(idx, lineno, f);
		free(path);
	}
	free(text);
}

void kt_reach_prepare(struct kt_index *idx)
{
	struct kt_scan *sc = &idx->scan;
	struct kt_map nums = {0};
	size_t n0 = sc->ndefs;

	read_numbers(idx, "include/uapi/linux/major.h", &nums);
	read_numbers(idx, "include/linux/miscdevice.h", &nums);
	for (size_t i = 0; i < n0; i++) {
		struct kt_def *d = &sc->defs[i];
		if (kt_reach_def(d) &&
		    (!strncmp(d->name, "chr ", 4) || !strncmp(d->name, "blk ", 4) || !strncmp(d->name, "misc ", 5)))
			device_numbers(d, &nums);
	}
	kt_map_release(&nums, free);
	for (size_t i = 0; i < n0; i++)
		if (!strncmp(sc->defs[i].name, "raw bpf_", 8) || !strncmp(sc->defs[i].name, "raw proto ", 10))
			raw_target(sc, i);
	binfmt_aliases(sc, n0);
	table(idx);
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
		/* the protocol's own switch entry, else the family's wildcard one (raw sockets), else the family */
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
