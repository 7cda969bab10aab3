/* dwarf_target: functions with parameters of many C types, built with -g,
 * for args->NAME in uprobes and `sonde -lv` (test_uprobe_args.sh). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct point {
	int x, y;
	char tag[8];
	struct point *next;
};
typedef struct point point_t;

__attribute__((noinline)) int scalars(unsigned char c, short s, size_t n, bool ok, uint32_t u,
				      long long ll)
{
	__asm__ volatile("" ::: "memory");
	return c + s + (int)n + ok + (int)u + (int)ll;
}

__attribute__((noinline)) int pointers(const point_t *p, const char *name, char **names, void *v)
{
	__asm__ volatile("" ::"r"(p), "r"(name), "r"(names), "r"(v) : "memory");
	return p->x;
}

__attribute__((noinline)) int seven(int a, int b, int c, int d, int e, int f, int g)
{
	__asm__ volatile("" ::: "memory");
	return a + b + c + d + e + f + g;
}

int main(void)
{
	struct point tail = {7, 8, "tail", NULL}, head = {3, 4, "head", &tail};
	char name[16];
	strcpy(name, "dwarf"); /* on the stack: paged in */
	char *names[] = {name, NULL};
	int r = scalars('A', -5, 99, true, 77, -8);
	r += pointers(&head, name, names, &tail);
	r += seven(1, 2, 3, 4, 5, 6, 7);
	return r == 12345 ? 1 : 0;
}
