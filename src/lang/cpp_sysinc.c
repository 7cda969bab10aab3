/* <system> headers for the text preprocessor under `sonde dtrace -C`: as
 * gcc's cpp (which dtrace runs) finds them, on the system include path,
 * read whole, so that the D compiler sees their declarations.  gcc's own
 * freestanding headers (stddef.h, stdarg.h, stdbool.h) live in gcc's
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
	 "typedef unsigned long size_t;\n"
	 "#endif\n"
	 "#if (defined __SONDE_STDDEF_ALL || defined __need_ptrdiff_t) && !defined _PTRDIFF_T\n"
	 "#define _PTRDIFF_T\n"
	 "typedef long ptrdiff_t;\n"
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
