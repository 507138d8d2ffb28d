// SPDX-License-Identifier: GPL-2.0
/*
 * A process that execs between its calls (tests/integration/csite_inputs.sh): an execve that fails (ENOENT), whose
 * stack is this program's main, then one that succeeds into the program argv[1] names, whose exit stop is already
 * in the new image: that call has no stack, and the new program's calls are named by its own modules.
 */
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	char *args[] = {argc > 1 ? argv[1] : "true", NULL};

	if (argc < 2)
		return 2;
	if (execve("/nonexistent/kf-csite", args, environ) == 0) /* KF-CSITE-EXEC-FAIL */
		return 1;
	execve(argv[1], args, environ);
	return 1;
}
