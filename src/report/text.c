// SPDX-License-Identifier: GPL-2.0
// PLACEHOLDER (coordinator): replaced by the reports work.
#include "report/report.h"

static int render(const struct footprint *fp, FILE *out)
{
	(void)fp;
	return fprintf(out, "text report\n") < 0 ? -1 : 0;
}

const struct renderer renderer_text = { "text", "text", render };
