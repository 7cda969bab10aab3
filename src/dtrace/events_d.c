/* The D dialect's events as dtrace(1) prints them: a firing's
 * "CPU ID FUNCTION:NAME" columns (flowindent's arrows), its records in one
 * ring-buffer record, exit(N), printa(), trunc(), normalize(), setopt(),
 * speculations, faults and tracemem(); clear() keeps the keys.  They reach
 * the runtime through D's table of hooks (frontend_d.c). */
#include <stdlib.h>
#include <string.h>

#include "runtime_d.h"
#include "tracemem_d.h"

/* D: trunc(@a[, n]), normalize(@a, n), denormalize(@a) */
static void ev_agg_action(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)size;
	MapDesc *m = &rt->maps[ev->map->id];
	int64_t n = 0;
	if (ev->nargs)
		memcpy(&n, data + ev->argoff[0], 8);
	if (ev->kind == EV_TRUNC)
		map_trunc_d(m, !ev->nargs, n);
	else
		m->normal = ev->nargs && n > 1 ? n : 1;
}

static void ev_printa(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)data, (void)size;
	MapDesc *ms[ev->nmaps > 0 ? ev->nmaps : 1];
	for (int i = 0; i < ev->nmaps; i++)
		ms[i] = &rt->maps[ev->maps[i]->id];
	map_printa_d(&rt->out, ms, ev->nmaps, ev->fmt, ev->value_conv);
}

void events_d_close_line(Runtime *rt)
{
	DRunState *ds = d_state(rt);
	if (ds->line_open)
		fputc('\n', rt->out.f);
	ds->line_open = false;
}

/* Whether another clause's probe record (EV_D_PROBE) of the same probe
 * (id, provider, function and name: pid probes share id 0) comes before
 * (dir -1) or after (dir 1) this one in the script */
static bool same_probe_clause(const Runtime *rt, const EventDesc *ev, int dir)
{
	int i = 0;
	while (i < rt->sc->events.n && rt->sc->events.v[i] != ev)
		i++;
	for (int j = i + dir; j >= 0 && j < rt->sc->events.n; j += dir) {
		const EventDesc *o = rt->sc->events.v[j];
		if (o->kind == EV_D_PROBE && o->top == ev->top && !strcmp(o->text, ev->text) &&
		    !strcmp(o->text2 ? o->text2 : "", ev->text2 ? ev->text2 : ""))
			return true;
	}
	return false;
}

/* True when name is "WORD" or ends with "-WORD" (dtrace's test, so that
 * "function-entry" counts and "carpentry" does not) */
static bool flow_name(const char *name, const char *word)
{
	size_t n = strlen(name), w = strlen(word);
	return n >= w && !strcmp(name + n - w, word) && (n == w || name[n - w - 1] == '-');
}

/* -F / flowindent: "FUNCTION" indented by the calls open, " -> func" at
 * an entry (" => " for syscall), " <- func" at a return, "| func:name"
 * otherwise.  Only a probe's first clause indents and its last unindents,
 * as dtrace's heuristic on consecutive records of one probe does. */
static void d_flow_line(Runtime *rt, const EventDesc *ev, int cpu)
{
	const char *colon = strrchr(ev->text, ':'), *name = colon ? colon + 1 : "";
	int flen = colon ? (int)(colon - ev->text) : (int)strlen(ev->text);
	bool sys = ev->text2 && !strcmp(ev->text2, "syscall");
	int flow = flow_name(name, "entry") ? 1 : flow_name(name, "return") ? -1 : 0;
	if ((flow > 0 && same_probe_clause(rt, ev, -1)) || (flow < 0 && same_probe_clause(rt, ev, 1)))
		flow = 0;
	DRunState *ds = d_state(rt);
	if (flow < 0 && ds->indent > 0)
		ds->indent -= 2;
	char col[512];
	snprintf(col, sizeof(col), "%*s%s%.*s%s%s", ds->indent, "",
		 flow > 0 ? (sys ? " => " : " -> ") : flow < 0 ? (sys ? " <= " : " <- ") : "| ",
		 flen, ev->text, flow ? "" : ":", flow ? "" : name);
	if (rt->out.agg.testing)
		fprintf(rt->out.f, "%-41s ", col);
	else
		fprintf(rt->out.f, "%3d %-41s ", cpu, col);
	if (flow > 0)
		ds->indent += 2;
}

/* dtrace(1)'s heading, once: in its testing mode (_DTRACE_TESTING) without
 * the CPU and ID columns, which vary from run to run */
static void d_heading(Runtime *rt)
{
	bool flow = rt->out.agg.flowindent, t = rt->out.agg.testing;
	if (flow && t)
		fprintf(rt->out.f, "%-41s\n", "FUNCTION");
	else if (flow)
		fprintf(rt->out.f, "%3s %-41s\n", "CPU", "FUNCTION");
	else if (t)
		fprintf(rt->out.f, "%32s\n", "FUNCTION:NAME");
	else
		fprintf(rt->out.f, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
	d_state(rt)->heading = true;
}

/* dtrace(1)'s columns for one firing, after its heading once */
static void ev_d_probe(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)size;
	uint64_t cpu;
	memcpy(&cpu, (const uint8_t *)data + 8, 8);
	events_d_close_line(rt);
	if (!d_state(rt)->heading)
		d_heading(rt);
	if (rt->out.agg.flowindent)
		d_flow_line(rt, ev, (int)cpu);
	else if (rt->out.agg.testing)
		fprintf(rt->out.f, "%32s ", ev->text);
	else
		fprintf(rt->out.f, "%3d %6d %32s ", (int)cpu, ev->top, ev->text);
	d_state(rt)->line_open = true;
}

static void ev_setopt(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)data, (void)size;
	agg_opt_set(&rt->out.agg, ev->text, ev->text2);
}

/* D's clear() zeroes the values and keeps the keys */
static void ev_clear(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)data, (void)size;
	map_zero(&rt->maps[ev->map->id]);
}

/* exit(N): the events of the firing that follow still print */
static void ev_exit(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)size;
	if (!ev->nargs) {
		rt->exit_requested = true;
		return;
	}
	int64_t st;
	memcpy(&st, data + ev->argoff[0], 8);
	rt->exit_status = (int)(st & 0xff);
	DRunState *ds = d_state(rt);
	ds->exit_seen = !rt->ending;
	rt->exit_requested |= ds->exit_seen && !ds->firing_depth;
}

/* each present slot, in clause order */
static void ev_firing(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	DRunState *ds = d_state(rt);
	ds->firing_depth++;
	for (int i = 0; i < ev->nargs; i++) {
		const uint8_t *slot = data + ev->argoff[i];
		uint64_t present;
		memcpy(&present, slot, 8);
		if (present && (size_t)ev->argoff[i] + 8 + (size_t)ev->slot_size[i] <= size)
			events_handle(rt, (void *)(slot + 8), (size_t)ev->slot_size[i]);
	}
	/* dtrace's consumer stops at the exit action: the rest of its
	 * firing prints, no record after it in the buffer does */
	rt->exit_requested |= --ds->firing_depth == 0 && ds->exit_seen && !rt->ending;
}

static void ev_spec(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	(void)size;
	uint64_t sid;
	memcpy(&sid, data + 8, 8);
	spec_release(rt, sid, ev->kind == EV_SPEC_COMMIT);
}

static void ev_fault(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	if (size >= DFAULT_REC_SIZE)
		fault_print_d(rt, ev, data);
}

static void ev_tracemem(Runtime *rt, const EventDesc *ev, const uint8_t *data, size_t size)
{
	uint64_t n;
	memcpy(&n, data + 8, 8);
	if (n > size - 16)
		return;
	uint8_t *b = xmalloc((size_t)n + 1); /* the ring is mapped read-only */
	memcpy(b, data + 16, (size_t)n);
	bool chars = ev->text && !strcmp(ev->text, "chars");
	if (ev->text && !chars) /* a string's record: nothing after its end */
		for (uint8_t *z = memchr(b, 0, (size_t)n); z && z < b + n; z++)
			*z = 0;
	b[n] = 0;
	if (ev->text2 && chars)
		trace_chars_d(&rt->out, b, (size_t)n, ev->text2);
	else if (ev->text2)
		trace_string_d(&rt->out, b, (size_t)n, ev->text2);
	else
		tracemem_print_d(&rt->out, b, (size_t)n);
	free(b);
}

const FrontendEvent d_events[] = {
	{EV_CLEAR, ev_clear},
	{EV_EXIT, ev_exit},
	{EV_PRINTA, ev_printa},
	{EV_TRUNC, ev_agg_action},
	{EV_NORMALIZE, ev_agg_action},
	{EV_SETOPT, ev_setopt},
	{EV_D_PROBE, ev_d_probe},
	{EV_D_FIRING, ev_firing},
	{EV_SPEC_COMMIT, ev_spec},
	{EV_SPEC_DISCARD, ev_spec},
	{EV_D_FAULT, ev_fault},
	{EV_D_TRACEMEM, ev_tracemem},
	{0, NULL},
};
