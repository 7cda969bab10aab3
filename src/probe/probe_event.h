/* sonde probe -a/-l/-d: uprobe events in tracefs, as perf probe makes them. */
#pragma once
#include "probe.h"

typedef struct ArgField {
	char *name; /* "weight", or "[2]" for an index */
	bool ref;   /* reached through '->' (or an index) */
	bool is_index;
	long index;
} ArgField;

typedef struct ProbeArg {
	char *name; /* NAME= or the last field's name; NULL for a plain variable */
	char *var;  /* "it", "$vars", "$retval" */
	VEC(ArgField) fields;
	char *type; /* ":u32", ":string" without the colon */
} ProbeArg;

int probe_arg_parse(const char *text, ProbeArg *a);
/* as perf shows an argument: "weight=it->weight", "pathname:string" */
void probe_arg_text(const ProbeArg *a, StrBuf *b);
/* a variable ($vars and $params too): -O0 probes then skip the prologue */
bool probe_arg_is_var(const ProbeArg *a);
/* $vars / $params replaced by the variables live at the site; out is a
 * VEC(ProbeArg) */
void probe_args_expand(ProbeSite *s, const ProbeArg *args, int nargs, void *out);
/* " NAME=FETCH[:TYPE]" of argument number index at the site, appended */
int probe_arg_fetch(ProbeSite *s, DebugInfo *di, const ProbeArg *a, int index, StrBuf *b);

int probe_add_events(ProbeCtx *c, char **defs, int ndefs); /* -a */
int probe_list_events(ProbeCtx *c, const char *filter);   /* -l */
int probe_del_events(const char *const *pats, int npats);  /* -d */
