/* skboutput() at run time: the perf buffer bpf_skb_output writes into, and
 * the pcap file of each path the script names. */
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/* Nothing to do (true) when the script calls no skboutput(); else creates
 * the pcap files and reads the perf buffer (rt->perfbuf_fd). */
bool skb_capture_open(Runtime *rt, char *err, size_t errlen);
/* writes the packets waiting in the perf buffer */
void skb_capture_consume(Runtime *rt);
/* packets the kernel dropped (perf buffer full) */
uint64_t skb_capture_lost(const Runtime *rt);
/* the last packets, then the files closed; false (err set) if a write failed */
bool skb_capture_close(Runtime *rt, char *err, size_t errlen);
