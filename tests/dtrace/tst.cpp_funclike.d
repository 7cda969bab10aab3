/* -C: function-like macros, # and ##, __VA_ARGS__, expanded in probe
 * descriptions, predicates and actions, not in strings or comments */
#pragma D option quiet
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a ## b
#define PROV dtrace
#define PROBE(name) PROV:::name
#define WHEN(cond) /cond/
#define SHOW(fmt, ...) printf(fmt, __VA_ARGS__)
#define ANSWER MAX(40, 42)

PROBE(BEGIN)
WHEN(MAX(1, 2) == 2)
{
	CAT(this->v, 1) = ANSWER;
	SHOW("%d %s %s\n", this->v1, STR(a "b" c), XSTR(ANSWER));
	printf("ANSWER stays in a string /* ANSWER */\n");
	SHOW("line %d\n", __LINE__);
	exit(0);
}
