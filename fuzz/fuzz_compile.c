/* libFuzzer target: program text -> parser -> sema -> codegen.  Nothing is
 * loaded into the kernel; any crash, leak or sanitizer report is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile/script.h"
#include "lang/ast.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	Source src = {.name = "fuzz", .text = text};
	Error err = {0};
	Program *p = parse_program(&src, &err);
	if (p) {
		static char *params[] = {"1", "two"};
		Options opt = {.strlen_max = 64, .map_keys_max = 4096, .params = params,
			       .nparams = 2, .self_pid = 1};
		Script *sc = compile_program(p, &opt, &err);
		script_free(sc);
		program_free(p);
	}
	free(text);
	return 0;
}
