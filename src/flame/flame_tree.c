/* Folded stacks into a merged call tree (the flame graph's model). */
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "flame.h"

static FlameNode *child(FlameNode *n, const char *name, size_t len)
{
	/* the last child is the likeliest: folded input comes sorted */
	for (int i = n->nkids - 1; i >= 0; i--)
		if (!strncmp(n->kids[i]->name, name, len) && !n->kids[i]->name[len])
			return n->kids[i];
	if (n->nkids == n->cap) {
		n->cap = n->cap ? n->cap * 2 : 4;
		n->kids = xrealloc(n->kids, sizeof(*n->kids) * (size_t)n->cap);
	}
	FlameNode *k = xcalloc(1, sizeof(*k));
	k->name = xstrndup(name, len);
	n->kids[n->nkids++] = k;
	return k;
}

/* "a;b;c 12" -> the count and the stack's length; false if not that shape */
static bool split_line(char *line, size_t *stack_len, uint64_t *count)
{
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
		line[--n] = 0;
	char *sp = strrchr(line, ' ');
	if (!sp || sp == line)
		return false;
	char *end;
	unsigned long long c = strtoull(sp + 1, &end, 10);
	if (*end || end == sp + 1 || sp[1] == '-')
		return false;
	*count = c;
	*stack_len = (size_t)(sp - line);
	return true;
}

static void add_stack(FlameTree *t, const char *s, size_t len, uint64_t count)
{
	FlameNode *n = &t->root;
	n->value += count;
	int depth = 0;
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && s[j] != ';')
			j++;
		if (j > i) {
			n = child(n, s + i, j - i);
			n->value += count;
			depth++;
		}
		i = j + 1;
	}
	if (depth > t->depth)
		t->depth = depth;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((*(FlameNode *const *)a)->name, (*(FlameNode *const *)b)->name);
}

static void sort_tree(FlameNode *n)
{
	qsort(n->kids, (size_t)n->nkids, sizeof(*n->kids), cmp_name);
	for (int i = 0; i < n->nkids; i++)
		sort_tree(n->kids[i]);
}

void flame_tree_read(FlameTree *t, FILE *in)
{
	memset(t, 0, sizeof(*t));
	t->root.name = xstrdup("all");
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, in) > 0) {
		size_t len;
		uint64_t count;
		if (line[strspn(line, " \t\r\n")] == 0)
			continue;
		t->lines++;
		if (!split_line(line, &len, &count)) {
			t->bad++;
			continue;
		}
		add_stack(t, line, len, count);
	}
	free(line);
	sort_tree(&t->root);
}

static void free_node(FlameNode *n)
{
	for (int i = 0; i < n->nkids; i++) {
		free_node(n->kids[i]);
		free(n->kids[i]);
	}
	free(n->kids);
	free(n->name);
}

void flame_tree_free(FlameTree *t)
{
	free_node(&t->root);
	memset(t, 0, sizeof(*t));
}
