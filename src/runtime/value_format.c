/* Values as text, the way bpftrace 0.17 prints them: print(), map keys and
 * values, printf's %s, json output.  Quirks kept on purpose (they are what
 * bpftrace prints): json strftime values are not quoted; stacks indent 8
 * spaces as values but 4 inside map keys; unresolved symbols print as
 * "%#llx" (so address 0 is "0"). */
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "../util/syscall_table.h"
#include "../util/bytes.h"
#include "../sym/cgroup_paths.h"
#include "../sym/elf_syms.h"
#include "../sym/ksyms.h"
#include "frontend_rt.h"
#include "output.h"
#include "value_ctype.h"

void json_escape(StrBuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		switch (c) {
		case '"': sb_putn(sb, "\\\"", 2); continue;
		case '\\': sb_putn(sb, "\\\\", 2); continue;
		case '\n': sb_putn(sb, "\\n", 2); continue;
		case '\t': sb_putn(sb, "\\t", 2); continue;
		case '\r': sb_putn(sb, "\\r", 2); continue;
		default: break;
		}
		/* bytes >= 0x80 are negative chars: bpftrace prints them as
		 * \uffffffXX; 0x7f goes through unchanged */
		if (c < 0x20)
			sb_printf(sb, "\\u%04x", (unsigned)(int)c);
		else
			sb_putc(sb, c);
	}
}

void json_quoted(StrBuf *sb, const char *s, size_t n)
{
	sb_putc(sb, '"');
	json_escape(sb, s, n);
	sb_putc(sb, '"');
}

/* Value size of a stack map, asked once per fd. */
static int stack_value_size(int fd)
{
	static int cached_fd = -1, cached_size;
	if (fd == cached_fd)
		return cached_size;
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) != 0)
		return 0;
	cached_fd = fd;
	cached_size = (int)info.value_size;
	return cached_size;
}

int stack_read(const OutCtx *o, const Type *t, const void *d, uint64_t ips[STACK_IPS_MAX])
{
	if (t->stack_mode == STACK_BUILD_ID) /* no addresses: fmt_build_id_stack */
		return -1;
	const int *fds = t->kind == TY_USTACK ? o->ustack_fds : o->kstack_fds;
	int depth = t->stack_depth >= 1 && t->stack_depth <= STACK_DEPTH_MAX ? t->stack_depth
										: STACK_DEPTH_MAX;
	int fd = fds ? fds[depth] : -1;
	int64_t id = rd64(d);
	if (id < 0 || fd < 0)
		return -1;
	int vsize = stack_value_size(fd);
	if (vsize <= 0 || vsize > STACK_IPS_MAX * 8)
		return -1;
	uint32_t key = (uint32_t)id;
	if (bpf_map_lookup_elem(fd, &key, ips) != 0)
		return -1;
	int n = vsize / 8;
	if (t->stack_depth > 0 && t->stack_depth < n)
		n = t->stack_depth;
	int k = 0;
	while (k < n && ips[k])
		k++;
	return k;
}

const char *stack_frame_name(struct SymCtx *sc, const Type *t, const void *d, uint64_t ip, uint64_t *off,
			     const char **mod)
{
	if (t->kind != TY_USTACK)
		return ksym_name(sc, ip, off);
	return usym_resolve(sc, (int)rd64((const char *)d + 8), ip, off, mod);
}

const char *stack_frame_name_o(const OutCtx *o, const Type *t, const void *d, uint64_t ip,
			       uint64_t *off, const char **mod)
{
	if (t->kind == TY_USTACK && o->no_usyms)
		return NULL;
	return stack_frame_name(o->sym, t, d, ip, off, mod);
}

/* one frame of a symbolized stack: bpftrace's "sym+off" (indented), or
 * perf's "\taddr sym+off (module)" */
static void fmt_frame(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, uint64_t ip,
		      const char *indent)
{
	uint64_t off;
	const char *mod = NULL;
	const char *name = stack_frame_name_o(o, t, d, ip, &off, &mod);
	unsigned long long a = (unsigned long long)ip;
	if (t->stack_mode == STACK_PERF) {
		if (name)
			sb_printf(sb, "\t%llx %s+%llu", a, name, (unsigned long long)off);
		else
			sb_printf(sb, "\t%llx 0x%llx", a, a);
		if (t->kind == TY_USTACK)
			sb_printf(sb, " (%s)", name && mod ? mod : "[unknown]");
		sb_putc(sb, '\n');
	} else if (name)
		sb_printf(sb, "%s%s+%llu\n", indent, name, (unsigned long long)off);
	else
		sb_printf(sb, "%s0x%llx\n", indent, a);
}

/* ustack(build_id): a line per frame, the file's build id in hex and the
 * offset in it, or the bare address when the kernel could not read the
 * build id (bpftrace 0.26) */
static void fmt_build_id_stack(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	int depth = t->stack_depth >= 1 && t->stack_depth <= STACK_DEPTH_MAX ? t->stack_depth
									     : STACK_DEPTH_MAX;
	int fd = o->bstack_fds ? o->bstack_fds[depth] : -1;
	int64_t id = rd64(d);
	struct bpf_stack_build_id frames[STACK_DEPTH_MAX];
	uint32_t key = (uint32_t)id;
	if (id < 0 || fd < 0 || bpf_map_lookup_elem(fd, &key, frames) != 0)
		return;
	sb_putc(sb, '\n');
	for (int i = 0; i < depth && frames[i].status != BPF_STACK_BUILD_ID_EMPTY; i++) {
		if (frames[i].status != BPF_STACK_BUILD_ID_VALID) {
			sb_printf(sb, "%llx\n", (unsigned long long)frames[i].ip);
			continue;
		}
		for (int b = 0; b < BPF_BUILD_ID_SIZE; b++)
			sb_printf(sb, "%02x", frames[i].build_id[b]);
		sb_printf(sb, " 0x%02llx\n", (unsigned long long)frames[i].offset);
	}
}

/* Stack frames: "\n" then one line per frame (indented in bpftrace's
 * mode, raw addresses in hex in raw mode); nothing when the id is negative
 * (the kernel could not take the stack) or unknown. */
static void fmt_stack(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, bool in_key)
{
	if (t->stack_mode == STACK_BUILD_ID) {
		fmt_build_id_stack(sb, o, t, d);
		return;
	}
	uint64_t ips[STACK_IPS_MAX];
	int n = stack_read(o, t, d, ips);
	if (n < 0)
		return;
	sb_putc(sb, '\n');
	for (int i = 0; i < n; i++) {
		if (t->stack_mode == STACK_RAW)
			sb_printf(sb, "%llx\n", (unsigned long long)ips[i]);
		else
			fmt_frame(sb, o, t, d, ips[i], in_key ? "    " : "        ");
	}
}

static void fmt_sym(StrBuf *sb, const OutCtx *o, const Type *t, const void *d)
{
	uint64_t addr = (uint64_t)rd64(d), off;
	const char *name = t->kind == TY_KSYM ? ksym_name(o->sym, addr, &off)
			   : o->no_usyms ? NULL
			   : usym_resolve(o->sym, (int)rd64((const char *)d + 8), addr, &off, NULL);
	if (name)
		sb_puts(sb, name);
	else
		sb_printf(sb, "%#llx", (unsigned long long)addr);
}

/* the address's text, at most max characters (Type.line_max; 0: all) */
static void fmt_inet(StrBuf *sb, const void *d, int max)
{
	char out[INET6_ADDRSTRLEN];
	int64_t fam = rd64(d);
	int af = fam == AF_INET6 ? AF_INET6 : AF_INET;
	if (fam != AF_INET && fam != AF_INET6)
		return;
	if (!inet_ntop(af, (const char *)d + 8, out, sizeof(out)))
		return;
	if (max > 0 && strlen(out) > (size_t)max)
		out[max] = 0;
	sb_puts(sb, out);
}

/* strftime with bpftrace's %f (microseconds, 6 digits) done first. */
static void fmt_time(StrBuf *sb, const char *fmt, int64_t real_ns)
{
	char f2[512], out[1024];
	size_t j = 0;
	long usec = (long)((real_ns % 1000000000 + 1000000000) % 1000000000 / 1000);
	for (size_t i = 0; fmt[i] && j < sizeof(f2) - 8; i++) {
		if (fmt[i] == '%' && fmt[i + 1] == 'f') {
			j += (size_t)snprintf(f2 + j, sizeof(f2) - j, "%06ld", usec);
			i++;
		} else if (fmt[i] == '%' && fmt[i + 1]) {
			f2[j++] = fmt[i++];
			f2[j++] = fmt[i];
		} else {
			f2[j++] = fmt[i];
		}
	}
	f2[j] = 0;
	time_t secs = (time_t)(real_ns >= 0 ? real_ns / 1000000000 : (real_ns - 999999999) / 1000000000);
	struct tm tm;
	if (!localtime_r(&secs, &tm))
		return;
	size_t n = strftime(out, sizeof(out), f2, &tm);
	sb_putn(sb, out, n);
}

/* signal_name(): strsignal()'s text ("Interrupt", "Unknown signal 0"),
 * "N/A" for a number no signal can have, as bpftrace 0.26 */
static void fmt_signal(StrBuf *sb, int64_t sig)
{
	sb_puts(sb, sig >= 0 && sig < NSIG ? strsignal((int)sig) : "N/A");
}

/* macaddr(): six bytes as upper-case hex pairs */
static void fmt_macaddr(StrBuf *sb, const void *d)
{
	const unsigned char *m = d;
	sb_printf(sb, "%02X:%02X:%02X:%02X:%02X:%02X", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* username: the uid's name from the password database, else the number */
static void fmt_username(StrBuf *sb, const void *d)
{
	uint64_t uid = (uint64_t)rd64(d);
	struct passwd pw, *res = NULL;
	char buf[1024];
	if (getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) == 0 && res)
		sb_puts(sb, res->pw_name);
	else
		sb_printf(sb, "%llu", (unsigned long long)uid);
}

/* buf(): printable ASCII as is, everything else as \xNN (printf's %r);
 * mode 'x' (%rx): every byte as \xNN; 'h' (%rh): bytes as hex pairs
 * separated by spaces. */
void buf_format(StrBuf *sb, const Type *t, const void *d, char mode)
{
	int64_t n = rd64(d);
	const unsigned char *p = (const unsigned char *)d + 8;
	if (n > t->size - 8)
		n = t->size - 8;
	for (int64_t i = 0; i < n; i++) {
		if (mode == 'h')
			sb_printf(sb, i ? " %02x" : "%02x", p[i]);
		else if (mode != 'x' && p[i] >= 0x20 && p[i] < 0x7f)
			sb_putc(sb, (char)p[i]);
		else
			sb_printf(sb, "\\x%02x", p[i]);
	}
}

/* a record: `{ .a = 1, .b = x }` (bpftrace 0.26), in json an object */
static void fmt_record(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, bool in_key)
{
	bool json = o->fmt == OUT_JSON;
	sb_puts(sb, json ? "{" : "{ ");
	for (int i = 0; i < t->nelem; i++) {
		if (i)
			sb_puts(sb, ", ");
		sb_printf(sb, json ? "\"%s\": " : ".%s = ", t->names[i]);
		value_format(sb, o, t->elem[i], (const char *)d + t->offset[i], in_key);
	}
	sb_puts(sb, json ? "}" : " }");
}

static void fmt_tuple(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, bool in_key)
{
	bool json = o->fmt == OUT_JSON;
	if (t->names) {
		fmt_record(sb, o, t, d, in_key);
		return;
	}
	sb_putc(sb, json ? '[' : '(');
	for (int i = 0; i < t->nelem; i++) {
		if (i)
			sb_puts(sb, json ? "," : ", ");
		value_format(sb, o, t->elem[i], (const char *)d + t->offset[i], in_key);
	}
	sb_putc(sb, json ? ']' : ')');
}

/* A stack in the front end's layout, else bpftrace's (Python's frames
 * as python/ prints them) */
static void fmt_any_stack(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, bool in_key)
{
	const FrontendRt *fe = frontend_rt(o);
	if (fe->format_stack)
		fe->format_stack(sb, o, t, d);
	else if (t->kind != TY_PYSTACK)
		fmt_stack(sb, o, t, d, in_key);
	else if (fe->pystack)
		fe->pystack->format(sb, o->pycode_fd, t, d, in_key);
}

void fmt_string(StrBuf *sb, const OutCtx *o, const Type *t, const char *d)
{
	size_t n = strnlen(d, (size_t)t->size);
	sb_putn(sb, d, n);
	if (n == (size_t)t->size && o->str_trailer)
		sb_puts(sb, o->str_trailer);
}

/* Everything but ints and tuples formats as text; json quotes it. */
static void fmt_textual(StrBuf *sb, const OutCtx *o, const Type *t, const void *d, bool in_key)
{
	const FrontendRt *fe = frontend_rt(o);
	switch (t->kind) {
	case TY_STR:
		fmt_string(sb, o, t, d);
		break;
	case TY_KSTACK:
	case TY_USTACK:
	case TY_PYSTACK:
		fmt_any_stack(sb, o, t, d, in_key);
		break;
	case TY_KSYM:
	case TY_USYM:
		if (t->dsym && fe->format_sym)
			fe->format_sym(sb, o, t, d);
		else
			fmt_sym(sb, o, t, d);
		break;
	case TY_SYSCALL:
		sb_puts(sb, syscall_name((int)rd64(d)));
		break;
	case TY_INET:
		fmt_inet(sb, d, t->line_max);
		break;
	case TY_TIMESTAMP:
		fmt_time(sb, t->fmt ? t->fmt : "%H:%M:%S", rd64(d) + o->boot_to_real_ns);
		break;
	case TY_BUF:
		buf_format(sb, t, d, 'r');
		break;
	case TY_STRERROR:
		sb_puts(sb, strerror((int)rd64(d)));
		break;
	case TY_SIGNAL:
		fmt_signal(sb, rd64(d));
		break;
	case TY_USERNAME:
		fmt_username(sb, d);
		break;
	case TY_MACADDR:
		fmt_macaddr(sb, d);
		break;
	case TY_CGROUP_PATH:
		cgroup_paths_format(sb, (uint64_t)rd64(d), t->fmt);
		break;
	default:
		break;
	}
}

void value_format(StrBuf *sb, const OutCtx *o, const Type *t, const void *data, bool in_key)
{
	if (t->kind == TY_RECORD || t->kind == TY_ARRAY) {
		value_format_ctype(sb, o, t, data, in_key);
		return;
	}
	if (t->kind == TY_INT && t->is_bool) {
		sb_puts(sb, rd64(data) ? "true" : "false");
		return;
	}
	if (t->kind == TY_INT && t->enum_named && o->fmt != OUT_JSON &&
	    type_enum_name(t, rd64(data))) { /* JSON keeps numbers, as bpftrace's */
		sb_puts(sb, type_enum_name(t, rd64(data)));
		return;
	}
	if (t->kind == TY_INT) {
		/* bpftrace shows integer map keys (and pointers) as signed 64-bit */
		int64_t v = rd64(data);
		if (t->pointee && frontend_rt(o)->pointers_hex && o->fmt != OUT_JSON)
			sb_printf(sb, "0x%llx", (unsigned long long)v);
		else if (t->is_signed || in_key || t->pointee)
			sb_printf(sb, "%lld", (long long)v);
		else
			sb_printf(sb, "%llu", (unsigned long long)v);
		return;
	}
	if (t->kind == TY_TUPLE) {
		fmt_tuple(sb, o, t, data, in_key);
		return;
	}
	/* json: quote and escape the text form; strftime, strerror, macaddr
	 * and cgroup_path values stay bare (as bpftrace 0.17 prints them) */
	bool bare = !frontend_rt(o)->json_quotes_all_text &&
		    (t->kind == TY_TIMESTAMP || t->kind == TY_STRERROR || t->kind == TY_MACADDR ||
		     t->kind == TY_CGROUP_PATH);
	if (o->fmt != OUT_JSON || bare) {
		fmt_textual(sb, o, t, data, in_key);
		return;
	}
	StrBuf tmp = {0};
	fmt_textual(&tmp, o, t, data, in_key);
	json_quoted(sb, tmp.s ? tmp.s : "", tmp.len);
	sb_free(&tmp);
}

void value_print(const OutCtx *o, const Type *t, const void *data)
{
	StrBuf sb = {0};
	if (o->fmt == OUT_JSON) {
		sb_puts(&sb, "{\"type\": \"value\", \"data\": ");
		value_format(&sb, o, t, data, false);
		sb_puts(&sb, "}\n");
	} else {
		value_format(&sb, o, t, data, false);
		sb_putc(&sb, '\n');
	}
	fwrite(sb.s, 1, sb.len, o->f);
	sb_free(&sb);
}

/* Writes a json line {"type": <type>, "data": "<s escaped>"}. */
static void json_line(const OutCtx *o, const char *type, const char *s, size_t n)
{
	static __thread StrBuf sb;
	sb_reset(&sb);
	sb_printf(&sb, "{\"type\": \"%s\", \"data\": \"", type);
	json_escape(&sb, s, n);
	sb_puts(&sb, "\"}\n");
	fwrite(sb.s, 1, sb.len, o->f);
}

void output_message(const OutCtx *o, const char *type, const char *s, size_t n, bool nl)
{
	if (o->fmt == OUT_JSON) {
		json_line(o, type, s, n);
		return;
	}
	fwrite(s, 1, n, o->f);
	if (nl)
		fputc('\n', o->f);
}

void output_printf_text(const OutCtx *o, const char *s, size_t n)
{
	output_message(o, "printf", s, n, false);
}

void output_lost_events(const OutCtx *o, uint64_t lost)
{
	if (o->fmt == OUT_JSON)
		fprintf(o->f, "{\"type\": \"lost_events\", \"data\": {\"events\": %llu}}\n",
			(unsigned long long)lost);
	else
		fprintf(o->f, "Lost %llu events\n", (unsigned long long)lost);
}

void output_time(const OutCtx *o, const char *fmt)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct tm tm;
	char out[1024];
	if (!localtime_r(&ts.tv_sec, &tm))
		return;
	size_t n = strftime(out, sizeof(out), fmt ? fmt : "%H:%M:%S\n", &tm);
	if (o->fmt == OUT_JSON)
		json_line(o, "time", out, n);
	else
		fwrite(out, 1, n, o->f);
}
