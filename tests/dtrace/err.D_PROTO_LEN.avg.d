/* an aggregating function with too many arguments: dtrace's prototype
 * mismatch (D_PROTO_LEN), as for a subroutine, not bpftrace's words
 * (dtrace-utils' aggs/err.D_PROTO_LEN.avg_too_many_args) */
BEGIN
{
	@a = avg(1, 2);
}
