/* The table of functions: the families' rows, as they registered
 * (builtin.h), looked up by name and dialect. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

#define FAMILIES_MAX 64

static struct Family {
	const FuncDef *rows;
	size_t n;
} families[FAMILIES_MAX];
static int nfamilies;

/* the row `name` registered for exactly these dialects, or NULL */
static const FuncDef *find_exact(const char *name, unsigned dialects)
{
	for (int i = 0; i < nfamilies; i++)
		for (size_t j = 0; j < families[i].n; j++) {
			const FuncDef *f = &families[i].rows[j];
			if (f->dialects == dialects && !strcmp(f->name, name))
				return f;
		}
	return NULL;
}

/* at start-up, before main(): only appends, so that starting sonde costs
 * no search (a name registered twice is found by builtin_duplicate, which
 * the unit tests call) */
void builtin_register(const FuncDef *rows, size_t n)
{
	if (nfamilies == FAMILIES_MAX) {
		fprintf(stderr, "sonde: more than %d families of functions\n", FAMILIES_MAX);
		abort();
	}
	families[nfamilies++] = (struct Family){rows, n};
}

const char *builtin_duplicate(void)
{
	for (int i = 0; i < nfamilies; i++)
		for (size_t j = 0; j < families[i].n; j++) {
			const FuncDef *f = &families[i].rows[j];
			if (find_exact(f->name, f->dialects) != f)
				return f->name;
		}
	return NULL;
}

const FuncDef *func_find(const char *name)
{
	const FuncDef *f = find_exact(name, 0);
	for (int i = 0; i < nfamilies && !f; i++)
		for (size_t j = 0; j < families[i].n && !f; j++)
			if (!strcmp(families[i].rows[j].name, name))
				f = &families[i].rows[j];
	return f;
}

const FuncDef *func_find_in(const char *name, Dialect d)
{
	const FuncDef *f = find_exact(name, 1u << d);
	return f ? f : find_exact(name, 0);
}
