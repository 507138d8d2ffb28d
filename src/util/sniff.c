// SPDX-License-Identifier: GPL-2.0
/*
 * What a file that a reader refused looks like, told from its first bytes: "an HTML page (kfootprint report
 * -F html?)" says more than "not JSON: unexpected character at line 1, column 1". Only for messages: nothing is
 * accepted or refused on a guess.
 */
#include "util/sniff.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

const char kf_sniff_footprint[] = "a footprint";
const char kf_sniff_mapdb[] = "a kfootprint map database (kfootprint map --save-db)";
const char kf_sniff_config[] = "a kernel .config";

/* Formats told by their magic bytes, at offset 0. */
static const struct {
	const char *magic;
	size_t len;
	const char *what;
} magics[] = {
    {"\x1f\x8b", 2, "a gzip file (zcat it first?)"},
    {"\3757zXZ\0", 6, "an xz file (xzcat it first?)"},
    {"\x28\xb5\x2f\xfd", 4, "a zstd file (zstdcat it first?)"},
    {"BZh", 3, "a bzip2 file (bzcat it first?)"},
    {"\177ELF", 4, "an ELF file (a program: record it with kfootprint -- PROGRAM)"},
    {"PK\x03\x04", 4, "a zip archive"},
    {"%PDF-", 5, "a PDF document"},
    {"\x89PNG", 4, "a PNG image"},
};

/* Text told by how it begins (after blanks; case ignored where marked). */
static const struct {
	const char *prefix;
	bool nocase;
	const char *what;
} prefixes[] = {
    {"<!doctype html", true, "an HTML page (kfootprint report -F html?)"},
    {"<html", true, "an HTML page (kfootprint report -F html?)"},
    {"<?xml", true, "an XML document"},
    {"footprint:", false, "a kfootprint text report (-o FILE or -F json saves the footprint)"},
    {"abi,name,nr,calls,", false, "a kfootprint CSV report (-F csv)"},
    {"System calls made by the workload", false, "a kfootprint reStructuredText report (-F rst)"},
    {"# read N write M:", false, "a kfootprint process tree (-F tree)"},
    {"% time     seconds  usecs/call", false, "a strace -c table (strace -c, or kfootprint -F strace)"},
    {"kfootprint map of ", false, "a kfootprint map (kfootprint map)"},
    {"Kernel map of ", false, "a kfootprint map (kfootprint map -F rst)"},
    {"# Kconfig fragment: kfootprint", false, "a Kconfig fragment (kfootprint map -F kconfig)"},
    {"# Automatically generated file; DO NOT EDIT.", false, kf_sniff_config},
};

/* The schemas of kfootprint's JSON outputs, by the start of the value of a top-level "schema". */
static const struct {
	const char *schema;
	const char *what;
} schemas[] = {
    {"kfootprint/", kf_sniff_footprint},
    {"kfootprint-map/", "a kfootprint map (kfootprint map -F json)"},
    {"kfootprint-mapdb/", kf_sniff_mapdb},
    {"kfootprint-inventory/", "a kfootprint inventory (kfootprint inventory -F json)"},
    {"kfootprint-diff/", "a kfootprint diff (kfootprint diff -F json)"},
};

/* Keys that name a JSON object at the top of the file, in the first bytes. */
static const struct {
	const char *key;
	const char *what;
} keys[] = {
    {"\"defaultAction\"", "an OCI seccomp profile (kfootprint seccomp's output?)"},
    {"\"ociVersion\"", "an OCI runtime config (config.json)"},
};

static bool starts(const char *s, const char *end, const char *prefix, bool nocase)
{
	size_t n = strlen(prefix);

	return (size_t)(end - s) >= n && (nocase ? !strncasecmp(s, prefix, n) : !memcmp(s, prefix, n));
}

/* The string after `"schema"`, blanks and a colon, when there is one in [s, end). */
static const char *schema_of(const char *s, const char *end)
{
	const char *k = memmem(s, (size_t)(end - s), "\"schema\"", 8);

	if (!k)
		return NULL;
	for (k += 8; k < end && isspace((unsigned char)*k); k++)
		;
	if (k >= end || *k++ != ':')
		return NULL;
	while (k < end && isspace((unsigned char)*k))
		k++;
	return k < end && *k == '"' ? k + 1 : NULL;
}

/* A line "CONFIG_X=..." or "# CONFIG_X is not set" begins the text or a line in it. */
static bool has_config_line(const char *s, const char *end)
{
	for (const char *l = s; l && l < end; l = memchr(l, '\n', (size_t)(end - l)), l = l ? l + 1 : NULL) {
		const char *p = l;

		if (starts(p, end, "# CONFIG_", false))
			p += 2;
		if (!starts(p, end, "CONFIG_", false))
			continue;
		for (p += 7; p < end && (isupper((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'); p++)
			;
		if (p < end && (*p == '=' || starts(p, end, " is not set", false)))
			return true;
	}
	return false;
}

/* strace's own lines: `[pid N] `, `N  ` or a time first, then `name(` ... `) = ` (or unfinished). */
static bool strace_line(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s)), *p = s;

	if (!nl)
		nl = end;
	if (starts(p, nl, "[pid ", false))
		p += 5;
	while (p < nl && (isdigit((unsigned char)*p) || *p == ':' || *p == '.' || *p == ' ' || *p == ']'))
		p++;
	if (p >= nl || !islower((unsigned char)*p))
		return false;
	while (p < nl && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
		p++;
	return p < nl && *p == '(' &&
	       (memmem(p, (size_t)(nl - p), ") = ", 4) || memmem(p, (size_t)(nl - p), "<unfinished ...>", 16));
}

const char *kf_sniff(const void *buf, size_t len)
{
	const char *s = buf, *end = s + len;
	const char *schema;

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (len >= magics[i].len && !memcmp(s, magics[i].magic, magics[i].len))
			return magics[i].what;
	if (starts(s, end, "\xef\xbb\xbf", false))
		s += 3; /* a UTF-8 byte order mark */
	while (s < end && isspace((unsigned char)*s))
		s++;
	if (s == end)
		return NULL;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(s, end, prefixes[i].prefix, prefixes[i].nocase))
			return prefixes[i].what;
	if (*s == '{') {
		schema = schema_of(s, end);
		for (size_t i = 0; schema && i < sizeof(schemas) / sizeof(schemas[0]); i++)
			if (starts(schema, end, schemas[i].schema, false))
				return schemas[i].what;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (memmem(s, (size_t)(end - s), keys[i].key, strlen(keys[i].key)))
				return keys[i].what;
		return NULL;
	}
	if (has_config_line(s, end))
		return kf_sniff_config;
	if (strace_line(s, end))
		return "a strace log";
	return NULL;
}
