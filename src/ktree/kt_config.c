// SPDX-License-Identifier: GPL-2.0
// Kernel configurations: .config files, /proc/config.gz and config.gz (zlib), and values set by hand.
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ktree/kt_internal.h"
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

struct kt_config *kt_config_load_gz(const char *path, char **err)
{
	gzFile gz = gzopen(path, "rb"); /* zlib reads uncompressed files transparently */
	char buf[8192];

	if (!gz) {
		*err = xasprintf("cannot open '%s': %s", path, strerror(errno ? errno : ENOMEM));
		return NULL;
	}
	struct kt_config *cfg = kt_config_new();
	while (gzgets(gz, buf, sizeof(buf)))
		config_line(cfg, buf);
	int zerr;
	const char *msg = gzerror(gz, &zerr);
	if (zerr != Z_OK && zerr != Z_STREAM_END) {
		*err = xasprintf("cannot read '%s': %s", path, zerr == Z_ERRNO ? strerror(errno) : msg);
		gzclose(gz);
		kt_config_free(cfg);
		return NULL;
	}
	gzclose(gz);
	return cfg;
}

struct kt_config *kt_config_load_file(const char *path, char **err)
{
	FILE *f = fopen(path, "re");
	char buf[8192];

	if (!f) {
		*err = xasprintf("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	struct kt_config *cfg = kt_config_new();
	while (fgets(buf, sizeof(buf), f))
		config_line(cfg, buf);
	if (ferror(f)) {
		*err = xasprintf("cannot read '%s': %s", path, strerror(errno));
		fclose(f);
		kt_config_free(cfg);
		return NULL;
	}
	fclose(f);
	return cfg;
}
