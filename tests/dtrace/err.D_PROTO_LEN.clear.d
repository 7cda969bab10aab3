/* clear() without its aggregation: dtrace's prototype mismatch
 * (dtrace-utils' aggs/err.D_PROTO_LEN.clear_too_few_args) */
BEGIN
{
	@a = count();
	clear();
}
