/* an error in a -n program's predicate is said to be "in predicate" */
