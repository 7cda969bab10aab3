/* How each system call's arguments are decoded: one letter per argument
 * (the generated table's d u p s f x, refined by hand for the calls people
 * read most), and the kernel capture plan that follows from it. */
#pragma once
#include "trace.h"

/* Letters beyond syscalls.h's:
 *  A dirfd   O open flags   M mode   a AT_ flags   z access mode   h hex
 *  b input buffer (length: next argument)   B output buffer (length: ret)
 *  P mmap prot   m mmap flags   S struct stat out   t timespec in
 *  n signal   k sigaction in   K sigaction out   w sigprocmask how
 *  g sigset in   G sigset out   D socket family   T socket type
 *  I sockaddr in (length: next argument)   J sockaddr out
 *  C clone flags   F fcntl cmd   i ioctl request   W wait status out
 *  o wait options   E epoll_ctl op   e epoll_event in   Q pollfd[] (count: next)
 *  V argv   v envp   c clockid   l lseek whence   q arch_prctl code
 *  Z int[2] out (pipe)   R fd returned by the call is the result (unused)
 *  X siginfo in   Y struct clone_args in (size: next)
 *  L iovec[] in (count: next)   U iovec[] out (data up to ret)
 *  H msghdr in   N msghdr out   r rlimit resource   2 struct rlimit64 in
 *  3 struct rlimit64 out   4 fadvise advice   5 getrandom flags
 *  6 rt_sigreturn's restored mask (the value the kernel put in args[0])
 *  7 uid_t/gid_t (-1 or unsigned)   8 mode with its file type (mknod)
 *  9 a path the call fills (length: ret; getcwd)
 *  0 mknod's dev_t (only for S_IFCHR and S_IFBLK)   _ a register not shown
 *  1 the time left, a timespec the call fills when a signal interrupts it
 *    (nanosleep's rem; clock_nanosleep's only for a relative sleep)
 *  + an unsigned int the call fills ([N]; getcpu's cpu and node)
 *  ! mq_open's attr (only with O_CREAT)
 *  [ gid_t[] in (count: argument 0)   ] gid_t[] out (count: ret)
 *  % getdents' dirent buffer out (length: ret; its entries counted)
 *  # socklen_t in and out ([110 => 24]; J before it the sockaddr it sizes)
 *  M is a mode as strace prints a umode_t: octal
 *  (decode_tables.c's rows take precedence: flags and enums by table)
 *  (futex is printed by hand: its op decides which arguments show) */
const char *sig_of(int nr);
int sig_nargs(int nr);
bool sig_names_fd(int nr);
void plan_for(int nr, const TraceOpts *o, TracePlan *p);
/* the captures of a signature's letters */
void sig_captures(const char *sig, uint16_t strsize, TracePlan *p);
/* the capture slot of a '#' length's value at entry (CAP_ENTRY), -1 if none */
int sig_entry_slot(const char *sig);
