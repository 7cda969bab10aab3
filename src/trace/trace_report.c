/* sonde trace report FILE: a recording printed with the same printer and
 * filters as a live trace (-e, -c, -y...). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfprog.h"
#include "printer.h"
#include "recfile.h"
#include "trace_cli.h"

/* a CHUNK_FDNAME: u32 tgid, i32 fd, the path */
static void report_fdname(Printer *pr, const void *buf, uint32_t len)
{
	uint32_t tgid;
	int32_t fd;
	memcpy(&tgid, buf, 4);
	memcpy(&fd, (const char *)buf + 4, 4);
	char *path = xstrndup((const char *)buf + 8, len - 8);
	printer_set_fd_name(pr, tgid, fd, path);
	free(path);
}

/* a CHUNK_EVENT: the format of event *nev, which the printer then knows */
static void report_event(Printer *pr, const void *buf, uint32_t len, TraceEvent **events, int *nev)
{
	uint32_t idx;
	TraceEvent e = {0};
	if (rec_read_event(buf, len, &idx, &e.cat, &e.name, &e.fmt) && idx == (uint32_t)*nev) {
		*events = xrealloc(*events, sizeof(TraceEvent) * (size_t)(*nev + 1));
		(*events)[(*nev)++] = e;
		pr->events = *events;
		pr->nevents = *nev;
	}
}

static void free_events(TraceEvent *events, int nev)
{
	for (int i = 0; i < nev; i++) {
		free(events[i].cat);
		free(events[i].name);
		tp_format_free(&events[i].fmt);
	}
	free(events);
}

int trace_run_report(Cli *c)
{
	TraceOpts *o = &c->o;
	FILE *f = fopen(c->report_file, "rb");
	if (!f) {
		fprintf(stderr, "sonde trace report: cannot read '%s': %s\n", c->report_file,
			strerror(errno));
		return 1;
	}
	RecInfo info;
	char err[256];
	if (!rec_read_header(f, &info, err, sizeof(err))) {
		fprintf(stderr, "sonde trace report: %s: %s\n", c->report_file, err);
		fclose(f);
		return 1;
	}
	FILE *out = stdout; /* a report is the command's output (a live trace's is the
			     * traced command's stderr, as strace's) */
	if (o->out_path && !(out = fopen(o->out_path, "w"))) {
		fprintf(stderr, "sonde trace: cannot write '%s': %s\n", o->out_path, strerror(errno));
		fclose(f);
		return 1;
	}
	if (!o->follow && (info.flags & 1))
		o->follow = true;
	bool summary = o->count && !o->count_and_print;
	Printer pr;
	printer_init(&pr, o, out);
	pr.mono_to_real = info.mono_to_real;
	pr.main_pid = info.main_pid;
	pr.nprocs = 1;
	pr.live = false;
	void *buf = NULL;
	size_t cap = 0;
	uint32_t type, len;
	int r, status = 0;
	uint64_t lost = 0;
	bool ended = false;
	TraceEvent *events = NULL;
	int nev = 0;
	while ((r = rec_read_chunk(f, &type, &buf, &len, &cap)) == 1) {
		if (type == CHUNK_RECORD) {
			printer_record(&pr, buf, len);
		} else if (type == CHUNK_FDNAME && len > 8) {
			report_fdname(&pr, buf, len);
		} else if (type == CHUNK_EVENT) {
			report_event(&pr, buf, len, &events, &nev);
		} else if (type == CHUNK_END && len >= 16) {
			memcpy(&lost, buf, 8);
			ended = true;
		}
	}
	printer_flush(&pr);
	if (summary || o->count_and_print)
		summary_print(out, pr.stats, c->sort_calls);
	if (lost)
		fprintf(out, "sonde trace: lost %llu events: the ring buffer was full\n",
			(unsigned long long)lost);
	fflush(out);
	if (r < 0 || !ended) {
		fprintf(stderr, "sonde trace report: %s is truncated%s\n", c->report_file,
			r < 0 ? " (a record is cut short)" : " (no end marker: the recording was interrupted)");
		status = 1;
	}
	free(buf);
	printer_free(&pr);
	free_events(events, nev);
	fclose(f);
	if (out != stdout)
		fclose(out);
	return status;
}

