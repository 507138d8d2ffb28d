/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_SPAWN_H
#define KF_TAILOR_SPAWN_H

#include <fcntl.h>

typedef void (*tl_line_fn)(const char *line, void *ctx);

/*
 * Runs argv (PATH searched) with stdin /dev/null, stdout and stderr to log_fd (-1: nowhere) and each line to
 * on_line (may be NULL). Its exit status, 128 + the signal that ended it, or -1 after a message when it could
 * not be started.
 */
int tl_spawn(char *const argv[], int log_fd, tl_line_fn on_line, void *ctx);

#endif
