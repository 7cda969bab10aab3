inline int X = "a";
BEGIN { trace(X); exit(0); }
