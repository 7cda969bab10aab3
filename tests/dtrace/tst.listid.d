/* -i: a probe by its id */
