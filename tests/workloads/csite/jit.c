// SPDX-License-Identifier: GPL-2.0
/*
 * A call from code no file maps, as a JIT's (tests/integration/record_csites.sh, x86_64): getpid 3 times from
 * an anonymous executable page, whose frame is "[anon]", with no CFI to unwind it by.
 */
#include <string.h>
#include <sys/mman.h>

int main(void)
{
	static const unsigned char code[] = {0xb8, 0x27, 0, 0, 0, 0x0f, 0x05, 0xc3}; /* mov $39,%eax; syscall; ret */
	void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long (*jitted)(void);

	if (page == MAP_FAILED)
		return 1;
	memcpy(page, code, sizeof(code));
	if (mprotect(page, 4096, PROT_READ | PROT_EXEC) < 0)
		return 1;
	jitted = (long (*)(void))page;
	for (int i = 0; i < 3; i++)
		if (jitted() <= 0)
			return 1;
	return 0;
}
