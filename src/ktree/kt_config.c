// SPDX-License-Identifier: GPL-2.0
// Kernel configurations: .config files, plain, gzip'd (/proc/config.gz) or xz'd (Debian's config.*.xz), and
// values set by hand.
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/input.h"
#include "util/unpack.h"
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

/* One line of a .config: CONFIG_X=value, or "# CONFIG_X is not set" (true); anything else is ignored. */
static bool config_line(struct kt_config *cfg, char *line)
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
		return sp != NULL;
	}
	if (strncmp(line, "CONFIG_", 7) != 0)
		return false;
	char *eq = strchr(line, '=');
	if (!eq || eq == line + 7)
		return false;
	*eq = '\0';
	for (char *c = line; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			return false;
	kt_config_set(cfg, line, eq + 1);
	return true;
}

/*
 * Any file is read within a limit (a FIFO or /dev/zero given as the configuration ends with an error, not
 * a hang), gzip'd and xz'd ones decompressed within the same limit (util/unpack.h). A file without a single
 * CONFIG_ line is refused: read as a configuration, it would be one with every option off.
 */
static struct kt_config *load(const char *path, char **err)
{
	struct strbuf text = STRBUF_INIT;
	struct kt_config *cfg = NULL;
	const char *kind;
	char *why = NULL;
	size_t lines = 0;

	if (kf_input_read_unpacked(path, KF_CONFIG_MAX, &text, &why) < 0) {
		*err = xasprintf("cannot read '%s': %s", path, why);
		free(why);
		goto out;
	}
	/* before the lines are cut: what a file with no option in it looks like, for its refusal */
	kind = kf_sniff(text.buf, text.len < KF_SNIFF_LEN ? text.len : KF_SNIFF_LEN);
	cfg = kt_config_new();
	for (char *l = text.buf, *end = text.buf + text.len; l < end;) {
		char *nl = memchr(l, '\n', (size_t)(end - l));

		if (nl)
			*nl = '\0';
		else
			l[end - l] = '\0'; /* the buffer's own terminator */
		lines += config_line(cfg, l);
		l = nl ? nl + 1 : end;
	}
	if (!lines && kind && kind != kf_sniff_config) {
		*err = xasprintf("%s, not a kernel .config", kind);
		kt_config_free(cfg);
		cfg = NULL;
	} else if (!lines) {
		*err = xasprintf("'%s' is not a kernel configuration: no CONFIG_ line in its %zu bytes%s", path,
				 text.len, memchr(text.buf, '\0', text.len) ? " (binary data)" : "");
		kt_config_free(cfg);
		cfg = NULL;
	}
out:
	strbuf_release(&text);
	return cfg;
}

struct kt_config *kt_config_load_gz(const char *path, char **err)
{
	return load(path, err);
}

struct kt_config *kt_config_load_file(const char *path, char **err)
{
	return load(path, err);
}
