/* included by tst.cpp_include.d (-I include) */
#ifndef CPP_DEFS_H
#define CPP_DEFS_H
#define HALF(x) ((x) / 2)
#define GREETING "from a header"
#endif
