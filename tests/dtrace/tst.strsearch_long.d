/* strstr(), index() and rindex() of a full-size string with a long needle:
 * the scan is a bpf_loop callback, so the verifier checks one position
 * (walking every position of a 256-byte string for a 30-byte needle was
 * "program too large") */
#pragma D option quiet

BEGIN
{
	s = "/usr/lib/x86_64-linux-gnu/libfoo-abcdefghijklmnopqrstuvwxyz.so.abcdefghijklmnopqrstuvwxyz";
	n = "abcdefghijklmnopqrstuvwxyz";
	printf("%s\n", strstr(s, n));
	printf("%d %d %d\n", index(s, n), rindex(s, n), index(s, n, 40));
	printf("%d %d\n", rindex(s, n, 50), index(s, "abcdefghijklmnopqrstuvwxyz0123"));
	printf("[%s]\n", strstr(s, "abcdefghijklmnopqrstuvwxyz0123"));
	exit(0);
}
