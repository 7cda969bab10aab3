/* #error in a group taken */
#define LIMIT 10
#if LIMIT > 5
#error LIMIT is too large
#endif
