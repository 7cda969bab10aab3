/* pcap files as libpcap writes them (what bpftrace 0.17's skboutput()
 * produces): the classic format, microsecond timestamps, raw IP packets. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PCAP_MAGIC 0xa1b2c3d4u    /* microsecond timestamps, this host's byte order */
#define PCAP_LINKTYPE_RAW 101     /* LINKTYPE_RAW: packets start with their IP header */
#define PCAP_SNAPLEN 65535        /* what bpftrace's pcap_open_dead(DLT_RAW, 65535) sets */

typedef struct PcapWriter {
	FILE *f;
	char *path;
} PcapWriter;

/* creates (truncates) path and writes the file header; false with errno set */
bool pcap_open(PcapWriter *w, const char *path);
/* one packet record: ts_ns is the time since the epoch, in nanoseconds */
bool pcap_write(PcapWriter *w, uint64_t ts_ns, const void *pkt, size_t len);
/* flushes and closes; false (errno set) if a write failed */
bool pcap_close(PcapWriter *w);
