/* setopt() with no arguments */
BEGIN
{
	setopt();
}
