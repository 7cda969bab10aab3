/* -n with a description that matches nothing */
