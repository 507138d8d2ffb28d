// SPDX-License-Identifier: GPL-2.0
// Running the kernel's make (and QEMU) for tailor: the child's output, both streams, to a log file and line by
// line to a callback, for a progress line. The child stays in kfootprint's process group, so Ctrl-C reaches it
// and its compilers too, and gets SIGTERM should kfootprint die first (make then stops its jobs): nothing keeps
// writing into the cache after kfootprint is gone. What runs the tree's code runs as the builder (spawn.h).
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tailor/spawn.h"
#include "util/error.h"
#include "util/xalloc.h"

int tl_builder_get(struct tl_builder *b)
{
	memset(b, 0, sizeof(*b));
	if (geteuid() != 0) {
		b->uid = geteuid();
		b->gid = getegid();
		snprintf(b->name, sizeof(b->name), "uid %u", (unsigned)b->uid);
		return 0;
	}
	const char *name = getenv("KF_TAILOR_USER");
	if (!name || !*name)
		name = "nobody";
	errno = 0;
	struct passwd *pw = getpwnam(name);
	if (!pw)
		return errno ? perror_msg("tailor: the build user '%s'", name)
			     : error("tailor: the build user '%s' does not exist (KF_TAILOR_USER)", name);
	if (pw->pw_uid == 0 || pw->pw_gid == 0)
		return error("tailor: the build user '%s' is root or in root's group: the tree's code would run "
			     "with kfootprint's privileges (KF_TAILOR_USER)",
			     name);
	b->uid = pw->pw_uid;
	b->gid = pw->pw_gid;
	b->drop = true;
	snprintf(b->name, sizeof(b->name), "%s", name);
	return 0;
}

/* In the child: become the builder for good; any step that fails ends the child before it runs anything. */
static int become(const struct tl_builder *b)
{
	umask(022);
	if (!b || !b->drop)
		return 0;
	/* the bounding set first, while CAP_SETPCAP is still ours: not even a file capability can come back */
	for (int c = 0; c <= CAP_LAST_CAP; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL)
			return -1;
	if (setgroups(0, NULL) < 0 || setresgid(b->gid, b->gid, b->gid) < 0 || setresuid(b->uid, b->uid, b->uid) < 0)
		return -1;
	/* setresuid from 0 to others cleared the permitted and effective sets; the ambient one is cleared here */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	if (setuid(0) == 0 || geteuid() != b->uid || getegid() != b->gid)
		return -1;
	return setenv("HOME", "/nonexistent", 1) < 0 || setenv("USER", b->name, 1) < 0 ||
		       setenv("LOGNAME", b->name, 1) < 0
		   ? -1
		   : 0;
}

int tl_spawn_as(const struct tl_builder *b, char *const argv[], int log_fd, tl_line_fn on_line, void *ctx)
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
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(126);
		if (become(b) < 0) {
			fprintf(stderr, "kfootprint: cannot become the build user %s: %s\n", b->name, strerror(errno));
			_exit(126);
		}
		/* after become(): a change of credentials clears the parent-death signal */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
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

int tl_spawn(char *const argv[], int log_fd, tl_line_fn on_line, void *ctx)
{
	return tl_spawn_as(NULL, argv, log_fd, on_line, ctx);
}

int tl_builder_access(const struct tl_builder *b, const char *path)
{
	pid_t pid = fork();
	if (pid < 0)
		return errno;
	if (pid == 0) {
		if (become(b) < 0)
			_exit(255);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		_exit(fd < 0 ? (errno & 0xff ? errno & 0xff : 254) : 0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return errno;
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 255)
		return EPERM;
	return WEXITSTATUS(st);
}

int tl_open_inside(const char *dir, const char *rel)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char *copy = xstrdup(rel), *save = NULL;
	for (char *t = strtok_r(copy, "/", &save); fd >= 0 && t;) {
		char *next = strtok_r(NULL, "/", &save);
		int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (next ? O_DIRECTORY : O_NONBLOCK);
		int sub = strcmp(t, "..") ? openat(fd, t, flags) : (errno = EINVAL, -1);
		int e = errno;
		close(fd);
		errno = e;
		fd = sub;
		t = next;
	}
	free(copy);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = EINVAL;
		fd = -1;
	}
	return fd;
}
