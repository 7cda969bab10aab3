/* the C declarations a header may hold besides types */
extern int counter;                      /* an extern variable */
extern long lookup(const char *name);    /* prototypes, with or without extern */
int getentropy(void *buf, unsigned long len) __attribute__((__warn_unused_result__));
static inline unsigned short swap16(unsigned short v)
{
	return (v >> 8) | (v << 8);      /* a body: D has no functions, skipped */
}
enum mode { MODE_OFF, MODE_ON = 4, MODE_AUTO };
struct wire {
	unsigned char kind;
	unsigned int len;
} __attribute__((packed));
typedef struct wire wire_t;
