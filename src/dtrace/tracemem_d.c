/* D's tracemem() output, as dtrace(1) prints it: a header of the 16
 * column digits, then per 16 bytes the offset, the bytes in hex and the
 * printable ones as text ('.' for the rest; bytes above 0x7e too, as
 * libdtrace compares them as signed chars). */
#include <stdbool.h>

#include "tracemem_d.h"

void tracemem_print_d(const OutCtx *o, const uint8_t *d, size_t n)
{
	if (!n)
		return;
	StrBuf sb = {0};
	sb_printf(&sb, "\n%5s      ", "");
	for (int i = 0; i < 16; i++)
		sb_printf(&sb, "  %c", "0123456789abcdef"[i]);
	sb_puts(&sb, "  0123456789abcdef\n");
	for (size_t i = 0; i < n; i += 16) {
		size_t j;
		sb_printf(&sb, "%5s%5zx:", "", i);
		for (j = i; j < i + 16 && j < n; j++)
			sb_printf(&sb, " %02x", d[j]);
		for (; j % 16; j++)
			sb_puts(&sb, "   ");
		sb_puts(&sb, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			sb_printf(&sb, "%c", d[j] < ' ' || d[j] > '~' ? '.' : d[j]);
		sb_puts(&sb, "\n");
	}
	output_printf_text(o, sb.s, sb.len);
	sb_free(&sb);
}

/* libdtrace's printable text: isprint() or isspace() in the C locale, or
 * backspace or bell (terminal controls that are neither) */
static bool text_byte(uint8_t c)
{
	return (c >= ' ' && c <= '~') || (c >= '\t' && c <= '\r') || c == '\b' || c == '\a';
}

void trace_string_d(const OutCtx *o, const uint8_t *d, size_t n, const char *fmt)
{
	for (size_t i = 0; i < n && d[i]; i++)
		if (!text_byte(d[i])) {
			tracemem_print_d(o, d, n);
			return;
		}
	StrBuf sb = {0};
	sb_printf(&sb, fmt, (const char *)d);
	output_printf_text(o, sb.s, sb.len);
	sb_free(&sb);
}

void trace_chars_d(const OutCtx *o, const uint8_t *d, size_t n, const char *fmt)
{
	size_t i = 0;
	while (i < n && text_byte(d[i]))
		i++;
	bool text = i == n || (i > 0 && !d[i]);
	for (size_t j = i + 1; text && j < n; j++)
		text = !d[j];
	if (text)
		trace_string_d(o, d, n, fmt);
	else
		tracemem_print_d(o, d, n);
}
