/* Writing pcap files: the 24-byte file header, then per packet a 16-byte
 * record header (seconds, microseconds, captured and original length) and
 * the bytes.  All fields in this host's byte order, as libpcap writes them;
 * readers tell the order from the magic number. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "pcap_writer.h"

typedef struct PcapFileHeader {
	uint32_t magic;
	uint16_t version_major, version_minor;
	int32_t thiszone;
	uint32_t sigfigs, snaplen, linktype;
} PcapFileHeader;

typedef struct PcapRecordHeader {
	uint32_t ts_sec, ts_usec, caplen, len;
} PcapRecordHeader;

bool pcap_open(PcapWriter *w, const char *path)
{
	*w = (PcapWriter){0};
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	PcapFileHeader h = {.magic = PCAP_MAGIC, .version_major = 2, .version_minor = 4,
			    .snaplen = PCAP_SNAPLEN, .linktype = PCAP_LINKTYPE_RAW};
	if (fwrite(&h, sizeof(h), 1, f) != 1) {
		int e = errno;
		fclose(f);
		errno = e;
		return false;
	}
	w->f = f;
	w->path = xstrdup(path);
	return true;
}

bool pcap_write(PcapWriter *w, uint64_t ts_ns, const void *pkt, size_t len)
{
	/* a record longer than the snapshot length is cut there, as libpcap's
	 * readers expect of caplen; len keeps the packet's size */
	size_t cap = len > PCAP_SNAPLEN ? PCAP_SNAPLEN : len;
	PcapRecordHeader r = {.ts_sec = (uint32_t)(ts_ns / 1000000000u),
			      .ts_usec = (uint32_t)(ts_ns % 1000000000u / 1000u),
			      .caplen = (uint32_t)cap, .len = (uint32_t)len};
	return fwrite(&r, sizeof(r), 1, w->f) == 1 && (!cap || fwrite(pkt, cap, 1, w->f) == 1);
}

bool pcap_close(PcapWriter *w)
{
	bool ok = true;
	if (w->f) {
		ok = !ferror(w->f);
		ok &= fclose(w->f) == 0;
	}
	free(w->path);
	*w = (PcapWriter){0};
	return ok;
}
