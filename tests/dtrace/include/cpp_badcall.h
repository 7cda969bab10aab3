/* included by err.cpp_in_header.d */
#define ADD(a, b) ((a) + (b))
int x = ADD(1);
