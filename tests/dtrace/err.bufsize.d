/* -b: a size with a suffix dtrace does not know (k, m, g, t) */
