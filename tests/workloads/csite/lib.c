// SPDX-License-Identifier: GPL-2.0
/* The library half of the call-sites workload (tests/integration/record_csites.sh): one call site of eventfd. */
#include <sys/eventfd.h>
#include <unistd.h>

int kf_csite_lib_eventfd(int n);

__attribute__((noinline)) int kf_csite_lib_eventfd(int n)
{
	int made = 0;

	for (int i = 0; i < n; i++) {
		int fd = eventfd(0, EFD_CLOEXEC); /* KF-CSITE-LIB */

		if (fd >= 0 && close(fd) == 0)
			made++;
	}
	return made;
}
