/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_BOOT_H
#define KF_BOOT_H

#include <stdbool.h>

/*
 * kfootprint boot: kfootprint as the kernel's init. PID 1 forks a recorder and, once the recorder holds it
 * (or could not), execs the real init, which so keeps PID 1 (as systemd-bootchart does). The recorder follows
 * PID 1's whole tree (bpf; ptrace when bpf cannot load) until its end condition, keeps the footprint in memory
 * and writes it once a writable file system lets it.
 */
struct boot_opts {
	const char *init;   /* the real init (default /sbin/init) */
	char **init_argv;   /* its arguments after "--", NULL-terminated (argv[0] is init) */
	const char *output; /* default /var/log/kfootprint/boot-DATE.json */
	const char *backend;
	const char *until_file, *until_target;
	double duration;
	double write_timeout; /* seconds to keep trying to write the footprint */
	double ready_timeout; /* seconds init waits for the recorder at most */
};

/* The options of the kernel command line (kfootprint.NAME=VALUE, in init's environment) into o. */
void boot_env_opts(struct boot_opts *o);
/* Forks the recorder, then execs the real init: returns only when even /bin/sh could not be exec'd. */
int boot_run(const struct boot_opts *o);
/* kfootprint boot --stop: ends the recorder's observation (SIGTERM). 0, or -1 after a message. */
int boot_stop(void);

#endif
