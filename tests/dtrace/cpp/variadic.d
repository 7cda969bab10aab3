/* __VA_ARGS__ and GNU's , ## __VA_ARGS__ */
#define LOG(fmt, ...) printf(fmt "\n", __VA_ARGS__)
#define LOG0(fmt, ...) printf(fmt "\n", ## __VA_ARGS__)
#define ALL(...) trace(__VA_ARGS__)
#define FIRST(a, ...) a

BEGIN
{
	LOG("%d %d", 1, 2);
	LOG0("none");
	LOG0("one %d", 1);
	ALL(1);
	ALL((1, 2));
	x = FIRST(10, 20, 30);
}
