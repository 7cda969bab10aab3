/* D programs, top level: `#pragma D option`, C declarations (struct,
 * union, enum, typedef and preprocessor lines, handed to sonde's C
 * definitions), and clauses: probe descriptions, then an optional
 * /predicate/ and { actions } parsed by the shared grammar (parser.c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compile/builtin.h"
#include "../lang/lexer.h"
#include "dtrace.h"

typedef struct DParser {
	Lexer lx;
	Program *prog;
	DEnv *env;
	Error *err;
	int nmatched;
	int cline, ccol; /* where the C declarations' text (cdefs) ends */
} DParser;

static bool at_word(const Lexer *lx, const char *w);

/* A definition that ended at its '}' (no ';'): another type after it is
 * part of the same declaration to dtrace's grammar (`struct a {...}
 * struct b {...};`), two types in one: refused as dt_decl.c does.  def:
 * the definition's text. */
static bool d_combo_ok(DParser *dp, const char *def)
{
	Lexer *lx = &dp->lx;
	bool tagged = !strncmp(def, "struct", 6) || !strncmp(def, "union", 5) || !strncmp(def, "enum", 4);
	if (!tagged || !lx->pos || lx->text[lx->pos - 1] != '}')
		return true; /* a function's body (a header's static inline) ends at its '}' too */
	Lexer at = *lx;
	if (!lex_skip_space(&at))
		return false;
	if (at_word(&at, "struct") || at_word(&at, "union") || at_word(&at, "enum"))
		return error_at(dp->err, lex_loc(&at, 1), "invalid type combination");
	return true;
}

/* The C declaration at the lexer into cdefs at the line and column it has
 * in the program, so that the C parser's messages name its place (a
 * header's line, through cpp's line map, under -C). */
static bool c_decl(DParser *dp, StrBuf *cdefs)
{
	Loc at = lex_loc(&dp->lx, 1);
	if (!cdefs->len)
		dp->prog->c_defs_loc = at;
	for (; dp->cline < at.line; dp->cline++, dp->ccol = 1)
		sb_putc(cdefs, '\n');
	for (; dp->ccol < at.col; dp->ccol++)
		sb_putc(cdefs, ' ');
	size_t from = cdefs->len;
	if (!lex_c_def(&dp->lx, cdefs) || !d_combo_ok(dp, cdefs->s + from))
		return false;
	cdefs->len--; /* lex_c_def's newline: the next declaration may share the line */
	for (size_t i = from; i < cdefs->len; i++) {
		bool nl = cdefs->s[i] == '\n';
		dp->cline += nl;
		dp->ccol = nl ? 1 : dp->ccol + 1;
	}
	sb_putc(cdefs, ' ');
	dp->ccol++;
	return true;
}

static size_t word_at(const char *s);
static const char *skip_blanks(const char *s);

/* A C declaration that starts with no type (a header's `extern int x;`,
 * `static inline` function, `__extension__ typedef ...`, _Static_assert). */
static bool at_c_decl_word(const Lexer *lx)
{
	static const char *const words[] = {
		"extern", "static", "register", "auto", "__inline", "__inline__", "__extension__",
		"_Static_assert", "_Noreturn",
	};
	const char *s = lx->text + lx->pos;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i]);
		if (!strncmp(s, words[i], n) && !isalnum((unsigned char)s[n]) && s[n] != '_')
			return true;
	}
	/* `int;`: C's useless declaration (dtrace's D_DECL_USELESS) */
	static const char *const types[] = { "char", "short", "int", "long", "signed", "unsigned", "void" };
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		size_t n = strlen(types[i]);
		if (!strncmp(s, types[i], n) && !isalnum((unsigned char)s[n]) && s[n] != '_' &&
		    *skip_blanks(s + n) == ';')
			return true;
	}
	/* a prototype without extern (glibc's getentropy): words, then '(';
	 * no clause has two words before a '(' */
	int nwords = 0;
	for (;;) {
		s = skip_blanks(s);
		size_t n = word_at(s);
		if (n)
			nwords++;
		else if (*s != '*')
			break;
		s += n ? n : 1;
	}
	return nwords >= 2 && *s == '(';
}

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
	if (!d_option_set(dp->env, word[2], true, msg, sizeof(msg)))
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
	if (!strchr(s, '\n') && !dp->env->cpp) /* dt_lex.l ends a control line at its newline */
		return error_at(dp->err, loc, "end-of-file encountered before end of control line");
	if (wl == 6 && !strncmp(w, "pragma", 6))
		return parse_pragma(dp, take_line(dp), loc);
	if (!wl || isdigit((unsigned char)*w) || (wl == 4 && !strncmp(w, "line", 4)) ||
	    (wl == 5 && !strncmp(w, "ident", 5))) {
		take_line(dp); /* a null directive, line markers and #ident change nothing here */
		return true;
	}
	if (!dp->env->cpp) /* without -C, dtrace knows only its own directives */
		return error_at(dp->err, loc, "invalid control directive: #%.*s", (int)wl, w);
	return c_decl(dp, cdefs);
}

static bool desc_char(char c)
{
	return c && !isspace((unsigned char)c) && c != ',' && c != '/' && c != '{' && c != ';';
}

/* what a probe description may start with (dt_lex.l's RGX_PSPEC): a stray
 * "}" or ")" at the top level is a syntax error, not a description */
static bool desc_start(char c)
{
	return c && (isalpha((unsigned char)c) || strchr("-$:_.?*\\[]!", c));
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
	int clause; /* dt_clause_N: this description's clause */
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
	int epid = ++c->dp->env->necbs; /* dtrace's enabling: a clause on a probe */
	for (int i = 0; i < 4; i++) { /* the probe's hook, then any other it has */
		const char *at = i ? p->also[i - 1] : p->attach;
		if (!at)
			continue;
		c->pr->aps = arena_grow(a, c->pr->aps, c->pr->naps, sizeof(*c->pr->aps));
		c->pr->aps[c->pr->naps++] = (AttachPoint){ arena_strdup(a, at), c->loc, d, epid,
								c->clause };
	}
}

static bool parse_desc(DParser *dp, Probe *pr)
{
	Lexer *lx = &dp->lx;
	size_t p0 = lx->pos;
	Loc loc = lex_loc(lx, 1);
	while (desc_start(lx->text[p0]) && desc_char(lex_peek(lx, 0)))
		lex_advance(lx, 1);
	if (lx->pos == p0)
		return error_at(dp->err, loc, "syntax error near \"%c\"", lex_peek(lx, 0) ? lex_peek(lx, 0) : ' ');
	char *desc = arena_strndup(&dp->prog->arena, lx->text + p0, lx->pos - p0);
	loc.len = (int)(lx->pos - p0);
	char msg[300];
	AddCtx c = { dp, pr, loc, dp->env->nclauses++ };
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

/* what a name an inline takes was already, in dtrace's words (its
 * dt_idkind_name): an inline or a D function; NULL: nothing */
static const char *defined_as(const DEnv *env, const char *name)
{
	for (int i = 0; i < env->ninlines; i++)
		if (!strcmp(env->inlines[i].name, name))
			return "scalar inline";
	const FuncDef *f = func_find_in(name, DIALECT_D, 0);
	if (!f)
		return NULL;
	return f->kind == FK_AGG ? "aggregating function " : f->kind == FK_STMT ? "action " : "function ";
}

/* inline TYPE NAME = EXPR; d_rewrite puts the expression where NAME is used */
static bool parse_inline(DParser *dp)
{
	DInlineDecl d;
	if (!parse_d_inline(&dp->lx, dp->prog, &d, dp->err))
		return false;
	DEnv *env = dp->env;
	const char *was = defined_as(env, d.name);
	if (was)
		return error_at(dp->err, d.name_loc, "identifier redefined: %s\n\t current: inline "
				"definition\n\tprevious: %s", d.name, was);
	env->inlines = arena_grow(&dp->prog->arena, env->inlines, env->ninlines, sizeof(*env->inlines));
	env->inlines[env->ninlines++] = d;
	return true;
}

/* a type's text as the D grammar spells it: words one space apart, then
 * " *", "**"... ("struct  foo*" -> "struct foo *") */
static char *type_text(Arena *a, const char *s, size_t n)
{
	StrBuf b = {0};
	int stars = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] == '*') {
			stars++;
			i++;
		} else if (isspace((unsigned char)s[i])) {
			i++;
		} else {
			size_t w = i;
			while (w < n && !isspace((unsigned char)s[w]) && s[w] != '*')
				w++;
			if (b.len)
				sb_putc(&b, ' ');
			sb_putn(&b, s + i, w - i);
			i = w;
		}
	}
	for (int i = 0; i < stars; i++)
		sb_puts(&b, i ? "*" : " *");
	char *t = arena_strndup(a, b.s ? b.s : "", b.len);
	sb_free(&b);
	return t;
}

/* `[N]` or `[]` ending a declaration at `end` (NAME[16]): where it starts
 * and the count in *dim (0 for `[]`), else end itself */
static const char *array_dim(const char *s, const char *end, long *dim)
{
	if (end == s || end[-1] != ']')
		return end;
	const char *o = memchr(s, '[', (size_t)(end - s));
	if (!o)
		return end;
	char *stop;
	*dim = o + 2 == end ? 0 : strtol(o + 1, &stop, 10);
	if (o + 2 != end && (stop != end - 1 || *dim <= 0 || *dim > 65536))
		return end;
	return o;
}

/* `extern TYPE NAME;` or `extern TYPE NAME[N];` (a variable: no function
 * or list): NAME's type for `NAME (d_ksym.c), as dtrace-utils takes a
 * kernel variable's type from such a declaration.  An array's type is
 * the typedef returned, to follow the declaration into the C definitions
 * (a cast names it: `x is *(__d_extern_x *)ADDR); `T x[]` is a T[256],
 * DTrace's default strsize, as the char arrays it is for (linux_banner)
 * are strings.  The lexer is left where it was: the declaration goes on to
 * the C definitions. */
static const char *note_extern(DParser *dp)
{
	const char *s = dp->lx.text + dp->lx.pos + strlen("extern");
	const char *end = strchr(s, ';');
	if (!end || strpbrk(s, "(,={") < end)
		return NULL;
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	long dim = -1;
	const char *n = array_dim(s, end, &dim);
	if (memchr(s, '[', (size_t)(n - s)) || (n == end && memchr(s, '[', (size_t)(end - s))))
		return NULL;
	while (n > s && isspace((unsigned char)n[-1]))
		n--;
	const char *name_end = n;
	while (n > s && (isalnum((unsigned char)n[-1]) || n[-1] == '_'))
		n--;
	if (n == name_end || isdigit((unsigned char)*n))
		return NULL;
	DEnv *env = dp->env;
	Arena *a = &dp->prog->arena;
	DExtern x = {arena_strndup(a, n, (size_t)(name_end - n)), type_text(a, s, (size_t)(n - s))};
	if (!x.type[0])
		return NULL;
	char *td = NULL;
	if (dim >= 0) {
		size_t len = strlen(x.type) + 2 * strlen(x.name) + 64;
		char *t = arena_alloc(a, len);
		td = arena_alloc(a, len);
		snprintf(t, len, "__d_extern_%s", x.name);
		snprintf(td, len, "typedef %s %s[%ld]; ", x.type, t, dim ? dim : 256);
		x.type = t;
	}
	env->externs = arena_grow(a, env->externs, env->nexterns, sizeof(*env->externs));
	env->externs[env->nexterns++] = x;
	return td;
}

/* the text up to `stop` (not past a ';' or '{'), the lexer after it */
static const char *take_until(DParser *dp, char stop, size_t *n, Loc *loc)
{
	Lexer *lx = &dp->lx;
	if (!lex_skip_space(lx))
		return NULL;
	*loc = lex_loc(lx, 1);
	const char *s = lx->text + lx->pos;
	size_t i = 0;
	while (s[i] && s[i] != stop && s[i] != ';' && s[i] != '{')
		i++;
	if (s[i] != stop) {
		error_at(dp->err, *loc, "syntax error: '%c' expected in a translator declaration", stop);
		return NULL;
	}
	*n = i;
	lex_advance(lx, i + 1);
	return s;
}

/* translator OUT < IN NAME > { MEMBER = EXPR; ... }; the members are parsed
 * as a clause's body (assignments to names) */
static bool parse_translator(DParser *dp)
{
	Lexer *lx = &dp->lx;
	Arena *a = &dp->prog->arena;
	DXlator x = {.loc = lex_loc(lx, 10)};
	lex_advance(lx, 10); /* "translator" */
	size_t n;
	Loc at;
	const char *s = take_until(dp, '<', &n, &at);
	if (!s)
		return false;
	x.out = type_text(a, s, n);
	if (!(s = take_until(dp, '>', &n, &at)))
		return false;
	size_t e = n;
	while (e && isspace((unsigned char)s[e - 1]))
		e--;
	size_t b = e;
	while (b && (isalnum((unsigned char)s[b - 1]) || s[b - 1] == '_'))
		b--;
	if (!*x.out || b == e || !b)
		return error_at(dp->err, at, "syntax error: translator OUTPUT < INPUT NAME > expected");
	x.in = type_text(a, s, b);
	x.ident = arena_strndup(a, s + b, e - b);
	if (!lex_skip_space(lx))
		return false;
	if (lex_peek(lx, 0) != '{')
		return error_at(dp->err, lex_loc(lx, 1), "syntax error near \"%c\"", lex_peek(lx, 0));
	Probe body = {0};
	if (!parse_d_clause(lx, dp->prog, &body, dp->err))
		return false;
	for (int i = 0; i < body.body.n; i++) {
		const Stmt *m = body.body.v[i];
		if (m->kind != S_ASSIGN || m->op != OP_NONE || m->target->kind != E_BUILTIN)
			return error_at(dp->err, m->loc, "a translator member is defined as MEMBER = EXPR;");
	}
	x.members = body.body;
	if (!lex_skip_space(lx))
		return false;
	x.end = lex_loc(lx, 1);
	DEnv *env = dp->env;
	env->xlators = arena_grow(a, env->xlators, env->nxlators, sizeof(*env->xlators));
	env->xlators[env->nxlators++] = x;
	return true;
}

static size_t word_at(const char *s)
{
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return isdigit((unsigned char)*s) ? 0 : n;
}

static const char *skip_blanks(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* A variable declaration: `int x;`, `unsigned long a[int];`, `string s;`,
 * `self int t;`, `this char *p;`, `struct foo x;`, `uint64_t x, y;` -- a
 * type's words then a name, where a clause would have a description
 * (which holds ':' or is followed by '{', '/' or ',') and a C definition
 * a '{' or ';' after its tag. */
static bool at_d_decl(const Lexer *lx)
{
	static const char *const type_words[] = {
		"char", "short", "int", "long", "signed", "unsigned", "const", "volatile",
		"string", "self", "this", "float", "double", "void",
	};
	const char *s = lx->text + lx->pos;
	size_t n = word_at(s);
	if (!n)
		return false;
	for (size_t i = 0; i < sizeof(type_words) / sizeof(type_words[0]); i++)
		if (n == strlen(type_words[i]) && !strncmp(s, type_words[i], n))
			return isspace((unsigned char)s[n]) || s[n] == '*';
	bool tagged = (n == 6 && !strncmp(s, "struct", 6)) || (n == 5 && !strncmp(s, "union", 5)) ||
		      (n == 4 && !strncmp(s, "enum", 4));
	s = skip_blanks(s + n);
	if (tagged) { /* the tag */
		if (!(n = word_at(s)))
			return false;
		s = skip_blanks(s + n);
	}
	while (*s == '*')
		s = skip_blanks(s + 1);
	if (!(n = word_at(s)))
		return false;
	s = skip_blanks(s + n);
	return *s == ';' || *s == '[' || *s == ',';
}

static bool parse_d_top(DParser *dp, StrBuf *cdefs)
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
		if (at_word(lx, "translator")) {
			if (!parse_translator(dp))
				return false;
			continue;
		}
		if (at_c_decl_word(lx)) {
			const char *td = at_word(lx, "extern") ? note_extern(dp) : NULL;
			if (!c_decl(dp, cdefs))
				return false;
			if (td) { /* on the declaration's line: the next one's place stays */
				sb_puts(cdefs, td);
				dp->ccol += (int)strlen(td);
			}
			continue;
		}
		if (at_d_decl(lx)) {
			if (!parse_d_decl(lx, dp->prog, dp->err))
				return false;
			continue;
		}
		if (lex_at_c_def(lx)) {
			if (!c_decl(dp, cdefs))
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
	dp->lx.hooks = &d_lex_hooks;
	dp->prog = p;
	dp->err = err;
	dp->cline = dp->ccol = 1;
	p->c_defs_decls = true;
	return parse_d_top(dp, cdefs);
}

Program *d_parse(const Source *src, DEnv *env, int *nmatched, Error *err)
{
	DParser dp = { .env = env };
	Program *p = parse_program_with(src, err, d_top, &dp);
	*nmatched = dp.nmatched;
	return p;
}
