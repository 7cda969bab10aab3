/* function-like macros in predicates, actions and probe descriptions */
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a,b) ((a)<(b)?(a):(b))
#define CLAMP(x, lo, hi) MIN(MAX(x, lo), hi)
#define PROBE(fn) syscall::fn:entry
#define ONLY(p) /pid == (p)/
#define COUNT(key) @counts[key] = count()

PROBE(read), PROBE(write)
ONLY($target)
{
	COUNT(probefunc);
	self->n = CLAMP(arg2, 0, 4096);
	trace(MAX(MIN(arg0, 10), MAX(arg1, -1)));
}
