/* The syntax tree of a bpftrace-language program.  The parser builds it
 * (all nodes live in the Program's arena), sema annotates it in place
 * (the fields marked "sema"), codegen reads it. */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../util/util.h"
#include "diag.h"

struct Type;
struct MapInfo;
struct VarInfo;
struct FuncDef;

typedef enum ExprKind {
	E_INT,      /* ival (uint64 bits of the literal) */
	E_STR,      /* sval/slen: bytes after escape processing */
	E_BUILTIN,  /* name: pid, comm, arg0, args, retval, probe, ... */
	E_POSPARAM, /* $1..$N: ival = N */
	E_POSCOUNT, /* $# */
	E_VAR,      /* $name: name without '$' */
	E_MAP,      /* @name[args...]: name without '@' ("" for @); args = keys */
	E_CALL,     /* name(args...) */
	E_BINOP,    /* a op b; op is an Op value */
	E_UNOP,     /* op a: OP_NEG, OP_LNOT, OP_BNOT, OP_DEREF, OP_ADDR */
	E_TERNARY,  /* a ? b : c; bpftrace 0.26's `a ?: c` has b == a (a evaluated once) */
	E_FIELD,    /* a.name or a->name (arrow); tuple index: a.0 (name "0") */
	E_INDEX,    /* a[b] on a non-map expression */
	E_CAST,     /* (name) a; name is the type text, e.g. "uint8", "struct x *" */
	E_TUPLE,    /* (args...), two or more elements */
	E_INCDEC,   /* a++ / ++a / a-- / --a: op = OP_ADD or OP_SUB, post */
	E_SIZEOF,   /* sizeof(a) or sizeof(name); offsetof(a or name, sval) */
	E_RANGE,    /* a..b: a for loop's integers, a up to b (excluded) */
	E_BLOCK,    /* { stmts; a }: block's statements run, then a is the value (bpftrace 0.26) */
} ExprKind;

typedef enum Op {
	OP_NONE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
	OP_BAND, OP_BOR, OP_BXOR, OP_SHL, OP_SHR,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_LAND, OP_LOR,
	OP_NEG, OP_LNOT, OP_BNOT, OP_DEREF, OP_ADDR,
} Op;

const char *op_str(Op op); /* "+", "==", ... */

/* An integer constant's C type in the D dialect (DTrace's rules: the first
 * of a list, chosen by base and suffix, that holds the value); LIT_NONE is
 * bpftrace's untyped literal.  long and long long are both 64-bit here.
 * LIT_BOOL: bpftrace 0.26's `true` (1) or `false` (0), of type bool.
 * LIT_ENUM: an enumerator of a C enum whose values print by name (auxp: the
 * enum's Type; SemaHooks.enum_names). */
typedef enum IntLit { LIT_NONE, LIT_INT, LIT_UINT, LIT_LONG, LIT_ULONG, LIT_BOOL, LIT_ENUM } IntLit;

typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct StmtList {
	Stmt **v;
	int n;
} StmtList;
typedef struct ExprList {
	Expr **v;
	int n;
} ExprList;

struct Expr {
	ExprKind kind;
	Loc loc;
	Op op;
	bool post;  /* E_INCDEC: postfix */
	bool arrow; /* E_FIELD: "->" rather than "." */
	bool comptime; /* E_TERNARY of an `if comptime` used as a value (Stmt.comptime) */
	/* bpftrace's first pass types this "none" (an undefined variable, a map
	 * with no value, an unknown identifier or field, a read through one):
	 * the functions and casts it reaches say so too (sema) */
	bool none;
	/* sema: the probe visit (Sema.visit) that last checked this, and its
	 * result: a node checked twice in one visit is checked once */
	unsigned visit;
	bool visit_ok;
	IntLit lit; /* E_INT in D: the constant's type */
	uint64_t ival;
	char *name;  /* identifier text, see ExprKind */
	char *sval;  /* E_STR bytes (NUL-terminated too) */
	size_t slen; /* E_STR byte count without the terminator */
	Expr *a, *b, *c;
	ExprList args;
	char **names; /* E_TUPLE of a record `(a = 1, b = "x")`: its fields' names */
	StmtList block; /* E_BLOCK: the statements before its value (a) */

	/* sema */
	struct Type *type;
	struct MapInfo *map; /* E_MAP */
	struct VarInfo *var; /* E_VAR */
	const struct FuncDef *func; /* E_CALL */
	int aux;             /* per-kind extra: arg index, field offset, ... */
	int aux2;            /* per-kind extra: builtin id, ... */
	void *auxp;          /* per-kind extra pointer (tracepoint field, ...) */
	signed char addrspace; /* AS_* (sema_addrspace.c): for bpftrace's warning only */
};

typedef enum StmtKind {
	S_EXPR,     /* expr; (calls, ++/--, bare map/var reads) */
	S_ASSIGN,   /* target op= expr; op is OP_NONE for plain '=' */
	S_IF,       /* if (expr) body else els (els may hold one S_IF) */
	S_UNROLL,   /* unroll (expr) body */
	S_WHILE,    /* while (expr) body */
	S_BREAK,
	S_CONTINUE,
	S_RETURN,
	S_BLOCK,    /* { body } nested block */
	S_FOR,      /* for (target : expr) body: target an E_VAR, expr an E_MAP or E_RANGE */
	S_LET,      /* let target; (bpftrace 0.26): target an E_VAR, set to zero */
} StmtKind;

struct Stmt {
	StmtKind kind;
	Loc loc;
	Loc op_loc;   /* S_ASSIGN: the '=' (bpftrace's place for assignment errors) */
	Op op;
	Expr *target; /* S_ASSIGN: E_MAP or E_VAR */
	Expr *expr;
	StmtList body, els;
	/* S_IF with an else: each arm ends with an expression and no ';', so
	 * the if can be the value of the block it ends (bpftrace 0.26) */
	bool valued;
	/* S_ASSIGN written `let $x = e` (bpftrace 0.26): it declares $x */
	bool let_decl;
	/* S_IF written `if comptime` (ParseOpts.comptime): its condition is
	 * known while compiling, and only the branch it picks is checked and
	 * compiled (the if becomes an S_BLOCK of it in sema) */
	bool comptime;
};

/* A D probe (src/dtrace) as DTrace names it, for probeprov..probename,
 * the probe id and the default output's FUNCTION:NAME column. */
typedef struct DProbeName {
	char *prov, *mod, *func, *name;
	int id;
} DProbeName;

typedef struct AttachPoint {
	char *text; /* as written, e.g. "tracepoint:syscalls:sys_enter_*" */
	Loc loc;
	DProbeName *d; /* D front end: the DTrace probe it stands for, else NULL */
	int epid;      /* D: its enabled probe ID (clause and probe, numbered as dtrace), or 0 */
	int clause;    /* D: its clause's number, dtrace-utils' dt_clause_N: one per probe description
			* of each clause, from 0 in script order */
	char *name;    /* bpftrace 0.26's `NAME=` before it (ParseOpts.named_probes), or NULL */
} AttachPoint;

typedef struct Probe {
	Loc loc;
	AttachPoint *aps;
	int naps;
	Expr *pred; /* NULL when there is no /predicate/ */
	StmtList body;
	bool d_record; /* D, not quiet: each firing prints "CPU ID FUNCTION:NAME" */
} Probe;

/* D: a variable declared at the top level (`int x;`, `self char *p;`,
 * `this int n;`, `string a[int];`): the name sonde gives it ("`x",
 * "self->p", "this->n"), the text of its type ("string", "unsigned long",
 * "struct foo *").  Sema gives the variable that type. */
typedef struct DVarDecl {
	const char *name;
	const char *type;
	Loc loc;
	int count;  /* a scalar array (`int x[5];`): its elements; else 0 */
	bool assoc; /* an associative array (`int x[string];`) */
} DVarDecl;

/* bpftrace 0.26's `config = { key = value; ... }`: one entry per
 * assignment, applied by the front end (bt/config_bt.c) */
typedef enum { CONFIG_INT, CONFIG_STR, CONFIG_WORD } ConfigValueKind;
typedef struct ConfigEntry {
	char *key;  /* as written: stack_mode, STACK_MODE, BPFTRACE_STACK_MODE */
	Loc loc;    /* the whole assignment */
	ConfigValueKind kind;
	char *str;  /* CONFIG_STR's text, CONFIG_WORD's identifier (raw, warn) */
	uint64_t num;
} ConfigEntry;

/* bpftrace 0.26's `let @name = kind(max_entries);` as written (sema
 * checks the kind: compile/sema_mapdecl.c) */
typedef struct MapDecl {
	char *name;  /* without '@' */
	char *kind;  /* hash, lruhash, percpuhash, percpulruhash */
	Loc loc;     /* the whole declaration */
	Loc kind_loc;
	uint64_t max_entries;
} MapDecl;

/* bpftrace 0.26's `macro name(params) { body }` (lang/parse_macro.c),
 * expanded where it is called before sema (lang/macro_expand.c) */
typedef enum MacroParamKind {
	MP_VAR,  /* $x: the caller passes a variable, used (and set) by name */
	MP_MAP,  /* @x: the caller passes a map */
	MP_EXPR, /* x: any expression, put wherever the body says x */
} MacroParamKind;

typedef struct MacroParam {
	MacroParamKind kind;
	char *name; /* without '$' or '@' */
	Loc loc;
} MacroParam;

typedef struct MacroDef {
	char *name;
	Loc loc; /* its name */
	MacroParam *params;
	int nparams;
	StmtList body;
	/* the body ends in an expression without ';': a value, so a call may
	 * stand where an expression does */
	bool has_value;
} MacroDef;

/* an imported .h file (bpftrace 0.26's `import "x.h";`): its real path
 * and the import's place, for errors in it */
typedef struct ImportedHeader {
	char *path;
	Loc at;
} ImportedHeader;

typedef struct Program {
	Arena arena;
	Source src;
	char *c_defs;  /* C definitions/#include lines before the probes, raw */
	Loc c_defs_loc;
	/* D: c_defs holds each declaration where src has it (the same line and
	 * column), blanks between: read by cdefs_parse_decls */
	bool c_defs_decls;
	Probe **probes;
	int nprobes;
	DVarDecl *d_vars; /* D's declared variables */
	int nd_vars;
	ConfigEntry *config; /* bpftrace 0.26's config block, in order */
	int nconfig;
	MapDecl *map_decls; /* bpftrace 0.26's map declarations, in order */
	int nmap_decls;
	MacroDef *macros; /* bpftrace 0.26's macros, in order (expanded already) */
	int nmacros;
	char **imported; /* the files `import` read, by real path: each once */
	int nimported;
	/* C in imported files (sema adds it after the program's own C
	 * definitions): the first C definition of each imported .bt file that
	 * has some (Loc.file names the file), and each imported .h file */
	Loc *import_cdefs;
	int nimport_cdefs;
	ImportedHeader *import_headers;
	int nimport_headers;
	/* the imported files' texts when the caller's Source has no table for
	 * them (src.files then points here; freed with the program) */
	SourceFiles own_files;
} Program;

/* Parse `src` into a Program; on failure returns NULL and fills err.
 * parse_program follows bpftrace 0.17's rules; parse_program_opts the
 * rules `opts` names (lang/parse_opts.h; NULL: 0.17's). */
struct ParseOpts;
Program *parse_program(const Source *src, Error *err);
Program *parse_program_opts(const Source *src, const struct ParseOpts *opts, Error *err);
void program_free(Program *p);
void program_add_probe(Program *p, Probe *pr); /* appended, in the program's arena */
/* the table of imported files and macro calls (Loc.file, Loc.exp): the
 * caller's (src.files), else the program's own */
SourceFiles *program_files(Program *p);
/* A new node of kind k at loc, zeroed, in the program's arena. */
Expr *expr_new(Program *p, ExprKind k, Loc loc);

/* -d ast: an indented tree, one node per line. */
void ast_dump(FILE *out, const Program *p);
