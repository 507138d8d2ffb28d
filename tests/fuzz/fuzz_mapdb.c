// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the map database loader (mapdb_parse, what --db reads): any bytes must load or be refused
 * with a one-line message, without a crash, a leak or a hang; what loads is saved, and that saved text loads again
 * (unless saving left out every row: rows the tree's table lacks are not saved) and saves to the same bytes.
 * The reduced load (mapdb_parse_for(), meant for the built-in text) must not crash or leak on any bytes either.
 * Built by `make fuzz-build`; tests/integration/mapdb_fuzz.sh runs it briefly on tests/fuzz/mapdb-seeds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/mapdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *save(const struct mapdb *db)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || mapdb_save(db, f) < 0)
		abort();
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *err = NULL;
	struct mapdb *db;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	{
		static const char *const sys[] = {"read", "ioctl", "openat"}, *const kind[] = {"fd", "ioctl"},
					 *const value[] = {"file:ext4", "TCGETS"};
		const struct mapdb_want want = {sys, 3, kind, value, 2};

		db = mapdb_parse_for(text, "fuzz", &want, &err);
		if (!db && (!err || strchr(err, '\n')))
			abort();
		free(err);
		err = NULL;
		mapdb_free(db);
	}
	db = mapdb_parse(text, "fuzz", &err);
	if (!db) {
		if (!err || strchr(err, '\n'))
			abort();
		free(err);
	} else {
		char *a = save(db), *b;
		struct mapdb *again = mapdb_parse(a, "saved", &err);

		if (again) {
			b = save(again);
			if (strcmp(a, b))
				abort(); /* a saved database is one the loader reads back as it was */
			free(b);
			mapdb_free(again);
		} else if (strcmp(err, "no syscalls")) {
			abort();
		} else {
			free(err);
		}
		free(a);
		mapdb_free(db);
	}
	free(text);
	return 0;
}
