/* tracefs: finding it (mounting it when needed), listing tracepoints and
 * reading their format files. */
#pragma once
#include <stdbool.h>
#include <stdio.h>

/* Directory of tracefs ("/sys/kernel/tracing" or the debugfs path); mounts
 * tracefs at /sys/kernel/tracing if nothing is mounted.  NULL if impossible. */
const char *tracefs_dir(void);
/* When tracefs_dir() found none: the place of a tracefs this user may not
 * read (its events/ denied), else NULL (none is mounted) */
const char *tracefs_denied(void);

/* Field types are normalized from the format file's declaration: the name
 * is removed, whitespace runs become one space, and an array suffix on the
 * name moves onto the type without a space:
 *   "const char * filename"   -> type "const char *"
 *   "char comm[16]"           -> type "char[16]", array_len 16, is_str
 *   "__data_loc char[] name"  -> type "__data_loc char[]", is_data_loc, is_str
 *   "unsigned long args[]"    -> type "unsigned long[]", array_len 0 */
typedef struct TpField {
	char *name;      /* "filename" */
	char *type;      /* normalized C type, see above */
	int offset;      /* from the start of the record (common fields included) */
	int size;
	bool is_signed;
	bool is_data_loc; /* __data_loc: u32 (len << 16 | offset) at offset */
	bool is_str;      /* char array, or __data_loc char[] */
	bool is_ptr;      /* a pointer type */
	int array_len;    /* element count for arrays (char[16] -> 16), else 0 */
	char *decl;       /* declaration exactly as written ("char comm[16]"),
			   * which bpftrace -lv prints */
} TpField;

typedef struct TpFormat {
	int id;         /* event id for perf_event_open */
	TpField *fields; /* non-common fields only, in order */
	int nfields;
} TpFormat;

/* Read events/CAT/NAME/format.  Returns false with a message in err. */
bool tracefs_read_format(const char *cat, const char *name, TpFormat *out,
			 char *err, size_t errlen);
/* Parse the text of a format file (what tracefs_read_format reads); false
 * when it has no "ID:" line.  Free with tp_format_free either way. */
bool tp_format_parse(const char *text, TpFormat *out);
void tp_format_free(TpFormat *f);
const TpField *tp_format_field(const TpFormat *f, const char *name);

/* Call fn for every tracepoint "cat:name" matching the glob patterns (either
 * may hold * and ?), in sorted order of "cat:name".  Returns the number of
 * matches.  Tracepoints come from available_events (which leaves out the
 * ftrace-internal events such as ftrace:function, as bpftrace does), or from
 * the events/ directories when that file is unreadable. */
int tracefs_foreach(const char *cat_glob, const char *name_glob,
		    void (*fn)(const char *cat, const char *name, void *arg),
		    void *arg);
