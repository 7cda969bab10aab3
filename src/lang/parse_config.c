/* bpftrace 0.26's config block, `config = { key = value; ... }`, before the
 * probes (ParseOpts.config_block): each assignment into Program.config as
 * written; the front end knows the variables and checks them (bt/config_bt.c).
 * A value is an integer, a string or a bare word (`stack_mode = raw`). */
#include <string.h>

#include "parse_config.h"
#include "parser_int.h"

/* `config` then '=' (not '=='), at the lexer's position */
bool at_config(Parser *ps)
{
	const Lexer *lx = &ps->lx;
	if (!lx->opts->config_block || strncmp(lx->text + lx->pos, "config", 6))
		return false;
	size_t i = lx->pos + 6;
	while (lx->text[i] == ' ' || lx->text[i] == '\t' || lx->text[i] == '\n')
		i++;
	return lx->text[i] == '=' && lx->text[i + 1] != '=';
}


/* the span from a's start to b's end, on a's line */
static Loc span(Loc a, Loc b)
{
	if (b.line == a.line && b.col + b.len > a.col)
		a.len = b.col + b.len - a.col;
	return a;
}

/* key = value, the lexer past the key (t) */
static bool parse_entry(Lexer *lx, Program *prog, const Token *key, Token *t, Error *err)
{
	if (!lex_next(lx, t))
		return false;
	if (t->kind != T_ASSIGN || t->op != OP_NONE)
		return ps_tok_unexpected(t, err, "=");
	if (!lex_next(lx, t))
		return false;
	ConfigEntry e = {.key = arena_strndup(&prog->arena, key->text, (size_t)key->len)};
	if (t->kind == T_INT) {
		e.kind = CONFIG_INT;
		e.num = t->ival;
	} else if (t->kind == T_STR || t->kind == T_IDENT) {
		e.kind = t->kind == T_STR ? CONFIG_STR : CONFIG_WORD;
		e.str = t->kind == T_STR ? t->sval : arena_strndup(&prog->arena, t->text, (size_t)t->len);
	} else {
		return ps_tok_unexpected(t, err, "integer, string or identifier");
	}
	e.loc = span(key->loc, t->loc);
	prog->config = arena_grow(&prog->arena, prog->config, prog->nconfig, sizeof(ConfigEntry));
	prog->config[prog->nconfig++] = e;
	return lex_next(lx, t);
}

bool parse_config(Parser *ps, StrBuf *cdefs)
{
	(void)cdefs;
	Lexer *lx = &ps->lx;
	Program *prog = ps->prog;
	Error *err = ps->err;
	Token t;
	Loc at = lex_loc(lx, 6);
	if (prog->nprobes)
		return error_at(err, at, "the config block must come before the probes");
	if (prog->config)
		return error_at(err, at, "only one config block is allowed");
	lex_advance(lx, 6);
	if (!lex_next(lx, &t) || !lex_next(lx, &t)) /* '=' then '{' */
		return false;
	if (t.kind != T_LBRACE)
		return ps_tok_unexpected(&t, err, "{");
	if (!lex_next(lx, &t))
		return false;
	while (t.kind == T_IDENT) {
		Token key = t;
		if (!parse_entry(lx, prog, &key, &t, err))
			return false;
		if (t.kind == T_SEMI) {
			if (!lex_next(lx, &t))
				return false;
		} else if (t.kind != T_RBRACE) {
			return ps_tok_unexpected(&t, err, "; or }");
		}
	}
	if (t.kind != T_RBRACE)
		return ps_tok_unexpected(&t, err, "}");
	if (!prog->config) /* `config = {}`: a block, empty */
		prog->config = arena_alloc(&prog->arena, sizeof(ConfigEntry));
	return true;
}
