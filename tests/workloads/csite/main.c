// SPDX-License-Identifier: GPL-2.0
/*
 * The call-sites workload (tests/integration/record_csites.sh): eventfd from main 2 times, from the library's
 * kf_csite_lib_eventfd() 3 times, and 4 eventfd calls that fail with EINVAL from main, each at a line marked
 * KF-CSITE-*, so that the test finds the lines the frames must name. With an argument, it sleeps that many ms before
 * it exits: the bpf backend reads a process's maps while it lives (src/trace/bpf_csite.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

int kf_csite_lib_eventfd(int n);

int main(int argc, char **argv)
{
	int made = 0, failed = 0;

	for (int i = 0; i < 2; i++) {
		int fd = eventfd(0, EFD_CLOEXEC); /* KF-CSITE-MAIN */

		if (fd >= 0 && close(fd) == 0)
			made++;
	}
	for (int i = 0; i < 4; i++)
		if (eventfd(0, -1) < 0) /* KF-CSITE-EINVAL */
			failed++;
	made += kf_csite_lib_eventfd(3);
	if (argc > 1)
		usleep((useconds_t)atoi(argv[1]) * 1000);
	return made == 5 && failed == 4 ? 0 : 1;
}
