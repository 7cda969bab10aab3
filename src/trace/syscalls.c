/* System call classes and the -e trace= expressions. */
#include "syscalls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"

static const char *const network_calls[] = {
	"socket", "socketpair", "bind", "connect", "listen", "accept", "accept4", "getsockname",
	"getpeername", "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg",
	"shutdown", "setsockopt", "getsockopt", NULL};
static const char *const process_calls[] = {
	"clone", "clone3", "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4",
	"waitid", "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open",
	"pidfd_send_signal", "unshare", NULL};
static const char *const memory_calls[] = {
	"mmap", "munmap", "mprotect", "brk", "mremap", "madvise", "msync", "mlock", "mlock2",
	"munlock", "mlockall", "munlockall", "mincore", "pkey_mprotect", "remap_file_pages",
	"get_mempolicy", "set_mempolicy", "mbind", "migrate_pages", "move_pages", "shmat", "shmdt",
	"process_madvise", "map_shadow_stack", "mseal", "set_mempolicy_home_node", NULL};
static const char *const signal_calls[] = {
	"kill", "tkill", "tgkill", "pause", "rt_sigaction", "rt_sigprocmask", "rt_sigpending",
	"rt_sigtimedwait", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "rt_sigsuspend", "rt_sigreturn",
	"sigaltstack", "signalfd", "signalfd4", "pidfd_send_signal", NULL};
static const char *const ipc_calls[] = {
	"msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semctl", "semtimedop",
	"shmget", "shmat", "shmctl", "shmdt", NULL};
/* returns a descriptor although no argument is one */
static const char *const desc_extra[] = {
	"open", "openat", "openat2", "creat", "pipe", "pipe2", "socket", "socketpair", "eventfd",
	"eventfd2", "epoll_create", "epoll_create1", "signalfd", "signalfd4", "timerfd_create",
	"inotify_init", "inotify_init1", "memfd_create", "userfaultfd", "perf_event_open",
	"fanotify_init", "pidfd_open", "open_tree", "fsopen", "fsmount", "fspick", "io_uring_setup",
	"memfd_secret", "dup", "dup2", "dup3", "close_range", "select", "pselect6", "poll", "ppoll",
	NULL};

static bool in_class(int nr, const char *cls)
{
	const SyscallInfo *row = syscall_row(nr);
	if (!row)
		return false;
	const char *name = syscall_table_name(nr), *kinds = row->kinds;
	if (!strcmp(cls, "file"))
		return strchr(kinds, 's') != NULL || !strncmp(name, "execve", 6);
	if (!strcmp(cls, "desc"))
		return strchr(kinds, 'f') != NULL || str_in_list(name, desc_extra);
	if (!strcmp(cls, "network") || !strcmp(cls, "net"))
		return str_in_list(name, network_calls);
	if (!strcmp(cls, "process"))
		return str_in_list(name, process_calls);
	if (!strcmp(cls, "memory"))
		return str_in_list(name, memory_calls);
	if (!strcmp(cls, "signal"))
		return str_in_list(name, signal_calls);
	if (!strcmp(cls, "ipc"))
		return str_in_list(name, ipc_calls);
	if (!strcmp(cls, "stat"))
		return strstr(name, "stat") && !strstr(name, "statfs");
	if (!strcmp(cls, "creds"))
		return strstr(name, "uid") || strstr(name, "gid") || strstr(name, "groups") ||
		       !strcmp(name, "capget") || !strcmp(name, "capset");
	if (!strcmp(cls, "clock"))
		return !strncmp(name, "clock_", 6) || !strcmp(name, "gettimeofday") ||
		       !strcmp(name, "settimeofday") || !strcmp(name, "time") ||
		       !strcmp(name, "adjtimex");
	return false;
}

static bool known_class(const char *cls)
{
	static const char *const classes[] = {"file", "desc", "network", "net", "process",
					      "memory", "signal", "ipc", "stat", "creds", "clock",
					      NULL};
	return str_in_list(cls, classes);
}

bool syscall_select(const char *expr, bool sel[SYSCALL_MAX], bool *seen_trace, char *err,
		    size_t errlen)
{
	const char *list = expr;
	if (!strncmp(expr, "trace=", 6))
		list = expr + 6;
	else if (strchr(expr, '=')) {
		snprintf(err, errlen, "-e %s: only trace= is supported", expr);
		return false;
	}
	bool neg = false;
	if (*list == '!') {
		neg = true;
		list++;
	}
	if (!*seen_trace) {
		/* first set: "trace=x" keeps only x, "trace=!x" everything but x */
		for (int i = 0; i < SYSCALL_MAX; i++)
			sel[i] = neg && syscall_table_name(i);
		*seen_trace = true;
	}
	char *copy = strdup(list), *save = NULL;
	bool ok = true;
	for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save)) {
		bool hit = false;
		if (!strcmp(tok, "all") || !strcmp(tok, "%all")) {
			for (int i = 0; i < SYSCALL_MAX; i++)
				if (syscall_table_name(i))
					sel[i] = !neg, hit = true;
		} else if (!strcmp(tok, "none")) {
			hit = true;
			for (int i = 0; i < SYSCALL_MAX; i++)
				sel[i] = neg && syscall_table_name(i);
		} else {
			const char *cls = tok[0] == '%' ? tok + 1 : tok;
			int nr = tok[0] == '%' ? -1 : syscall_by_name(tok);
			if (nr >= 0) {
				sel[nr] = !neg;
				hit = true;
			} else if (known_class(cls)) {
				for (int i = 0; i < SYSCALL_MAX; i++)
					if (in_class(i, cls))
						sel[i] = !neg;
				hit = true;
			}
		}
		if (!hit) {
			snprintf(err, errlen, "invalid system call '%s'", tok);
			ok = false;
		}
	}
	free(copy);
	return ok;
}
