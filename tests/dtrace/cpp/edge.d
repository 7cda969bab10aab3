/* corner cases: macro names without (, empty arguments, # of strings, ## chains, self reference, GNU named variadics */
#define f(x) [x]
#define g f
#define h() H
#define str(s) # s
#define xstr(s) str(s)
#define EMPTY
#define COMMA ,
#define LPAREN (
#define apply(m, a) m(a)
#define paste3(a, b, c) a ## b ## c
#define q(x) x
a: g(1) g (2) g
b: h() h ( ) h
c: str( "a\n" 'b' \ x ) str() str(   ) xstr(__LINE__)
d: apply(f, 3) apply(str, x y) q(EMPTY) q(q)(4)
e: paste3(1, 2, 3) paste3(, , x) paste3(a, , ) paste3(<, <, =)
f: f(COMMA) f(()) f((a, b))
g: str(f(1)) xstr(f(1)) xstr(EMPTY) str(@x $y)
h: f(
  multi
  line
) after
i: #define not_directive 1

#define SELF(x) x SELF(x)
j: SELF(1) SELF(SELF(2))
#define AB(x) x ## __LINE__
k: AB(l) __LINE__
#define PF(fmt, args...) printf(fmt, args)
l: PF("%d", 1, 2)
#undef f
m: f(1)
#define n(x) x
n: n(/* comment */ 5) n(// c
6)
o: 'x' '\'' "str\"ing" u8"x"
