/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_KLINE_H
#define KF_REPORT_KLINE_H

/* The kernel lines' line-level review candidates (kline.c), which map and inventory --lines both show. */
#include <stdio.h>

#include "util/json_writer.h"

struct klmap;

/* The #if blocks compiled and never entered and the error paths never taken, with the caution; nothing without
 * sources (kl->source_root) or compiled lines. */
void kline_text_candidates(const struct klmap *kl, FILE *out);
/* The same as the members "blocks", "error_paths_not_taken" and "caution" of the object being written. */
void kline_json_candidates(json_writer_t *w, const struct klmap *kl);

#endif
