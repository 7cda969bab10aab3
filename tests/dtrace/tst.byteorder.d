/* htons/htonl/htonll and ntoh*: byte order at the name's width */
#pragma D option quiet

BEGIN
{
	printf("%x %x %llx\n", htons(0x1234), htonl(0x12345678), htonll(0x0102030405060708));
	printf("%x %x %llx\n", ntohs(0xabcd12), ntohl(1), ntohll(0xff));
	exit(0);
}
