// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel: release, /proc/config.gz (or a configuration given: plain, gzip'd or xz'd) and the syscall
 * entry points in /proc/kallsyms.
 */
#include "kernel/running.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "util/input.h"
#include "util/strbuf.h"
#include "util/unpack.h"
#include "util/xalloc.h"

struct kf_cfg {
	char *name; /* without CONFIG_ */
	char *value;
};

struct kf_sym {
	char *name;
	char type; /* 'T' or 'W' (lower case for local symbols is folded to upper) */
};

int kf_parse_version(const char *release, int *version, int *patchlevel)
{
	char *end;
	long v, p;

	errno = 0;
	v = strtol(release, &end, 10);
	if (end == release || *end != '.' || v < 0 || v > 1000)
		return -1;
	release = end + 1;
	p = strtol(release, &end, 10);
	if (end == release || p < 0 || p > 1000 || errno)
		return -1;
	*version = (int)v;
	*patchlevel = (int)p;
	return 0;
}

static int cfg_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kf_cfg *)a)->name, ((const struct kf_cfg *)b)->name);
}

static int sym_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kf_sym *)a)->name, ((const struct kf_sym *)b)->name);
}

/*
 * "CONFIG_X=value" lines, and "# CONFIG_X is not set" ones as "n" (listed: the option exists and is off, where
 * an option the file does not name is absent, which is n too).
 */
static void load_config(struct kf_running *r, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	char *why = NULL, *save = NULL;
	size_t cap = 0;

	/* the one reader of configurations: plain, gzip'd or xz'd, within KF_CONFIG_MAX (util/unpack.h) */
	if (kf_input_read_unpacked(path, KF_CONFIG_MAX, &text, &why) < 0) {
		r->config_why = xasprintf("'%s': %s", path, why);
		free(why);
		strbuf_release(&text);
		return;
	}
	for (char *line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *name = line + 7, *value;
		char *eq;

		if (!strncmp(line, "# CONFIG_", 9) && (eq = strstr(line, " is not set"))) {
			name = line + 9;
			value = "n";
		} else if (!strncmp(line, "CONFIG_", 7) && (eq = strchr(line, '='))) {
			value = eq + 1;
		} else {
			continue;
		}
		*eq = '\0';
		XGROW(r->cfg, cap, r->ncfg + 1);
		r->cfg[r->ncfg].name = xstrdup(name);
		r->cfg[r->ncfg].value = xstrdup(value);
		r->ncfg++;
	}
	strbuf_release(&text);
	if (!r->ncfg) {
		r->config_why = xasprintf("'%s': no CONFIG_ lines", path);
		return;
	}
	qsort(r->cfg, r->ncfg, sizeof(*r->cfg), cfg_cmp);
	r->have_config = true;
}

/* An entry point of some ABI: one of its prefixes (abi.h), then "sys_". */
static bool syscall_symbol(const char *name)
{
	for (int a = 0; a < KF_ABI_NR; a++) {
		const struct kf_abi_desc *d = kf_abi_get((enum kf_abi)a);
		const char *const *p = d->kallsyms;

		for (size_t i = 0; i < sizeof(d->kallsyms) / sizeof(d->kallsyms[0]) && p[i]; i++) {
			size_t n = strlen(p[i]);

			if (!strncmp(name, p[i], n) && !strncmp(name + n, "sys_", 4))
				return true;
		}
	}
	return false;
}

/* kptr_restrict may zero the addresses; names and types, all we need, stay. */
static void load_kallsyms(struct kf_running *r, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		r->kallsyms_why = xasprintf("'%s': %s", path, strerror(errno));
		return;
	}
	while (getline(&line, &len, f) > 0) {
		char addr[32], type, name[256];

		if (sscanf(line, "%31s %c %255s", addr, &type, name) != 3 || !syscall_symbol(name))
			continue;
		XGROW(r->syms, cap, r->nsyms + 1);
		r->syms[r->nsyms].name = xstrdup(name);
		r->syms[r->nsyms].type = (char)(type >= 'a' && type <= 'z' ? type - 32 : type);
		r->nsyms++;
	}
	if (ferror(f))
		r->kallsyms_why = xasprintf("'%s': %s", path, strerror(errno));
	else if (!r->nsyms)
		r->kallsyms_why = xasprintf("'%s': no syscall entry points listed", path);
	free(line);
	fclose(f);
	if (r->kallsyms_why)
		return;
	qsort(r->syms, r->nsyms, sizeof(*r->syms), sym_cmp);
	r->have_kallsyms = true;
}

void kf_running__load(struct kf_running *r, const char *config_path, const char *kallsyms_path)
{
	struct utsname u;

	memset(r, 0, sizeof(*r));
	r->version = r->patchlevel = -1;
	if (!uname(&u)) {
		snprintf(r->release, sizeof(r->release), "%s", u.release);
		kf_parse_version(r->release, &r->version, &r->patchlevel);
	}
	load_config(r, config_path ? config_path : "/proc/config.gz");
	load_kallsyms(r, kallsyms_path ? kallsyms_path : "/proc/kallsyms");
}

void kf_running__release(struct kf_running *r)
{
	for (size_t i = 0; i < r->ncfg; i++) {
		free(r->cfg[i].name);
		free(r->cfg[i].value);
	}
	for (size_t i = 0; i < r->nsyms; i++)
		free(r->syms[i].name);
	free(r->cfg);
	free(r->syms);
	free(r->config_why);
	free(r->kallsyms_why);
	memset(r, 0, sizeof(*r));
}

const char *kf_running_config(const struct kf_running *r, const char *option)
{
	struct kf_cfg key = {0}, *hit;

	if (!r->have_config)
		return NULL;
	if (!strncmp(option, "CONFIG_", 7))
		option += 7;
	key.name = (char *)option;
	hit = bsearch(&key, r->cfg, r->ncfg, sizeof(*r->cfg), cfg_cmp);
	return hit ? hit->value : "n";
}

static char sym_type(const struct kf_running *r, const char *prefix, const char *name)
{
	struct kf_sym key = {0}, *hit;
	char buf[256];

	snprintf(buf, sizeof(buf), "%s%s", prefix, name);
	key.name = buf;
	hit = bsearch(&key, r->syms, r->nsyms, sizeof(*r->syms), sym_cmp);
	return hit ? hit->type : 0;
}

bool kf_running_config_listed(const struct kf_running *r, const char *option)
{
	struct kf_cfg key = {0};

	if (!r->have_config)
		return false;
	if (!strncmp(option, "CONFIG_", 7))
		option += 7;
	key.name = (char *)option;
	return bsearch(&key, r->cfg, r->ncfg, sizeof(*r->cfg), cfg_cmp) != NULL;
}

enum kf_run_status kf_running_syscall(const struct kf_running *r, enum kf_abi abi, const char *entry)
{
	const struct kf_abi_desc *d = kf_abi_get(abi);
	bool weak = false;

	if (!r->have_kallsyms)
		return KF_RUN_UNKNOWN;
	if (!entry || !*entry)
		return KF_RUN_ABSENT;
	if (!strncmp(entry, "compat_", 7))
		entry += 7;
	if (strncmp(entry, "sys_", 4)) {
		char buf[200];

		snprintf(buf, sizeof(buf), "sys_%s", entry);
		return kf_running_syscall(r, abi, buf);
	}
	if (!d || !d->kallsyms[0])
		return KF_RUN_UNKNOWN;
	for (size_t i = 0; i < sizeof(d->kallsyms) / sizeof(d->kallsyms[0]) && d->kallsyms[i]; i++) {
		char t = sym_type(r, d->kallsyms[i], entry);

		if (t == 'T')
			return KF_RUN_BUILTIN;
		if (t == 'W')
			weak = true;
	}
	return weak ? KF_RUN_STUB : KF_RUN_ABSENT;
}

const char *kf_run_status_name(enum kf_run_status s)
{
	switch (s) {
	case KF_RUN_BUILTIN: return "built-in";
	case KF_RUN_STUB: return "stub";
	case KF_RUN_ABSENT: return "absent";
	default: return "unknown";
	}
}
