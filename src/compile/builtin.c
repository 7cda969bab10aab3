/* The table of functions: the families' rows, as they registered
 * (builtin.h), looked up by name and dialect; and the families' builtin
 * variables (sema_hooks.h: BUILTIN_VARS). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "sema_hooks.h"

#define FAMILIES_MAX 64
#define VAR_FAMILIES_MAX 8

struct Family {
	const FuncDef *rows;
	size_t n;
};

/* The registry: written by the families' constructors before main(), and
 * an index of every row by name, made at the first lookup (a compile
 * looks a name up for each call it sees: a linear search was a
 * noticeable part of compiling a long script). */
static struct Registry {
	struct Family families[FAMILIES_MAX];
	int nfamilies;
	struct Named {
		const FuncDef *f;
		size_t seq; /* registration order */
	} *by_name; /* sorted by name, then registration order */
	size_t nrows;
	struct VarFamily { /* builtin variables (python/: pystack; 0.26's jiffies) */
		const BuiltinDef *rows;
		size_t n;
	} vars[VAR_FAMILIES_MAX];
	int nvars;
} reg;

static int cmp_row_name(const void *a, const void *b)
{
	const struct Named *x = a, *y = b;
	int c = strcmp(x->f->name, y->f->name);
	return c ? c : (x->seq < y->seq ? -1 : x->seq > y->seq);
}

static void index_rows(void)
{
	size_t n = 0;
	for (int i = 0; i < reg.nfamilies; i++)
		n += reg.families[i].n;
	reg.by_name = malloc((n ? n : 1) * sizeof(*reg.by_name));
	if (!reg.by_name) {
		fprintf(stderr, "sonde: out of memory\n");
		abort();
	}
	reg.nrows = 0;
	for (int i = 0; i < reg.nfamilies; i++)
		for (size_t j = 0; j < reg.families[i].n; j++, reg.nrows++)
			reg.by_name[reg.nrows] = (struct Named){&reg.families[i].rows[j], reg.nrows};
	qsort(reg.by_name, reg.nrows, sizeof(*reg.by_name), cmp_row_name);
}

/* the index of the first row named `name` (nrows when there is none) */
static size_t first_named(const char *name)
{
	if (!reg.by_name)
		index_rows();
	size_t lo = 0, hi = reg.nrows;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(reg.by_name[mid].f->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < reg.nrows && !strcmp(reg.by_name[lo].f->name, name) ? lo : reg.nrows;
}

/* the row `name` registered for exactly these dialects, in none of the
 * optional sets (sets 0) or in one of `sets`, or NULL */
static const FuncDef *find_exact(const char *name, unsigned dialects, unsigned sets)
{
	for (size_t i = first_named(name); i < reg.nrows && !strcmp(reg.by_name[i].f->name, name); i++) {
		const FuncDef *f = reg.by_name[i].f;
		if (f->dialects == dialects && (sets ? (f->sets & sets) != 0 : !f->sets))
			return f;
	}
	return NULL;
}

/* at start-up, before main(): only appends, so that starting sonde costs
 * no search (a name registered twice is found by builtin_duplicate, which
 * the unit tests call) */
void builtin_register(const FuncDef *rows, size_t n)
{
	if (reg.nfamilies == FAMILIES_MAX) {
		fprintf(stderr, "sonde: more than %d families of functions\n", FAMILIES_MAX);
		abort();
	}
	reg.families[reg.nfamilies++] = (struct Family){rows, n};
	free(reg.by_name); /* a family registered after a lookup */
	reg.by_name = NULL;
}

void builtin_var_register(const BuiltinDef *rows, size_t n)
{
	if (reg.nvars == VAR_FAMILIES_MAX) {
		fprintf(stderr, "sonde: more than %d families of builtin variables\n", VAR_FAMILIES_MAX);
		abort();
	}
	reg.vars[reg.nvars++] = (struct VarFamily){rows, n};
}

const BuiltinDef *builtin_var_find(const char *name, unsigned sets, bool in_sets)
{
	for (int i = 0; i < reg.nvars; i++)
		for (size_t j = 0; j < reg.vars[i].n; j++) {
			const BuiltinDef *b = &reg.vars[i].rows[j];
			if (!strcmp(b->name, name) && (in_sets ? (b->sets & sets) != 0 : !b->sets))
				return b;
		}
	return NULL;
}

const char *builtin_duplicate(void)
{
	for (int i = 0; i < reg.nfamilies; i++)
		for (size_t j = 0; j < reg.families[i].n; j++) {
			const FuncDef *f = &reg.families[i].rows[j];
			if (find_exact(f->name, f->dialects, f->sets) != f)
				return f->name;
		}
	return NULL;
}

const FuncDef *func_find(const char *name)
{
	const FuncDef *f = find_exact(name, 0, 0);
	if (!f) {
		size_t i = first_named(name);
		f = i < reg.nrows ? reg.by_name[i].f : NULL;
	}
	return f;
}

const FuncDef *func_find_in(const char *name, Dialect d, unsigned sets)
{
	const FuncDef *f = sets ? find_exact(name, 0, sets) : NULL;
	if (!f)
		f = find_exact(name, 1u << d, 0);
	return f ? f : find_exact(name, 0, 0);
}
