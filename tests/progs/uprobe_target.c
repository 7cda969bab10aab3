/* uprobe_target [N] [SLEEP_MS]: calls add3(i, 2*i, -i) and big_buffer()
 * N times (default 3) with known arguments, for uprobe tests; built both
 * as a PIE (uprobe_target) and without PIE (uprobe_target_nopie). */
/* frames for ustack tests */
#pragma GCC optimize("no-omit-frame-pointer")
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* data symbols of known sizes and values, for uaddr() */
signed char uaddr_i8 = -5;
short uaddr_i16 = -300;
int uaddr_i32 = 70000;
long uaddr_i64 = 5000000000;
char uaddr_text[5] = "abcd";

__attribute__((noinline)) long add3(long a, long b, long c)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + 100;
}

__attribute__((noinline)) int leaf(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 2;
}

__attribute__((noinline)) int middle(int x)
{
	return leaf(x) + 1;
}

/* fills a 64 KiB buffer with a known pattern and passes it on */
__attribute__((noinline)) void big_buffer(const char *buf, long n)
{
	__asm__ volatile("" ::"r"(buf), "r"(n) : "memory");
}

__attribute__((noinline)) const char *greet(const char *who)
{
	__asm__ volatile("" ::"r"(who) : "memory");
	return who;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3;
	int sleep_ms = argc > 2 ? atoi(argv[2]) : 0;
	static char buf[65536];
	for (int i = 0; i < (int)sizeof(buf); i++)
		buf[i] = (char)('A' + i % 26 + (i % 1000 == 999 ? 32 : 0));
	buf[0] = '\n';
	buf[1] = 0;
	buf[2] = (char)0xff;
	long sum = 0;
	if (sleep_ms)
		usleep((useconds_t)sleep_ms * 1000);
	for (long i = 0; i < n; i++) {
		sum += add3(i, 2 * i, -i);
		sum += middle((int)i);
	}
	greet("world");
	big_buffer(buf, (long)sizeof(buf));
	return sum == 12345678 ? 1 : 0;
}
