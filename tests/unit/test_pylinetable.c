/* The CPython 3.11 line-table decoder used to print pystack lines: a table
 * and the line of every instruction, both taken from CPython 3.11 itself
 * (co_linetable and co_lines() of a function with forward and backward
 * line moves, an if/else, a loop and a multi-line expression). */
#include "check.h"
#include "sym/pylayout.h"

static const unsigned char lt_f[] = {128, 0, 216, 8, 9, 128, 65, 216, 7, 8, 240, 0, 5, 5, 14,
216, 12, 13, 136, 1, 136, 1, 240, 8, 0, 13, 14, 136, 1, 221, 13, 18, 144, 49, 137, 88, 140, 88,
240, 0, 1, 5, 15, 240, 0, 1, 5, 15, 136, 1, 216, 8, 9, 136, 81, 137, 6, 136, 1, 136, 1, 216,
12, 13, 216, 12, 13, 241, 3, 1, 13, 14, 240, 0, 1, 5, 15};
static const int lt_f_first = 2;
static const int lt_f_lines[][2] = {{0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 4}, {5, 5}, {6, 5}, {7,
5}, {8, 9}, {9, 9}, {10, 10}, {11, 10}, {12, 10}, {13, 10}, {14, 10}, {15, 10}, {16, 10}, {17,
10}, {18, 10}, {19, 10}, {20, 10}, {21, 10}, {22, 10}, {23, 10}, {24, 10}, {25, 10}, {26, 10},
{27, 11}, {28, 11}, {29, 11}, {30, 11}, {31, 11}, {32, 11}, {33, 12}, {34, 13}, {35, 12}, {36,
12}, {37, 12}};

int main(void)
{
	size_t n = sizeof(lt_f_lines) / sizeof(lt_f_lines[0]);
	for (size_t i = 0; i < n; i++) {
		int got = py_linetable_line(lt_f, sizeof(lt_f), lt_f_first, lt_f_lines[i][0]);
		if (got != lt_f_lines[i][1])
			fprintf(stderr, "instruction %d: line %d, want %d\n", lt_f_lines[i][0], got,
				lt_f_lines[i][1]);
		CHECK(got == lt_f_lines[i][1]);
	}
	/* past the end of the table, and a table cut short: no line */
	CHECK(py_linetable_line(lt_f, sizeof(lt_f), lt_f_first, 1000) == -1);
	CHECK(py_linetable_line(lt_f, 4, lt_f_first, 30) == -1);
	/* before the first instruction: the first line */
	CHECK(py_linetable_line(lt_f, sizeof(lt_f), lt_f_first, -1) == lt_f_first);
	return check_done("pylinetable");
}
