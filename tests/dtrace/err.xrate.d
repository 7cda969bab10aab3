/* -x switchrate with a value dtrace cannot read */
