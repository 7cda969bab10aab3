/* -x defaultargs on the command line: $2 and $$3 not given read as 0 and "" */
