/* An associative array whose values are structs (the DTrace Guide's
 * rwinfo.d): members written, incremented and read per key; an element
 * created by its first member store starts zeroed; a whole element
 * copied to another key. */
#pragma D option quiet

struct callinfo {
	uint64_t ts;
	uint64_t elapsed;
	uint64_t calls;
	size_t maxbytes;
	short s;
	char c;
};

struct callinfo i[string];

BEGIN
{
	i["read"].ts = 1000;
	i["read"].calls++;
	++i["read"].calls;
	i["read"].maxbytes = 10 > i["read"].maxbytes ? 10 : i["read"].maxbytes;
	i["read"].elapsed += 1500 - i["read"].ts;
	i["read"].elapsed *= 3;
	i["read"].s = 70000;
	i["read"].c = -1;
	i["write"].calls--;
	i["copy"] = i["read"];
	i["copy"].calls += 40;
	printf("read: ts %d calls %d max %d elapsed %d s %d c %d\n", i["read"].ts,
	    i["read"].calls, i["read"].maxbytes, i["read"].elapsed, i["read"].s, i["read"].c);
	printf("write: calls %d ts %d\n", (long)i["write"].calls, i["write"].ts);
	printf("copy: ts %d calls %d elapsed %d\n", i["copy"].ts, i["copy"].calls,
	    i["copy"].elapsed);
	printf("post %d pre %d\n", i["x"].calls++, ++i["x"].calls);
	exit(0);
}
