/* sonde -l / -lv: list probes the way bpftrace 0.17 does.
 *
 * A pattern is one or more comma-separated attach points, listed in order.
 * Each is "TYPE:ARGS" (TYPE a name, an alias like t/s/h/k, or a glob such as
 * "t*") or, with no ':', a glob tried against every type as "*:PATTERN".
 * With a globbed type the listable types are visited in sorted order
 * (hardware, kprobe, software, tracepoint) and each block is sorted, which
 * is how bpftrace's output comes out.
 *
 * Where bpftrace 0.17 misbehaves we do the useful thing instead: for
 * software/hardware it echoes the pattern ("software:*:") rather than the
 * matching events; we print the matching events and their aliases, in its
 * "software:cpu-clock:" format. */
#include <stdlib.h>
#include <string.h>

#include "../lang/ctypes.h"
#include "../sym/features.h"
#include "../sym/dwarf_args.h"
#include "../sym/kfuncs.h"
#include "../util/util.h"
#include "../util/sort.h"
#include "../sym/btf_funcs.h"
#include "provider.h"
#include "../sym/tracefs.h"

typedef VEC(char *) StrVec;

/* Names and aliases (cpu, cs, faults; branches, cycles), in the order of
 * the printed lines ("cpu-clock:" < "cpu:"), as bpftrace sorts matches. */
static const char *const sw_events[] = {
	"alignment-faults", "bpf-output", "context-switches", "cpu-clock",
	"cpu-migrations", "cpu", "cs", "dummy", "emulation-faults",
	"faults", "major-faults", "minor-faults", "page-faults", "task-clock",
	NULL};
static const char *const hw_events[] = {
	"backend-stalls", "branch-instructions", "branch-misses", "branches",
	"bus-cycles", "cache-misses", "cache-references", "cpu-cycles",
	"cycles", "frontend-stalls", "instructions", "ref-cycles", NULL};

typedef struct ListCtx {
	FILE *out;
	bool verbose;
	int count;
	bool failed; /* an error printed: exit status 1 */
	ProbeTarget target; /* -p: uprobe/usdt patterns name its files */
	ProbeListRules rules; /* the front end's generation */
	bool rtp_listed; /* -lv: this raw tracepoint's arguments are printed */
	const char *kfunc_type; /* what a kfunc is listed as: kfunc (0.17), fentry or fexit */
	bool kfunc_retval;      /* -lv shows its retval (not fentry's in 0.26) */
} ListCtx;

typedef struct ListType {
	const char *name, *alias;
	/* args: the attach point after "TYPE:", split on ':'.  Returns false
	 * when the arguments can't form this probe type. */
	bool (*list)(ListCtx *c, char **args, int nargs);
} ListType;

/* ---- tracepoint ---- */

static void print_tp_args(ListCtx *c, const char *cat, const char *name)
{
	TpFormat f;
	char err[256];
	if (!tracefs_read_format(cat, name, &f, err, sizeof(err))) {
		fprintf(stderr, "ERROR: %s\n", err);
		return;
	}
	for (int i = 0; i < f.nfields; i++) {
		fprintf(c->out, "    %s\n", f.fields[i].decl);
		if (f.fields[i].is_ptr) /* sonde addition: the pointee's layout */
			ctype_print_layout(c->target.sym, c->out, f.fields[i].type, "        ");
	}
	tp_format_free(&f);
}

static void list_tp_found(const char *cat, const char *name, void *arg)
{
	ListCtx *c = arg;
	fprintf(c->out, "tracepoint:%s:%s\n", cat, name);
	c->count++;
	if (c->verbose)
		print_tp_args(c, cat, name);
}

/* "CAT:NAME"; a lone globbed "NAME" means any category, as in bpftrace. */
static bool list_tracepoints(ListCtx *c, char **args, int nargs)
{
	if (nargs == 1 && has_wildcard(args[0]))
		tracefs_foreach("*", args[0], list_tp_found, c);
	else if (nargs == 2)
		tracefs_foreach(args[0], args[1], list_tp_found, c);
	else
		return false;
	return true;
}

/* ---- rawtracepoint (not in bpftrace 0.17; only listed when asked) ---- */

static void collect_rtp_name(const char *cat, const char *name, void *arg)
{
	(void)cat;
	vec_push((StrVec *)arg, xstrdup(name));
}

/* Sort, drop duplicates, print PREFIX:NAME SUFFIX for each; frees v. */
static void print_sorted(ListCtx *c, StrVec *v, const char *prefix,
			 const char *suffix)
{
	qsort(v->v, v->n, sizeof(*v->v), cmp_str);
	for (int i = 0; i < v->n; i++) {
		if (i == 0 || strcmp(v->v[i - 1], v->v[i])) {
			fprintf(c->out, "%s:%s%s\n", prefix, v->v[i], suffix);
			c->count++;
		}
	}
	for (int i = 0; i < v->n; i++)
		free(v->v[i]);
	vec_free(v);
}

/* -lv: a raw tracepoint's arguments from BTF (its probes' prototype
 * without __data), as bpftrace 0.26 lists them ("    struct sk_buff *
 * skb"); vmlinux's, else the first module's with it */
static void rtp_params_found(const BtfFunc *fn, void *arg)
{
	ListCtx *c = arg;
	const DwarfFunc *f = c->rtp_listed ? NULL : btf_rawtp_params(fn);
	for (int j = 0; f && j < f->nparams; j++)
		fprintf(c->out, "    %s %s\n", f->params[j].ctype, f->params[j].name);
	c->rtp_listed = true;
}

static bool list_rawtracepoints(ListCtx *c, char **args, int nargs)
{
	if (nargs != 1)
		return false;
	StrVec v = {0};
	tracefs_foreach("*", args[0], collect_rtp_name, &v);
	if (!c->verbose || !c->rules.rawtp_btf_args) {
		print_sorted(c, &v, "rawtracepoint", "");
		return true;
	}
	qsort(v.v, v.n, sizeof(*v.v), cmp_str);
	for (int i = 0; i < v.n; i++) {
		if (i && !strcmp(v.v[i - 1], v.v[i]))
			continue;
		fprintf(c->out, "rawtracepoint:%s\n", v.v[i]);
		c->count++;
		c->rtp_listed = false;
		btf_rawtp_foreach(c->target.sym, "*", v.v[i], rtp_params_found, c);
	}
	for (int i = 0; i < v.n; i++)
		free(v.v[i]);
	vec_free(&v);
	return true;
}

/* ---- software / hardware: fixed lists, aliases listed too ---- */

static bool list_fixed(ListCtx *c, char **args, int nargs,
		       const char *type, const char *const *names)
{
	if (nargs < 1 || nargs > 2)
		return false;
	for (int i = 0; names[i]; i++) {
		if (glob_match(args[0], names[i])) {
			fprintf(c->out, "%s:%s:\n", type, names[i]);
			c->count++;
		}
	}
	return true;
}

static bool list_software(ListCtx *c, char **args, int nargs)
{
	return list_fixed(c, args, nargs, "software", sw_events);
}

static bool list_hardware(ListCtx *c, char **args, int nargs)
{
	return list_fixed(c, args, nargs, "hardware", hw_events);
}

/* ---- interval / profile: their units, when the rules list them ---- */

static const char *const time_units[] = {"hz", "ms", "s", "us", NULL}; /* sorted, as printed */

static bool list_timer(ListCtx *c, char **args, int nargs, const char *type)
{
	if (!c->rules.timer_units)
		return true; /* 0.17: a known type with nothing to list */
	if (nargs > 2)
		return false;
	return list_fixed(c, args, nargs, type, time_units);
}

static bool list_intervals(ListCtx *c, char **args, int nargs)
{
	return list_timer(c, args, nargs, "interval");
}

static bool list_profiles(ListCtx *c, char **args, int nargs)
{
	return list_timer(c, args, nargs, "profile");
}

/* ---- kprobe: available_filter_functions, when the kernel has kprobes ---- */

/* "kprobe:FUNC" as bpftrace 0.17 lists them (module functions too), or with
 * a module, "kprobe:MODULE:FUNC" for that module's functions. */
static bool list_kprobes(ListCtx *c, char **args, int nargs)
{
	if (nargs != 1 && nargs != 2)
		return false;
	if (!kernel_has_kprobes())
		return true;
	const char *module = nargs == 2 ? args[0] : NULL, *glob = args[nargs - 1];
	int n;
	const KFunc *f = kfuncs_traceable(c->target.sym, &n);
	StrVec v = {0};
	for (int i = 0; i < n; i++) {
		if (module && (!f[i].module || !glob_match(module, f[i].module)))
			continue;
		/* .part/.cold pieces are not functions one can enter */
		if (strstr(f[i].name, ".part.") || strstr(f[i].name, ".cold") || !glob_match(glob, f[i].name))
			continue;
		StrBuf b = {0};
		sb_printf(&b, "%s%s%s", module ? f[i].module : "", module ? ":" : "", f[i].name);
		vec_push(&v, b.s);
	}
	print_sorted(c, &v, "kprobe", "");
	return true;
}

/* ---- iter: bpftrace 0.17's two iterators and task_vma, with -lv the
 * fields of ctx as bpftrace spells them ---- */

static bool list_iters(ListCtx *c, char **args, int nargs)
{
	static const struct {
		const char *name, *fields;
	} iters[] = {
		{"task", "    struct task_struct * task\n"},
		{"task_file", "    struct task_struct * task\n    int fd\n    struct file * file\n"},
		{"task_vma", "    struct task_struct * task\n    struct vm_area_struct * vma\n"},
	};
	if (nargs != 1)
		return false;
	for (size_t i = 0; i < sizeof(iters) / sizeof(iters[0]); i++) {
		if (!glob_match(args[0], iters[i].name))
			continue;
		fprintf(c->out, "iter:%s\n%s", iters[i].name, c->verbose ? iters[i].fields : "");
		c->count++;
	}
	return true;
}

/* ---- kfunc: functions in the kernel's BTF, "kfunc:MODULE:NAME" ---- */

static void kfunc_found(const BtfFunc *fn, void *arg)
{
	ListCtx *c = arg;
	fprintf(c->out, "%s:%s:%s\n", c->kfunc_type, fn->module, fn->name);
	c->count++;
	if (!c->verbose)
		return;
	const char *ret;
	const DwarfFunc *f = btf_func_params(fn, &ret);
	for (int j = 0; f && j < f->nparams; j++)
		fprintf(c->out, "    %s %s\n", f->params[j].ctype, f->params[j].name);
	if (f && strcmp(ret, "void") && c->kfunc_retval)
		fprintf(c->out, "    %s retval\n", ret);
}

/* "FUNC" (every module) or "MODULE:FUNC": vmlinux's, then the modules' */
static bool list_kfuncs(ListCtx *c, char **args, int nargs)
{
	if (nargs > 2)
		return false;
	btf_funcs_foreach(c->target.sym, nargs == 2 ? args[0] : "*", args[nargs - 1], kfunc_found, c);
	return true;
}

/* ---- uprobe / usdt: through the providers' own expansion ---- */

static int cmp_spec_name(const void *a, const void *b)
{
	return strcmp(((const ProbeSpec *)a)->name, ((const ProbeSpec *)b)->name);
}

/* A file that does not exist: bpftrace's message, as on the attach point
 * of a script ("stdin:1:1-N: ERROR: ...", the text, an underline) */
/* bpftrace's messages about the attach point itself, which it prints as
 * for a script */
static bool is_attach_point_error(const char *msg)
{
	return strstr(msg, " target file ") || strstr(msg, " probe type requires ") ||
	       strstr(msg, " must specify at least ") || strstr(msg, " should have a target");
}

static void list_user_error(ListCtx *c, const char *written, const Error *err)
{
	if (!is_attach_point_error(err->msg)) {
		if (!strstr(err->msg, " matches "))
			fprintf(stderr, "ERROR: %s\n", err->msg);
		return;
	}
	Source src = {"stdin", written};
	Error e = *err;
	e.loc = (Loc){1, 1, (int)strlen(written)};
	diag_print(stderr, &src, &e);
	c->failed = true;
}

static bool list_user(ListCtx *c, const char *type, char **args, int nargs, int dflt_parts)
{
	StrBuf b = {0};
	sb_puts(&b, type);
	for (int i = 0; i < nargs; i++)
		sb_printf(&b, ":%s", args[i]);
	char *written = xstrdup(b.s);
	/* "uprobe:/bin/bash" lists every function; "usdt:/path" every probe;
	 * a lone wildcard ("uprobe:*" without -p) is bpftrace's error */
	if (nargs == 1 && dflt_parts == 2) { /* uprobe:FILE lists nothing in bpftrace either */
		Error e = {0};
		error_at(&e, (Loc){0}, "%s probe type requires %s arguments", type,
			 strcmp(type, "usdt") ? "2" : "2 or 3");
		list_user_error(c, written, &e);
		free(written);
		sb_free(&b);
		return true;
	}
	if (nargs < dflt_parts && !(nargs == 1 && !*args[0]))
		sb_puts(&b, ":*");
	ProbeSpecList l = {0};
	Error err = {0};
	if (!probe_expand(b.s, (Loc){0}, &c->target, &l, &err))
		list_user_error(c, written, &err);
	/* sorted, each once, as bpftrace lists them (several files: by path) */
	qsort(l.v, (size_t)l.n, sizeof(*l.v), cmp_spec_name);
	for (int i = 0; i < l.n; i++) {
		if (i && !strcmp(l.v[i].name, l.v[i - 1].name))
			continue;
		fprintf(c->out, "%s\n", l.v[i].name);
		c->count++;
		/* -lv: the parameters from DWARF, as bpftrace ("    const char* who") */
		for (int j = 0; c->verbose && l.v[i].dwarf && j < l.v[i].dwarf->nparams; j++)
			fprintf(c->out, "    %s %s\n", l.v[i].dwarf->params[j].ctype,
				l.v[i].dwarf->params[j].name);
	}
	probe_spec_list_free(&l);
	sb_free(&b);
	free(written);
	return true;
}

static bool list_uprobes(ListCtx *c, char **args, int nargs)
{
	/* with -p, uprobe:FUNC is a function of the process's program */
	return nargs <= 2 && list_user(c, "uprobe", args, nargs, c->target.maps_pid > 0 ? 1 : 2);
}

/* uretprobe:BIN:FUNC lists what uprobe:BIN:FUNC does, named uretprobe */
static bool list_uretprobes(ListCtx *c, char **args, int nargs)
{
	return nargs <= 2 && list_user(c, "uretprobe", args, nargs, c->target.maps_pid > 0 ? 1 : 2);
}

static bool list_usdt(ListCtx *c, char **args, int nargs)
{
	return nargs <= 3 && list_user(c, "usdt", args, nargs, c->target.maps_pid > 0 ? 1 : 2);
}

/* ---- dispatch ---- */

/* Sorted by name: a globbed type visits them in this order. */
static const ListType list_types[] = {
	{"hardware", "h", list_hardware},
	{"interval", "i", list_intervals},
	{"iter", "it", list_iters},
	{"kfunc", "f", list_kfuncs},
	{"kprobe", "k", list_kprobes},
	{"profile", "p", list_profiles},
	{"rawtracepoint", "rt", list_rawtracepoints},
	{"software", "s", list_software},
	{"tracepoint", "t", list_tracepoints},
	{"uprobe", "u", list_uprobes},
	{"uretprobe", "ur", list_uretprobes},
	{"usdt", "U", list_usdt},
};
#define NTYPES (int)(sizeof(list_types) / sizeof(list_types[0]))

/* Probe types that exist but have nothing to list. */
static const char *const unlisted_types[] = {
	"kretprobe", "kr", "watchpoint", "w",
	"asyncwatchpoint", "aw", "kretfunc", "fr", "fentry", "fexit", "BEGIN", "END",
	"begin", "end", "self", "test", "bench", NULL};

static const char *arg_count_msg(const char *type)
{
	if (!strcmp(type, "tracepoint"))
		return "2 arguments";
	if (!strcmp(type, "software") || !strcmp(type, "hardware") || !strcmp(type, "kprobe"))
		return "1 or 2 arguments";
	return "1 argument";
}

/* bpftrace 0.26 names kfunc/kretfunc fentry/fexit and lists the kernel's
 * functions under each of their names and aliases (ProbeListRules.fentry_names) */
static const struct {
	const char *type, *listed_as;
	bool retval;
} fentry_types[] = {
	{"fentry", "fentry", false}, {"f", "fentry", false}, {"kfunc", "fentry", false},
	{"fexit", "fexit", true},    {"fr", "fexit", true},  {"kretfunc", "fexit", true},
};

static bool fentry_type(ListCtx *c, const char *type)
{
	for (size_t i = 0; c->rules.fentry_names && i < sizeof(fentry_types) / sizeof(fentry_types[0]); i++)
		if (!strcmp(type, fentry_types[i].type)) {
			c->kfunc_type = fentry_types[i].listed_as;
			c->kfunc_retval = fentry_types[i].retval;
			return true;
		}
	return false;
}

/* A named (not globbed) type: exact name or alias. */
static int list_named_type(ListCtx *c, const char *type, char **args,
			   int nargs)
{
	if (fentry_type(c, type)) {
		if (list_kfuncs(c, args, nargs))
			return 0;
		fprintf(stderr, "ERROR: %s probe type requires 1 argument\n", c->kfunc_type);
		return -1;
	}
	for (int i = 0; i < NTYPES; i++) {
		const ListType *t = &list_types[i];
		if (strcmp(type, t->name) && strcmp(type, t->alias))
			continue;
		if (!t->list(c, args, nargs)) {
			fprintf(stderr, "ERROR: %s probe type requires %s\n",
				t->name, arg_count_msg(t->name));
			return -1;
		}
		if (!strcmp(t->name, "kprobe") && !kernel_has_kprobes())
			fprintf(stderr, "WARNING: no kprobes to list: kernel "
					"built without CONFIG_KPROBES\n");
		return 0;
	}
	if (str_in_list(type, unlisted_types))
		return 0;
	fprintf(stderr, "ERROR: Invalid probe type: %s\n", type);
	return -1;
}

/* A globbed type visits the types bpftrace lists for "*": not the timers,
 * not rawtracepoint unless the rules say so (0.17 has none), not the
 * user-space ones; kfunc not when available_filter_functions is unreadable
 * (bpftrace then lists none; a named 'kfunc:...' still lists every BTF
 * function). */
static bool listed_by_glob(const ListCtx *c, const char *name)
{
	if (!strcmp(name, "rawtracepoint"))
		return c->rules.glob_rawtracepoints;
	if (!strcmp(name, "kfunc"))
		return btf_funcs_traceable_known(c->target.sym);
	static const char *const never[] = {"interval", "profile", "uprobe", "uretprobe", "usdt", NULL};
	return !str_in_list(name, never);
}

static void list_globbed_type(ListCtx *c, const char *glob, char **args,
			      int nargs)
{
	for (int i = 0; i < NTYPES; i++)
		if (listed_by_glob(c, list_types[i].name) && glob_match(glob, list_types[i].name))
			list_types[i].list(c, args, nargs);
}

static int list_attach_point(ListCtx *c, char *ap)
{
	char *args[8];
	int nargs = 0;
	const char *type = "*";
	char *colon = strchr(ap, ':');
	if (colon) {
		*colon = 0;
		type = ap;
		ap = colon + 1;
	}
	/* bpftrace splits on every ':'; more than a few can't be valid. */
	args[nargs++] = ap;
	for (char *p = ap; nargs < 8 && (p = strchr(p, ':'));) {
		*p++ = 0;
		args[nargs++] = p;
	}
	if (has_wildcard(type)) {
		list_globbed_type(c, type, args, nargs);
		return 0;
	}
	return list_named_type(c, type, args, nargs);
}

int probe_list(FILE *out, const char *pattern, bool verbose, const ProbeTarget *target,
	       const ProbeListRules *rules)
{
	ListCtx c = {out, verbose, 0, false, target ? *target : (ProbeTarget){0},
		     rules ? *rules : (ProbeListRules){0}, false, "kfunc", true};
	if (c.rules.fentry_names) { /* a globbed type: as fentry */
		c.kfunc_type = "fentry";
		c.kfunc_retval = false;
	}
	char *copy = xstrdup(pattern && *pattern ? pattern : "*");
	int rc = 0;
	for (char *ap = strtok(copy, ","); ap && rc == 0; ap = strtok(NULL, ","))
		rc = list_attach_point(&c, ap);
	free(copy);
	return rc < 0 || c.failed ? -1 : c.count;
}
