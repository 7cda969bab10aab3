/* bpftrace 0.26's `import "PATH";` (ParseOpts.imports): a `.bt` file's
 * macros, map declarations and C definitions join the program, a `.h`
 * file's C definitions too, a directory's files in name order.  The path
 * is relative to the importing file's directory (the current directory for
 * -e); each file is read once; a file in a directory everyone may write is
 * refused, as bpftrace refuses it.  An imported file's probes join the
 * program's, before the importing file's own.  The C is only noted here
 * (Program.import_cdefs, import_headers): sema reads it with the program's
 * own (compile/sema_ctype.c).  A `.bpf.c` file (C functions compiled into
 * the BPF program) is an error that says sonde does not take it.  An
 * imported item's places are in its own file (Loc.file, the file's text
 * kept in the Source's table), so its errors name that file, line and
 * column.  The messages are 0.26's. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse_import.h"
#include "parser_int.h"

bool at_import(Parser *ps)
{
	const Lexer *lx = &ps->lx;
	if (!lx->opts->imports || strncmp(lx->text + lx->pos, "import", 6))
		return false;
	char c = lx->text[lx->pos + 6];
	return c == ' ' || c == '\t' || c == '\n' || c == '"';
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

/* ---- files ---- */

static bool import_path(Parser *ps, const char *path, Loc at, StrBuf *cdefs);

/* whether path was imported already; else it is noted */
static bool import_seen(Program *p, const char *real)
{
	for (int i = 0; i < p->nimported; i++)
		if (!strcmp(p->imported[i], real))
			return true;
	p->imported = arena_grow(&p->arena, p->imported, p->nimported, sizeof(char *));
	p->imported[p->nimported++] = arena_strdup(&p->arena, real);
	return false;
}

void import_note_c_defs(Parser *ps, Loc first)
{
	Program *p = ps->prog;
	p->import_cdefs = arena_grow(&p->arena, p->import_cdefs, p->nimport_cdefs, sizeof(Loc));
	p->import_cdefs[p->nimport_cdefs++] = first;
	ps->had_c_def = true;
}

/* a parsed imported file holds no config block (bpftrace refuses it) */
static bool check_items(Parser *ps, int nconfig)
{
	const Program *p = ps->prog;
	if (p->nconfig != nconfig)
		return error_at(ps->err, p->config[nconfig].loc, "invalid `config` within import");
	return true;
}

/* "error reading import '"PATH"': ..." (bpftrace quotes the path twice) */
static bool read_error(Parser *ps, const char *path, Loc at)
{
	return error_at(ps->err, at, "error reading import '\"%s\"': %s", path, strerror(errno));
}

/* a .bt file's items into the program, their places in that file */
static bool import_bt(Parser *ps, const char *path, Loc at, StrBuf *cdefs)
{
	char *text = read_file_all(path, NULL);
	if (!text)
		return read_error(ps, path, at);
	Program *p = ps->prog;
	int nconfig = p->nconfig;
	Parser sub = {.prog = p, .err = ps->err, .file = path};
	lexer_init(&sub.lx, text, &p->arena, ps->err);
	sub.lx.opts = ps->lx.opts;
	sub.lx.file = source_files_add(program_files(p), path, text);
	return ps_top(&sub, cdefs) && check_items(ps, nconfig);
}

/* a .h file: read by sema after the program's C definitions */
static bool import_header(Parser *ps, const char *path, Loc at)
{
	if (access(path, R_OK))
		return read_error(ps, path, at);
	Program *p = ps->prog;
	p->import_headers = arena_grow(&p->arena, p->import_headers, p->nimport_headers,
				       sizeof(ImportedHeader));
	p->import_headers[p->nimport_headers++] =
		(ImportedHeader){arena_strdup(&p->arena, path), at};
	return true;
}

/* name sorts directory entries alike on every machine */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static bool importable(const char *name)
{
	return ends_with(name, ".bt") || ends_with(name, ".h") || ends_with(name, ".bpf.c");
}

/* a directory's files, not its subdirectories */
static bool import_dir(Parser *ps, const char *dir, Loc at, StrBuf *cdefs)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, by_name);
	if (n < 0)
		return error_at(ps->err, at, "cannot import %s: %s", dir, strerror(errno));
	bool ok = true;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (ok && importable(ents[i]->d_name) && !stat(path, &st) && S_ISREG(st.st_mode))
			ok = import_path(ps, path, at, cdefs);
		free(ents[i]);
	}
	free(ents);
	return ok;
}

/* neither path nor the directory that holds it is one everyone may
 * write (path as the import names it, in the message) */
static bool safe_dir(Parser *ps, const char *path, const char *real, Loc at)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", real);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	struct stat st, dst;
	if ((!stat(real, &st) && (st.st_mode & S_IWOTH)) || (!stat(dir, &dst) && (dst.st_mode & S_IWOTH)))
		return error_at(ps->err, at, "cowardly refusing to import from a directory with global "
				"write permissions: \"%s\"", path);
	return true;
}

static bool import_path(Parser *ps, const char *path, Loc at, StrBuf *cdefs)
{
	char real[PATH_MAX];
	struct stat st;
	if (!realpath(path, real) || stat(real, &st))
		return error_at(ps->err, at, "Unable to find suitable path for import\nHINT: checked: %s",
				path);
	if (import_seen(ps->prog, real))
		return true;
	if (!safe_dir(ps, path, real, at))
		return false;
	if (S_ISDIR(st.st_mode))
		return import_dir(ps, real, at, cdefs);
	if (ends_with(real, ".bt"))
		return import_bt(ps, real, at, cdefs);
	if (ends_with(real, ".h"))
		return import_header(ps, real, at);
	if (ends_with(real, ".bpf.c"))
		return error_at(ps->err, at, "cannot import %s: sonde does not compile C functions into "
				"the BPF program (.bpf.c)", real);
	const char *base = strrchr(path, '/');
	return error_at(ps->err, at, "unknown import type: \"%s\"", base ? base + 1 : path);
}

/* path relative to the directory of the file that imports (ps->file, else
 * the program's; the current directory for -e's "stdin") */
static void resolve_import_path(const Parser *ps, const char *path, char *out, size_t n)
{
	const char *from = ps->file ? ps->file : ps->prog->src.name;
	const char *slash = from ? strrchr(from, '/') : NULL;
	if (path[0] == '/' || !slash || (!ps->file && !strcmp(from, "stdin")))
		snprintf(out, n, "%s", path);
	else
		snprintf(out, n, "%.*s/%s", (int)(slash - from), from, path);
}

bool parse_import(Parser *ps, StrBuf *cdefs)
{
	Lexer *lx = &ps->lx;
	Program *p = ps->prog;
	Loc at = lex_loc(lx, 6);
	if (ps->past_preamble)
		return error_at(ps->err, at, "imports must come before the probes, macros and map "
				"declarations");
	lex_advance(lx, 6);
	if (!ps_advance(ps))
		return false;
	if (ps->tok.kind != T_STR)
		return ps_unexpected(ps, "a file or directory name in quotes");
	char *path = arena_strndup(&p->arena, ps->tok.sval, ps->tok.slen);
	if (!ps_advance(ps))
		return false;
	if (ps->tok.kind != T_SEMI)
		return ps_unexpected(ps, "';'");
	if (ps->tok.loc.line == at.line)
		at.len = ps->tok.loc.col + 1 - at.col;
	char full[PATH_MAX];
	resolve_import_path(ps, path, full, sizeof(full));
	return import_path(ps, full, at, cdefs);
}
