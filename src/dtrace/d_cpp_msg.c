/* cpp's messages under `dtrace -C`, as dtrace(1) shows them: dtrace runs
 * cpp with the script on its standard input, so each message names the
 * script "/dev/stdin", with no column and none of its lines under it
 * (dtrace-utils' preprocessor tests: "/dev/stdin:16: error: unterminated
 * #if").  A header's messages keep their column, line and caret: cpp reads
 * the header itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lang/cpp.h"
#include "dtrace.h"

static const char stdin_name[] = "/dev/stdin";

/* the length of "SCRIPT:" at s when s starts with it followed by a line
 * number, else 0 */
static size_t names_script(const char *s, const char *script)
{
	size_t n = strlen(script);
	if (strncmp(s, script, n) || s[n] != ':' || s[n + 1] < '0' || s[n + 1] > '9')
		return 0;
	return n + 1;
}

/* a source line or the caret line gcc puts under a message */
static bool is_caret_line(const char *s)
{
	size_t i = strspn(s, " ");
	i += strspn(s + i, "0123456789");
	if (s[i] == ' ')
		i++;
	return i > 0 && s[i] == '|';
}

/* one line (with its newline) renamed; *in_script: it was a message about
 * the script, whose source lines dtrace's cpp does not show */
static void put_line(FILE *f, const char *s, size_t len, const char *script, bool *in_script)
{
	static const char from[] = "In file included from ";
	size_t pre = strncmp(s, from, sizeof(from) - 1) ? 0 : sizeof(from) - 1;
	size_t n = names_script(s + pre, script);
	if (!n) {
		if (!(*in_script && is_caret_line(s)))
			fprintf(f, "%.*s", (int)len, s);
		if (!is_caret_line(s))
			*in_script = false;
		return;
	}
	const char *line = s + pre + n, *rest = line + strspn(line, "0123456789");
	int digits = (int)(rest - line);
	if (!pre && rest[0] == ':' && rest[1] >= '0' && rest[1] <= '9')
		rest += 1 + strspn(rest + 1, "0123456789"); /* the column */
	fprintf(f, "%.*s%s:%.*s%.*s", (int)pre, s, stdin_name, digits, line, (int)(len - (size_t)(rest - s)),
		rest);
	*in_script = !pre;
}

void d_cpp_text_print(FILE *f, const char *text, const char *script)
{
	bool in_script = false;
	for (const char *s = text; s && *s;) {
		const char *eol = strchr(s, '\n');
		size_t len = eol ? (size_t)(eol - s) + 1 : strlen(s);
		put_line(f, s, len, script, &in_script);
		s += len;
	}
}

void d_cpp_error_print(FILE *f, const CppError *e, const char *script)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	if (!m)
		return cpp_error_print(f, e);
	cpp_error_print(m, e);
	fclose(m);
	d_cpp_text_print(f, text, script);
	free(text);
}
