/* Probe point syntax, as perf probe parses it:
 *   FUNC[@SRC][:RLN|+OFF|%return|;PTN]   SRC:ALN   SRC;PTN
 * A name is a file when it has no "+@%", has ':' or ';', and a '.' before
 * them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "probe_find.h"

void probe_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void semantic_error(const char *fmt, ...)
{
	va_list ap;
	fputs("Semantic error :", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static int parse_part(ProbePoint *pp, char c, const char *arg)
{
	char *end;
	switch (c) {
	case ':':
		pp->line = (int)strtoul(arg, &end, 0);
		if (*end) {
			semantic_error("There is non-digit char in line number.\n");
			return -EINVAL;
		}
		return 0;
	case '+':
		pp->offset = strtoul(arg, &end, 0);
		if (*end) {
			semantic_error("There is non-digit character in offset.\n");
			return -EINVAL;
		}
		return 0;
	case '@':
		if (pp->file) {
			semantic_error("SRC@SRC is not allowed.\n");
			return -EINVAL;
		}
		pp->file = xstrdup(arg);
		return 0;
	default: /* '%' */
		if (strcmp(arg, "return")) {
			semantic_error("%%%s is not supported.\n", arg);
			return -ENOTSUP;
		}
		pp->retprobe = true;
		return 0;
	}
}

static int check_exclusions(const ProbePoint *pp)
{
	const char *why = NULL;
	if (pp->lazy && pp->line)
		why = "Lazy pattern can't be used with line number.\n";
	else if (pp->lazy && pp->offset)
		why = "Lazy pattern can't be used with offset.\n";
	else if (pp->line && pp->offset)
		why = "Offset can't be used with line number.\n";
	else if (!pp->line && !pp->lazy && pp->file && !pp->function)
		why = "File always requires line number or lazy pattern.\n";
	else if (pp->offset && !pp->function)
		why = "Offset requires an entry function.\n";
	else if ((pp->offset || pp->line || pp->lazy) && pp->retprobe)
		why = "Offset/Line/Lazy pattern can't be used with return probe.\n";
	if (!why)
		return 0;
	semantic_error("%s", why);
	return -EINVAL;
}

int probe_point_parse(const char *text, ProbePoint *pp)
{
	char *s = xstrdup(text), *arg = s;
	bool file_spec = false;
	int r = 0;
	memset(pp, 0, sizeof(*pp));
	if (!strpbrk(arg, "+@%")) {
		char *p = strpbrk(arg, ";:");
		file_spec = p && memchr(arg, '.', (size_t)(p - arg));
	}
	char *p = strpbrk(arg, ";:+@%"), nc = 0;
	if (p) {
		nc = *p;
		*p++ = '\0';
	}
	if (*arg) {
		if (file_spec)
			pp->file = xstrdup(arg);
		else
			pp->function = xstrdup(arg);
	}
	while (p && r == 0) {
		char c = nc;
		arg = p;
		if (c == ';') { /* the lazy pattern is the last part */
			pp->lazy = xstrdup(arg);
			break;
		}
		if ((p = strpbrk(arg, ";:+@%"))) {
			nc = *p;
			*p++ = '\0';
		}
		r = parse_part(pp, c, arg);
	}
	free(s);
	return r ? r : check_exclusions(pp);
}

char *probe_point_text(const ProbePoint *pp)
{
	StrBuf b = {0};
	sb_puts(&b, "");
	if (pp->function) {
		sb_puts(&b, pp->function);
		if (pp->offset)
			sb_printf(&b, "+%lu", pp->offset);
		else if (pp->line)
			sb_printf(&b, ":%d", pp->line);
		else if (pp->retprobe)
			sb_puts(&b, "%return");
	}
	if (pp->file) {
		const char *f = pp->file;
		size_t n = strlen(f);
		if (n > 30) { /* perf keeps the last 30 characters, from a '/' */
			const char *sl = strchr(f + n - 30, '/');
			f = sl ? sl + 1 : f + n - 30;
		}
		sb_printf(&b, "@%s", f);
		if (!pp->function && pp->line)
			sb_printf(&b, ":%d", pp->line);
	}
	return b.s;
}
