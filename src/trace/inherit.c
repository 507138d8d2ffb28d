// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "trace/trace.h"
#include "util/error.h"

void trace_inherit_capture(struct trace_inherit *in)
{
	sigemptyset(&in->ignored);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction sa;

		if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&in->ignored, sig);
	}
	sigprocmask(SIG_SETMASK, NULL, &in->mask);
	in->umask = umask(0);
	umask(in->umask);
	for (int r = 0; r < RLIM_NLIMITS; r++)
		in->rlim_ok[r] = getrlimit(r, &in->rlim[r]) == 0;
	in->captured = true;
}

bool trace_inherit_ignored(const struct trace_inherit *in, int sig)
{
	return in && in->captured && sigismember(&in->ignored, sig) == 1;
}

/*
 * In the child, right before its execve. A handler of kfootprint's would become SIG_DFL at the execve anyway;
 * what matters is which signals the workload finds ignored, and only the captured ones are. The mask last, so
 * that nothing kfootprint blocked reaches the workload and nothing it unblocked is lost.
 */
void trace_inherit_restore(const struct trace_inherit *in)
{
	if (!in || !in->captured)
		return;
	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		/* glibc's own real-time signals (32, 33) refuse this: they stay as they are, default */
		signal(sig, sigismember(&in->ignored, sig) == 1 ? SIG_IGN : SIG_DFL);
	}
	umask(in->umask);
	for (int r = 0; r < RLIM_NLIMITS; r++) {
		struct rlimit now;

		if (in->rlim_ok[r] && getrlimit(r, &now) == 0 &&
		    (now.rlim_cur != in->rlim[r].rlim_cur || now.rlim_max != in->rlim[r].rlim_max) &&
		    setrlimit(r, &in->rlim[r]) < 0)
			warning("the workload's resource limit %d: %s", r, strerror(errno));
	}
	if (sigprocmask(SIG_SETMASK, &in->mask, NULL) < 0)
		warning("the workload's signal mask: %s", strerror(errno));
}
