/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_INVENTORY_LINES_H
#define KF_REPORT_INVENTORY_LINES_H

/* inventory --lines' renderers (inventory_lines.c): text (top rows of each list, 0: all) and json (every row). */
#include <stddef.h>
#include <stdio.h>

#include "inventory/inv_lines.h"

/* 0, or -1 on a write error */
int invl_render(const struct inv_lines *l, const char *format, size_t top, FILE *out);
/* 0 when --lines renders format; else -1 after a message */
int invl_format_check(const char *format);

#endif
