/* --probe-filter REGEX: bpftrace 0.26 loads only the probes whose name
 * matches; begin and end always run.  sonde filters the attach points as
 * written (an alias such as `i:ms:1` is matched by its text). */
#include <regex.h>
#include <stdio.h>
#include <strings.h>

#include "probe_filter_bt.h"

static bool is_begin_end(const AttachPoint *ap)
{
	return !strcasecmp(ap->text, "begin") || !strcasecmp(ap->text, "end");
}

/* keeps the probe's attach points that match; whether any is left */
static bool filter_probe(Probe *pr, const regex_t *re, bool *matched)
{
	int n = 0;
	for (int i = 0; i < pr->naps; i++) {
		bool special = is_begin_end(&pr->aps[i]);
		if (special || !regexec(re, pr->aps[i].text, 0, NULL, 0)) {
			*matched |= !special;
			pr->aps[n++] = pr->aps[i];
		}
	}
	pr->naps = n;
	return n > 0;
}

bool bt_probe_filter(Program *p, const char *regex)
{
	regex_t re;
	if (regcomp(&re, regex, REG_EXTENDED | REG_NOSUB)) {
		fprintf(stderr, "ERROR: --probe-filter: invalid regular expression '%s'\n", regex);
		return false;
	}
	bool matched = false;
	int n = 0;
	for (int i = 0; i < p->nprobes; i++)
		if (filter_probe(p->probes[i], &re, &matched))
			p->probes[n++] = p->probes[i];
	p->nprobes = n;
	regfree(&re);
	if (!matched)
		fprintf(stderr, "ERROR: No probes matched the probe filter '%s'\n", regex);
	return matched;
}
