/* -l: dtrace's table for a description (the dtrace provider's probes) */
