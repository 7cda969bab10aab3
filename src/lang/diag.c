#include "diag.h"

#include <string.h>

bool error_vat(Error *e, Loc loc, const char *fmt, va_list ap)
{
	if (e->set)
		return false;
	e->set = true;
	e->loc = loc;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	return false;
}

bool error_at(Error *e, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	error_vat(e, loc, fmt, ap);
	va_end(ap);
	return false;
}

static const char *line_start(const char *text, int line)
{
	const char *p = text;
	for (int l = 1; l < line && p; l++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return p;
}

static void diag_print_kind(FILE *out, const Source *src, const Error *e, const char *kind)
{
	if (!e->loc.line || !src || !src->text) {
		fprintf(out, "%s: %s: %s\n", src && src->name ? src->name : "sonde", kind, e->msg);
		return;
	}
	fprintf(out, "%s:%d:%d: %s: %s\n", src->name, e->loc.line, e->loc.col, kind, e->msg);
	const char *ls = line_start(src->text, e->loc.line);
	if (!ls)
		return;
	size_t n = strcspn(ls, "\n");
	fprintf(out, "%.*s\n", (int)n, ls);
	/* Keep tabs in the padding so the caret lines up in a terminal. */
	for (int i = 0; i < e->loc.col - 1 && (size_t)i < n; i++)
		fputc(ls[i] == '\t' ? '\t' : ' ', out);
	fputc('^', out);
	for (int i = 1; i < e->loc.len && e->loc.col - 1 + i < (int)n; i++)
		fputc('~', out);
	fputc('\n', out);
}

void diag_print(FILE *out, const Source *src, const Error *e)
{
	diag_print_kind(out, src, e, "error");
}

void diag_print_warning(FILE *out, const Source *src, const Error *e)
{
	diag_print_kind(out, src, e, "warning");
}
