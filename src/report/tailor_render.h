/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_TAILOR_RENDER_H
#define KF_REPORT_TAILOR_RENDER_H

#include <stdio.h>

#include "report/format.h"

struct tl_report;

/* A renderer of tailor's report (tailor/report.h): tailor writes each into -o DIR as report.NAME. */
struct tailor_format {
	struct format f;
	int (*render)(const struct tl_report *r, FILE *out); /* 0, or -1 (errno) */
};
/* NULL-terminated in order: text, json. */
const struct tailor_format *tailor_format_at(size_t i);

#endif
