/* A probe: its attach points (scanned raw by the lexer), an optional
 * /predicate/ and the body. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "parser_int.h"

/* ParseOpts.lowercase_begin_end: a provider's name in any case is the
 * provider (`Tracepoint:` is `tracepoint:`), and `begin`/`end` in any case
 * are the special probes BEGIN and END */
static void fold_provider(char *ap)
{
	if (!strcasecmp(ap, "begin") || !strcasecmp(ap, "end")) {
		for (char *c = ap; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		return;
	}
	char *colon = strchr(ap, ':');
	for (char *c = ap; colon && c < colon; c++)
		*c = (char)tolower((unsigned char)*c);
}

/* ParseOpts.named_probes: `NAME=` before the provider (an identifier,
 * then '=') is the attach point's name, taken off its text and place */
static char *take_name(Parser *ps, Token *t)
{
	const char *s = t->sval;
	int n = 0;
	if (!isalpha((unsigned char)s[0]) && s[0] != '_')
		return NULL;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	if (s[n] != '=' || !s[n + 1])
		return NULL;
	t->sval += n + 1;
	t->slen -= (size_t)n + 1;
	t->loc.col += n + 1;
	t->loc.len -= n + 1;
	t->loc.hcol = 0;
	return arena_strndup(&ps->prog->arena, s, (size_t)n);
}

static bool parse_attach_points(Parser *ps, Probe *pr)
{
	Lexer *lx = &ps->lx;
	for (;;) {
		Token t;
		if (!lex_attach_point(lx, &t))
			return false;
		char *name = lx->opts->named_probes ? take_name(ps, &t) : NULL;
		if (lx->opts->lowercase_begin_end)
			fold_provider(t.sval);
		pr->aps = arena_grow(&ps->prog->arena, pr->aps, pr->naps, sizeof(*pr->aps));
		pr->aps[pr->naps++] = (AttachPoint){ t.sval, t.loc, .name = name };
		if (!lex_skip_space(lx))
			return false;
		if (lex_peek(lx, 0) != ',')
			return true;
		lex_advance(lx, 1);
		if (!lex_skip_space(lx))
			return false;
	}
}

/* The lexer is at the opening '/'; leaves the token after the closing one. */
bool ps_predicate(Parser *ps, Probe *pr)
{
	Loc open = lex_loc(&ps->lx, 1);
	lex_advance(&ps->lx, 1);
	if (!ps_advance(ps))
		return false;
	if (ps->tok.kind == T_SLASH)
		return error_at(ps->err, open, "empty predicate");
	ps->pred_slash = true;
	pr->pred = ps_expr(ps);
	ps->pred_slash = false;
	if (!pr->pred)
		return false;
	return ps_expect(ps, T_SLASH, "'/' to end the predicate");
}

/* The body's closing '}' is left unconsumed-by-lookahead: the next probe
 * header must be scanned in attach-point mode, not as a token. */
bool ps_probe(Parser *ps)
{
	Probe *pr = arena_alloc(&ps->prog->arena, sizeof(*pr));
	if (!parse_attach_points(ps, pr))
		return false;
	pr->loc = pr->aps[0].loc;
	if (lex_peek(&ps->lx, 0) == '/') {
		if (!ps_predicate(ps, pr))
			return false;
	} else if (!ps_advance(ps)) {
		return false;
	}
	if (ps->tok.kind != T_LBRACE)
		return error_at(ps->err, ps->tok.loc, "expected '{' to start the probe body");
	Loc open = ps->tok.loc;
	if (!ps_advance(ps) || !ps_stmts(ps, &pr->body, open))
		return false;
	program_add_probe(ps->prog, pr);
	return true;
}
