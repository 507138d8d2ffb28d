// SPDX-License-Identifier: GPL-2.0
// Kernel configurations: .config files, /proc/config.gz and config.gz (zlib), and values set by hand.
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ktree/kt_internal.h"
#include "util/input.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct kt_config {
	struct kt_map m; /* name without CONFIG_ -> value */
};

struct kt_config *kt_config_new(void)
{
	return xcalloc(1, sizeof(struct kt_config));
}

static const char *bare(const char *name)
{
	return strncmp(name, "CONFIG_", 7) == 0 ? name + 7 : name;
}

void kt_config_set(struct kt_config *cfg, const char *name, const char *value)
{
	char *old = kt_map_put(&cfg->m, bare(name), value && strcmp(value, "n") ? xstrdup(value) : NULL);

	free(old);
}

const char *kt_config_get(const struct kt_config *cfg, const char *name)
{
	return cfg ? kt_map_get(&cfg->m, bare(name)) : NULL;
}

bool kt_config_enabled(const struct kt_config *cfg, const char *name)
{
	const char *v = kt_config_get(cfg, name);

	return v && (strcmp(v, "y") == 0 || strcmp(v, "m") == 0);
}

size_t kt_config_count(const struct kt_config *cfg)
{
	size_t n = 0;

	for (size_t i = 0; cfg && i < cfg->m.cap; i++)
		n += cfg->m.keys[i] && cfg->m.vals[i];
	return n;
}

struct kt_config *kt_config_dup(const struct kt_config *cfg)
{
	if (!cfg)
		return NULL;
	struct kt_config *c = kt_config_new();
	for (size_t i = 0; i < cfg->m.cap; i++)
		if (cfg->m.keys[i] && cfg->m.vals[i])
			kt_map_put(&c->m, cfg->m.keys[i], xstrdup(cfg->m.vals[i]));
	return c;
}

void kt_config_free(struct kt_config *cfg)
{
	if (!cfg)
		return;
	kt_map_release(&cfg->m, free);
	free(cfg);
}

/* One line of a .config: CONFIG_X=value, or "# CONFIG_X is not set"; anything else is ignored. */
static void config_line(struct kt_config *cfg, char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	if (!strncmp(line, "# CONFIG_", 9)) {
		char *sp = strstr(line, " is not set");
		if (sp) {
			*sp = '\0';
			kt_config_set(cfg, line + 2, NULL);
		}
		return;
	}
	if (strncmp(line, "CONFIG_", 7) != 0)
		return;
	char *eq = strchr(line, '=');
	if (!eq || eq == line + 7)
		return;
	*eq = '\0';
	for (char *c = line; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return;
	kt_config_set(cfg, line, eq + 1);
}

/* gzip data (one member or several) into out, at most KF_CONFIG_MAX bytes. NULL, or what went wrong. */
static const char *gunzip(const struct strbuf *in, struct strbuf *out)
{
	z_stream z;
	char chunk[65536];
	const char *why = NULL;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return "out of memory";
	z.next_in = (unsigned char *)in->buf;
	z.avail_in = (unsigned)in->len;
	do {
		z.next_out = (unsigned char *)chunk;
		z.avail_out = sizeof(chunk);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && z.avail_in)) {
			why = rc == Z_BUF_ERROR ? "truncated gzip data" : z.msg ? z.msg : "not gzip data";
			break;
		}
		strbuf_add(out, chunk, sizeof(chunk) - z.avail_out);
		if (out->len > KF_CONFIG_MAX) {
			why = "decompresses to more than 16 MiB, the limit of a configuration";
			break;
		}
		if (rc == Z_STREAM_END && z.avail_in)
			inflateReset(&z); /* the next member */
		else if (rc == Z_STREAM_END)
			break;
	} while (z.avail_in || !z.avail_out);
	if (!why && rc != Z_STREAM_END)
		why = "truncated gzip data";
	inflateEnd(&z);
	return why;
}

/*
 * Any file is read within a limit (a FIFO or /dev/zero given as the configuration ends with an error, not
 * a hang), gzip'd ones decompressed within another.
 */
static struct kt_config *load(const char *path, bool gz, char **err)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	const struct strbuf *t = &raw;
	struct kt_config *cfg = NULL;
	const char *why, *kind;
	char *rwhy = NULL;

	if (kf_input_read_all(path, KF_CONFIG_MAX, &raw, &rwhy) < 0) {
		*err = xasprintf("cannot read '%s': %s", path, rwhy);
		free(rwhy);
		goto out;
	}
	if (gz && raw.len >= 2 && (unsigned char)raw.buf[0] == 0x1f && (unsigned char)raw.buf[1] == 0x8b) {
		why = gunzip(&raw, &text);
		if (why) {
			*err = xasprintf("cannot read '%s': %s", path, why);
			goto out;
		}
		t = &text;
	}
	/* before the lines are cut: what a file with no option in it looks like, for its refusal */
	kind = kf_sniff(t->buf, t->len < KF_SNIFF_LEN ? t->len : KF_SNIFF_LEN);
	cfg = kt_config_new();
	for (char *l = t->buf, *end = t->buf + t->len; l < end;) {
		char *nl = memchr(l, '\n', (size_t)(end - l));

		if (nl)
			*nl = '\0';
		else
			l[end - l] = '\0'; /* the buffer's own terminator */
		config_line(cfg, l);
		l = nl ? nl + 1 : end;
	}
	if (!kt_config_count(cfg) && kind && kind != kf_sniff_config) {
		*err = xasprintf("%s, not a kernel .config", kind);
		kt_config_free(cfg);
		cfg = NULL;
	}
out:
	strbuf_release(&raw);
	strbuf_release(&text);
	return cfg;
}

struct kt_config *kt_config_load_gz(const char *path, char **err)
{
	return load(path, true, err);
}

struct kt_config *kt_config_load_file(const char *path, char **err)
{
	return load(path, false, err);
}
