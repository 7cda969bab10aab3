/* dtrace(1)'s options (-x NAME[=VALUE], #pragma D option NAME[=VALUE]):
 * which names exist, which values each takes (as libdtrace checks them:
 * a size with a k/m/g/t suffix, a rate in ns or with a time unit or hz,
 * a number or yes/no, or no value at all), and where the value goes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../runtime/output.h"
#include "../runtime/runtime.h"
#include "dtrace.h"

/* what value an option takes */
typedef enum {
	OV_ANY,  /* a path, a name, ...: not checked */
	OV_FLAG, /* no value (compiler flags: defaultargs, zdefs, ...) */
	OV_SIZE, /* bytes: 64k, 4m */
	OV_RATE, /* a period: 10hz, 100ms, plain nanoseconds */
	OV_NUM,  /* a count, or yes/no/on/off... */
} OptValue;

typedef struct DOpt {
	const char *name;
	OptValue value;
} DOpt;

static const DOpt d_options[] = {
	{"aggpercpu", OV_ANY}, {"aggrate", OV_RATE}, {"aggsize", OV_SIZE},
	{"aggsortkey", OV_NUM}, {"aggsortkeypos", OV_NUM}, {"aggsortpos", OV_NUM},
	{"aggsortrev", OV_NUM}, {"amin", OV_ANY}, {"argref", OV_FLAG}, {"bufpolicy", OV_ANY},
	{"bufresize", OV_ANY}, {"bufsize", OV_SIZE}, {"cleanrate", OV_RATE}, {"core", OV_ANY},
	{"cpp", OV_FLAG}, {"cpphdrs", OV_ANY}, {"cpppath", OV_ANY}, {"cpu", OV_NUM},
	{"ctypes", OV_ANY}, {"defaultargs", OV_FLAG}, {"define", OV_ANY},
	{"destructive", OV_NUM}, {"droptags", OV_ANY}, {"dtypes", OV_ANY},
	{"dynvarsize", OV_SIZE}, {"empty", OV_FLAG}, {"errtags", OV_FLAG}, {"evaltime", OV_ANY},
	{"flowindent", OV_NUM}, {"grabanon", OV_NUM}, {"incdir", OV_ANY},
	{"jstackframes", OV_NUM}, {"jstackstrsize", OV_SIZE}, {"knodefs", OV_FLAG},
	{"late", OV_ANY}, {"lazyload", OV_ANY}, {"libdir", OV_ANY}, {"linkmode", OV_ANY},
	{"linktype", OV_ANY}, {"nolibs", OV_FLAG}, {"nspec", OV_NUM}, {"pgmax", OV_ANY},
	{"procfs", OV_ANY}, {"pspec", OV_FLAG}, {"quiet", OV_NUM}, {"rawbytes", OV_NUM},
	{"scratchsize", OV_SIZE}, {"specsize", OV_SIZE}, {"stackframes", OV_NUM},
	{"stackindent", OV_NUM}, {"statusrate", OV_RATE}, {"stdc", OV_ANY}, {"strip", OV_FLAG},
	{"strsize", OV_SIZE}, {"switchrate", OV_RATE}, {"syslibdir", OV_ANY}, {"temporal", OV_ANY},
	{"tree", OV_ANY}, {"tregs", OV_ANY}, {"udefs", OV_FLAG}, {"undef", OV_ANY},
	{"unodefs", OV_FLAG}, {"ustackframes", OV_NUM}, {"verbose", OV_FLAG}, {"version", OV_ANY},
	{"zdefs", OV_FLAG},
};

/* a number (0x.., 0..) and the rest of the text after it; false for a
 * negative one or no digits */
static bool leading_number(const char *v, unsigned long long *n, char **end)
{
	if (strtoll(v, NULL, 0) < 0 || *v == '-')
		return false;
	*n = strtoull(v, end, 0);
	return *end != v;
}

bool d_size_parse(const char *v, long long *bytes)
{
	unsigned long long n;
	char *end;
	if (!v || !*v || !leading_number(v, &n, &end))
		return false;
	static const char units[] = "kmgt";
	const char *u = *end ? strchr(units, end[0] | 0x20) : NULL;
	if (*end && (!u || end[1]))
		return false;
	for (int shift = u ? (int)(u - units) + 1 : 0; shift > 0; shift--)
		n <<= 10;
	*bytes = (long long)n;
	return true;
}

bool d_rate_parse(const char *v, long long *ns)
{
	static const struct {
		const char *unit;
		long long ns; /* 0: hz, a frequency */
	} units[] = {
		{"", 1}, {"ns", 1}, {"nsec", 1}, {"us", 1000}, {"usec", 1000},
		{"ms", 1000000}, {"msec", 1000000}, {"s", 1000000000LL}, {"sec", 1000000000LL},
		{"m", 60000000000LL}, {"min", 60000000000LL}, {"h", 3600000000000LL},
		{"hour", 3600000000000LL}, {"d", 86400000000000LL}, {"day", 86400000000000LL},
		{"hz", 0},
	};
	unsigned long long n;
	char *end;
	if (!v || !leading_number(v, &n, &end))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(units[i].unit, end))
			continue;
		if (!units[i].ns)
			*ns = n ? 1000000000LL / (long long)n : 0;
		else
			*ns = (long long)n * units[i].ns;
		return true;
	}
	return false;
}

/* yes/no and its kin, as libdtrace takes them for a run-time option */
static bool bool_word(const char *v, bool *on)
{
	static const char *const yes[] = {"yes", "enable", "enabled", "true", "on", "set"};
	static const char *const no[] = {"no", "disable", "disabled", "false", "off", "unset"};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(v, yes[i]) || !strcasecmp(v, no[i])) {
			*on = !strcasecmp(v, yes[i]);
			return true;
		}
	}
	return false;
}

bool d_option_off(const char *v)
{
	bool on = true;
	return v && (!*v || (bool_word(v, &on) && !on));
}

static bool value_ok(OptValue kind, const char *v)
{
	long long n;
	unsigned long long u;
	char *end;
	bool on;
	switch (kind) {
	case OV_FLAG: return v == NULL;
	case OV_SIZE: return !v || d_size_parse(v, &n);
	case OV_RATE: return !v || d_rate_parse(v, &n);
	case OV_NUM:
		return !v || !*v || bool_word(v, &on) || (leading_number(v, &u, &end) && !*end);
	case OV_ANY: return true;
	}
	return true;
}

/* the option's effect on what is compiled and printed */
static void apply_option(DEnv *env, const char *name, const char *v)
{
	Options *o = env->opt;
	bool off = d_option_off(v);
	long long n;
	if (!strcmp(name, "quiet"))
		env->quiet = o->d_quiet = !off;
	else if (!strcmp(name, "defaultargs"))
		env->defaultargs = true;
	else if (!strcmp(name, "zdefs"))
		env->zdefs = true;
	else if (!strcmp(name, "destructive"))
		o->unsafe = !off;
	else if (!strcmp(name, "strsize") && d_size_parse(v, &n) && n > 0 && n <= (1 << 20))
		o->strlen_max = (int)n + 1; /* strsize characters and the NUL, as dtrace-utils */
	else if (!off) /* aggsortkey, aggsortrev, ...: printing (map_print_d.c) */
		agg_opt_set(&o->agg, name, v);
}

bool d_option_set(DEnv *env, const char *opt, bool pragma, char *msg, size_t msglen)
{
	const char *eq = strchr(opt, '=');
	size_t n = eq ? (size_t)(eq - opt) : strlen(opt);
	const char *v = eq ? eq + 1 : NULL;
	const DOpt *d = NULL;
	for (size_t i = 0; i < sizeof(d_options) / sizeof(d_options[0]) && !d; i++)
		if (strlen(d_options[i].name) == n && !strncmp(d_options[i].name, opt, n))
			d = &d_options[i];
	const char *why = !d ? "Invalid option name"
			: !value_ok(d->value, v) ? "Invalid value for specified option" : NULL;
	if (why) { /* dtrace.c's and dt_pragma.c's wordings */
		if (!pragma)
			snprintf(msg, msglen, "failed to set -x %.*s: %s", (int)n, opt, why);
		else if (v)
			snprintf(msg, msglen, "failed to set option '%.*s' to '%s': %s", (int)n, opt, v,
				 why);
		else
			snprintf(msg, msglen, "failed to set option '%.*s': %s", (int)n, opt, why);
		return false;
	}
	Options *o = env->opt;
	o->d_opts = realloc(o->d_opts, sizeof(char *) * (size_t)(o->nd_opts + 1));
	o->d_opts[o->nd_opts++] = xstrdup(opt);
	apply_option(env, d->name, v);
	return true;
}

long long d_option_rate(const Options *o, const char *name, long long dflt)
{
	long long ns;
	const char *v = options_d_get(o, name);
	return v && *v && d_rate_parse(v, &ns) && ns > 0 ? ns : dflt;
}

/* `#pragma D option defaultargs` acts on the $N after it, which are
 * replaced before the pragmas are parsed: looked for first */
void d_options_prescan(DEnv *env, const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char w[4][32];
		if (sscanf(l, " # pragma %31s %31s %31[a-z]%1[\n]", w[0], w[1], w[2], w[3]) == 4 &&
		    !strcmp(w[0], "D") && !strcmp(w[1], "option") && !strcmp(w[2], "defaultargs"))
			env->defaultargs = true;
	}
}

void d_option_bufsize(const Options *o, RunOpts *run)
{
	long long bytes;
	const char *v = options_d_get(o, "bufsize");
	if (!v || !d_size_parse(v, &bytes) || bytes <= 0)
		return;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), pages = 1;
	while (pages * page < (uint64_t)bytes)
		pages <<= 1;
	while (pages > 1 && !loader_ringbuf_size(pages)) /* as bufresize=auto: what fits */
		pages >>= 1;
	run->rb_pages = pages;
	run->rb_pages_set = true;
}
