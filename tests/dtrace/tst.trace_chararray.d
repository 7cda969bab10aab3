/*
 * ASSERTION: trace() of a char array (a struct member) keeps the bytes
 * after its first NUL, as dtrace-utils records the array's bytes and
 * prints them with dt_print_bytes: as text when the printable bytes are
 * followed by nothing but NULs, else (also when all are NUL) as
 * tracemem()'s dump. printf("%s") and stringof() stop at the NUL.
 */
#pragma D option quiet

struct cs {
	union {
		char c[8];
		uint64_t v;
	} u;
};

BEGIN
{
	this->p = (struct cs *)alloca(sizeof(struct cs));
	this->p->u.v = 0x0000780000006261;	/* "ab\0\0\0x\0\0" */
	trace(this->p->u.c);
	printf("\n[%s] [%s]\n", this->p->u.c, stringof(this->p->u.c));
	this->p->u.v = 0x6261;
	trace(this->p->u.c);
	printf("\n");
	this->p->u.v = 0;
	trace(this->p->u.c);
	printf("\n");
	exit(0);
}
