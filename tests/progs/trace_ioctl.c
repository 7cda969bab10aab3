/* ioctl requests sonde has no name for, shown as strace shows them:
 * _IOC(direction, type, number, size), each direction once. */
#include <sys/ioctl.h>
#include <unistd.h>

int main(void)
{
	ioctl(-1, _IOC(_IOC_NONE, 0x3d, 0, 0), 0);
	ioctl(-1, _IOC(_IOC_READ, 0xab, 0x10, 8), 0x1234);
	ioctl(-1, _IOC(_IOC_WRITE, 0xfd, 0xde, 4), 0);
	ioctl(-1, _IOC(_IOC_READ | _IOC_WRITE, 0x24, 0xed, 0x3eed), 0);
	return 0;
}
