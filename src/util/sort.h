/* Comparators shared by qsort/bsearch callers. */
#pragma once

/* Elements are char * (arrays of names): strcmp order. */
int cmp_str(const void *a, const void *b);
