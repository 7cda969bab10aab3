#include "diag.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int source_files_add(SourceFiles *f, const char *name, char *text)
{
	f->v = xrealloc(f->v, sizeof(*f->v) * (size_t)(f->n + 1));
	f->v[f->n] = (SourceFile){xstrdup(name), text};
	return ++f->n;
}

int source_files_add_exp(SourceFiles *f, Loc call)
{
	f->exps = xrealloc(f->exps, sizeof(*f->exps) * (size_t)(f->nexps + 1));
	f->exps[f->nexps] = call;
	return ++f->nexps;
}

void source_files_free(SourceFiles *f)
{
	for (int i = 0; f && i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].text);
	}
	if (f) {
		free(f->v);
		free(f->exps);
	}
}

Source source_at(const Source *src, Loc loc)
{
	if (!src || loc.file <= 0)
		return src ? *src : (Source){0};
	if (!src->files || loc.file > src->files->n)
		return (Source){0};
	const SourceFile *f = &src->files->v[loc.file - 1];
	return (Source){f->name, f->text, src->files};
}

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

static const char *nth_line(const char *text, int line)
{
	const char *p = text;
	for (int l = 1; l < line && p; l++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return p;
}

/* bpftrace shows a tab of the source line as 4 spaces (and pads the
 * underline to match), so the caret lines up in any terminal. */
static void put_expanded(FILE *out, const char *ls, int n)
{
	for (int i = 0; i < n; i++) {
		if (ls[i] == '\t')
			fputs("    ", out);
		else
			fputc(ls[i], out);
	}
}

/* The source line, then '^' under the culprit and '~' along the rest; from
 * bpftrace's start of the location (hcol) to the culprit, '~' too. */
static void put_source_caret(FILE *out, const char *ls, Loc loc)
{
	int len = loc.len > 0 ? loc.len : 1;
	int n = (int)strcspn(ls, "\n");
	int from = loc.hcol > 0 && loc.hcol < loc.col ? loc.hcol : loc.col;
	put_expanded(out, ls, n);
	fputc('\n', out);
	for (int i = 0; i < from - 1 && i < n; i++)
		fputs(ls[i] == '\t' ? "    " : " ", out);
	for (int i = from - 1; i < loc.col - 1 && i < n; i++)
		fputs(ls[i] == '\t' ? "~~~~" : "~", out);
	fputc('^', out);
	for (int i = 1; i < len && loc.col - 1 + i < n; i++)
		fputc('~', out);
	fputc('\n', out);
}

static void diag_print_kind(FILE *out, const Source *whole, const Error *e, const char *kind);

/* the macro calls loc was expanded from, innermost first (bounded: a
 * chain only points at earlier calls, the bound guards a bad index) */
static void print_expansions(FILE *out, const Source *src, Loc loc, const char *kind)
{
	const SourceFiles *f = src ? src->files : NULL;
	for (int n = 0; f && loc.exp > 0 && loc.exp <= f->nexps && n < f->nexps; n++) {
		Error from = {.set = true, .loc = f->exps[loc.exp - 1], .msg = "expanded from"};
		from.loc.exp = 0;
		diag_print_kind(out, src, &from, kind);
		loc = f->exps[loc.exp - 1];
	}
}

/* As bpftrace 0.17: "NAME:LINE:COL-END: ERROR: MSG" (END = one past the
 * culprit), the source line, then sonde's caret under the culprit; with no
 * location, "ERROR: MSG".  KIND is "ERROR" or "WARNING".  The lines of
 * MSG after its first (hints) come after the caret. */
static void diag_print_kind(FILE *out, const Source *whole, const Error *e, const char *kind)
{
	Source file = source_at(whole, e->loc);
	const Source *src = file.text ? &file : NULL;
	int head = (int)strcspn(e->msg, "\n");
	const char *hints = e->msg[head] ? e->msg + head + 1 : NULL;
	const char *ls = src && src->text && e->loc.line ? nth_line(src->text, e->loc.line) : NULL;
	if (e->plain)
		fprintf(out, "%.*s\n", head, e->msg);
	else if (!e->loc.line || !src || !src->text)
		fprintf(out, "%s: %.*s\n", kind, head, e->msg);
	else
		fprintf(out, "%s:%d:%d-%d: %s: %.*s\n", src->name, e->loc.line,
			e->loc.hcol ? e->loc.hcol : e->loc.col,
			e->loc.col + (e->loc.bare ? 0 : e->loc.len > 0 ? e->loc.len : 1), kind, head,
			e->msg);
	if (ls && !e->plain && e->loc.bare) {
		put_expanded(out, ls, (int)strcspn(ls, "\n"));
		fputs("\n\n", out);
	} else if (ls && !e->plain) {
		put_source_caret(out, ls, e->loc);
	}
	print_expansions(out, whole, e->loc, kind);
	if (hints)
		fprintf(out, "%s\n", hints);
}

void diag_print_opt(FILE *out, const Source *src, const Error *e, bool no_warnings)
{
	for (; e; e = e->next)
		if (!e->warning || !no_warnings)
			diag_print_kind(out, src, e, e->warning ? "WARNING" : "ERROR");
}

void diag_print(FILE *out, const Source *src, const Error *e)
{
	diag_print_opt(out, src, e, false);
}

void error_keep_first_tier(Error *e)
{
	if (!e->set)
		return;
	int tier = e->tier;
	for (const Error *x = e->next; x; x = x->next)
		tier = x->tier < tier ? x->tier : tier;
	Error *kept = NULL, **tail = &kept;
	for (Error *x = e; x; x = x->next)
		if (x->tier == tier && !(tier == ERR_TIER_PRE && kept)) {
			*tail = x;
			tail = &x->next;
		}
	*tail = NULL;
	if (kept != e) { /* the head is a value: the first kept takes its place */
		Error *rest = kept->next;
		*e = *kept;
		e->next = rest;
	}
}

void diag_print_warning(FILE *out, const Source *src, const Error *e)
{
	diag_print_kind(out, src, e, "WARNING");
}

/* the call's text, from its name to its closing parenthesis (string
 * literals skipped), where src has it on the call's line; else its name */
Loc loc_call_span(const Source *src, Loc loc)
{
	const char *p = source_at(src, loc).text;
	for (int line = 1; p && *p && line < loc.line; p++)
		line += *p == '\n';
	if (!p || (int)strlen(p) < loc.col)
		return loc;
	const char *start = p + loc.col - 1, *q = start;
	int depth = 0;
	for (; *q && *q != '\n'; q++) {
		if (*q == '"')
			for (q++; *q && *q != '"' && *q != '\n'; q++)
				q += q[0] == '\\' && q[1];
		depth += *q == '(';
		if (*q == ')' && --depth == 0) {
			loc.len = (int)(q - start) + 1;
			break;
		}
	}
	return loc;
}
