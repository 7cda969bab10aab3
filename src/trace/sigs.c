/* Argument signatures of the calls decoded by hand, and capture plans. */
#include "sigs.h"

#include <string.h>

#include "bpfprog.h"
#include "calldec.h"

static const struct {
	const char *name, *sig;
} sigs[] = {
	{"read", "fBu"}, {"write", "fbu"}, {"pread64", "fBud"}, {"pwrite64", "fbud"},
	{"open", "sOM"}, {"openat", "AsOM"}, {"creat", "sM"}, {"close", "f"},
	{"stat", "sS"}, {"lstat", "sS"}, {"fstat", "fS"}, {"newfstatat", "AsSa"},
	{"access", "sz"}, {"faccessat", "Asz"}, {"faccessat2", "Asza"},
	{"mmap", "puPmfh"}, {"mprotect", "puP"}, {"munmap", "pu"}, {"brk", "p"},
	{"pkey_mprotect", "puPd"}, {"mremap", "puuxp"}, {"madvise", "pud"},
	{"rt_sigaction", "nkKu"}, {"rt_sigprocmask", "wgGu"}, {"kill", "dn"}, {"tkill", "dn"},
	{"tgkill", "ddn"}, {"ioctl", "fih"}, {"fcntl", "fFx"}, {"pipe", "Z"}, {"pipe2", "Zj"},
	{"dup", "f"}, {"dup2", "ff"}, {"dup3", "ffj"}, {"socket", "DTy"}, {"connect", "fIu"},
	{"bind", "fIu"}, {"accept", "fJ#"}, {"accept4", "fJ#T"}, {"getsockname", "fJ#"},
	{"getpeername", "fJ#"}, {"sendto", "fbuxIu"}, {"recvfrom", "fBuxJ#"},
	{"listen", "fd"}, {"shutdown", "fd"}, {"clone", "Chppu"}, {"wait4", "dWop"},
	{"exit_group", "d"}, {"exit", "d"}, {"execve", "sVv"}, {"execveat", "AsVva"},
	{"lseek", "fdl"}, {"getdents", "f%u"}, {"getdents64", "f%u"}, {"readlink", "sBu"}, {"readlinkat", "AsBu"},
	{"unlink", "s"}, {"unlinkat", "Asa"}, {"mkdir", "sM"}, {"mkdirat", "AsM"},
	{"rmdir", "s"}, {"chdir", "s"}, {"fchdir", "f"}, {"rename", "ss"},
	{"renameat", "AsAs"}, {"renameat2", "AsAsu"}, {"nanosleep", "t1"}, {"getcpu", "++p"},
	{"clock_nanosleep", "cdt1"}, {"clock_gettime", "cp"}, {"clock_getres", "cp"},
	{"poll", "Qud"}, {"ppoll", "Qupph"}, {"epoll_ctl", "fEfe"}, {"epoll_wait", "fpdd"},
	{"epoll_pwait", "fpddpu"}, {"epoll_create1", "O"}, {"arch_prctl", "qh"},
	{"set_tid_address", "p"}, {"set_robust_list", "pu"}, {"rseq", "pxdx"},
	{"getrandom", "Bu5"}, {"chmod", "sM"}, {"fchmod", "fM"}, {"fchmodat", "AsM"},
	{"mknod", "s80"}, {"mknodat", "As80"}, {"umask", "M"}, {"truncate", "sd"},
	{"ftruncate", "fd"}, {"symlink", "ss"}, {"symlinkat", "sAs"}, {"link", "ss"},
	{"linkat", "AsAsa"}, {"statfs", "sp"}, {"fstatfs", "fp"}, {"chown", "s77"}, {"lchown", "s77"}, {"fchown", "f77"},
	{"fchownat", "As77a"}, {"utimensat", "Aspa"}, {"statx", "Asahp"},
	{"setsockopt", "fddpu"},
	{"getsockopt", "fddpp"}, {"socketpair", "DTyp"}, {"fsync", "f"}, {"fdatasync", "f"},
	{"sync_file_range", "fddx"}, {"fadvise64", "fdu4"}, {"fallocate", "fddd"},
	{"flock", "fd"}, {"sendfile", "ffpu"}, {"splice", "fpfpux"}, {"tee", "ffux"},
	{"copy_file_range", "fpfpux"}, {"inotify_add_watch", "fsx"}, {"rt_sigreturn", "6"},
	{"sched_yield", ""}, {"getpid", ""}, {"gettid", ""}, {"getppid", ""},
	{"close_range", "ffx"}, {"vfork", ""}, {"fork", ""}, {"setpgid", "dd"},
	{"prlimit64", "dr23"}, {"getrlimit", "r3"}, {"setrlimit", "r2"},
	{"sigaltstack", "pp"}, {"futex", "phdtpx"},
	{"getcwd", "9u"}, {"uname", "p"}, {"chroot", "s"}, {"mount", "sssxp"},
	{"umount2", "sx"}, {"memfd_create", "sx"}, {"eventfd2", "ux"},
	{"timerfd_create", "cx"}, {"signalfd4", "fgux"},
	{"rt_sigqueueinfo", "dnX"}, {"rt_tgsigqueueinfo", "ddnX"}, {"clone3", "Yu"},
	{"readv", "fUd"}, {"writev", "fLd"},
	{"sendmsg", "fHx"}, {"recvmsg", "fNx"},
	{"mincore", "pup"}, {"mlock", "pu"}, {"munlock", "pu"}, {"mlock2", "pux"},
	{"ioperm", "xxd"}, {"lookup_dcookie", "upu"}, {"pidfd_send_signal", "fnXx"},
	{"clock_adjtime", "cp"}, {"open_tree", "Asx"}, {"fspick", "Asx"},
	{"mount_setattr", "Asxpu"}, {"faccessat2", "Aszx"},
	{"preadv", "fUud_"}, {"pwritev", "fLud_"},
	{"preadv2", "fUuu_x"}, {"pwritev2", "fLuu_x"}, {"mq_open", "sOM!"},
	{"getgroups", "d]"}, {"setgroups", "d["},
	{"setuid", "7"}, {"setgid", "7"}, {"setfsuid", "7"}, {"setfsgid", "7"},
	{"setreuid", "77"}, {"setregid", "77"}, {"setresuid", "777"}, {"setresgid", "777"},
	{"process_mrelease", "fx"},
};

const char *sig_of(int nr)
{
	static const char *cache[SYSCALL_MAX];
	const SyscallInfo *row = syscall_row(nr);
	if (!row)
		return "xxxxxx";
	const char *c = __atomic_load_n(&cache[nr], __ATOMIC_ACQUIRE);
	if (c)
		return c;
	c = row->kinds;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!strcmp(sigs[i].name, syscall_table_name(nr))) {
			c = sigs[i].sig;
			break;
		}
	__atomic_store_n(&cache[nr], c, __ATOMIC_RELEASE);
	return c;
}

int sig_nargs(int nr)
{
	return (int)strlen(sig_of(nr));
}

/* calls whose results -y needs even when not shown (fds, the cwd) */
bool sig_names_fd(int nr)
{
	const char *n = syscall_table_name(nr);
	return n && (!strcmp(n, "openat") || !strcmp(n, "open") || !strcmp(n, "creat") ||
		     !strcmp(n, "close") || !strcmp(n, "dup") || !strcmp(n, "dup2") ||
		     !strcmp(n, "dup3") || !strcmp(n, "fcntl") || !strcmp(n, "chdir") ||
		     !strcmp(n, "fchdir"));
}

/* socket(): traced, even when not shown, when a call whose buffer is
 * decoded by the socket's protocol is (sendto's netlink messages) */
static bool sig_names_socket(int nr, const TraceOpts *o)
{
	static int socket_nr = -1, sendto_nr = -1;
	if (socket_nr < 0) {
		for (int i = 0; i < SYSCALL_MAX; i++)
			if (syscall_table_name(i) && !strcmp(syscall_table_name(i), "socket"))
				socket_nr = i;
			else if (syscall_table_name(i) && !strcmp(syscall_table_name(i), "sendto"))
				sendto_nr = i;
	}
	return nr == socket_nr && sendto_nr >= 0 && o->sel[sendto_nr];
}

void plan_for(int nr, const TraceOpts *o, TracePlan *p)
{
	memset(p, 0, sizeof(*p));
	if (!o->sel[nr] && !(o->fd_paths && !o->count && sig_names_fd(nr)) &&
	    !(!o->count && sig_names_socket(nr, o)))
		return;
	p->flags = PLAN_TRACED;
	if (o->count)
		return;
	const char *name = syscall_table_name(nr) ? syscall_table_name(nr) : "";
	if (!strcmp(name, "execve") || !strcmp(name, "execveat") || !strcmp(name, "exit") ||
	    !strcmp(name, "exit_group"))
		p->flags |= PLAN_AT_ENTRY;
	if (!strcmp(name, "clone") || !strcmp(name, "clone3") || !strcmp(name, "fork") ||
	    !strcmp(name, "vfork"))
		p->flags |= PLAN_CHILD0;
	uint16_t s = (uint16_t)(o->strsize + 1 > 65535 ? 65535 : o->strsize + 1);
	sig_captures(sig_of(nr), s, p);
	const CallDec *d = call_dec(name);
	for (int i = 0; d && i < 6; i++)
		if (d->cap[i].kind) {
			p->kind[i] = d->cap[i].kind;
			p->size[i] = d->cap[i].size;
			p->lenarg[i] = d->cap[i].lenarg;
			if (d->cap[i].kind == CAP_ENTRY) {
				p->flags |= PLAN_ENTRY_READ;
				p->entry_arg = d->cap[i].lenarg;
			}
		}
}

int sig_entry_slot(const char *sig)
{
	TracePlan p;
	memset(&p, 0, sizeof(p));
	sig_captures(sig, 64, &p);
	for (int j = 0; j < 6; j++)
		if (p.kind[j] == CAP_ENTRY)
			return j;
	return -1;
}

/* what the kernel captures for each letter of a signature (s: a string's
 * size, -s and its NUL) */
void sig_captures(const char *sig, uint16_t s, TracePlan *p)
{
	int inout = -1;
	for (int i = 0; sig[i] && i < 6; i++) {
		uint8_t k = CAP_NONE;
		uint16_t size = 0;
		switch (sig[i]) {
		case 's': k = CAP_STR; size = 4096; break;
		case 'b': k = CAP_BUF_ARG; size = s; p->lenarg[i] = (uint8_t)(i + 1); break;
		case 'B': k = CAP_BUF_RET; size = s; p->lenarg[i] = (uint8_t)(i + 1); break;
		case '9': k = CAP_BUF_RET; size = 4096; break;
		case '%': k = CAP_BUF_RET; size = s > 4096 ? s : 4096; break;
		case 'S': k = CAP_FIXED_OK; size = 144; break;
		case 't': k = CAP_FIXED; size = 16; break;
		case '1': k = CAP_FIXED; size = 16; break;
		case '+': k = CAP_FIXED_OK; size = 4; break;
		case '2': k = CAP_FIXED; size = 16; break;
		case '3': k = CAP_FIXED_OK; size = 16; break;
		case 'k': k = CAP_FIXED; size = 32; break;
		case 'K': k = CAP_FIXED_OK; size = 32; break;
		case 'g': k = CAP_FIXED; size = 8; break;
		case 'G': k = CAP_FIXED_OK; size = 8; break;
		case 'I': k = CAP_BUF_ARG; size = 128; p->lenarg[i] = (uint8_t)(i + 1); break;
		case 'J': k = CAP_UPTO; size = 128; break;
		case '#': k = CAP_UPTO; size = 4; inout = i; break;
		case 'W': k = CAP_FIXED_OK; size = 4; break;
		case 'e': k = CAP_FIXED; size = 12; break;
		case 'X': /* all of a siginfo_t, as strace reads it: a partly
			   * readable one is an address */
			k = CAP_FIXED; size = 128; break;
		case 'L': k = CAP_IOV_IN; size = s; break;
		case 'U': k = CAP_IOV_OUT; size = s; break;
		case 'H': k = CAP_MSG_IN; size = s; break;
		case 'N': k = CAP_MSG_OUT; size = s; break;
		case 'Y': k = CAP_BUF_ARG; size = 88; p->lenarg[i] = (uint8_t)(i + 1); break;
		case 'Z': k = CAP_FIXED_OK; size = 8; break;
		case '[': /* gid_t[args[0]]: as many as strace shows, and one */
			k = CAP_BUF_ARG; size = 4 * 33; p->lenarg[i] = 0; p->shift[i] = 2;
			break;
		case ']': k = CAP_BUF_RET; size = 4 * 33; p->shift[i] = 2; break;
		case 'Q':
			k = CAP_BUF_ARG; size = 8 * 32; p->lenarg[i] = (uint8_t)(i + 1);
			p->shift[i] = 3;
			break;
		case 'V': k = CAP_ARGV; size = 256; break;
		case 'v': k = CAP_ENVP; size = 256 * ENVP_CHUNKS; break;
		}
		p->kind[i] = k;
		p->size[i] = size;
	}
	/* '#': the length as it was at entry too, in the first slot no
	 * argument's capture uses */
	for (int j = 0; inout >= 0 && j < 6; j++)
		if (p->kind[j] == CAP_NONE) {
			p->kind[j] = CAP_ENTRY;
			p->size[j] = 4;
			p->flags |= PLAN_ENTRY_READ;
			p->entry_arg = (uint8_t)inout;
			break;
		}
}
