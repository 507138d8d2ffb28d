// SPDX-License-Identifier: GPL-2.0
// The database of kernel functions (kfuncdb.h): from a tree, or the saved tab-separated form, gzip'd when built in.
#include "kmap/kfmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The built-in database leaves out drivers/ but for the directories any machine's workload reaches (the driver
 * core, char and tty, block, virtio, PCI, ACPI, storage, input, the clock, CPU and IOMMU drivers, the virtual
 * network devices): the rest of drivers/ is 70% of the tree's 578,000 definitions. --kernel-src has them all.
 */
static const char *const keep_drivers[] = {
    "drivers/base/",
    "drivers/char/",
    "drivers/tty/",
    "drivers/block/",
    "drivers/virtio/",
    "drivers/pci/",
    "drivers/acpi/",
    "drivers/nvme/",
    "drivers/scsi/",
    "drivers/ata/",
    "drivers/md/",
    "drivers/input/",
    "drivers/clocksource/",
    "drivers/cpuidle/",
    "drivers/cpufreq/",
    "drivers/iommu/",
    "drivers/dma-buf/",
    "drivers/firmware/",
    "drivers/rtc/",
    "drivers/nvdimm/",
    "drivers/dax/",
    "drivers/vhost/",
    "drivers/irqchip/",
    "drivers/hid/",
    "drivers/usb/core/",
    "drivers/net/loopback.c",
    "drivers/net/veth.c",
    "drivers/net/tun.c",
    "drivers/net/virtio_net.c",
    "drivers/net/dummy.c",
    "drivers/net/macvlan.c",
    "drivers/net/bonding/",
    "drivers/gpu/drm/drm_",
};
#define SCOPE                                                                                                   \
	"drivers/ only in part (base, char, tty, block, virtio, pci, acpi, storage, input, clock, cpu, iommu, " \
	"virtual network devices)"

static bool kept(const char *path)
{
	if (strncmp(path, "drivers/", 8))
		return true;
	for (size_t i = 0; i < sizeof(keep_drivers) / sizeof(keep_drivers[0]); i++)
		if (!strncmp(path, keep_drivers[i], strlen(keep_drivers[i])))
			return true;
	return false;
}

static const char *own(struct kfdb *db, char *s)
{
	XGROW(db->own, db->capown, db->nown + 1);
	db->own[db->nown++] = s;
	return s;
}

/* ---- from a tree ---- */

struct kfdb *kfdb_from_tree(struct kt_fdefs *fd, struct kt_index *idx)
{
	struct kfdb *db = xcalloc(1, sizeof(*db));
	struct kt_fdefs_stats st;
	size_t n = kt_fdefs_count(fd), cap = 1024, capfiles = 0;
	/* kt_fdefs points every definition of a file at one string: a hash on that pointer numbers the files */
	const char **keys;
	uint32_t *vals;

	kt_fdefs_stats(fd, &st);
	while (cap < 2 * st.files + 2)
		cap *= 2;
	keys = xcalloc(cap, sizeof(*keys));
	vals = xcalloc(cap, sizeof(*vals));
	db->fd = fd;
	db->idx = idx;
	db->version = xstrdup(kt_index_version(idx));
	db->origin = xstrdup(kt_index_srcdir(idx));
	db->unparsed = st.unparsed;
	db->unparsed_top = xstrdup(st.unparsed_top);
	db->defs = xcalloc(n ? n : 1, sizeof(*db->defs));
	for (size_t i = 0; i < n; i++) {
		const struct kt_fdef *d = kt_fdefs_at(fd, i);
		size_t h = ((uintptr_t)d->file >> 3) * 0x9E3779B97F4A7C15ull & (cap - 1);

		while (keys[h] && keys[h] != d->file)
			h = (h + 1) & (cap - 1);
		if (!keys[h]) {
			keys[h] = d->file;
			vals[h] = (uint32_t)db->nfiles;
			XGROW(db->files, capfiles, db->nfiles + 1);
			memset(&db->files[db->nfiles], 0, sizeof(*db->files));
			db->files[db->nfiles++].path = d->file;
		}
		db->defs[db->ndefs++] = (struct kfdb_def){d->name, vals[h], d->line};
	}
	free(keys);
	free(vals);
	db->chained = xcalloc(db->nfiles + 1, sizeof(bool));
	return db;
}

static const struct kfdb *sort_db;

static int byp_cmp(const void *a, const void *b)
{
	return strcmp(sort_db->files[*(const uint32_t *)a].path, sort_db->files[*(const uint32_t *)b].path);
}

long kfdb_file_index(struct kfdb *db, const char *path)
{
	size_t lo = 0, hi = db->nfiles;

	/* built on first use: DWARF names a file per definition it places (thousands for a big footprint) */
	if (!db->byp) {
		db->byp = xcalloc(db->nfiles + 1, sizeof(*db->byp));
		for (size_t i = 0; i < db->nfiles; i++)
			db->byp[i] = (uint32_t)i;
		sort_db = db;
		qsort(db->byp, db->nfiles, sizeof(*db->byp), byp_cmp);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(db->files[db->byp[mid]].path, path);
		if (!c)
			return (long)db->byp[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

long kfdb_add_file(struct kfdb *db, const char *path)
{
	long i = kfdb_file_index(db, path);

	if (i >= 0)
		return i;
	db->files = xrealloc(db->files, (db->nfiles + 1) * sizeof(*db->files));
	memset(&db->files[db->nfiles], 0, sizeof(*db->files));
	db->files[db->nfiles].path = own(db, xstrdup(path));
	if (!db->idx)
		db->files[db->nfiles].why = "not in the database: no chain known";
	db->chained = xrealloc(db->chained, (db->nfiles + 1) * sizeof(bool));
	db->chained[db->nfiles] = false;
	free(db->byp); /* sorted again on the next lookup */
	db->byp = NULL;
	return (long)db->nfiles++;
}

const struct kfdb_file *kfdb_file(const struct kfdb *db, uint32_t i)
{
	return i < db->nfiles ? &db->files[i] : NULL;
}

const struct kfdb_file *kfdb_chain(struct kfdb *db, uint32_t i)
{
	if (i >= db->nfiles)
		return NULL;
	if (db->idx && !db->chained[i]) {
		struct kfdb_file *f = &db->files[i];
		struct kt_file_chain c;
		const char **v;

		db->chained[i] = true;
		kt_index_file_chain(db->idx, f->path, &c);
		f->object = c.object ? own(db, c.object) : NULL;
		f->makefile = c.makefile ? own(db, c.makefile) : NULL;
		f->included_by = c.included_by ? own(db, c.included_by) : NULL;
		f->mline = c.line;
		f->why = c.why ? own(db, c.why) : NULL;
		f->built = c.built;
		f->section = c.nsections ? c.sections[0].section->name : NULL;
		v = xcalloc(c.noptions + 1, sizeof(*v));
		for (size_t k = 0; k < c.noptions; k++)
			v[k] = own(db, c.options[k]);
		free(c.options);
		free(c.sections);
		XGROW(db->ownv, db->capownv, db->nownv + 1);
		db->ownv[db->nownv++] = v;
		f->opts = v;
		f->nopts = c.noptions;
	}
	return &db->files[i];
}

size_t kfdb_find(const struct kfdb *db, const char *name, const struct kfdb_def **out)
{
	size_t lo = 0, hi = db->ndefs, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(db->defs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < db->ndefs && !strcmp(db->defs[lo + n].name, name))
		n++;
	*out = n ? &db->defs[lo] : NULL;
	return n;
}

struct kfdb_opt kfdb_option(const struct kfdb *db, const char *name)
{
	struct kfdb_opt o = {name, NULL, NULL, NULL};

	if (*name == '!')
		o.name = ++name;
	if (db->idx) {
		const struct kt_option *k = kt_index_option(db->idx, name);
		if (k) {
			static char where[512];
			snprintf(where, sizeof(where), "%s:%d", k->file, k->line);
			o.where = where;
			o.prompt = k->prompt;
			o.depends = k->depends;
		}
		return o;
	}
	size_t lo = 0, hi = db->nopts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(db->opts[mid].name, name);
		if (!c)
			return db->opts[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return o;
}

/* ---- the saved form ---- */

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void field(FILE *out, const char *s)
{
	fputc('\t', out);
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, out);
}

int kfdb_save(struct kfdb *db, FILE *out)
{
	long *newidx = xcalloc(db->nfiles + 1, sizeof(long));
	const char **optnames = NULL;
	size_t nopt = 0, capopt = 0, nf = 0;

	fprintf(out, "%s", KFUNCDB_SCHEMA);
	field(out, db->version);
	field(out, SCOPE);
	fprintf(out, "\t%zu", db->unparsed);
	field(out, db->unparsed_top);
	fputc('\n', out);
	for (size_t i = 0; i < db->nfiles; i++) {
		const struct kfdb_file *f = kfdb_chain(db, (uint32_t)i);

		newidx[i] = -1;
		if (!kept(f->path))
			continue;
		newidx[i] = (long)nf++;
		for (size_t k = 0; k < f->nopts; k++) {
			const char *o = f->opts[k][0] == '!' ? f->opts[k] + 1 : f->opts[k];
			bool seen = false;
			for (size_t j = 0; j < nopt && !seen; j++)
				seen = !strcmp(optnames[j], o);
			if (!seen) {
				XGROW(optnames, capopt, nopt + 1);
				optnames[nopt++] = o;
			}
		}
	}
	if (nopt)
		qsort(optnames, nopt, sizeof(*optnames), strcmp_ptr);
	for (size_t j = 0; j < nopt; j++) {
		struct kfdb_opt o = kfdb_option(db, optnames[j]);
		fputs("O", out);
		field(out, o.name);
		field(out, o.where);
		field(out, o.prompt);
		field(out, o.depends);
		fputc('\n', out);
	}
	for (size_t i = 0; i < db->nfiles; i++) {
		const struct kfdb_file *f = &db->files[i];

		if (newidx[i] < 0)
			continue;
		fputs("F", out);
		field(out, f->path);
		field(out, f->object);
		field(out, f->makefile);
		fprintf(out, "\t%d", f->mline);
		field(out, f->included_by);
		fputc('\t', out);
		for (size_t k = 0; k < f->nopts; k++)
			fprintf(out, "%s%s", k ? "," : "", f->opts[k]);
		field(out, f->section);
		fprintf(out, "\t%d", f->built);
		field(out, f->why);
		fputc('\n', out);
	}
	for (size_t i = 0; i < db->ndefs; i++) {
		const struct kfdb_def *d = &db->defs[i];

		if (newidx[d->file] >= 0)
			fprintf(out, "D\t%s\t%ld\t%d\n", d->name, newidx[d->file], d->line);
	}
	free(newidx);
	free(optnames);
	return ferror(out) ? -1 : 0;
}

/* Splits the text in place into tab-separated fields; an empty one reads as NULL. */
static size_t split(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		char *t = strchr(line, '\t');
		f[n++] = *line && line != t ? line : NULL;
		if (!t)
			break;
		*t = '\0';
		line = t + 1;
	}
	return n;
}

#define KFUNCDB_MAX (256u << 20)

static char *gunzip(const unsigned char *data, size_t len, size_t *outlen, char **err)
{
	z_stream z = {0};
	size_t cap = len * 8 + 4096, n = 0;
	char *buf = xmalloc(cap);
	int rc;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		*err = xstrdup("cannot start zlib");
		return NULL;
	}
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	do {
		if (cap - n < 65536) {
			if (cap >= KFUNCDB_MAX) {
				inflateEnd(&z);
				free(buf);
				*err = xasprintf("decompresses past %u MiB", KFUNCDB_MAX >> 20);
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		z.next_out = (unsigned char *)buf + n;
		z.avail_out = (uInt)(cap - n - 1);
		rc = inflate(&z, Z_NO_FLUSH);
		n = cap - 1 - z.avail_out;
	} while (rc == Z_OK);
	inflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(buf);
		*err = xasprintf("not a whole gzip stream (zlib %d)", rc);
		return NULL;
	}
	buf[n] = '\0';
	*outlen = n;
	return buf;
}

static int def_cmp(const void *a, const void *b)
{
	const struct kfdb_def *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->file < y->file ? -1 : x->file > y->file;
}

struct kfdb *kfdb_parse(const void *data, size_t len, const char *origin, char **err)
{
	struct kfdb *db = xcalloc(1, sizeof(*db));
	size_t tl, capf = 0, capd = 0, capo = 0, lineno = 0;
	char *f[12], *save = NULL;
	bool sorted = true;

	*err = NULL;
	if (len >= 2 && ((const unsigned char *)data)[0] == 0x1f && ((const unsigned char *)data)[1] == 0x8b) {
		db->text = gunzip(data, len, &tl, err);
		if (!db->text)
			goto fail;
	} else {
		db->text = xstrndup(data, len);
	}
	db->origin = xstrdup(origin);
	for (char *l = strtok_r(db->text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t n = split(l, f, 12);

		if (++lineno == 1) {
			if (n < 2 || !f[0] || strcmp(f[0], KFUNCDB_SCHEMA)) {
				*err = xasprintf("not a %s database", KFUNCDB_SCHEMA);
				goto fail;
			}
			db->version = xstrdup(f[1] ? f[1] : "?");
			db->scope = n > 2 && f[2] ? xstrdup(f[2]) : NULL;
			db->unparsed = n > 3 && f[3] ? strtoul(f[3], NULL, 10) : 0;
			db->unparsed_top = xstrdup(n > 4 && f[4] ? f[4] : "");
			continue;
		}
		if (!f[0] || f[0][1]) {
			*err = xasprintf("line %zu: unknown record", lineno);
			goto fail;
		}
		if (f[0][0] == 'O' && n >= 2 && f[1]) {
			XGROW(db->opts, capo, db->nopts + 1);
			db->opts[db->nopts++] =
			    (struct kfdb_opt){f[1], n > 2 ? f[2] : NULL, n > 3 ? f[3] : NULL, n > 4 ? f[4] : NULL};
		} else if (f[0][0] == 'F' && n >= 10 && f[1]) {
			struct kfdb_file *x;
			const char **v;
			size_t nv = 0;

			XGROW(db->files, capf, db->nfiles + 1);
			x = &db->files[db->nfiles++];
			memset(x, 0, sizeof(*x));
			x->path = f[1];
			x->object = f[2];
			x->makefile = f[3];
			x->mline = f[4] ? atoi(f[4]) : 0;
			x->included_by = f[5];
			v = xcalloc(f[6] ? strlen(f[6]) / 2 + 2 : 1, sizeof(*v));
			for (char *o = f[6], *s2 = NULL, *t = o ? strtok_r(o, ",", &s2) : NULL; t;
			     t = strtok_r(NULL, ",", &s2))
				v[nv++] = t;
			XGROW(db->ownv, db->capownv, db->nownv + 1);
			db->ownv[db->nownv++] = v;
			x->opts = v;
			x->nopts = nv;
			x->section = f[7];
			x->built = f[8] && f[8][0] == '1';
			x->why = f[9];
		} else if (f[0][0] == 'D' && n >= 4 && f[1] && f[2]) {
			unsigned long fi = strtoul(f[2], NULL, 10);

			if (fi >= db->nfiles) {
				*err = xasprintf("line %zu: file %lu not defined before", lineno, fi);
				goto fail;
			}
			XGROW(db->defs, capd, db->ndefs + 1);
			db->defs[db->ndefs++] = (struct kfdb_def){f[1], (uint32_t)fi, f[3] ? atoi(f[3]) : 0};
			if (db->ndefs > 1 && def_cmp(&db->defs[db->ndefs - 2], &db->defs[db->ndefs - 1]) > 0)
				sorted = false;
		} else {
			*err = xasprintf("line %zu: malformed '%s' record", lineno, f[0]);
			goto fail;
		}
	}
	if (!db->version) {
		*err = xstrdup("empty database");
		goto fail;
	}
	/* lookups bsearch: a database edited by hand is sorted here rather than refused */
	if (!sorted)
		qsort(db->defs, db->ndefs, sizeof(*db->defs), def_cmp);
	for (size_t i = 1; i < db->nopts; i++)
		if (strcmp(db->opts[i - 1].name, db->opts[i].name) > 0) {
			*err = xasprintf("options not sorted at '%s'", db->opts[i].name);
			goto fail;
		}
	return db;
fail:
	kfdb_free(db);
	return NULL;
}

extern const unsigned char kfuncdb_builtin_data[];
extern const uint64_t kfuncdb_builtin_len; /* the assembler's count, not a difference of two C objects */

struct kfdb *kfdb_builtin(char **err)
{
	size_t len = (size_t)kfuncdb_builtin_len;
	struct kfdb *db;

	if (!len) {
		*err = xstrdup("this build has no built-in database of kernel functions: use --kernel-src");
		return NULL;
	}
	db = kfdb_parse(kfuncdb_builtin_data, len, "built-in database", err);
	if (!db) {
		char *e = xasprintf("built-in database of kernel functions: %s", *err);
		free(*err);
		*err = e;
	}
	return db;
}

void kfdb_free(struct kfdb *db)
{
	if (!db)
		return;
	free(db->version);
	free(db->origin);
	free(db->unparsed_top);
	free(db->scope);
	free(db->files);
	free(db->defs);
	free(db->opts);
	free(db->chained);
	free(db->byp);
	kt_fdefs_free(db->fd);
	free(db->text);
	for (size_t i = 0; i < db->nown; i++)
		free(db->own[i]);
	free(db->own);
	for (size_t i = 0; i < db->nownv; i++)
		free((void *)db->ownv[i]);
	free(db->ownv);
	free(db);
}

/*
 * The built-in database, embedded as committed (data/kfuncdb-6.1-x86_64.tsv.gz, made by `make mapdb`), with
 * .incbin as the syscall databases are (mapdb_data.c).
 */
__asm__(".section .rodata\n"
	".global kfuncdb_builtin_data\n"
	".type kfuncdb_builtin_data, @object\n"
	"kfuncdb_builtin_data:\n"
	".incbin \"data/kfuncdb-6.1-x86_64.tsv.gz\"\n"
	"kfuncdb_builtin_end:\n"
	".byte 0\n"
	".size kfuncdb_builtin_data, . - kfuncdb_builtin_data\n"
	".balign 8\n"
	".global kfuncdb_builtin_len\n"
	".type kfuncdb_builtin_len, @object\n"
	"kfuncdb_builtin_len:\n"
	".quad kfuncdb_builtin_end - kfuncdb_builtin_data\n"
	".size kfuncdb_builtin_len, 8\n"
	".previous\n");
