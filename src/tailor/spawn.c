// SPDX-License-Identifier: GPL-2.0
// Running the kernel's make (and QEMU) for tailor: the child's output, both streams, to a log file and line by
// line to a callback, for a progress line. The child stays in kfootprint's process group, so Ctrl-C reaches it
// and its compilers too, and gets SIGTERM should kfootprint die first (make then stops its jobs): nothing keeps
// writing into the cache after kfootprint is gone.
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tailor/spawn.h"
#include "util/error.h"

int tl_spawn(char *const argv[], int log_fd, tl_line_fn on_line, void *ctx)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return perror_msg("%s: pipe", argv[0]);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return perror_msg("%s: fork", argv[0]);
	}
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(126);
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "kfootprint: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	FILE *in = fdopen(p[0], "r");
	if (!in) {
		close(p[0]);
	} else {
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		while ((n = getline(&line, &cap, in)) > 0) {
			if (log_fd >= 0 && write(log_fd, line, (size_t)n) != n)
				log_fd = -1; /* a full disk: the build goes on, the log is short */
			if (on_line) {
				if (line[n - 1] == '\n')
					line[n - 1] = '\0';
				on_line(line, ctx);
			}
		}
		free(line);
		fclose(in);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return perror_msg("%s: waitpid", argv[0]);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
