// SPDX-License-Identifier: GPL-2.0
// The scanner's half of what refinements reach (kt_internal.h, kt_reach.c): kt_scan.c hands every line that names
// a registration to kt_reach_scan_line(), which records it as a kt_def named by its target key ("fs ext4", "af
// AF_UNIX", "anon [eventfd]", "chr UNIX98_PTY_SLAVE_MAJOR", "binfmt script"); the struct a registration passes by
// address is read from its initializer in the same file (.name, .family, .minor).
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

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
	size_t n = kt_ident_len(p, end);

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
	size_t n = kt_ident_len(p, end);
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
		size_t m = kt_ident_len(q, e);
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
	at->conds(at->st, &kt_reach_push(sc, key, how, rel, line, obj)->conds);
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
						      "struct proto ",
						      "netlink_kernel_create("};
enum { N_REGISTER, N_ANON, N_MAJOR, N_BPF, N_BPF2, N_INSERT, N_PROTOSW, N_PROTO, N_NETLINK };
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

/*
 * A filesystem registered in a file that parses mount options (`.parse_param = F` of its fs_context_operations):
 * "raw fsopts NAME" with F, for kt_reach_prepare to put at F's definition. A mount with options runs F, whose #if
 * stack may be more than the filesystem's (mm/shmem.c: shmem_parse_one() is under #ifdef CONFIG_TMPFS).
 */
static void fs_options(struct kt_scan *sc, const char *rel, const char *text, size_t len, const char *a,
		       const char *eol, int line, const struct kt_reach_at *at)
{
	char *var = addr_arg(a, eol), *name = NULL;
	const char *b, *e, *end = text + len;
	const char *p = memmem(text, len, ".parse_param", 12);

	if (var && p && initializer(text, len, var, (size_t)(a - text), &b, &e))
		name = member(b, e, "name");
	if (name && *name) {
		p = skip_ws(p + 12, end);
		p = p < end && *p == '=' ? skip_ws(p + 1, end) : end;
		size_t n = kt_ident_len(p, end);
		if (n) {
			char *fn = xstrndup(p, n), *key = xasprintf("raw fsopts %s", name);
			add(sc, rel, line, key, "parse_param", fn, at);
			free(key);
			free(fn);
		}
	}
	free(name);
	free(var);
}

static void registrations(struct kt_scan *sc, const char *rel, const char *text, size_t len, const char *l,
			  const char *eol, int line, const struct kt_reach_at *at)
{
	const char *a;
	char *s, *t, *key;

	if ((a = call(l, eol, "sock_register(")))
		by_struct(sc, rel, text, len, a, eol, line, "af", "sock_register", "family", at);
	if ((a = call(l, eol, "register_filesystem("))) {
		by_struct(sc, rel, text, len, a, eol, line, "fs", "register_filesystem", "name", at);
		fs_options(sc, rel, text, len, a, eol, line, at);
	}
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
		size_t n = kt_ident_len(q, eol), m;
		if (c && n) {
			c = skip_ws(c + 1, eol);
			m = kt_ident_len(c, eol);
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
		size_t n = q ? kt_ident_len(q, eol) : 0;
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

/*
 * A netlink protocol: the kernel socket that netlink_kernel_create(net, NETLINK_X, &cfg) makes is what a user's
 * socket(AF_NETLINK, *, NETLINK_X) talks to (net/core/rtnetlink.c: NETLINK_ROUTE). A protocol given by a variable
 * (a driver's own unit) names nothing.
 */
static void netlink(struct kt_scan *sc, const char *rel, const char *l, const char *eol, int line,
		    const struct kt_reach_at *at)
{
	const char *a = call(l, eol, "netlink_kernel_create(");
	const char *c = a ? memchr(a, ',', (size_t)(eol - a)) : NULL;
	char *s = c ? sym_arg(c + 1, eol) : NULL;

	if (s && !strncmp(s, "NETLINK_", 8)) {
		char *key = xasprintf("netlink %s", s);
		add(sc, rel, line, key, "netlink_kernel_create", NULL, at);
		free(key);
	}
	free(s);
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
	char *var = xstrndup(a, kt_ident_len(a, eol));
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
	size_t n = kt_ident_len(q, eol);
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
	bool nl = in_line(cur, N_NETLINK, l, eol);
	const char *p;

	if (!reg && !anon && !major && !bpf && !protosw && !proto && !nl && !cur->bpf_types)
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
	if (nl)
		netlink(sc, rel, l, eol, line, at);
}

/* `#define elf_format compat_elf_format` in a .c file that #includes another: a renamed registration. */
void kt_reach_scan_define(struct kt_scan *sc, const char *rel, const char *d, int line, const struct kt_reach_at *at)
{
	const char *e = d + strlen(d);
	const char *p = skip_ws(d + 6, e);
	size_t n = kt_ident_len(p, e);
	const char *q = skip_ws(p + n, e);
	size_t m = kt_ident_len(q, e);

	if (n < 8 || !m || strncmp(p + n - 7, "_format", 7) || *skip_ws(q + m, e))
		return;
	char *from = xstrndup(p, n), *to = xstrndup(q, m), *key = xasprintf("alias %s", from);
	add(sc, rel, line, key, "ALIAS", to, at);
	free(key);
	free(from);
	free(to);
}
