/* <system> headers for the text preprocessor under `sonde dtrace -C`: as
 * gcc's cpp (which dtrace runs) finds them, on the system include path,
 * read whole, so that the D compiler sees their declarations.  gcc's own
 * freestanding headers (stddef.h, stdarg.h, stdbool.h, float.h, iso646.h,
 * stdalign.h, stdnoreturn.h) live in gcc's
 * private directory, which sonde does not assume is installed: sonde has
 * its own short versions of them, honouring glibc's `__need_size_t`-style
 * requests for part of one. */
#include <string.h>

#include "cdecl_int.h"
#include "cpp_int.h"

static const struct {
	const char *name, *text;
} builtin_headers[] = {
	{"stddef.h",
	 "#if !defined __need_size_t && !defined __need_ptrdiff_t && !defined __need_wchar_t && \\\n"
	 "    !defined __need_NULL && !defined __need_wint_t\n"
	 "#define __SONDE_STDDEF_ALL\n"
	 "#endif\n"
	 "#if (defined __SONDE_STDDEF_ALL || defined __need_size_t) && !defined _SIZE_T\n"
	 "#define _SIZE_T\n"
	 "typedef long unsigned int size_t;\n"
	 "#endif\n"
	 "#if (defined __SONDE_STDDEF_ALL || defined __need_ptrdiff_t) && !defined _PTRDIFF_T\n"
	 "#define _PTRDIFF_T\n"
	 "typedef long int ptrdiff_t;\n"
	 "#endif\n"
	 "#if (defined __SONDE_STDDEF_ALL || defined __need_wchar_t) && !defined _WCHAR_T\n"
	 "#define _WCHAR_T\n"
	 "typedef int wchar_t;\n"
	 "#endif\n"
	 "#if defined __need_wint_t && !defined _WINT_T\n"
	 "#define _WINT_T\n"
	 "typedef unsigned int wint_t;\n"
	 "#endif\n"
	 "#if defined __SONDE_STDDEF_ALL || defined __need_NULL\n"
	 "#undef NULL\n"
	 "#define NULL ((void *)0)\n"
	 "#endif\n"
	 "#undef __SONDE_STDDEF_ALL\n"
	 "#undef __need_size_t\n#undef __need_ptrdiff_t\n#undef __need_wchar_t\n"
	 "#undef __need_NULL\n#undef __need_wint_t\n"},
	{"stdarg.h",
	 "#ifndef __GNUC_VA_LIST\n"
	 "#define __GNUC_VA_LIST\n"
	 "typedef __builtin_va_list __gnuc_va_list;\n"
	 "#endif\n"
	 "#if !defined __need___va_list && !defined _VA_LIST_DEFINED\n"
	 "#define _VA_LIST_DEFINED\n"
	 "typedef __gnuc_va_list va_list;\n"
	 "#endif\n"
	 "#undef __need___va_list\n"},
	{"stdalign.h", "#define alignas _Alignas\n#define alignof _Alignof\n"
		       "#define __alignas_is_defined 1\n#define __alignof_is_defined 1\n"},
	{"stdnoreturn.h", "#define noreturn _Noreturn\n"},
	{"iso646.h",
	 "#define and &&\n#define and_eq &=\n#define bitand &\n#define bitor |\n#define compl ~\n"
	 "#define not !\n#define not_eq !=\n#define or ||\n#define or_eq |=\n#define xor ^\n"
	 "#define xor_eq ^=\n"},
	{"float.h", /* x86-64's values, as gcc's float.h has them */
	 "#define FLT_RADIX 2\n#define FLT_MANT_DIG 24\n#define DBL_MANT_DIG 53\n"
	 "#define LDBL_MANT_DIG 64\n#define FLT_DIG 6\n#define DBL_DIG 15\n#define LDBL_DIG 18\n"
	 "#define FLT_MIN_EXP (-125)\n#define DBL_MIN_EXP (-1021)\n#define LDBL_MIN_EXP (-16381)\n"
	 "#define FLT_MIN_10_EXP (-37)\n#define DBL_MIN_10_EXP (-307)\n"
	 "#define LDBL_MIN_10_EXP (-4931)\n#define FLT_MAX_EXP 128\n#define DBL_MAX_EXP 1024\n"
	 "#define LDBL_MAX_EXP 16384\n#define FLT_MAX_10_EXP 38\n#define DBL_MAX_10_EXP 308\n"
	 "#define LDBL_MAX_10_EXP 4932\n#define FLT_MAX 3.40282346638528859811704183484516925e+38F\n"
	 "#define DBL_MAX ((double)1.79769313486231570814527423731704357e+308L)\n"
	 "#define FLT_EPSILON 1.19209289550781250000000000000000000e-7F\n"
	 "#define DBL_EPSILON ((double)2.22044604925031308084726333618164062e-16L)\n"
	 "#define FLT_MIN 1.17549435082228750796873653722224568e-38F\n"
	 "#define DBL_MIN ((double)2.22507385850720138309023271733240406e-308L)\n"
	 "#define FLT_EVAL_METHOD 0\n#define FLT_ROUNDS 1\n#define DECIMAL_DIG 21\n"},
	{"stdbool.h",
	 "#ifndef __bool_true_false_are_defined\n"
	 "#define bool _Bool\n#define true 1\n#define false 0\n"
	 "#define __bool_true_false_are_defined 1\n"
	 "#endif\n"},
};

/* The path (or "<built-in>/NAME" with *text set) of <name>. */
bool cpp_system_header(const char *name, char *path, size_t n, const char **text)
{
	*text = NULL;
	for (int i = 0; cdefs_system_dirs[i]; i++) {
		snprintf(path, n, "%s/%s", cdefs_system_dirs[i], name);
		if (cpp_readable(path))
			return true;
	}
	for (size_t i = 0; i < sizeof(builtin_headers) / sizeof(builtin_headers[0]); i++)
		if (!strcmp(builtin_headers[i].name, name)) {
			snprintf(path, n, "<built-in>/%s", name);
			*text = builtin_headers[i].text;
			return true;
		}
	return false;
}
