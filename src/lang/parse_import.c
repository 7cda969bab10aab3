/* bpftrace 0.26's `import "PATH";` (ParseOpts.imports): a `.bt` file's
 * macros and map declarations join the program, a directory's `.bt` files
 * in name order.  The path is relative to the importing file's directory
 * (the current directory for -e); each file is read once; a file in a
 * directory everyone may write is refused, as bpftrace refuses it.  An
 * imported file's probes join the program's, before the importing file's
 * own.  What sonde does not import yet (`.h`, `.bpf.c`, C definitions in an
 * imported file) is an error that says so.  An imported item's places are
 * in its own file (Loc.file, the file's text kept in the Source's table),
 * so its errors name that file, line and column. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* the items of a parsed imported file that bpftrace refuses there, or
 * that sonde does not take yet */
static bool check_items(Parser *ps, const char *path, Loc at, int nconfig, size_t ncdefs,
			const StrBuf *cdefs)
{
	const Program *p = ps->prog;
	if (p->nconfig != nconfig)
		return error_at(ps->err, at, "%s: an imported script cannot contain a config block", path);
	if (cdefs->len != ncdefs)
		return error_at(ps->err, at, "%s: C definitions in an imported file are not supported by "
				"sonde yet", path);
	return true;
}

/* a .bt file's items into the program, their places in that file */
static bool import_bt(Parser *ps, const char *path, Loc at, StrBuf *cdefs)
{
	char *text = read_file_all(path, NULL);
	if (!text)
		return error_at(ps->err, at, "cannot import %s: %s", path, strerror(errno));
	Program *p = ps->prog;
	int nconfig = p->nconfig;
	size_t ncdefs = cdefs->len;
	Parser sub = {.prog = p, .err = ps->err, .file = path};
	lexer_init(&sub.lx, text, &p->arena, ps->err);
	sub.lx.opts = ps->lx.opts;
	sub.lx.file = source_files_add(program_files(p), path, text);
	return ps_top(&sub, cdefs) && check_items(ps, path, at, nconfig, ncdefs, cdefs);
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

/* the directory that holds path is not one everyone may write */
static bool safe_dir(Parser *ps, const char *real, Loc at)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", real);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = 0;
	struct stat st;
	if (!stat(dir, &st) && (st.st_mode & S_IWOTH))
		return error_at(ps->err, at, "refusing to import %s: %s is writable by everyone", real,
				dir);
	return true;
}

static bool import_path(Parser *ps, const char *path, Loc at, StrBuf *cdefs)
{
	char real[PATH_MAX];
	struct stat st;
	if (!realpath(path, real) || stat(real, &st))
		return error_at(ps->err, at, "cannot import %s: %s", path, strerror(errno));
	if (import_seen(ps->prog, real))
		return true;
	if (!safe_dir(ps, real, at))
		return false;
	if (S_ISDIR(st.st_mode))
		return import_dir(ps, real, at, cdefs);
	if (ends_with(real, ".bt"))
		return import_bt(ps, real, at, cdefs);
	if (ends_with(real, ".h") || ends_with(real, ".bpf.c"))
		return error_at(ps->err, at, "cannot import %s: sonde does not import C files yet%s", real,
				ends_with(real, ".h") ? " (#include it instead)" : "");
	return error_at(ps->err, at, "cannot import %s: a .bt, .h or .bpf.c file or a directory is "
			"expected", real);
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
