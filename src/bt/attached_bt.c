/* bpftrace 0.26's word that the probes are attached: "Attached N probes"
 * once they are (0.17 said "Attaching N probes..." before), on stderr with
 * every message that is not the script's output; in JSON, a record of the
 * output as before. */
#include <stdio.h>

#include "frontend_bt.h"

void attached_report_026(Runtime *rt, int nprobes)
{
	if (rt->out.fmt == OUT_JSON) {
		fprintf(rt->out.f, "{\"type\": \"attached_probes\", \"data\": {\"probes\": %d}}\n", nprobes);
		fflush(rt->out.f);
		return;
	}
	fprintf(stderr, "Attached %d probe%s\n", nprobes, nprobes == 1 ? "" : "s");
}
