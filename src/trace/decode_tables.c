/* The flags and enum arguments decoded by table (decode_tables.h). */
#include "decode_tables.h"

#include <fcntl.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <linux/fs.h>
#include <linux/memfd.h>
#include <linux/sched.h>
#include <sys/epoll.h>
#include <time.h>

#include "fmt.h"

void dec_flags_unknown(StrBuf *b, const FlagName *t, uint64_t v, const char *unknown)
{
	bool any = false;
	uint64_t rest = v;
	for (const FlagName *f = t; f->name; f++)
		if (f->val && (rest & f->val) == f->val) {
			any = true;
			rest &= ~f->val;
		}
	if (any || !v || !unknown) {
		dec_flags(b, t, v);
		return;
	}
	fb_hex(b, v);
	sb_printf(b, " /* %s */", unknown);
}

void dec_enum_unknown(StrBuf *b, const FlagName *t, uint64_t v, const char *unknown)
{
	for (; t->name; t++)
		if (t->val == v) {
			fb_puts(b, t->name);
			return;
		}
	fb_hex(b, v);
	if (unknown)
		sb_printf(b, " /* %s */", unknown);
}

void dec_table(StrBuf *b, const ArgTable *t, uint64_t v)
{
	if (t->flags)
		dec_flags_unknown(b, t->names, v, t->unknown);
	else
		dec_enum_unknown(b, t->names, v, t->unknown);
}

static const FlagName epoll_flags[] = {N(EPOLL_CLOEXEC), END};
static const FlagName timer_flags[] = {N(TIMER_ABSTIME), END};
static const FlagName tfd_flags[] = {N(TFD_NONBLOCK), N(TFD_CLOEXEC), END};
static const FlagName tfd_settime_flags[] = {N(TFD_TIMER_ABSTIME), N(TFD_TIMER_CANCEL_ON_SET), END};
/* in strace's order (its xlat tables), which is not the values' */
static const FlagName efd_flags[] = {N(EFD_SEMAPHORE), N(EFD_CLOEXEC), N(EFD_NONBLOCK), END};
static const FlagName sfd_flags[] = {N(SFD_CLOEXEC), N(SFD_NONBLOCK), END};
static const FlagName sfr_flags[] = {N(SYNC_FILE_RANGE_WAIT_BEFORE), N(SYNC_FILE_RANGE_WRITE),
				     N(SYNC_FILE_RANGE_WAIT_AFTER), END};
static const FlagName in_init_flags[] = {N(IN_NONBLOCK), N(IN_CLOEXEC), END};
static const FlagName in_mask[] = {
	N(IN_ACCESS), N(IN_MODIFY), N(IN_ATTRIB), N(IN_CLOSE_WRITE), N(IN_CLOSE_NOWRITE),
	N(IN_OPEN), N(IN_MOVED_FROM), N(IN_MOVED_TO), N(IN_CREATE), N(IN_DELETE),
	N(IN_DELETE_SELF), N(IN_MOVE_SELF), N(IN_UNMOUNT), N(IN_Q_OVERFLOW), N(IN_IGNORED),
	N(IN_ONLYDIR), N(IN_DONT_FOLLOW), N(IN_EXCL_UNLINK), N(IN_MASK_CREATE), N(IN_MASK_ADD),
	N(IN_ISDIR), N(IN_ONESHOT), END};
/* linux/pidfd.h's PIDFD_NONBLOCK is O_NONBLOCK (the header clashes with fcntl.h) */
static const FlagName pidfd_flags[] = {{O_NONBLOCK, "PIDFD_NONBLOCK"}, END};
static const FlagName mfd_flags[] = {N(MFD_CLOEXEC), N(MFD_ALLOW_SEALING), N(MFD_HUGETLB), END};
static const FlagName flock_ops[] = {N(LOCK_SH), N(LOCK_EX), N(LOCK_NB), N(LOCK_UN), END};
static const FlagName shut_how[] = {N(SHUT_RD), N(SHUT_WR), N(SHUT_RDWR), END};
static const FlagName madv[] = {
	N(MADV_NORMAL), N(MADV_RANDOM), N(MADV_SEQUENTIAL), N(MADV_WILLNEED), N(MADV_DONTNEED),
	N(MADV_FREE), N(MADV_REMOVE), N(MADV_DONTFORK), N(MADV_DOFORK), N(MADV_MERGEABLE),
	N(MADV_UNMERGEABLE), N(MADV_HUGEPAGE), N(MADV_NOHUGEPAGE), N(MADV_DONTDUMP),
	N(MADV_DODUMP), N(MADV_WIPEONFORK), N(MADV_KEEPONFORK), N(MADV_COLD), N(MADV_PAGEOUT),
	N(MADV_HWPOISON), END};
static const FlagName ms_flags[] = {N(MS_ASYNC), N(MS_INVALIDATE), N(MS_SYNC), END};
static const FlagName mcl_flags[] = {N(MCL_CURRENT), N(MCL_FUTURE), N(MCL_ONFAULT), END};
static const FlagName mlock2_flags[] = {N(MLOCK_ONFAULT), END};
static const FlagName rename_flags[] = {N(RENAME_NOREPLACE), N(RENAME_EXCHANGE),
					N(RENAME_WHITEOUT), END};
static const FlagName umount_flags[] = {N(MNT_FORCE), N(MNT_DETACH), N(MNT_EXPIRE),
					N(UMOUNT_NOFOLLOW), END};
static const FlagName clone_ns[] = {
	N(CLONE_FILES), N(CLONE_FS), N(CLONE_NEWCGROUP), N(CLONE_NEWIPC), N(CLONE_NEWNET),
	N(CLONE_NEWNS), N(CLONE_NEWPID), N(CLONE_NEWUSER), N(CLONE_NEWUTS), N(CLONE_SYSVSEM),
	N(CLONE_NEWTIME), N(CLONE_THREAD), N(CLONE_SIGHAND), N(CLONE_VM), END};

static const FlagName sock_flags[] = {N(SOCK_CLOEXEC), N(SOCK_NONBLOCK), END};
static const FlagName msg_flags[] = {
	N(MSG_OOB), N(MSG_PEEK), N(MSG_DONTROUTE), N(MSG_CTRUNC), N(MSG_PROXY), N(MSG_TRUNC),
	N(MSG_DONTWAIT), N(MSG_EOR), N(MSG_WAITALL), N(MSG_FIN), N(MSG_SYN), N(MSG_CONFIRM),
	N(MSG_RST), N(MSG_ERRQUEUE), N(MSG_NOSIGNAL), N(MSG_MORE), N(MSG_WAITFORONE),
	N(MSG_BATCH), N(MSG_ZEROCOPY), N(MSG_FASTOPEN), N(MSG_CMSG_CLOEXEC), END};

/* linux/mount.h and linux/landlock.h clash with sys/mount.h: their values
 * here, as strace 6.1 knows them */
static const FlagName open_tree_flags[] = {
	{1, "OPEN_TREE_CLONE"}, {O_CLOEXEC, "OPEN_TREE_CLOEXEC"}, N(AT_SYMLINK_NOFOLLOW),
	N(AT_REMOVEDIR), N(AT_SYMLINK_FOLLOW), N(AT_NO_AUTOMOUNT), N(AT_EMPTY_PATH),
	{0x8000, "AT_RECURSIVE"}, END};
static const FlagName fspick_flags[] = {{1, "FSPICK_CLOEXEC"}, {2, "FSPICK_SYMLINK_NOFOLLOW"},
					{4, "FSPICK_NO_AUTOMOUNT"}, {8, "FSPICK_EMPTY_PATH"}, END};
static const FlagName mount_setattr_flags[] = {
	N(AT_SYMLINK_NOFOLLOW), N(AT_REMOVEDIR), N(AT_SYMLINK_FOLLOW), N(AT_NO_AUTOMOUNT),
	N(AT_EMPTY_PATH), {0x8000, "AT_RECURSIVE"}, END};
static const FlagName fsconfig_cmds[] = {
	{0, "FSCONFIG_SET_FLAG"}, {1, "FSCONFIG_SET_STRING"}, {2, "FSCONFIG_SET_BINARY"},
	{3, "FSCONFIG_SET_PATH"}, {4, "FSCONFIG_SET_PATH_EMPTY"}, {5, "FSCONFIG_SET_FD"},
	{6, "FSCONFIG_CMD_CREATE"}, {7, "FSCONFIG_CMD_RECONFIGURE"}, END};
static const FlagName landlock_ruleset_flags[] = {{1, "LANDLOCK_CREATE_RULESET_VERSION"}, END};
/* faccessat2's own: AT_EACCESS is AT_REMOVEDIR's value */
static const FlagName faccessat_flags[] = {N(AT_SYMLINK_NOFOLLOW), N(AT_EACCESS), N(AT_EMPTY_PATH), END};
static const FlagName rwf_flags[] = {N(RWF_HIPRI), N(RWF_DSYNC), N(RWF_SYNC), N(RWF_NOWAIT),
				     N(RWF_APPEND), END};

static const ArgTable rows[] = {
	{"open_tree", 2, open_tree_flags, true, "OPEN_TREE_???"},
	{"fspick", 2, fspick_flags, true, "FSPICK_???"},
	{"mount_setattr", 2, mount_setattr_flags, true, "AT_???"},
	{"fsconfig", 1, fsconfig_cmds, false, "FSCONFIG_???"},
	{"landlock_create_ruleset", 2, landlock_ruleset_flags, true, "LANDLOCK_CREATE_RULESET_???"},
	{"faccessat2", 3, faccessat_flags, true, "AT_???"},
	{"preadv2", 5, rwf_flags, true, "RWF_???"},
	{"pwritev2", 5, rwf_flags, true, "RWF_???"},
	{"sendto", 3, msg_flags, true, "MSG_???"},
	{"accept4", 3, sock_flags, true, "SOCK_???"},
	{"recvfrom", 3, msg_flags, true, "MSG_???"},
	{"sendmsg", 2, msg_flags, true, "MSG_???"},
	{"recvmsg", 2, msg_flags, true, "MSG_???"},
	{"sendmmsg", 3, msg_flags, true, "MSG_???"},
	{"recvmmsg", 3, msg_flags, true, "MSG_???"},
	{"epoll_create1", 0, epoll_flags, true, "EPOLL_???"},
	{"clock_nanosleep", 1, timer_flags, true, "TIMER_???"},
	{"timer_settime", 1, timer_flags, true, "TIMER_???"},
	{"timerfd_create", 1, tfd_flags, true, "TFD_???"},
	{"timerfd_settime", 1, tfd_settime_flags, true, "TFD_TIMER_???"},
	{"eventfd2", 1, efd_flags, true, "EFD_???"},
	{"signalfd4", 3, sfd_flags, true, "SFD_???"},
	{"sync_file_range", 3, sfr_flags, true, "SYNC_FILE_RANGE_???"},
	{"inotify_init1", 0, in_init_flags, true, "IN_???"},
	{"inotify_add_watch", 2, in_mask, true, "IN_???"},
	{"pidfd_open", 1, pidfd_flags, true, "PIDFD_???"},
	{"memfd_create", 1, mfd_flags, true, "MFD_???"},
	{"flock", 1, flock_ops, true, "LOCK_???"},
	{"shutdown", 1, shut_how, false, "SHUT_???"},
	{"madvise", 2, madv, false, "MADV_???"},
	{"process_madvise", 3, madv, false, "MADV_???"},
	{"msync", 2, ms_flags, true, "MS_???"},
	{"mlockall", 0, mcl_flags, true, "MCL_???"},
	{"mlock2", 2, mlock2_flags, true, "MLOCK_???"},
	{"renameat2", 4, rename_flags, true, "RENAME_???"},
	{"umount2", 1, umount_flags, true, "MNT_???"},
	{"unshare", 0, clone_ns, true, "CLONE_???"},
	{"setns", 1, clone_ns, true, "CLONE_???"},
};

const ArgTable *arg_table(const char *name, int arg)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].arg == arg && !strcmp(rows[i].call, name))
			return &rows[i];
	return NULL;
}
