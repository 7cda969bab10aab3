/* iter:task, iter:task_file, iter:task_vma: BPF iterators (bpftrace 0.17's).
 * A BPF_PROG_TYPE_TRACING program of attach type BPF_TRACE_ITER, loaded
 * against the kernel's bpf_iter_NAME function; `ctx` points to its
 * struct bpf_iter__NAME (ctx->task, ctx->fd, ctx->file, ctx->vma).  The
 * programs run inside sonde's read() of the iterator, once per object, and
 * their printf output goes through the ring buffer like any probe's; then
 * sonde exits, as bpftrace does.  iter:NAME:PIN pins the iterator's link
 * at PIN (relative paths under /sys/fs/bpf) instead of running it: reading
 * that file later runs the program, whose printf writes into it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "../util/util.h"
#include "../sym/btf_funcs.h"
#include "provider.h"

static const char *const iterators[] = {"task", "task_file", "task_vma", NULL};

static bool iter_expand(const char *rest, Loc loc, ProbeSpecList *out, Error *err)
{
	const char *colon = strchr(rest, ':');
	char *name = colon ? xstrndup(rest, (size_t)(colon - rest)) : xstrdup(rest);
	int known = -1;
	for (int i = 0; iterators[i]; i++)
		if (!strcmp(iterators[i], name))
			known = i;
	char fn[64];
	snprintf(fn, sizeof(fn), "bpf_iter_%s", name);
	int id = known >= 0 ? btf_func_id(out->target.sym, fn) : 0;
	bool ok = true;
	if (known < 0)
		ok = error_at(err, loc, "iter:%s: unknown iterator (iter:task, iter:task_file and "
			      "iter:task_vma are)", rest);
	else if (colon && !colon[1])
		ok = error_at(err, loc, "iter:%s: the pin path after '%s:' is empty", rest, name);
	else if (!id)
		ok = error_at(err, loc, "iter:%s: this kernel has no %s in its BTF (iterators need BTF "
			      "and Linux 5.8 or later; task_vma 5.12)", name, fn);
	if (ok) {
		ProbeSpec *s = probe_spec_add(out, provider_find("iter"), loc);
		s->func = xstrdup(name);
		s->btf_id = (uint32_t)id;
		s->attach_type = BPF_TRACE_ITER;
		if (colon) { /* relative to bpffs, as bpftrace */
			StrBuf pin = {0};
			sb_printf(&pin, "%s%s", colon[1] == '/' ? "" : "/sys/fs/bpf/", colon + 1);
			s->pin = pin.s;
		}
		StrBuf b = {0};
		sb_printf(&b, "iter:%s", name);
		s->name = b.s;
	}
	free(name);
	return ok;
}

static int iter_arg_offset(const ProbeSpec *p, int n)
{
	(void)p;
	(void)n;
	return -1;
}

/* The link is made when the run starts (iter_run): nothing to do here. */
static bool iter_attach(const ProbeSpec *p, int prog_fd, Attached *out, char *err, size_t n)
{
	(void)p, (void)prog_fd, (void)out, (void)err, (void)n;
	return true;
}

/* A pinned iterator: the link stays in bpffs, and each read of the pinned
 * file runs the program (its printf is bpf_seq_printf, see codegen_seq.c). */
static bool iter_pin(const ProbeSpec *p, int lfd, char *err, size_t errlen)
{
	bool ok = bpf_obj_pin(lfd, p->pin) == 0;
	if (ok) {
		printf("Program pinned to %s\n", p->pin);
		fflush(stdout);
	} else {
		snprintf(err, errlen, "cannot pin %s to %s: %s%s", p->name, p->pin, strerror(errno),
			 errno == EEXIST ? " (remove it first)" : errno == EPERM || errno == ENOENT ||
			 errno == EINVAL ? " (the path must be in a mounted bpf file system, "
			 "e.g. /sys/fs/bpf)" : "");
	}
	close(lfd);
	return ok;
}

/* Link the program, open an iterator on the link and read it to the end:
 * each read runs the program over the next objects. */
static bool iter_run(const ProbeSpec *p, int prog_fd, char *err, size_t errlen)
{
	int lfd = bpf_link_create(prog_fd, 0, BPF_TRACE_ITER, NULL);
	if (lfd < 0) {
		snprintf(err, errlen, "cannot attach %s: %s", p->name, strerror(errno));
		return false;
	}
	if (p->pin)
		return iter_pin(p, lfd, err, errlen);
	int ifd = bpf_iter_create(lfd);
	if (ifd < 0) {
		snprintf(err, errlen, "cannot start %s: %s", p->name, strerror(errno));
		close(lfd);
		return false;
	}
	char buf[4096];
	ssize_t r;
	while ((r = read(ifd, buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR))
		;
	if (r < 0)
		snprintf(err, errlen, "running %s: %s", p->name, strerror(errno));
	close(ifd);
	close(lfd);
	return r == 0;
}

const Provider provider_iter = {
	.name = "iter",
	.aliases = {"it"},
	.prog_type = BPF_PROG_TYPE_TRACING,
	.expand = iter_expand,
	.ctx_arg_offset = iter_arg_offset,
	.attach = iter_attach,
	.run = iter_run,
	.space = SPACE_KERNEL,
	.ctx = CTX_ITER,
	.can_signal = true,
};
