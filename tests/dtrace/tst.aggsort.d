/* aggsortkey (pragma), aggsortkeypos (pragma), aggsortrev (setopt) */
#pragma D option quiet
#pragma D option aggsortkey
#pragma D option aggsortkeypos=1

BEGIN
{
	@a["b", 1] = count();
	@a["a", 3] = count(); @a["a", 3] = count();
	@a["c", 2] = count(); @a["c", 2] = count(); @a["c", 2] = count();
	printa(@a);
	setopt("aggsortrev");
	printa(@a);
	exit(0);
}
