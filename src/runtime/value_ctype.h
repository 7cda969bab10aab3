/* Printing structs, unions and arrays (value_ctype.c). */
#pragma once
#include "output.h"

void value_format_ctype(StrBuf *sb, const OutCtx *o, const Type *t, const void *data,
			bool in_key);
