/* an associative array's keys keep the types of its first use */
BEGIN
{
	x[123, "foo"] = timestamp;
}

END
{
	x[123, 456] = timestamp;
}
