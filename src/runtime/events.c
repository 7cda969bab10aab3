/* Ring buffer records -> output.  A record starts with the index of its
 * EventDesc; the arguments follow at the offsets the descriptor gives. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_rt.h"
#include "runtime.h"
#include "../util/clock.h"

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

/* errorf()/warnf(): the text as a diagnostic at the call, on stderr */
static void ev_diag(Runtime *rt, const EventDesc *ev, const uint8_t *data)
{
	bool warning = !strcmp(ev->text, "WARNING");
	if (warning && rt->opt.no_warnings)
		return;
	render_args(rt, ev, data, &rt->line);
	Error e = {.set = true, .warning = warning, .loc = ev->loc};
	snprintf(e.msg, sizeof(e.msg), "%.*s", (int)rt->line.len, rt->line.s);
	fflush(rt->out.f);
	diag_print(stderr, &rt->sc->ast->src, &e);
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

/* The front end's printer of this kind of event, or NULL */
static EventPrintFn frontend_printer(const Runtime *rt, EventKind kind)
{
	const FrontendRt *fe = frontend_rt(&rt->out);
	for (const FrontendEvent *e = fe->events; e && e->print; e++)
		if (e->kind == (int)kind)
			return e->print;
	return NULL;
}

/* After the end of a run (every way out: a signal, the -c command's or
 * the -p process's end), the events that were in the ring then are owed
 * (as many bytes as the ring holds: later ones are not), printed for a
 * while (session_drain_overdue), then counted as lost, so that a script
 * whose events feed themselves still ends at once, and printed + lost
 * events are still all there were.  After a signal, as bpftrace, reading
 * just stops.  1: print it; 0: counted; -EINTR: stop reading. */
static int drain_owed(Runtime *rt, size_t size)
{
	if (rt->drain_left < 0)
		return 1;
	rt->drain_left -= (int64_t)((size + 8 + 7) & ~(size_t)7); /* a record's header and padding */
	if (rt->drain_left < 0)
		return -EINTR;
	DrainState d = session_drain_overdue();
	if (d == DRAIN_STOP)
		return -EINTR;
	if (d == DRAIN_COUNT) {
		rt->drain_lost++;
		return 0;
	}
	return 1;
}

static int event_handle_one(Runtime *rt, void *data, size_t size)
{
	uint64_t id;
	if (size < 8)
		return 0;
	memcpy(&id, data, 8);
	if (id >> EVENT_SPEC_SHIFT) { /* kept for a later decision (D: its speculation's commit) */
		if (frontend_rt(&rt->out)->held_record)
			frontend_rt(&rt->out)->held_record(rt, (unsigned)(id >> EVENT_SPEC_SHIFT), data,
							   size);
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
	int owed = rt->ending ? 1 : drain_owed(rt, size);
	if (owed <= 0)
		return owed;
	rt->flush_pending = true;
	EventPrintFn print = frontend_printer(rt, ev->kind);
	if (print) {
		print(rt, ev, data, size);
		return 0;
	}
	switch (ev->kind) {
	case EV_PRINTF:
		render_args(rt, ev, data, &rt->line);
		output_printf_text(&rt->out, rt->line.s, rt->line.len);
		break;
	case EV_DIAG:
		ev_diag(rt, ev, data);
		break;
	case EV_PRINT_VALUE:
		value_print(&rt->out, ev->argt[0], (uint8_t *)data + ev->argoff[0]);
		break;
	case EV_PRINT_MAP:
		map_print(&rt->out, &rt->maps[ev->map->id], ev->top, ev->div);
		break;
	case EV_CLEAR:
		map_clear(&rt->maps[ev->map->id]);
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
		rt->exit_requested = true;
		if (ev->nargs) { /* bpftrace 0.26's exit(code) */
			int64_t code;
			memcpy(&code, (const uint8_t *)data + ev->argoff[0], 8);
			rt->exit_status = (int)(code & 0xff);
		}
		break;
	case EV_HELPER_ERROR:
		helper_error_print(rt, ev, data);
		break;
	case EV_SKBOUTPUT: /* never in the ring: its records come through skb_capture.c */
		break;
	case EV_WATCHPOINT:
		break;
	default: /* a front end's kind it has no printer for */
		break;
	}
	return 0;
}

/* The ring's reader.  The event loop reads in slices (Runtime.read_until_ns):
 * past its end, reading stops after this event (the ring counts it as read)
 * and the loop looks at its ways out (the -c command's or the -p process's
 * end, exit()), which events that never stop coming would else hide. */
int events_handle(void *ctx, void *data, size_t size)
{
	Runtime *rt = ctx;
	int r = event_handle_one(rt, data, size);
	if (r == 0 && rt->read_until_ns && mono_ns() > rt->read_until_ns)
		return -EAGAIN;
	return r;
}
