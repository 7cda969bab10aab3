/* float and double variables (zero until assigned, as D declares them)
 * print through %e %E %f %g %G, flags, widths and precisions included */
#pragma D option quiet

float f;
double d;
self double sd;

BEGIN
{
	printf("[%f] [%e] [%E] [%g] [%G]\n", d, d, d, d, d);
	printf("[%8.3f] [%-12e] [%+g] [%.2E]\n", f, f, f, f);
	printf("[%*.*f]\n", 10, 4, self->sd);
	exit(0);
}
