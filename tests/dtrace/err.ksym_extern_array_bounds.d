/* A constant index outside an extern array's declared size is refused,
 * as for any D array (D_ARR_BOUNDS). */
extern char __start_notes[16];

BEGIN
{
	trace(`__start_notes[16]);
	exit(0);
}
