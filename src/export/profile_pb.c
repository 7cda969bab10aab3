/* pprof's profile.proto as protoc-c generates it (build/gen), compiled with
 * its libprotobuf-c calls through the table loaded on first use
 * (protobuf_load.h). */
#include "protobuf_load.h"
#include "profile.pb-c.c"
