/* sonde flamegraph: folded stacks -> a tree of frames -> an interactive
 * SVG drawn here (no external scripts). */
#pragma once
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One frame in the merged call tree: `value` counts this frame and
 * everything called from it (samples, or microseconds off-CPU). */
typedef struct FlameNode {
	char *name;
	uint64_t value;
	struct FlameNode **kids; /* sorted by name once the input is read */
	int nkids, cap;
} FlameNode;

typedef struct FlameTree {
	FlameNode root;   /* name "all" */
	int depth;        /* frames in the deepest stack */
	long lines, bad;  /* input lines read, lines that were not "stack count" */
} FlameTree;

/* Reads folded stacks ("a;b;c 12" per line; blank lines skipped, others
 * counted in tree->bad) into tree, merging identical paths. */
void flame_tree_read(FlameTree *tree, FILE *in);
void flame_tree_free(FlameTree *tree);

typedef struct FlameSvgOpts {
	const char *title;    /* "Flame Graph" */
	const char *units;    /* "samples" or "us" */
	int width;            /* pixels, 1200 */
} FlameSvgOpts;

/* Writes the whole SVG document for tree. */
void flame_svg_write(FILE *out, const FlameTree *tree, const FlameSvgOpts *o);

/* Whether -p's process (pid) or the command (cmd) runs CPython that sonde
 * can walk (flame_python.c); says why not when cmd is named python*. */
bool flame_target_python(int pid, char *const *cmd);

int flamegraph_main(int argc, char **argv);
