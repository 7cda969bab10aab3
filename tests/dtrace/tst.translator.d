/* translator declarations and xlate: a user translator from a kernel
 * pointer and one from an integer, members reached with '.' and '->'
 * (xlate <T *>), and the built-in psinfo_t/lwpsinfo_t translators through
 * xlate as curpsinfo uses them */
typedef struct myproc {
	int pid;
	int ppid;
	char name[16];
} myproc_t;

struct pair {
	int hi;
	int lo;
};

translator myproc_t < struct task_struct *T >
{
	pid = T->tgid;
	ppid = T->real_parent->tgid;
	name = T->comm;
};

translator struct pair < uint64_t v >
{
	hi = v >> 32;
	lo = v & 0xffffffff;
};

BEGIN
{
	printf("%d %d %s\n", xlate <myproc_t> (curthread).pid == pid,
	    xlate <myproc_t *> (curthread)->ppid == ppid, xlate <myproc_t> (curthread).name);
	printf("%d %d\n", xlate <struct pair> (0x500000007ULL).hi, xlate <struct pair> (0x500000007ULL).lo);
	printf("%d %d\n", xlate <psinfo_t> (curthread).pr_pid == pid,
	    xlate <lwpsinfo_t *> (curthread)->pr_lwpid == tid);
	exit(0);
}
