/* D's printf formats (printf_fmt_d.c): parsed into lang/fmt.h's pieces,
 * with D's own conversions rendered through the pieces' FmtExt. */
#pragma once
#include "../lang/fmt.h"
#include "../runtime/output.h"

/* D's printf formats as libdtrace parses them (printf_fmt_d.c): flags
 * "-+ #0'", widths and precisions (digits or '*'), '?', '@' (printa's
 * value), size prefixes h l ll L w, and DTrace's conversions (a A c C d e E
 * f g G i k o p s S T u x X Y %).  On error writes dtrace's message. */
bool fmt_parse_d(const char *fmt, size_t len, Fmt *out, char *err, size_t errlen);
/* The conversion's name as dtrace prints it ("d", "lld", "S"); whether a
 * value of type t fits it (else *proto: the types it takes, for
 * dtrace's message); whether t is a D integer type's size for it */
const char *fmt_d_name(const FmtPiece *p);
bool fmt_d_accepts(const FmtPiece *p, const Type *t, const char **proto);
/* Render D's own conversion kinds (FC_ESTR .. FC_FLOAT) */
void fmt_render_d(StrBuf *sb, const OutCtx *o, const FmtPiece *p, const Type *t, const void *arg);
/* The C conversion text with '*' replaced by the values given */
char *fmt_d_stars(const char *text, const int *stars, int n);
