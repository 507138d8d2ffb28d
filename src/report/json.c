// SPDX-License-Identifier: GPL-2.0
/* The footprint itself, schema kfootprint/1: what `-o FILE` saves, for scripts and `kfootprint report`. */
#include "report/report.h"

static int render(const struct footprint *fp, FILE *out)
{
	return fp__write_json(fp, out);
}

const struct renderer renderer_json = {{"json", "the footprint as JSON (schema kfootprint/1)"}, render, NULL, false};
