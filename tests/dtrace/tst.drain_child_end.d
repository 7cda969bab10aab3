/*
 * ASSERTION: when the -c command ends, the activity state turns draining
 * before END runs (dtrace_stop()): END runs once and no traced probe's
 * clause runs after it (tick-1ms fires while sonde waits 100 ms after END
 * and until it detaches).
 */
#pragma D option quiet

tick-1ms
/ended/
{
	@late["ticks after END"] = count();
}

END
{
	ended++;
	printf("END ran %d time(s)\n", ended);
}
