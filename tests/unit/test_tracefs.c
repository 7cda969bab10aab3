/* tracefs, format parsing and `sonde -l` listing.  Needs root (tracefs).
 * The listing expectations were checked byte-for-byte against bpftrace 0.17
 * -l / -lv on Linux 6.18; they are written as facts here because CI may not
 * have bpftrace. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "syms_check.h"
#include "sym/tracefs.h"
#include "sym/features.h"
#include "probes/provider.h"

/* probe_list into a string under rules (NULL: 0.17's); *rc gets its return value. */
static char *list_with(const char *pattern, bool verbose, const ProbeListRules *rules, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = probe_list(f, pattern, verbose, &(ProbeTarget){.sym = &test_syms}, rules);
	fclose(f);
	return buf;
}

static char *list(const char *pattern, bool verbose, int *rc)
{
	return list_with(pattern, verbose, NULL, rc);
}

static char *list_by(const char *pattern, const ProbeListRules *rules, int *rc)
{
	return list_with(pattern, false, rules, rc);
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static int count_lines(const char *text)
{
	int n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Lines come in strcmp order (bpftrace sorts "type:cat:name"). */
static bool sorted_lines(const char *text)
{
	const char *prev = NULL;
	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		if (prev && strcmp(prev, p) >= 0)
			return false; /* compares to end of buffer: fine for order */
		prev = p;
	}
	return true;
}

static void test_parse_synthetic(void)
{
	const char *text =
		"name: x\nID: 42\nformat:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:const char * filename;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:unsigned long args[6];\toffset:40;\tsize:48;\tsigned:0;\n"
		"\tfield:__data_loc u8[] buf;\toffset:88;\tsize:4;\tsigned:0;\n"
		"\tfield:long  ret;\toffset:96;\tsize:8;\tsigned:1;\n"
		"\nprint fmt: \"%s\", REC->comm\n";
	TpFormat f;
	CHECK(tp_format_parse(text, &f));
	CHECK(f.id == 42);
	CHECK(f.nfields == 6);
	const TpField *c = tp_format_field(&f, "comm");
	CHECK(c && !strcmp(c->type, "char[16]") && c->is_str &&
	      c->array_len == 16 && c->offset == 8 && c->size == 16 &&
	      !c->is_ptr && !c->is_data_loc);
	CHECK_STR(c ? c->decl : NULL, "char comm[16]");
	const TpField *n = tp_format_field(&f, "name");
	CHECK(n && n->is_data_loc && n->is_str && n->size == 4);
	CHECK_STR(n ? n->type : NULL, "__data_loc char[]");
	const TpField *fn = tp_format_field(&f, "filename");
	CHECK(fn && fn->is_ptr && !fn->is_str && fn->array_len == 0);
	CHECK_STR(fn ? fn->type : NULL, "const char *");
	const TpField *a = tp_format_field(&f, "args");
	CHECK(a && a->array_len == 6 && !a->is_str);
	CHECK_STR(a ? a->type : NULL, "unsigned long[6]");
	const TpField *b = tp_format_field(&f, "buf");
	CHECK(b && b->is_data_loc && !b->is_str);
	const TpField *r = tp_format_field(&f, "ret");
	CHECK(r && r->is_signed && r->size == 8);
	CHECK_STR(r ? r->type : NULL, "long");
	CHECK(!tp_format_field(&f, "common_pid"));
	tp_format_free(&f);
	CHECK(!tp_format_parse("no id here\n", &f));
	tp_format_free(&f);
}

static void test_read_format(void)
{
	TpFormat f;
	char err[256];
	CHECK(tracefs_read_format("syscalls", "sys_enter_openat", &f, err,
				  sizeof(err)));
	CHECK(f.id > 0);
	const TpField *fn = tp_format_field(&f, "filename");
	CHECK(fn && fn->is_ptr && fn->size == 8);
	CHECK_STR(fn ? fn->type : NULL, "const char *");
	const TpField *nr = tp_format_field(&f, "__syscall_nr");
	CHECK(nr && nr->offset == 8 && nr->size == 4 && nr->is_signed);
	CHECK(f.nfields > 0 && !strcmp(f.fields[0].name, "__syscall_nr"));
	tp_format_free(&f);

	CHECK(tracefs_read_format("sched", "sched_switch", &f, err,
				  sizeof(err)));
	const TpField *pc = tp_format_field(&f, "prev_comm");
	CHECK(pc && pc->is_str && pc->array_len == 16 && pc->offset == 8);
	tp_format_free(&f);

	CHECK(tracefs_read_format("sched", "sched_process_exec", &f, err,
				  sizeof(err)));
	const TpField *file = tp_format_field(&f, "filename");
	CHECK(file && file->is_data_loc && file->is_str);
	tp_format_free(&f);

	CHECK(!tracefs_read_format("syscalls", "sys_enter_nope", &f, err,
				   sizeof(err)));
	CHECK_STR(err, "tracepoint not found: syscalls:sys_enter_nope");
	CHECK(!tracefs_read_format("..", "sched", &f, err, sizeof(err)));
}

struct seen {
	int n;
	bool sorted, switch_seen, ftrace_seen;
	char prev[256];
};

static void on_tp(const char *cat, const char *name, void *arg)
{
	struct seen *s = arg;
	char full[256];
	snprintf(full, sizeof(full), "%s:%s", cat, name);
	if (s->n && strcmp(s->prev, full) >= 0)
		s->sorted = false;
	snprintf(s->prev, sizeof(s->prev), "%s", full);
	s->switch_seen |= !strcmp(full, "sched:sched_switch");
	s->ftrace_seen |= !strcmp(cat, "ftrace");
	s->n++;
}

static void test_foreach(void)
{
	struct seen s = {.sorted = true};
	int n = tracefs_foreach("*", "*", on_tp, &s);
	CHECK(n == s.n && n > 500);
	CHECK(s.sorted && s.switch_seen && !s.ftrace_seen);
	struct seen t = {.sorted = true};
	CHECK(tracefs_foreach("sch?d", "sched_sw*tch", on_tp, &t) == 1);
	CHECK(t.switch_seen);
	CHECK(tracefs_foreach("nope*", "*", on_tp, &t) == 0);
}

static void test_list_tracepoints(void)
{
	int rc;
	char *o = list("tracepoint:sched:*", false, &rc);
	CHECK(rc == count_lines(o) && rc > 5);
	CHECK(has_line(o, "tracepoint:sched:sched_switch"));
	CHECK(sorted_lines(o));
	free(o);

	/* bpftrace -l '*sched_switch*' (less its "software:*sched_switch*:"
	 * echo lines) */
	o = list("*sched_switch*", false, &rc);
	CHECK_STR(o, "tracepoint:sched:sched_switch\n");
	free(o);

	/* A lone globbed argument matches the event name in any category,
	 * so 'sched*' == 'tracepoint:*:sched*' and irq:softirq_* is out. */
	char *a = list("sched*", false, &rc);
	char *b = list("tracepoint:*:sched*", false, &rc);
	CHECK_STR(a, b);
	free(a);
	free(b);
	o = list("t:irq*", false, &rc);
	CHECK(has_line(o, "tracepoint:irq:irq_handler_entry"));
	CHECK(!has_line(o, "tracepoint:irq:softirq_entry"));
	free(o);

	o = list("t*:sched:sched_switch,tracepoint:syscalls:sys_enter_openat",
		 false, &rc);
	CHECK_STR(o, "tracepoint:sched:sched_switch\n"
		     "tracepoint:syscalls:sys_enter_openat\n");
	free(o);
	o = list("tracepoint:sched:nope", false, &rc);
	CHECK(rc == 0 && !strcmp(o, ""));
	free(o);
}

static void test_list_verbose(void)
{
	int rc;
	char *o = list("tracepoint:syscalls:sys_enter_openat", true, &rc);
	CHECK(rc == 1);
	const char *head = "tracepoint:syscalls:sys_enter_openat\n"
			   "    int __syscall_nr\n";
	CHECK(!strncmp(o, head, strlen(head)));
	CHECK(has_line(o, "    const char * filename"));
	free(o);
	o = list("t:sched:sched_switch", true, &rc);
	CHECK(has_line(o, "    char prev_comm[16]"));
	CHECK(has_line(o, "    pid_t next_pid"));
	free(o);
	o = list("tracepoint:sched:sched_process_exec", true, &rc);
	CHECK(has_line(o, "    __data_loc char[] filename"));
	free(o);
}

static void test_list_other(void)
{
	int rc;
	char *o = list("s:*", false, &rc);
	CHECK(rc == 14 && sorted_lines(o));
	CHECK(has_line(o, "software:cpu-clock:") && has_line(o, "software:cs:"));
	free(o);
	o = list("software:faults:100", false, &rc);
	CHECK_STR(o, "software:faults:\n");
	free(o);
	o = list("h:cycles", false, &rc);
	CHECK_STR(o, "hardware:cycles:\n");
	free(o);
	o = list("hardware:*", false, &rc);
	CHECK(rc == 12 && sorted_lines(o));
	free(o);
	/* Everything: hardware, (kprobe), software, tracepoint blocks. */
	o = list(NULL, false, &rc);
	CHECK(rc > 500 && rc == count_lines(o));
	CHECK(!strncmp(o, "hardware:backend-stalls:\n", 25));
	CHECK(has_line(o, "tracepoint:sched:sched_switch"));
	free(o);
	o = list("rawtracepoint:sched_switch", false, &rc);
	CHECK_STR(o, "rawtracepoint:sched_switch\n");
	free(o);
	if (!kernel_has_kprobes()) {
		o = list("kprobe:*", false, &rc);
		CHECK(rc == 0);
		free(o);
	}
	fprintf(stderr, "(two ERROR lines expected next)\n");
	o = list("tracepoint:sched", false, &rc);
	CHECK(rc == -1);
	free(o);
	o = list("bogus:*", false, &rc);
	CHECK(rc == -1);
	free(o);
}

/* 0.26's rules: interval/profile list their units; "-l" alone lists
 * rawtracepoints too, never the timers. 0.17's: neither. */
static void test_list_rules(void)
{
	const ProbeListRules r026 = {.timer_units = true, .glob_rawtracepoints = true};
	int rc;
	char *o = list_by("interval:*", &r026, &rc);
	CHECK_STR(o, "interval:hz:\ninterval:ms:\ninterval:s:\ninterval:us:\n");
	free(o);
	o = list_by("p:hz:99", &r026, &rc);
	CHECK_STR(o, "profile:hz:\n");
	free(o);
	o = list_by("interval:*", NULL, &rc);
	CHECK(rc == 0 && !*o);
	free(o);
	o = list_by(NULL, &r026, &rc);
	CHECK(has_line(o, "rawtracepoint:sched_switch") && !strstr(o, "interval:"));
	free(o);
	o = list_by(NULL, NULL, &rc);
	CHECK(!strstr(o, "rawtracepoint:") && !strstr(o, "interval:"));
	free(o);
	o = list_by("self:signal:SIGUSR1", &r026, &rc); /* nothing to list, no error */
	CHECK(rc == 0 && !*o);
	free(o);
}

int main(void)
{
	test_parse_synthetic();
	CHECK(tracefs_dir() != NULL);
	if (!tracefs_dir()) /* not root: the rest can't run */
		return check_done("tracefs");
	test_read_format();
	test_foreach();
	test_list_tracepoints();
	test_list_verbose();
	test_list_other();
	test_list_rules();
	return check_done("tracefs");
}
