/* -l -v: stability attributes and argument types, as dtrace prints them */
