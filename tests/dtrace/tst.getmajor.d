/* getmajor()/getminor() of a dev_t as Linux encodes it in the kernel
 * (MAJOR(): the bits above 20, MINOR(): the low 20 bits); the root file
 * system's device, read from the kernel, against /proc's ($1: see .args) */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", getmajor(0x800003), getminor(0x800003));
	printf("%d %d\n", getmajor(0xfff00000 | 5), getminor(0x12345678));
	printf("%d %d\n", getmajor(0x1ffffffff), getminor(-1));
	this->dev = curthread->fs->root.mnt->mnt_sb->s_dev;
	this->mm = strjoin(strjoin(lltostr(getmajor(this->dev)), ":"), lltostr(getminor(this->dev)));
	printf("root %s\n", this->mm == $$1 ? "as /proc/self/mountinfo" : this->mm);
	exit(0);
}
