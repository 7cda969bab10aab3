inline int X = 1;
inline int X = 2;
BEGIN { exit(0); }
