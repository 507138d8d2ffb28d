// SPDX-License-Identifier: GPL-2.0
/* What /proc says of a process the backends did not see start (one found at attach, a task that exec'd). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char **read_cmdline(pid_t pid)
{
	char path[64];
	struct strbuf sb = STRBUF_INIT;
	char **argv;
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (strbuf_read_file(&sb, path) < 0 || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	for (size_t i = 0; i < sb.len; i++)
		n += !sb.buf[i];
	if (sb.buf[sb.len - 1])
		n++;
	argv = xcalloc(n + 1, sizeof(*argv));
	n = 0;
	for (size_t i = 0; i < sb.len; i += strlen(sb.buf + i) + 1)
		argv[n++] = xstrdup(sb.buf + i);
	strbuf_release(&sb);
	return argv;
}

void trace_read_proc(struct fp_proc *p)
{
	char path[64], buf[4096];
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)p->pid);
	if ((f = fopen(path, "re"))) {
		if (fgets(buf, sizeof(buf), f)) {
			size_t len = strcspn(buf, "\n");

			if (len >= sizeof(p->comm))
				len = sizeof(p->comm) - 1;
			memcpy(p->comm, buf, len);
			p->comm[len] = '\0';
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		free(p->exe);
		p->exe = xstrdup(buf);
	}
	char **argv = read_cmdline(p->pid);
	if (argv)
		fp__proc_set_argv(p, argv);
	trace_read_cwd(p, p->pid);
}

void trace_read_cwd(struct fp_proc *p, pid_t pid)
{
	char path[64], buf[PATH_MAX];

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)pid);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	if (n > 0 && buf[0] == '/') { /* one outside kfootprint's root reads "(unreachable)/..." */
		buf[n] = '\0';
		free(p->cwd);
		p->cwd = xstrdup(buf);
	}
}
