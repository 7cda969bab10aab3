/* sonde trace record/report files (docs/trace-format.md). */
#pragma once
#include <stdbool.h>
#include <stdio.h>

#include "../sym/tracefs.h"
#include "trace.h"

#define TRACE_MAGIC "SONDETRC"
#define TRACE_VERSION 1

enum { CHUNK_RECORD = 1, CHUNK_FDNAME = 2, CHUNK_END = 3, CHUNK_EVENT = 4 };

typedef struct RecInfo {
	char sysname[65], release[65], version[65], machine[65], nodename[65];
	int64_t mono_to_real;
	int32_t main_pid;
	int32_t strsize;
	uint32_t flags; /* bit 0: -f */
	int nsyscalls;  /* entries of the syscall table in the file */
} RecInfo;

bool rec_write_header(FILE *f, const RecInfo *info);
bool rec_write_chunk(FILE *f, uint32_t type, const void *data, uint32_t len);
/* Reads the header; false with a message for a foreign or truncated file. */
bool rec_read_header(FILE *f, RecInfo *info, char *err, size_t errlen);
/* Next chunk into *buf (grown as needed): 1 ok, 0 end of file, -1 truncated. */
int rec_read_chunk(FILE *f, uint32_t *type, void **buf, uint32_t *len, size_t *cap);
/* CHUNK_EVENT: an --event tracepoint's name and record layout */
bool rec_write_event(FILE *f, uint32_t idx, const char *cat, const char *name, const TpFormat *fmt);
bool rec_read_event(const void *data, uint32_t len, uint32_t *idx, char **cat, char **name,
		    TpFormat *fmt);
