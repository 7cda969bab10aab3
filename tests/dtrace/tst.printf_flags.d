/* The Guide's Output Formatting chapter: printf's flags (- + space # 0),
 * widths and precisions written or taken from '*' arguments (a negative
 * '*' width left-aligns), '?' (a pointer's width), %% and the integer
 * conversions; %p prints hex digits without 0x, as dtrace's does */
#pragma D option quiet

BEGIN
{
	printf("[%5s][%-5s][%.2s][%5.1s]\n", "abc", "abc", "abc", "abc");
	printf("[%05d][%+d][% d][%-6d][%#x][%#o][%X][%#X]\n", 42, 42, 42, 42, 255, 8, 255, 255);
	printf("[%+5d][% 5d][%-+5d][%-05d][%+d]\n", 3, 3, 3, 3, -3);
	printf("[%*d][%-*d][%.*s][%*.*s]\n", 6, 42, 6, 42, 2, "abcdef", 5, 3, "abcdef");
	printf("[%*d][%.*s]\n", -4, 7, -1, "all");
	printf("[%c][%3c][%-3c]\n", 'A', 'B', 'C');
	printf("[%i][%u][%o][%x][%lx][%llu]\n", -5, 5, 8, 255, 1L << 36, 1ULL << 63);
	printf("[%?p][%p][%#p]\n", 0x1234, 0xffffffff81000000, 16);
	printf("100%% [%%] %s\n", "done");
	exit(0);
}
