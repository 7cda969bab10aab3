/* -f pprof: maps keyed by stacks as one gzipped pprof profile
 * (profile.proto, encoded by protobuf-c), read by `go tool pprof`,
 * Pyroscope, Parca, speedscope. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "../runtime/runtime.h"

typedef struct Pprof Pprof;

/* Opens path for writing now (a bad path fails before anything runs);
 * NULL with err filled */
Pprof *pprof_new(const char *path, char *err, size_t errlen);
/* The hooks runtime_run calls at exit (RunOpts.maps_sink) */
const MapsSink *pprof_sink(Pprof *p);
void pprof_free(Pprof *p);

/* Whether map m goes into the profile: keyed by kstack/ustack (alone or in
 * a tuple), values count(), sum() or integers */
bool pprof_takes(const MapDesc *m);
/* A map's sample type: count() is NAME/count ("samples" for @); sum() and
 * integers take their unit from the name's suffix: _ns nanoseconds, _us
 * microseconds, _bytes bytes, else count (@off_cpu_ns: off_cpu/nanoseconds) */
void pprof_sample_type(const MapDesc *m, StrBuf *type, const char **unit);
