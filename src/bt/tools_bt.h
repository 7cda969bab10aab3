/* The ready tools (tools/NAME.bt): where they are, `sonde --tools` (one
 * each), `sonde --tool NAME` (its path). */
#pragma once
#include <stdio.h>

/* Lists every tool of the first tools directory found: "NAME  what it
 * answers" (the description from its header comment).  Returns 0, or 1
 * when no tools directory is found. */
int tools_list(FILE *out);

/* The path of tool NAME (NAME, NAME.bt), malloc'ed; NULL with a message on
 * stderr when there is none. */
char *tool_path(const char *name);

/* After a compile error in FILE: when the tools directory has a tool of
 * FILE's name (and FILE is not that tool), a HINT line on stderr naming it. */
void tool_suggest(const char *file);
