/* Stores through pointers into alloca() memory (dtrace-utils'
 * tst.alloca-deref-store.d, -struct-union-store.d, -array-store.d,
 * -store-load-aliasing-arith.d): *p, p->member, nested members, p[i],
 * a pointer moved by arithmetic; bcopy() into it. */
#pragma D option quiet

struct st {
	struct {
		union {
			struct {
				int a;
				char b;
				int c;
			} apa;
			uint64_t val;
		} u;
	} s;
};

struct st *ptr;

int *arr;

BEGIN
{
	this->p = (int *)alloca(sizeof(int));
	*this->p = 5;
	*this->p += 2;
	(*this->p)++;
	printf("*p %d\n", *this->p);

	ptr = alloca(sizeof(struct st));
	ptr->s.u.apa.c = 0x42;
	ptr->s.u.apa.a = -1;
	printf("apa %x %d, val %x\n", ptr->s.u.apa.c, ptr->s.u.apa.a, ptr->s.u.val);

	arr = alloca(5 * sizeof(int));
	arr[3] = 0x42;
	i = 4;
	arr[i] = arr[3] + 1;
	printf("arr %d %d %d\n", arr[0], arr[3], arr[4]);

	s = (char *)alloca(10);
	j = s - 1;
	j[1] = 65;
	j[2] = 66;
	printf("s %s %d\n", stringof(s), s[0] == 65);

	this->k = (uint64_t *)alloca(16);
	bcopy(curthread, this->k, 16);
	printf("bcopy %d\n", this->k[1] == ((uint64_t *)curthread)[1]);
	exit(0);
}

ERROR
{
	exit(1);
}
