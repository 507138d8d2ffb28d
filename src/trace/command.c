// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sched.h>

#include "trace/contain.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/xalloc.h"

char *trace_find_command(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL, *found = NULL;

	if (strchr(name, '/'))
		return xstrdup(name);
	dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *d ? d : ".", name);

		if (access(full, X_OK) == 0)
			found = full;
		else
			free(full);
	}
	free(dirs);
	return found;
}

void trace_note_script(const char *name)
{
	char *path, line[128];
	struct stat st;
	ssize_t n;
	int fd;

	if (strchr(name, '/'))
		return; /* named by its path: what it is was the user's choice */
	path = trace_find_command(name);
	if (!path)
		return; /* the start says it is not found */
	/* O_NONBLOCK: a FIFO in PATH must not hold the start */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	n = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, line, sizeof(line) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n >= 2 && line[0] == '#' && line[1] == '!') {
		line[n] = '\0';
		line[strcspn(line, "\n")] = '\0';
		for (char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?'; /* one line on a terminal, whatever the file holds */
		note("%s is a script (%s): its interpreter's processes are in the footprint", path, line);
	}
	free(path);
}

/* Never returns. */
static void child_exec(const struct trace_opts *opts, const char *path, void (*setup)(const void *ctx), const void *ctx,
		       int go_fd)
{
	extern char **environ;
	char c;
	ssize_t n;

	/* Credentials first: changing them clears a parent-death signal. */
	if (opts->user && trace_drop_privileges(opts->user) < 0)
		_exit(127);
	/*
	 * Without a guardian (no cgroup here), kfootprint's death must take the command with it: it would run on
	 * unobserved. Not with --keep-running, which exists to leave it running.
	 */
	if (!opts->keep_running && !contain_guarded(opts->contain) && prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		_exit(127);
	if (setup)
		setup(ctx);
	do
		n = read(go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1) /* the tracer is gone or gave up: never run untraced */
		_exit(127);
	close(go_fd);
	/* kfootprint's handlers, its ignored SIGPIPE, whatever a backend changed: back to what the user gave */
	trace_inherit_restore(opts->inherit);
	trace_recording_before_exec(opts->stops); /* kernel lines: kcov on in the command itself, as it execs */
	execve(path, opts->argv, environ);
	perror_msg("'%s'", opts->argv[0]);
	_exit(errno == ENOENT ? 127 : 126);
}

/*
 * The child is born in the workload's cgroup (clone3 with CLONE_INTO_CGROUP, Linux 5.7): moving it there after a
 * fork takes the cgroups' write lock, which waits for an RCU grace period (10-20 ms here, right after the BPF
 * programs are attached). Where clone3 cannot, a plain fork(), and *placed is false.
 */
static pid_t spawn(int cgroup_fd, bool *placed)
{
	struct clone_args args = {.flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD, .cgroup = (__u64)cgroup_fd};
	pid_t pid;

	*placed = false;
	if (cgroup_fd >= 0) {
		/* The child returns here too: it only reads the go byte and calls execve, as after fork(). */
		pid = (pid_t)syscall(SYS_clone3, &args, sizeof(args));
		if (pid >= 0) {
			*placed = true;
			return pid;
		}
		debug("clone3 into the workload's cgroup: %s: fork, then move", strerror(errno));
	}
	return fork();
}

static int held_read_fd = -1;

pid_t trace_start_command(const struct trace_opts *opts, void (*setup)(const void *ctx), const void *ctx, int *go_fd)
{
	char *path = trace_find_command(opts->argv[0]);
	int pipefd[2];
	bool placed;
	pid_t pid;

	if (!path)
		return error("'%s': command not found", opts->argv[0]);
	if (opts->user) { /* refuse an unknown user here, before anything runs */
		uid_t uid;
		gid_t gid;

		if (trace_lookup_user(opts->user, &uid, &gid, NULL) < 0) {
			free(path);
			return -1;
		}
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(path);
		return perror_msg("pipe");
	}
	fflush(NULL); /* the child must not write our buffered output a second time */
	pid = spawn(contain_cgroup_fd(opts->contain), &placed);
	if (pid < 0) {
		free(path);
		close(pipefd[0]);
		close(pipefd[1]);
		return perror_msg("fork");
	}
	if (pid == 0) {
		close(pipefd[1]);
		child_exec(opts, path, setup, ctx, pipefd[0]);
	}
	free(path);
	/*
	 * Our copy of the read end is kept (until the next command, or our exit), so the child's close before its
	 * execve only drops a reference: the pipe's release and its inode's eviction (pipe_release, iput, evict and
	 * the LSM and fsnotify hooks) run here, not as the workload's first kernel functions.
	 */
	if (held_read_fd >= 0)
		close(held_read_fd);
	held_read_fd = pipefd[0];
	/* Into the workload's cgroup while it is held: whatever it starts after its execve is in there too. */
	if (contain_add(opts->contain, pid, placed) < 0) {
		close(pipefd[1]); /* the child exits 127 without running the command */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -1;
	}
	if (opts->on_command && opts->on_command(opts->on_command_ctx, pid) < 0) {
		close(pipefd[1]);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -1;
	}
	*go_fd = pipefd[1];
	return pid;
}

int trace_release_command(int go_fd)
{
	ssize_t n;

	do
		n = write(go_fd, "g", 1);
	while (n < 0 && errno == EINTR);
	close(go_fd);
	return n == 1 ? 0 : perror_msg("starting the command");
}
