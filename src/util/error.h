/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_ERROR_H
#define KF_UTIL_ERROR_H

/*
 * Messages are "kfootprint: what: why" on one line, lower case, no full stop, the subject quoted
 * ('%s') when it comes from the user. error() and perror_msg() return -1 so callers can write
 * `return error(...)`.
 */

__attribute__((format(printf, 1, 2))) int error(const char *fmt, ...);
/* Like error(), with ": strerror(errno)" appended (errno as it was on entry). */
__attribute__((format(printf, 1, 2))) int perror_msg(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void warning(const char *fmt, ...);
/* "kfootprint: note: ...": something true the user may not expect, not a problem. */
__attribute__((format(printf, 1, 2))) void note(const char *fmt, ...);
__attribute__((format(printf, 1, 2), noreturn)) void die(const char *fmt, ...);
/* Verbose diagnostics, printed only with -v. */
__attribute__((format(printf, 1, 2))) void debug(const char *fmt, ...);

/* Set once from the parsed options. */
extern int kf_verbose;

#endif
