/* Arguments decoded from a table alone: one row per (call, argument), the
 * constants' names as the kernel's UAPI headers spell them.  A new flags or
 * enum argument is a row here, not code. */
#pragma once
#include "decode.h"

typedef struct ArgTable {
	const char *call;
	int arg;
	const FlagName *names;
	bool flags;          /* OR-ed flags; else one value of an enum */
	const char *unknown; /* strace's comment for a value none names: "O_???" */
} ArgTable;

/* the row for argument arg of the call named name, NULL if none */
const ArgTable *arg_table(const char *name, int arg);
/* strace's spelling: "A|B|0x40"; none known: 0x41 and the unknown name
 * in a comment; an enum: its name, or the hex value and that comment */
void dec_table(StrBuf *b, const ArgTable *t, uint64_t v);
/* dec_flags / dec_enum with strace's comment for what no entry names */
void dec_flags_unknown(StrBuf *b, const FlagName *t, uint64_t v, const char *unknown);
void dec_enum_unknown(StrBuf *b, const FlagName *t, uint64_t v, const char *unknown);
