/* Test helper for privileges.sh: prlimit64(PID, RLIMIT_NOFILE, {0, 0})
 * through the i386 entry point (int 0x80) of a 64-bit process, which
 * seccomp sees as another architecture with other numbers. x86-64 only;
 * built with -no-pie so that the limit lies below 4 GiB. */
#include <stdio.h>
#include <stdlib.h>
static unsigned long long lim[2];
int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	long pid = atol(argv[1]), ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(340L), "b"(pid), "c"(7L), "d"(lim), "S"(0L) : "memory");
	printf("%ld\n", ret);
	return ret == 0 ? 0 : 1;
}
