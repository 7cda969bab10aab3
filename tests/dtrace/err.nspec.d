/* -n: errors name the probe specifier, and where in it */
