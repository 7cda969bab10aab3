/* a header with a broken declaration */
typedef unsigned int good_t;
extern int broken(int x;
struct after { int a; };
