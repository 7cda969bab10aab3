/* The static build's libprotobuf-c table: the functions linked in, no
 * dlopen.  Linked only into static builds (the Makefile's STATIC_OBJ). */
#define PROTOBUF_LOADER
#include "protobuf_load.h"

#define PROTOBUF_LINK(name) .name = name,
const LibProtobuf export_protobuf_linked = { PROTOBUF_FUNCS(PROTOBUF_LINK) };
