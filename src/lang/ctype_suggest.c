/* "Did you mean" suggestions: the member names of a record closest to a
 * misspelled one. */
#include <stdio.h>
#include <string.h>

#include "ctypes.h"

static int edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (la > 63 || lb > 63)
		return 99;
	int d[64][64];
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++)
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int x = d[i - 1][j] + 1, y = d[i][j - 1] + 1;
			d[i][j] = c < x ? (c < y ? c : y) : (x < y ? x : y);
		}
	return d[la][lb];
}

static void collect(Type *rec, const char *name, const char **best, int *bd, int nbest, int depth)
{
	int n;
	const Field *f = type_fields(rec, &n);
	for (int i = 0; i < n; i++) {
		if (!*f[i].name) {
			if (depth < 8 && f[i].type->kind == TY_RECORD)
				collect(f[i].type, name, best, bd, nbest, depth + 1);
			continue;
		}
		int dist = edit_distance(name, f[i].name);
		if (strstr(f[i].name, name) || strstr(name, f[i].name))
			dist = dist < 2 ? dist : 2;
		for (int k = 0; k < nbest; k++)
			if (dist < bd[k]) {
				for (int m = nbest - 1; m > k; m--) {
					bd[m] = bd[m - 1];
					best[m] = best[m - 1];
				}
				bd[k] = dist;
				best[k] = f[i].name;
				break;
			}
	}
}

void ctype_suggest(Type *rec, const char *name, char *out, size_t n)
{
	const char *best[3] = {0};
	int bd[3] = {99, 99, 99};
	collect(rec, name, best, bd, 3, 0);
	int limit = (int)strlen(name) / 2 + 1;
	size_t len = 0;
	out[0] = 0;
	for (int k = 0; k < 3; k++)
		if (best[k] && bd[k] <= limit && len + 1 < n)
			len += (size_t)snprintf(out + len, n - len, "%s'%s'", len ? ", " : "", best[k]);
}
