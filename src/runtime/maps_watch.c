/* Knowing when a traced process maps new code, without polling it.
 *
 * ustack/usym of a -c or -p process resolve against its /proc/PID/maps,
 * kept from while it lived (it is gone when the maps print).  Re-reading
 * that file every 20 ms cost about 200 us of CPU each time: 1% of a CPU,
 * taken from the machine the traced program runs on.  Instead, a dummy
 * perf event per CPU (and per thread of a -p process) with attr.mmap set
 * and a one-page ring reports every executable mapping the process (and
 * the threads and children it starts later: inherit) creates, as perf
 * record learns about them; its fds wake the event loop, which then reads
 * the maps again.  An inherited per-task event must be per CPU to be
 * mmapped, hence one per CPU. */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "runtime.h"

/* beyond this many events (threads x CPUs) the caller polls instead */
#define WATCH_MAX_FDS 256

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

static bool watch_one(MapsWatch *w, int tid, int cpu, int epfd)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.mmap = 1,
		.inherit = 1,
		.watermark = 1,
		.wakeup_watermark = 1, /* wake at the first record */
	};
	if (w->n == WATCH_MAX_FDS)
		return false;
	int fd = (int)syscall(SYS_perf_event_open, &a, tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == ENODEV; /* an offline CPU: nothing runs there */
	void *ring = mmap(NULL, (size_t)page_size() * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = WAKE_MAPS + (uint64_t)w->n};
	if (ring == MAP_FAILED || epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		if (ring != MAP_FAILED)
			munmap(ring, (size_t)page_size() * 2);
		close(fd);
		return false;
	}
	w->fds[w->n] = fd;
	w->rings[w->n++] = ring;
	return true;
}

static bool watch_thread(MapsWatch *w, int tid, int epfd)
{
	int ncpu = libbpf_num_possible_cpus();
	for (int cpu = 0; cpu < ncpu; cpu++)
		if (!watch_one(w, tid, cpu, epfd))
			return false;
	return true;
}

bool maps_watch_open(MapsWatch *w, int pid, bool all_threads, int epfd)
{
	w->fds = xcalloc(WATCH_MAX_FDS, sizeof(int));
	w->rings = xcalloc(WATCH_MAX_FDS, sizeof(void *));
	w->n = 0;
	if (!all_threads) /* a -c child: one thread that has not run yet */
		return watch_thread(w, pid, epfd);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool ok = true;
	for (struct dirent *e; ok && (e = readdir(d));)
		if (e->d_name[0] != '.')
			ok = watch_thread(w, atoi(e->d_name), epfd);
	closedir(d);
	return ok;
}

void maps_watch_ready(MapsWatch *w, int i, uint32_t events, int epfd)
{
	struct perf_event_mmap_page *pg = w->rings[i];
	/* the records themselves do not matter: the maps file is read again */
	__atomic_store_n(&pg->data_tail, __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
	/* once its task is gone the event reports hang-up for good: stop
	 * listening, or the level-triggered wait would spin */
	if (events & (EPOLLHUP | EPOLLERR))
		epoll_ctl(epfd, EPOLL_CTL_DEL, w->fds[i], NULL);
}

void maps_watch_close(MapsWatch *w)
{
	for (int i = 0; i < w->n; i++) {
		munmap(w->rings[i], (size_t)page_size() * 2);
		close(w->fds[i]);
	}
	free(w->fds);
	free(w->rings);
	w->fds = NULL;
	w->rings = NULL;
	w->n = 0;
}
