/* bpftrace 0.26's map declarations, `let @name = KIND(MAX_ENTRIES);` before
 * the probes (ParseOpts.map_decls): each into Program.map_decls as written;
 * sema checks the kind and applies it to the map (compile/sema_mapdecl.c). */
#include <string.h>

#include "parse_mapdecl.h"
#include "parser_int.h"

/* `let` then '@', at the lexer's position */
bool at_map_decl(Parser *ps)
{
	const Lexer *lx = &ps->lx;
	if (!lx->opts->map_decls || strncmp(lx->text + lx->pos, "let", 3))
		return false;
	size_t i = lx->pos + 3;
	while (lx->text[i] == ' ' || lx->text[i] == '\t' || lx->text[i] == '\n')
		i++;
	return i > lx->pos + 3 && lx->text[i] == '@';
}


/* the next token, which must be of kind k */
static bool next_is(Lexer *lx, Token *t, TokKind k, const char *want, Error *err)
{
	if (!lex_next(lx, t))
		return false;
	return t->kind == k || ps_tok_unexpected(t, err, want);
}

bool parse_map_decl(Parser *ps, StrBuf *cdefs)
{
	(void)cdefs;
	Lexer *lx = &ps->lx;
	Program *prog = ps->prog;
	Error *err = ps->err;
	Token t;
	MapDecl d = {.loc = lex_loc(lx, 3)};
	if (prog->nprobes)
		return error_at(err, d.loc, "map declarations must come before the probes");
	lex_advance(lx, 3);
	if (!next_is(lx, &t, T_MAP, "map", err))
		return false;
	d.name = arena_strndup(&prog->arena, t.text + 1, (size_t)t.len - 1);
	if (!next_is(lx, &t, T_ASSIGN, "=", err))
		return false;
	if (t.op != OP_NONE)
		return ps_tok_unexpected(&t, err, "=");
	if (!next_is(lx, &t, T_IDENT, "map type (hash, lruhash, percpuhash, percpulruhash)", err))
		return false;
	d.kind = arena_strndup(&prog->arena, t.text, (size_t)t.len);
	d.kind_loc = t.loc;
	if (!next_is(lx, &t, T_LPAREN, "(", err) ||
	    !next_is(lx, &t, T_INT, "integer (the map's max entries)", err))
		return false;
	d.max_entries = t.ival;
	if (!next_is(lx, &t, T_RPAREN, ")", err) || !next_is(lx, &t, T_SEMI, ";", err))
		return false;
	if (t.loc.line == d.loc.line)
		d.loc.len = t.loc.col + t.loc.len - d.loc.col;
	prog->map_decls = arena_grow(&prog->arena, prog->map_decls, prog->nmap_decls,
				     sizeof(MapDecl));
	prog->map_decls[prog->nmap_decls++] = d;
	return true;
}
