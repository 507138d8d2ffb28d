// SPDX-License-Identifier: GPL-2.0
/*
 * A 32-bit (i386, static) program making its calls through `int $0x80`: 5 getppid (nr 64), 2 open of a
 * missing file (nr 5, ENOENT), then exit_group(5) (nr 252). Every call is named from the i386 table.
 */
static long sys1(long nr, long a)
{
	__asm__ volatile("int $0x80" : "+a"(nr) : "b"(a) : "memory");
	return nr;
}

static long sys2(long nr, long a, long b)
{
	__asm__ volatile("int $0x80" : "+a"(nr) : "b"(a), "c"(b) : "memory");
	return nr;
}

int main(void)
{
	for (int i = 0; i < 5; i++)
		sys1(64, 0);
	for (int i = 0; i < 2; i++)
		sys2(5, (long)"/nonexistent/kf-m32", 0);
	sys1(252, 5);
	return 1; /* not reached */
}
