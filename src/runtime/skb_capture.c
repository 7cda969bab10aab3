/* skboutput(): each record bpf_skb_output sends is a SkbRecord then the
 * packet's first len bytes (the kernel pads the sample to 8 bytes, so the
 * length comes from the record, not from the sample's size).  Bytes
 * offset..len go to the pcap file of the call's path, stamped with the
 * wall-clock time of the record's bpf_ktime_get_ns. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_writer.h"
#include "skb_capture.h"

#define SKB_PAGES_DEFAULT 64 /* per CPU, as bpftrace's default */

struct SkbCapture {
	struct perf_buffer *pb;
	PcapWriter *files;
	int nfiles;
	int *file_of;     /* by event index: its file, or -1 */
	uint64_t lost;
	bool write_failed;
	int write_errno;
	const char *failed_path;
};

static int file_for(SkbCapture *c, const char *path, char *err, size_t errlen)
{
	for (int i = 0; i < c->nfiles; i++)
		if (!strcmp(c->files[i].path, path))
			return i;
	c->files = xrealloc(c->files, sizeof(PcapWriter) * (size_t)(c->nfiles + 1));
	if (!pcap_open(&c->files[c->nfiles], path)) {
		snprintf(err, errlen, "skboutput(): cannot create the pcap file '%s': %s", path,
			 strerror(errno));
		return -1;
	}
	return c->nfiles++;
}

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	(void)cpu;
	Runtime *rt = ctx;
	SkbCapture *c = rt->skb;
	SkbRecord r;
	if (size < sizeof(r))
		return;
	memcpy(&r, data, sizeof(r));
	if (r.id >= (uint64_t)rt->sc->events.n || c->file_of[r.id] < 0)
		return;
	uint64_t have = size - sizeof(r);
	uint64_t len = r.len < have ? r.len : have;
	uint64_t off = r.offset < len ? r.offset : len;
	PcapWriter *w = &c->files[c->file_of[r.id]];
	uint64_t ts = r.ns + (uint64_t)rt->out.boot_to_real_ns;
	if (!pcap_write(w, ts, (const uint8_t *)data + sizeof(r) + off, len - off) && !c->write_failed) {
		c->write_failed = true;
		c->write_errno = errno;
		c->failed_path = w->path;
	}
}

static void on_lost(void *ctx, int cpu, __u64 n)
{
	(void)cpu;
	((Runtime *)ctx)->skb->lost += n;
}

bool skb_capture_open(Runtime *rt, char *err, size_t errlen)
{
	Script *sc = rt->sc;
	if (rt->perfbuf_fd < 0)
		return true;
	SkbCapture *c = rt->skb = xcalloc(1, sizeof(SkbCapture));
	c->file_of = xcalloc((size_t)sc->events.n + 1, sizeof(int));
	for (int i = 0; i < sc->events.n; i++) {
		const EventDesc *ev = sc->events.v[i];
		c->file_of[i] = -1;
		if (ev->kind == EV_SKBOUTPUT && (c->file_of[i] = file_for(c, ev->text, err, errlen)) < 0)
			return false;
	}
	size_t pages = rt->opt.rb_pages_set && rt->opt.rb_pages ? rt->opt.rb_pages : SKB_PAGES_DEFAULT;
	c->pb = perf_buffer__new(rt->perfbuf_fd, pages, on_sample, on_lost, rt, NULL);
	if (!c->pb) {
		snprintf(err, errlen, "skboutput(): cannot open the perf buffer (%zu pages a CPU): %s",
			 pages, strerror(errno));
		return false;
	}
	return true;
}

void skb_capture_consume(Runtime *rt)
{
	if (rt->skb && rt->skb->pb)
		perf_buffer__consume(rt->skb->pb);
}

uint64_t skb_capture_lost(const Runtime *rt)
{
	return rt->skb ? rt->skb->lost : 0;
}

bool skb_capture_close(Runtime *rt, char *err, size_t errlen)
{
	SkbCapture *c = rt->skb;
	if (!c)
		return true;
	skb_capture_consume(rt);
	bool ok = !c->write_failed;
	if (!ok)
		snprintf(err, errlen, "skboutput(): writing '%s': %s", c->failed_path,
			 strerror(c->write_errno));
	for (int i = 0; i < c->nfiles; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s", c->files[i].path);
		if (!pcap_close(&c->files[i]) && ok) {
			snprintf(err, errlen, "skboutput(): writing '%s': %s", path, strerror(errno));
			ok = false;
		}
	}
	if (c->pb)
		perf_buffer__free(c->pb);
	free(c->files);
	free(c->file_of);
	free(c);
	rt->skb = NULL;
	return ok;
}
