/* The record file: magic, version, a header (host, clocks, options, the
 * syscall table), then chunks [u32 type][u32 len][len bytes]. */
#include "recfile.h"

#include <stdlib.h>
#include <string.h>

#include "sigs.h"
#include "../util/util.h"

static bool put32(FILE *f, uint32_t v)
{
	return fwrite(&v, 4, 1, f) == 1;
}

static bool putstr(FILE *f, const char *s)
{
	size_t n = strlen(s);
	return put32(f, (uint32_t)n) && fwrite(s, 1, n, f) == n;
}

bool rec_write_header(FILE *f, const RecInfo *info)
{
	bool ok = fwrite(TRACE_MAGIC, 1, 8, f) == 8 && put32(f, TRACE_VERSION) &&
		  putstr(f, info->sysname) && putstr(f, info->release) && putstr(f, info->version) &&
		  putstr(f, info->machine) && putstr(f, info->nodename) &&
		  fwrite(&info->mono_to_real, 8, 1, f) == 1 && put32(f, (uint32_t)info->main_pid) &&
		  put32(f, (uint32_t)info->strsize) && put32(f, info->flags);
	int n = 0;
	for (int i = 0; i < SYSCALL_MAX; i++)
		n += syscall_table_name(i) != NULL;
	ok = ok && put32(f, (uint32_t)n);
	for (int i = 0; i < SYSCALL_MAX && ok; i++)
		if (syscall_table_name(i))
			ok = put32(f, (uint32_t)i) && putstr(f, syscall_table_name(i)) &&
			     putstr(f, sig_of(i));
	return ok;
}

bool rec_write_chunk(FILE *f, uint32_t type, const void *data, uint32_t len)
{
	return put32(f, type) && put32(f, len) && fwrite(data, 1, len, f) == len;
}

static bool get32(FILE *f, uint32_t *v)
{
	return fread(v, 4, 1, f) == 1;
}

static bool getstr(FILE *f, char *out, size_t cap)
{
	uint32_t n;
	if (!get32(f, &n) || n >= 4096)
		return false;
	char tmp[4096];
	if (fread(tmp, 1, n, f) != n)
		return false;
	tmp[n] = 0;
	snprintf(out, cap, "%s", tmp);
	return true;
}

bool rec_read_header(FILE *f, RecInfo *info, char *err, size_t errlen)
{
	char magic[8];
	uint32_t ver;
	memset(info, 0, sizeof(*info));
	if (fread(magic, 1, 8, f) != 8 || memcmp(magic, TRACE_MAGIC, 8)) {
		snprintf(err, errlen, "not a sonde trace record file (no %s magic)", TRACE_MAGIC);
		return false;
	}
	if (!get32(f, &ver) || ver != TRACE_VERSION) {
		snprintf(err, errlen, "record file version %u; this sonde reads version %d", ver,
			 TRACE_VERSION);
		return false;
	}
	uint32_t pid, strsize, n;
	char tmp[4096];
	bool ok = getstr(f, info->sysname, sizeof(info->sysname)) &&
		  getstr(f, info->release, sizeof(info->release)) &&
		  getstr(f, info->version, sizeof(info->version)) &&
		  getstr(f, info->machine, sizeof(info->machine)) &&
		  getstr(f, info->nodename, sizeof(info->nodename)) &&
		  fread(&info->mono_to_real, 8, 1, f) == 1 && get32(f, &pid) && get32(f, &strsize) &&
		  get32(f, &info->flags) && get32(f, &n) && n <= SYSCALL_MAX;
	for (uint32_t i = 0; ok && i < n; i++) {
		uint32_t nr;
		ok = get32(f, &nr) && getstr(f, tmp, sizeof(tmp)) && getstr(f, tmp, sizeof(tmp));
	}
	if (!ok) {
		snprintf(err, errlen, "the record file is truncated (in its header)");
		return false;
	}
	if (strcmp(info->machine, "x86_64")) {
		snprintf(err, errlen, "the record file comes from a %s machine; only x86_64 is decoded",
			 info->machine);
		return false;
	}
	info->main_pid = (int32_t)pid;
	info->strsize = (int32_t)strsize;
	info->nsyscalls = (int)n;
	return true;
}

int rec_read_chunk(FILE *f, uint32_t *type, void **buf, uint32_t *len, size_t *cap)
{
	uint32_t hdr[2];
	size_t got = fread(hdr, 1, 8, f);
	if (got == 0)
		return 0;
	if (got != 8 || hdr[1] > (64u << 20))
		return -1;
	if (*cap < hdr[1]) {
		*cap = hdr[1];
		*buf = xrealloc(*buf, *cap);
	}
	if (fread(*buf, 1, hdr[1], f) != hdr[1])
		return -1;
	*type = hdr[0];
	*len = hdr[1];
	return 1;
}

bool rec_write_event(FILE *f, uint32_t idx, const char *cat, const char *name, const TpFormat *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return false;
	bool ok = put32(m, idx) && putstr(m, cat) && putstr(m, name) &&
		  put32(m, (uint32_t)fmt->nfields);
	for (int i = 0; i < fmt->nfields && ok; i++) {
		const TpField *t = &fmt->fields[i];
		uint32_t fl = (t->is_signed ? 1u : 0) | (t->is_data_loc ? 2u : 0) |
			      (t->is_str ? 4u : 0) | (t->is_ptr ? 8u : 0);
		ok = putstr(m, t->name) && put32(m, (uint32_t)t->offset) &&
		     put32(m, (uint32_t)t->size) && put32(m, (uint32_t)t->array_len) && put32(m, fl);
	}
	ok = fclose(m) == 0 && ok;
	ok = ok && rec_write_chunk(f, CHUNK_EVENT, buf, (uint32_t)len);
	free(buf);
	return ok;
}

bool rec_read_event(const void *data, uint32_t len, uint32_t *idx, char **cat, char **name,
		    TpFormat *fmt)
{
	FILE *m = fmemopen((void *)data, len, "rb");
	if (!m)
		return false;
	char c[256], n[256];
	uint32_t nf = 0;
	memset(fmt, 0, sizeof(*fmt));
	bool ok = get32(m, idx) && getstr(m, c, sizeof(c)) && getstr(m, n, sizeof(n)) &&
		  get32(m, &nf) && nf <= 1024;
	if (ok) {
		fmt->fields = xcalloc(nf + 1, sizeof(TpField));
		for (uint32_t i = 0; i < nf && ok; i++) {
			TpField *t = &fmt->fields[i];
			char fname[256];
			uint32_t off, size, alen, fl;
			ok = getstr(m, fname, sizeof(fname)) && get32(m, &off) && get32(m, &size) &&
			     get32(m, &alen) && get32(m, &fl) && off < 65536 && size < 65536;
			if (!ok)
				break;
			t->name = xstrdup(fname);
			t->offset = (int)off;
			t->size = (int)size;
			t->array_len = (int)alen;
			t->is_signed = fl & 1;
			t->is_data_loc = fl & 2;
			t->is_str = fl & 4;
			t->is_ptr = fl & 8;
			fmt->nfields++;
		}
	}
	fclose(m);
	if (!ok) {
		tp_format_free(fmt);
		return false;
	}
	*cat = xstrdup(c);
	*name = xstrdup(n);
	return true;
}
