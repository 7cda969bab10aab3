/* D programs, top level: `#pragma D option`, C declarations (struct,
 * union, enum, typedef and preprocessor lines, handed to sonde's C
 * definitions), and clauses: probe descriptions, then an optional
 * /predicate/ and { actions } parsed by the shared grammar (parser.c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lang/lexer.h"
#include "dtrace.h"

typedef struct DParser {
	Lexer lx;
	Program *prog;
	DEnv *env;
	Error *err;
	int nmatched;
} DParser;

/* the rest of the current line (without the newline), the lexer past it */
static char *take_line(DParser *dp)
{
	Lexer *lx = &dp->lx;
	size_t p0 = lx->pos;
	while (lex_peek(lx, 0) && lex_peek(lx, 0) != '\n')
		lex_advance(lx, 1);
	return arena_strndup(&dp->prog->arena, lx->text + p0, lx->pos - p0);
}

/* #pragma D option NAME[=VALUE]; other pragmas (D attributes, binding,
 * depends_on) change nothing sonde does */
static bool parse_pragma(DParser *dp, const char *line, Loc loc)
{
	char word[4][128] = { "" };
	int n = sscanf(line, "#%*[ \t]pragma %127s %127s %127s %127s", word[0], word[1], word[2], word[3]);
	if (n <= 0)
		n = sscanf(line, "#pragma %127s %127s %127s %127s", word[0], word[1], word[2], word[3]);
	if (n < 3 || strcmp(word[0], "D") || strcmp(word[1], "option"))
		return true;
	char msg[256];
	if (!d_option_set(dp->env, word[2], msg, sizeof(msg)))
		return error_at(dp->err, loc, "%s", msg);
	return true;
}

/* A '#' line: #! (first line), #pragma, or preprocessor text for the C
 * definitions. */
static bool parse_hash_line(DParser *dp, StrBuf *cdefs)
{
	Loc loc = lex_loc(&dp->lx, 1);
	const char *s = dp->lx.text + dp->lx.pos;
	if (s[1] == '!' && loc.line == 1) {
		take_line(dp);
		return true;
	}
	const char *w = s + 1 + strspn(s + 1, " \t");
	size_t wl = strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
	if (wl == 6 && !strncmp(w, "pragma", 6))
		return parse_pragma(dp, take_line(dp), loc);
	if (!wl || isdigit((unsigned char)*w) || (wl == 4 && !strncmp(w, "line", 4)) ||
	    (wl == 5 && !strncmp(w, "ident", 5))) {
		take_line(dp); /* a null directive, line markers and #ident change nothing here */
		return true;
	}
	if (!dp->env->cpp) /* without -C, dtrace knows only its own directives */
		return error_at(dp->err, loc, "invalid control directive: #%.*s", (int)wl, w);
	if (!cdefs->len)
		dp->prog->c_defs_loc = loc;
	return lex_c_def(&dp->lx, cdefs);
}

static bool desc_char(char c)
{
	return c && !isspace((unsigned char)c) && c != ',' && c != '/' && c != '{' && c != ';';
}

/* "write:entry" -> ":syscall::write:entry"-style 4-field text for messages */
static void desc_full(const char *d, char *out, size_t n)
{
	int colons = 0;
	for (const char *c = d; *c; c++)
		colons += *c == ':';
	snprintf(out, n, "%.*s%s", colons < 3 ? 3 - colons : 0, ":::", d);
}

typedef struct AddCtx {
	DParser *dp;
	Probe *pr;
	Loc loc;
} AddCtx;

static void add_ap(const DProbe *p, void *arg)
{
	AddCtx *c = arg;
	Arena *a = &c->dp->prog->arena;
	if (!p->attach)
		return;
	DProbeName *d = arena_alloc(a, sizeof(*d));
	d->prov = arena_strdup(a, p->n.prov);
	d->mod = arena_strdup(a, p->n.mod);
	d->func = arena_strdup(a, p->n.func);
	d->name = arena_strdup(a, p->n.name);
	d->id = p->n.id;
	for (int i = 0; i < 4; i++) { /* the probe's hook, then any other it has */
		const char *at = i ? p->also[i - 1] : p->attach;
		if (!at)
			continue;
		c->pr->aps = arena_grow(a, c->pr->aps, c->pr->naps, sizeof(*c->pr->aps));
		c->pr->aps[c->pr->naps++] = (AttachPoint){ arena_strdup(a, at), c->loc, d };
	}
}

static bool parse_desc(DParser *dp, Probe *pr)
{
	Lexer *lx = &dp->lx;
	size_t p0 = lx->pos;
	Loc loc = lex_loc(lx, 1);
	while (desc_char(lex_peek(lx, 0)))
		lex_advance(lx, 1);
	if (lx->pos == p0)
		return error_at(dp->err, loc, "syntax error near \"%c\"", lex_peek(lx, 0) ? lex_peek(lx, 0) : ' ');
	char *desc = arena_strndup(&dp->prog->arena, lx->text + p0, lx->pos - p0);
	loc.len = (int)(lx->pos - p0);
	char msg[300];
	AddCtx c = { dp, pr, loc };
	int n = d_probes_match(desc, dp->env, add_ap, &c, msg, sizeof(msg));
	if (n < 0)
		return error_at(dp->err, loc, "%s", msg);
	if (n == 0 && !dp->env->zdefs) {
		char full[300];
		desc_full(desc, full, sizeof(full));
		return error_at(dp->err, loc, "probe description %s does not match any probes", full);
	}
	dp->nmatched += n;
	return true;
}

static const DArgSig *ap_args(const AttachPoint *ap)
{
	return ap->d ? d_args_of(ap->d->prov, ap->d->name, ap->text) : NULL;
}

/* dtrace:::ERROR's clauses are programs of their own kind (codegen_fault_d.c) */
static bool is_error_ap(const AttachPoint *ap)
{
	return !strcmp(ap->text, "ERROR");
}

/* A clause whose probes have different args[] (or a hook that needs a
 * filter, like proc:::start's, or ERROR among others) is compiled once per
 * kind of probe: the probes unlike the first move to a copy of the clause,
 * parsed again from the text of its predicate and actions at body. */
static bool add_by_args(DParser *dp, Probe *pr, const Lexer *body)
{
	Arena *a = &dp->prog->arena;
	const DArgSig *first = ap_args(&pr->aps[0]);
	Probe *rest = NULL;
	int n = 0;
	bool first_error = is_error_ap(&pr->aps[0]);
	for (int i = 0; i < pr->naps; i++) {
		if (d_args_same(ap_args(&pr->aps[i]), first) &&
		    is_error_ap(&pr->aps[i]) == first_error) {
			pr->aps[n++] = pr->aps[i];
			continue;
		}
		if (!rest) {
			rest = arena_alloc(a, sizeof(*rest));
			rest->loc = pr->loc;
		}
		rest->aps = arena_grow(a, rest->aps, rest->naps, sizeof(*rest->aps));
		rest->aps[rest->naps++] = pr->aps[i];
	}
	pr->naps = n;
	program_add_probe(dp->prog, pr);
	if (!rest)
		return true;
	Lexer lx = *body;
	return parse_d_clause(&lx, dp->prog, rest, dp->err) && add_by_args(dp, rest, body);
}

static bool parse_clause(DParser *dp)
{
	Lexer *lx = &dp->lx;
	Probe *pr = arena_alloc(&dp->prog->arena, sizeof(*pr));
	pr->loc = lex_loc(lx, 1);
	for (;;) {
		if (!parse_desc(dp, pr) || !lex_skip_space(lx))
			return false;
		if (lex_peek(lx, 0) != ',')
			break;
		lex_advance(lx, 1);
		if (!lex_skip_space(lx))
			return false;
	}
	Lexer body = *lx;
	if (!parse_d_clause(lx, dp->prog, pr, dp->err))
		return false;
	if (!pr->naps) /* only probes sonde has nothing to attach for */
		return true;
	return add_by_args(dp, pr, &body);
}

static bool at_word(const Lexer *lx, const char *w)
{
	size_t n = strlen(w);
	if (strncmp(lx->text + lx->pos, w, n)) /* first: the text may end before pos + n */
		return false;
	char c = lx->text[lx->pos + n];
	return c == ' ' || c == '\t' || c == '\n';
}

/* inline TYPE NAME = EXPR; d_rewrite puts the expression where NAME is used */
static bool parse_inline(DParser *dp)
{
	DInlineDecl d;
	if (!parse_d_inline(&dp->lx, dp->prog, &d, dp->err))
		return false;
	DEnv *env = dp->env;
	for (int i = 0; i < env->ninlines; i++)
		if (!strcmp(env->inlines[i].name, d.name))
			return error_at(dp->err, d.name_loc, "identifier redeclared: %s", d.name);
	env->inlines = arena_grow(&dp->prog->arena, env->inlines, env->ninlines, sizeof(*env->inlines));
	env->inlines[env->ninlines++] = d;
	return true;
}

static bool parse_top(DParser *dp, StrBuf *cdefs)
{
	Lexer *lx = &dp->lx;
	for (;;) {
		if (!lex_skip_space(lx))
			return false;
		char c = lex_peek(lx, 0);
		if (!c)
			return true;
		if (c == ';') { /* an empty statement between clauses */
			lex_advance(lx, 1);
			continue;
		}
		if (c == '#') {
			if (!parse_hash_line(dp, cdefs))
				return false;
			continue;
		}
		if (at_word(lx, "inline")) {
			if (!parse_inline(dp))
				return false;
			continue;
		}
		if (lex_at_c_def(lx)) {
			if (!cdefs->len)
				dp->prog->c_defs_loc = lex_loc(lx, 1);
			if (!lex_c_def(lx, cdefs))
				return false;
			continue;
		}
		if (!parse_clause(dp))
			return false;
	}
}

static bool d_top(Lexer *lx, Program *p, StrBuf *cdefs, Error *err, void *arg)
{
	DParser *dp = arg;
	dp->lx = *lx;
	dp->lx.d = true;
	dp->prog = p;
	dp->err = err;
	return parse_top(dp, cdefs);
}

Program *d_parse(const Source *src, DEnv *env, int *nmatched, Error *err)
{
	DParser dp = { .env = env };
	Program *p = parse_program_with(src, err, d_top, &dp);
	*nmatched = dp.nmatched;
	return p;
}
