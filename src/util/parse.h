/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_PARSE_H
#define KF_UTIL_PARSE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Range-checked parsers for option values. Each returns 0, or -1 after printing
 * "kfootprint: invalid OPTION 'value': why".
 */
/* A positive, finite number of seconds: "5", "0.5", "2m", "1h" (s, m, h suffixes). */
int parse_seconds(const char *opt, const char *s, double *out);
/* "PID[,PID...]": positive pids that exist now; appends to *pids (realloc'd) those not in it yet. */
int parse_pid_list(const char *opt, const char *s, pid_t **pids, size_t *n);
/* An unsigned integer in [min, max]. */
int parse_ulong(const char *opt, const char *s, unsigned long min, unsigned long max, unsigned long *out);

#endif
