/* strace -c's summary table and --hist's latency histograms. */
#include <stdlib.h>
#include <string.h>

#include "printer.h"

/* how summary_print sorts the table (strace -S) */
typedef struct SummarySort {
	const TraceStat *st;
	bool by_calls; /* -S calls: most calls first, else most time */
} SummarySort;

static int cmp(const void *a, const void *b, void *arg)
{
	int x = *(const int *)a, y = *(const int *)b;
	const SummarySort *how = arg;
	const TraceStat *s = how->st;
	if (how->by_calls && s[x].calls != s[y].calls)
		return s[x].calls > s[y].calls ? -1 : 1;
	if (s[x].ns != s[y].ns)
		return s[x].ns > s[y].ns ? -1 : 1;
	if (s[x].calls != s[y].calls)
		return s[x].calls > s[y].calls ? -1 : 1;
	return strcmp(syscall_name(x), syscall_name(y));
}

void summary_print(FILE *out, const TraceStat *st, bool sort_calls)
{
	int idx[SYSCALL_MAX], n = 0;
	uint64_t tot_ns = 0, tot_calls = 0, tot_err = 0;
	for (int i = 0; i < SYSCALL_MAX; i++)
		if (st[i].calls) {
			idx[n++] = i;
			tot_ns += st[i].ns;
			tot_calls += st[i].calls;
			tot_err += st[i].errors;
		}
	qsort_r(idx, (size_t)n, sizeof(int), cmp, &(SummarySort){st, sort_calls});
	const char *dash = "------ ----------- ----------- --------- --------- ----------------\n";
	fprintf(out, "%% time     seconds  usecs/call     calls    errors syscall\n%s", dash);
	for (int k = 0; k < n; k++) {
		const TraceStat *s = &st[idx[k]];
		fprintf(out, "%6.2f %11.6f %11llu %9llu ", tot_ns ? 100.0 * (double)s->ns / (double)tot_ns : 0.0,
			(double)s->ns / 1e9, (unsigned long long)(s->ns / 1000 / s->calls),
			(unsigned long long)s->calls);
		if (s->errors)
			fprintf(out, "%9llu ", (unsigned long long)s->errors);
		else
			fprintf(out, "%9s ", "");
		fprintf(out, "%s\n", syscall_name(idx[k]));
	}
	fprintf(out, "%s%6.2f %11.6f %11llu %9llu ", dash, 100.0, (double)tot_ns / 1e9,
		(unsigned long long)(tot_calls ? tot_ns / 1000 / tot_calls : 0),
		(unsigned long long)tot_calls);
	if (tot_err)
		fprintf(out, "%9llu ", (unsigned long long)tot_err);
	else
		fprintf(out, "%9s ", "");
	fprintf(out, "total\n");
}

/* bpftrace's hist labels: 512, 1K, 2M (powers of two, in ns) */
static void unit(char *buf, size_t n, uint64_t ns)
{
	static const char *const u[] = {"", "K", "M", "G"};
	int k = 0;
	while (ns >= 1024 && k < 3 && ns % 1024 == 0) {
		ns /= 1024;
		k++;
	}
	snprintf(buf, n, "%llu%s", (unsigned long long)ns, u[k]);
}

void hist_print(FILE *out, const uint64_t *hist, const TraceStat *st)
{
	for (int nr = 0; nr < SYSCALL_MAX; nr++) {
		if (!st[nr].calls)
			continue;
		const uint64_t *h = hist + (size_t)nr * TRACE_HIST_BUCKETS;
		uint64_t max = 0;
		int lo = -1, hi = -1;
		for (int i = 0; i < TRACE_HIST_BUCKETS; i++)
			if (h[i]) {
				if (lo < 0)
					lo = i;
				hi = i;
				if (h[i] > max)
					max = h[i];
			}
		fprintf(out, "\n%s: %llu calls, latency (ns)\n", syscall_name(nr),
			(unsigned long long)st[nr].calls);
		for (int i = lo; i >= 0 && i <= hi; i++) {
			char a[32], b[32];
			unit(a, sizeof(a), i ? 1ull << i : 0);
			unit(b, sizeof(b), 1ull << (i + 1));
			int bar = max ? (int)(h[i] * 52 / max) : 0;
			char bars[64];
			memset(bars, '@', (size_t)bar);
			bars[bar] = 0;
			fprintf(out, "[%s, %s)%*s%8llu |%-52s|\n", a, b,
				(int)(14 - strlen(a) - strlen(b)) > 0 ? (int)(14 - strlen(a) - strlen(b)) : 1, "",
				(unsigned long long)h[i], bars);
		}
	}
}
