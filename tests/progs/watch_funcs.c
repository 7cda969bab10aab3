/* watch_funcs: three functions that each increment the int their second
 * argument points to (for watchpoint:increment_*+arg1:4:w): increment_a
 * once, increment_b twice, increment_c three times, each on its own global;
 * then a and c once more and b three times; then unwatch_me(&a, &b) and one
 * more write to a and to b (a script can unwatch(arg0) there, and a sync
 * watchpoint:unwatch_me+arg1 stops the task until that is done).  It
 * prints nothing, so that its output cannot interleave with a tracer's. */
volatile int a, b, c;

__attribute__((noinline)) void increment_a(int times, volatile int *p)
{
	for (int i = 0; i < times; i++)
		(*p)++;
}

__attribute__((noinline)) void increment_b(int times, volatile int *p)
{
	for (int i = 0; i < times; i++)
		(*p)++;
}

__attribute__((noinline)) void increment_c(int times, volatile int *p)
{
	for (int i = 0; i < times; i++)
		(*p)++;
}

__attribute__((noinline)) void unwatch_me(volatile int *p, volatile int *q)
{
	__asm__ volatile("" : : "r"(p), "r"(q) : "memory");
}

int main(void)
{
	increment_a(1, &a);
	increment_b(2, &b);
	increment_c(3, &c);
	increment_a(1, &a);
	increment_b(3, &b);
	increment_c(1, &c);
	unwatch_me(&a, &b);
	a = 100;
	b = 100;
	return 0;
}
