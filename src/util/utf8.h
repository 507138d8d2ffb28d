/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_UTF8_H
#define KF_UTIL_UTF8_H

#include <stddef.h>

/*
 * Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte at s does not start one (overlong
 * forms, surrogates and code points past U+10FFFF are invalid). The JSON writer and the renderers share this
 * one rule, so a path that round-trips through JSON is displayed the same way.
 */
size_t utf8_seq_len(const unsigned char *s);
/* The value of a hex digit (either case), -1 for any other byte: for the JSON reader's \u and the \xHH escapes. */
int hex_value(int c);

#endif
