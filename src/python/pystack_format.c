/* pystack values as text.  Stacks indent as bpftrace indents ustack: 8
 * spaces as a value, 4 inside a map key, after a leading newline. */
#include "pystack_format.h"

#include <bpf/bpf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runtime/frontend_rt.h"
#include "../sym/pylayout.h"

/* The whole line table from the live process, when the cache kept only
 * its first PYC_LT bytes; NULL when the process is gone.  (The caller
 * checks that it still starts as the cached copy: the code object may have
 * been freed since the sample.) */
static uint8_t *linetable_from_proc(int pid, uint64_t addr, size_t n)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint8_t *buf = NULL;
	if (fd >= 0 && addr) {
		buf = malloc(n);
		if (buf && pread(fd, buf, n, (off_t)addr) != (ssize_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	if (fd >= 0)
		close(fd);
	return buf;
}

static int frame_line(const PyCodeInfo *ci, int pid, int64_t lasti)
{
	if (ci->lt_size <= PYC_LT)
		return py_linetable_line(ci->lt, ci->lt_size, (int)ci->firstlineno, lasti);
	int line = py_linetable_line(ci->lt, PYC_LT, (int)ci->firstlineno, lasti);
	uint8_t *all = line < 0 ? linetable_from_proc(pid, ci->lt_addr, ci->lt_size) : NULL;
	/* the table read now must still be the one cached: its start matches */
	if (all && memcmp(all, ci->lt, PYC_LT) != 0) {
		free(all);
		all = NULL;
	}
	if (all)
		line = py_linetable_line(all, ci->lt_size, (int)ci->firstlineno, lasti);
	free(all);
	return line;
}

static void put_frame(StrBuf *sb, const Type *t, const char *indent, const char *text)
{
	size_t n = strlen(text);
	if (t->line_max > 0 && n > (size_t)t->line_max)
		n = (size_t)t->line_max;
	sb_puts(sb, indent);
	sb_putn(sb, text, n);
	sb_putc(sb, '\n');
}

int pystack_nframes(const Type *t, const void *d, uint64_t *stop)
{
	uint64_t n;
	memcpy(&n, (const char *)d + 8, 8);
	*stop = n & (PYSTACK_BAD | PYSTACK_CUT);
	n &= ~(PYSTACK_BAD | PYSTACK_CUT);
	return (int)n > t->stack_depth ? t->stack_depth : (int)n;
}

const char *pystack_stop_text(uint64_t stop)
{
	if (stop & PYSTACK_BAD)
		return "[ not a CPython 3.11 frame: walk stopped ]";
	if (stop & PYSTACK_CUT)
		return "[ unreadable memory: walk stopped ]";
	return NULL;
}

bool pystack_frame_parts(int pycode_fd, const void *d, int i, PyFrameParts *out)
{
	uint64_t key[2];
	int64_t lasti;
	pystack_frame_key(d, i, key, &lasti);
	PyCodeInfo ci;
	memset(out, 0, sizeof(*out));
	out->line = -1;
	out->code = key[1];
	out->freed = !(key[0] >> 32); /* generation 0: met while CPython was freeing it */
	if (out->freed || pycode_fd < 0 || bpf_map_lookup_elem(pycode_fd, key, &ci) != 0)
		return false;
	snprintf(out->file, sizeof(out->file), "%s", ci.file);
	snprintf(out->name, sizeof(out->name), "%s", ci.name);
	out->line = frame_line(&ci, (int)(uint32_t)key[0], lasti);
	return true;
}

void pystack_frame(int pycode_fd, const void *d, int i, bool folded, char *text, size_t size)
{
	PyFrameParts f;
	if (!pystack_frame_parts(pycode_fd, d, i, &f)) {
		snprintf(text, size, folded ? "[code 0x%llx]" : "[ code object 0x%llx: %s ]",
			 (unsigned long long)f.code, f.freed ? "being freed" : "not cached");
		return;
	}
	char ln[16] = "?";
	if (f.line >= 0)
		snprintf(ln, sizeof(ln), "%d", f.line);
	/* folded: py-spy's frame names, "function (file:line)" */
	if (folded)
		snprintf(text, size, "%s (%s:%s)", f.name, f.file, ln);
	else
		snprintf(text, size, "[ %s:%s (%s) ]", f.file, ln, f.name);
}

void pystack_format(StrBuf *sb, int pycode_fd, const Type *t, const void *d, bool in_key)
{
	uint64_t stop;
	int n = pystack_nframes(t, d, &stop);
	const char *indent = in_key ? "    " : "        ";
	char text[PYC_FILE + PYC_NAME + 64];
	sb_putc(sb, '\n');
	for (int i = 0; i < n; i++) {
		pystack_frame(pycode_fd, d, i, false, text, sizeof(text));
		put_frame(sb, t, indent, text);
	}
	if (stop)
		put_frame(sb, t, indent, pystack_stop_text(stop));
}
