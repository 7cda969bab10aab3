/* D: run-time faults as dtrace(1) reports them (dtrace-utils 2.0's
 * dt_handle.c).  A faulting program sends an EV_D_FAULT record
 * (dtrace/codegen_fault_d.c): the probe's id, the clause's number
 * (dt_clause_N), the BPF instruction that faulted, DTrace's fault type and
 * the address.  dtrace(1) prints each through its own enabling of
 * dtrace:::ERROR, whether or not the script has ERROR clauses; faults
 * inside ERROR clauses are only counted (control map) and reported as
 * dtrace's "N errors in ERROR probe enabling". */
#include <string.h>

#include "runtime_d.h"

/* dtrace_faultstr()'s words */
static const char *fault_words(uint64_t fault)
{
	static const char *const words[] = {
		[DTRACEFLT_UNKNOWN] = "unknown fault",
		[DTRACEFLT_BADADDR] = "invalid address",
		[DTRACEFLT_BADALIGN] = "invalid alignment",
		[DTRACEFLT_ILLOP] = "illegal operation",
		[DTRACEFLT_DIVZERO] = "divide-by-zero",
		[DTRACEFLT_NOSCRATCH] = "out of scratch space",
		[DTRACEFLT_KPRIV] = "invalid kernel access",
		[DTRACEFLT_UPRIV] = "invalid user access",
		[DTRACEFLT_TUPOFLOW] = "tuple stack overflow",
		[DTRACEFLT_BADSTACK] = "bad stack",
		[DTRACEFLT_BADSIZE] = "invalid size",
		[DTRACEFLT_BADINDEX] = "index out of bounds",
	};
	return fault < sizeof(words) / sizeof(words[0]) ? words[fault] : "unknown fault";
}

/* " (0x...)" or " (N)" after the fault's words, as dt_handle_err() adds it */
static void fault_details(uint64_t fault, uint64_t addr, char *out, size_t n)
{
	out[0] = 0;
	if ((fault == DTRACEFLT_BADADDR && (int64_t)addr != -1) || fault == DTRACEFLT_BADALIGN ||
	    fault == DTRACEFLT_BADSTACK || fault == DTRACEFLT_BADSIZE) /* the size for BADSIZE */
		snprintf(out, n, " (0x%llx)", (unsigned long long)addr);
	if (fault == DTRACEFLT_BADINDEX) /* the index, signed */
		snprintf(out, n, " (%lld)", (long long)addr);
}

void fault_print_d(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	uint64_t w[5];
	memcpy(w, data + 8, sizeof(w)); /* probe id, clause, pc, fault, address */
	const DProbeName *d = ev->spec && ev->spec->ap ? ev->spec->ap->d : NULL;
	char details[40];
	fault_details(w[3], w[4], details, sizeof(details));
	fflush(rt->out.f);
	fprintf(stderr, "dtrace: error in dt_clause_%d for probe ID %u (%s:%s:%s:%s): %s%s at BPF pc %d\n",
		(int)w[1], (unsigned)w[0], d ? d->prov : "", d ? d->mod : "", d ? d->func : "",
		d ? d->name : "", fault_words(w[3]), details, (int)w[2]);
}

void fault_report_double_d(Runtime *rt)
{
	if (!rt->sc->nerror || !rt->control)
		return;
	uint64_t n = rt->control[D_CTL_DBLERRORS / 8];
	DRunState *ds = d_state(rt);
	if (n <= ds->dblerrors_told)
		return;
	uint64_t d = n - ds->dblerrors_told;
	ds->dblerrors_told = n;
	fflush(rt->out.f);
	fprintf(stderr, "dtrace: %llu error%s in ERROR probe enabling\n", (unsigned long long)d,
		d > 1 ? "s" : "");
}
