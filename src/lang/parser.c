/* The bpftrace language's parser: the program's top-level items and the
 * entry points.  Recursive descent over parser_int.h's Parser, one file per
 * part of the grammar: parse_tok.c (tokens, errors, allocation),
 * parse_type.c, parse_primary.c, parse_expr.c, parse_stmt.c,
 * parse_loop.c, parse_record.c, parse_probe.c, and parse_d.c (D's entry
 * points).  Every parse function returns NULL/false with the error
 * recorded on failure; nothing needs unwinding because all allocations
 * live in the Program's arena. */
#include "macro_expand.h"
#include "parse_config.h"
#include "parse_import.h"
#include "parse_macro.h"
#include "parse_mapdecl.h"
#include "parser_int.h"

/* C definitions (struct, #include, #define...) before the first probe */
static bool at_c_def(Parser *ps)
{
	return lex_at_c_def(&ps->lx);
}

static bool parse_c_def(Parser *ps, StrBuf *cdefs)
{
	Lexer *lx = &ps->lx;
	if (ps->prog->nprobes)
		return error_at(ps->err, lex_loc(lx, 1), "C definitions must come before the first probe");
	if (ps->file && !ps->had_c_def)
		import_note_c_defs(ps, lex_loc(lx, 1));
	else if (!ps->file && !cdefs->len)
		ps->prog->c_defs_loc = lex_loc(lx, 1);
	return lex_c_def(lx, cdefs);
}

/* The top-level items other than probes, each recognized at its first
 * character (the lexer in raw mode, past the space); a new kind of item
 * (a config block...) is a row here and its own file.  preamble: it may
 * come before a file's imports (probes and the other items may not). */
static const struct {
	bool (*at)(Parser *ps);
	bool (*parse)(Parser *ps, StrBuf *cdefs);
	bool preamble;
} top_items[] = {
	{ at_c_def, parse_c_def, true },
	{ at_config, parse_config, true }, /* parse_config.c */
	{ at_import, parse_import, true }, /* parse_import.c */
	{ at_map_decl, parse_map_decl, false }, /* parse_mapdecl.c */
	{ at_macro, parse_macro, false }, /* parse_macro.c */
};

/* the first top-level item other than a probe that starts here, or -1 */
static int top_item_at(Parser *ps)
{
	for (size_t i = 0; i < sizeof(top_items) / sizeof(*top_items); i++)
		if (top_items[i].at(ps))
			return (int)i;
	return -1;
}

bool ps_top(Parser *ps, StrBuf *cdefs)
{
	Lexer *lx = &ps->lx;
	for (;;) {
		if (!lex_skip_space(lx))
			return false;
		if (!lex_peek(lx, 0))
			break;
		int item = top_item_at(ps);
		if (item >= 0 ? !top_items[item].parse(ps, cdefs) : !ps_probe(ps))
			return false;
		ps->past_preamble |= item < 0 || !top_items[item].preamble;
	}
	if (!ps->prog->nprobes && !ps->file)
		return error_at(ps->err, lex_loc(lx, 1),
				"expected an attach point (e.g. tracepoint:sched:sched_switch)");
	return true;
}

Program *parse_program_with(const Source *src, Error *err, ParseTopFn top, void *arg)
{
	Program *p = xcalloc(1, sizeof(*p));
	p->src = *src;
	Lexer lx;
	lexer_init(&lx, src->text, &p->arena, err);
	StrBuf cdefs = { 0 };
	bool ok = top(&lx, p, &cdefs, err, arg);
	if (ok && cdefs.len)
		p->c_defs = arena_strndup(&p->arena, cdefs.s, cdefs.len);
	sb_free(&cdefs);
	if (!ok) {
		program_free(p);
		return NULL;
	}
	return p;
}

/* arg: the language's rules (ParseOpts) */
static bool bpftrace_top(Lexer *lx, Program *p, StrBuf *cdefs, Error *err, void *arg)
{
	Parser ps = { .lx = *lx, .prog = p, .err = err };
	ps.lx.opts = arg;
	return ps_top(&ps, cdefs) && macro_expand(p, arg, err);
}

Program *parse_program_opts(const Source *src, const ParseOpts *opts, Error *err)
{
	return parse_program_with(src, err, bpftrace_top, (void *)(opts ? opts : &parse_opts_017));
}

Program *parse_program(const Source *src, Error *err)
{
	return parse_program_opts(src, NULL, err);
}

