/* libprotobuf-c loaded when a run first writes a pprof profile (-f pprof),
 * not at start-up (as libdw: sym/libdw_load.h).  profile_pb.c compiles
 * protoc-c's generated code under this header, so its calls go through
 * export_protobuf()'s table, whose members have the real declarations'
 * types.  A static build links the library (protobuf_static.c). */
#pragma once
#include <protobuf-c/protobuf-c.h>

/* every libprotobuf-c function the generated code calls */
#define PROTOBUF_FUNCS(X) \
	X(protobuf_c_message_free_unpacked) \
	X(protobuf_c_message_get_packed_size) \
	X(protobuf_c_message_pack) \
	X(protobuf_c_message_pack_to_buffer) \
	X(protobuf_c_message_unpack)

#define PROTOBUF_MEMBER(name) __typeof__(name) *name;
typedef struct LibProtobuf {
	PROTOBUF_FUNCS(PROTOBUF_MEMBER)
} LibProtobuf;
#undef PROTOBUF_MEMBER

/* The table, loaded on the first call; a missing libprotobuf-c.so.1 ends
 * the run with a message naming the library and its package. */
const LibProtobuf *export_protobuf(void);
/* a static build's table (protobuf_static.c) */
extern const LibProtobuf export_protobuf_linked;
/* The library's "" that descriptors name as a string field's default: the
 * library compares a field with its descriptor's default, never with its
 * own, so the generated tables may point at ours (data cannot be loaded
 * later: the tables are initialised before any call). */
extern const char export_protobuf_empty_string[];

#ifndef PROTOBUF_LOADER
#define protobuf_c_empty_string export_protobuf_empty_string
#define protobuf_c_message_free_unpacked (export_protobuf()->protobuf_c_message_free_unpacked)
#define protobuf_c_message_get_packed_size (export_protobuf()->protobuf_c_message_get_packed_size)
#define protobuf_c_message_pack (export_protobuf()->protobuf_c_message_pack)
#define protobuf_c_message_pack_to_buffer (export_protobuf()->protobuf_c_message_pack_to_buffer)
#define protobuf_c_message_unpack (export_protobuf()->protobuf_c_message_unpack)
#endif
