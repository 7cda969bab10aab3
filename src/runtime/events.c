/* Ring buffer records -> output.  A record starts with the index of its
 * EventDesc; the arguments follow at the offsets the descriptor gives. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

#define MAX_EVENT_ARGS 64

static void render_args(Runtime *rt, const EventDesc *ev, const uint8_t *data, StrBuf *sb)
{
	const void *args[MAX_EVENT_ARGS];
	for (int i = 0; i < ev->nargs && i < MAX_EVENT_ARGS; i++)
		args[i] = data + ev->argoff[i];
	sb_reset(sb);
	fmt_render(sb, &rt->out, ev->fmt, (const Type *const *)ev->argt, args);
}

/* At most max bytes of a file (BPFTRACE_CAT_BYTES_MAX): cat() of a large
 * or endless file (/dev/zero) prints its start and returns. */
static char *read_file_head(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = xmalloc(max + 1);
	*len = fread(buf, 1, max, f);
	int err = ferror(f) ? EIO : 0;
	fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	return buf;
}

static void ev_cat(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	render_args(rt, ev, data, &rt->line);
	char *path = xstrdup(rt->line.s ? rt->line.s : "");
	size_t n;
	char *text = read_file_head(path, rt->opt.cat_bytes_max, &n);
	if (!text) { /* bpftrace's message; its json still has an empty cat record */
		fflush(rt->out.f);
		fprintf(stderr, "ERROR: failed to open file '%s': %s\n", path, strerror(errno));
		output_message(&rt->out, "cat", "", 0, false);
	} else {
		output_message(&rt->out, "cat", text, n, false);
		free(text);
	}
	free(path);
}

static void ev_system(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	render_args(rt, ev, data, &rt->line);
	fflush(rt->out.f);
	FILE *p = popen(rt->line.s, "r");
	if (!p) {
		fprintf(stderr, "system(\"%s\"): %s\n", rt->line.s, strerror(errno));
		return;
	}
	StrBuf out = {0};
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		sb_putn(&out, buf, n);
	pclose(p);
	/* json: a syscall record even when the command printed nothing */
	output_message(&rt->out, "syscall", out.s ? out.s : "", out.len, false);
	sb_free(&out);
}

static void ev_join(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	StrBuf *sb = &rt->line;
	sb_reset(sb);
	for (int i = 0; i < ev->nargs; i++) {
		const char *s = (const char *)data + ev->argoff[i];
		size_t len = strnlen(s, (size_t)ev->argt[i]->size);
		if (!len && i > 0)
			break;
		if (i)
			sb_puts(sb, ev->text);
		sb_putn(sb, s, len);
	}
	output_message(&rt->out, "join", sb->s ? sb->s : "", sb->len, true);
}

/* D: trunc(@a[, n]), normalize(@a, n), denormalize(@a) */
static void ev_agg_action(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	MapDesc *m = &rt->maps[ev->map->id];
	int64_t n = 0;
	if (ev->nargs)
		memcpy(&n, data + ev->argoff[0], 8);
	if (ev->kind == EV_TRUNC)
		map_trunc_d(m, !ev->nargs, n);
	else
		m->normal = ev->nargs && n > 1 ? n : 1;
}

static void ev_printa(Runtime *rt, const EventDesc *ev)
{
	MapDesc *ms[ev->nmaps > 0 ? ev->nmaps : 1];
	for (int i = 0; i < ev->nmaps; i++)
		ms[i] = &rt->maps[ev->maps[i]->id];
	map_printa_d(&rt->out, ms, ev->nmaps, ev->fmt, ev->value_conv);
}

void events_d_close_line(Runtime *rt)
{
	if (rt->d_line_open)
		fputc('\n', rt->out.f);
	rt->d_line_open = false;
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
	if (flow < 0 && rt->d_indent > 0)
		rt->d_indent -= 2;
	char col[512];
	snprintf(col, sizeof(col), "%*s%s%.*s%s%s", rt->d_indent, "",
		 flow > 0 ? (sys ? " => " : " -> ") : flow < 0 ? (sys ? " <= " : " <- ") : "| ",
		 flen, ev->text, flow ? "" : ":", flow ? "" : name);
	fprintf(rt->out.f, "%3d %-41s ", cpu, col);
	if (flow > 0)
		rt->d_indent += 2;
}

/* dtrace(1)'s columns for one firing, after its heading once */
static void ev_d_probe(Runtime *rt, const EventDesc *ev, const void *data)
{
	uint64_t cpu;
	memcpy(&cpu, (const uint8_t *)data + 8, 8);
	events_d_close_line(rt);
	bool flow = rt->out.agg.flowindent;
	if (!rt->d_heading && flow)
		fprintf(rt->out.f, "%3s %-41s\n", "CPU", "FUNCTION");
	else if (!rt->d_heading)
		fprintf(rt->out.f, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
	rt->d_heading = true;
	if (flow)
		d_flow_line(rt, ev, (int)cpu);
	else
		fprintf(rt->out.f, "%3d %6d %32s ", (int)cpu, ev->top, ev->text);
	rt->d_line_open = true;
}

int events_handle(void *ctx, void *data, size_t size)
{
	Runtime *rt = ctx;
	uint64_t id;
	if (size < 8)
		return 0;
	memcpy(&id, data, 8);
	if (id >> EVENT_SPEC_SHIFT) { /* D: kept for its speculation's commit */
		spec_hold(rt, (unsigned)(id >> EVENT_SPEC_SHIFT), data, size);
		return 0;
	}
	if (id >= (uint64_t)rt->sc->events.n)
		return 0;
	const EventDesc *ev = rt->sc->events.v[id];
	if (ev->kind == EV_WATCHPOINT) {
		/* even after exit(): a stopped task must go on */
		watchpoint_event(rt, id, ev, data, size);
		return 0;
	}
	if (rt->exit_requested)
		return 0;
	if (rt->ending && !ev->from_end)
		return 0;
	if (!rt->ending && session_signal_overdue())
		return -EINTR; /* stop reading: Ctrl-C must end a run whatever the event rate */
	rt->flush_pending = true;
	switch (ev->kind) {
	case EV_PRINTF:
		render_args(rt, ev, data, &rt->line);
		output_printf_text(&rt->out, rt->line.s, rt->line.len);
		break;
	case EV_PRINT_VALUE:
		value_print(&rt->out, ev->argt[0], (uint8_t *)data + ev->argoff[0]);
		break;
	case EV_PRINT_MAP:
		map_print(&rt->out, &rt->maps[ev->map->id], ev->top, ev->div);
		break;
	case EV_CLEAR: /* D's clear() zeroes the values and keeps the keys */
		if (rt->out.dialect == DIALECT_D)
			map_zero(&rt->maps[ev->map->id]);
		else
			map_clear(&rt->maps[ev->map->id]);
		break;
	case EV_PRINTA:
		ev_printa(rt, ev);
		break;
	case EV_TRUNC:
	case EV_NORMALIZE:
		ev_agg_action(rt, ev, data);
		break;
	case EV_SETOPT:
		agg_opt_set(&rt->out.agg, ev->text, ev->text2);
		break;
	case EV_ZERO:
		map_zero(&rt->maps[ev->map->id]);
		break;
	case EV_TIME:
		output_time(&rt->out, ev->text);
		break;
	case EV_CAT:
		ev_cat(rt, ev, data);
		break;
	case EV_SYSTEM:
		ev_system(rt, ev, data);
		break;
	case EV_JOIN:
		ev_join(rt, ev, data);
		break;
	case EV_UNWATCH:
		watchpoint_unwatch(rt, *(const uint64_t *)((const uint8_t *)data + ev->argoff[0]));
		break;
	case EV_EXIT:
		if (ev->nargs) { /* D: exit(N); the events of the firing that follow still print */
			int64_t st;
			memcpy(&st, (uint8_t *)data + ev->argoff[0], 8);
			rt->exit_status = (int)(st & 0xff);
			rt->d_exit_seen = !rt->ending;
			rt->exit_requested |= rt->d_exit_seen && !rt->d_firing_depth;
			break;
		}
		rt->exit_requested = true;
		break;
	case EV_D_PROBE:
		ev_d_probe(rt, ev, data);
		break;
	case EV_D_FIRING: /* each present slot, in clause order */
		rt->d_firing_depth++;
		for (int i = 0; i < ev->nargs; i++) {
			const uint8_t *slot = (const uint8_t *)data + ev->argoff[i];
			uint64_t present;
			memcpy(&present, slot, 8);
			if (present && (size_t)ev->argoff[i] + 8 + (size_t)ev->slot_size[i] <= size)
				events_handle(rt, (void *)(slot + 8), (size_t)ev->slot_size[i]);
		}
		/* dtrace's consumer stops at the exit action: the rest of its
		 * firing prints, no record after it in the buffer does */
		rt->exit_requested |= --rt->d_firing_depth == 0 && rt->d_exit_seen && !rt->ending;
		break;
	case EV_SPEC_COMMIT:
	case EV_SPEC_DISCARD: {
		uint64_t sid;
		memcpy(&sid, (const uint8_t *)data + 8, 8);
		spec_release(rt, sid, ev->kind == EV_SPEC_COMMIT);
		break;
	}
	case EV_HELPER_ERROR:
		helper_error_print(rt, ev, data);
		break;
	case EV_SKBOUTPUT: /* never in the ring: its records come through skb_capture.c */
		break;
	case EV_D_FAULT:
		if (size >= DFAULT_REC_SIZE)
			fault_print_d(rt, ev, data);
		break;
	case EV_D_TRACEMEM: {
		uint64_t n;
		memcpy(&n, (const uint8_t *)data + 8, 8);
		if (n > size - 16)
			break;
		uint8_t *b = xmalloc((size_t)n + 1); /* the ring is mapped read-only */
		memcpy(b, (const uint8_t *)data + 16, (size_t)n);
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
		break;
	}
	case EV_WATCHPOINT:
		break;
	}
	return 0;
}
