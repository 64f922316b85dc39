// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Every cgroup v2 directory made, renamed, removed or released while
 * whydrop counts drops by cgroup (--group-by cgroup, serve --per-cgroup),
 * from the cgroup tracepoints: a cgroup is named from its mkdir, before
 * it can vanish, and a series of it retires once it is gone. Loaded only
 * then; v1 hierarchies (hierarchy_id != 0) are left out. Records that do
 * not fit in the ring buffer are counted in `lost`, never silently.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "cgroup_events.h"

/* Only the fields read here; CO-RE ignores the ___wd suffix. */
struct cgroup_root___wd {
	int hierarchy_id;
} __attribute__((preserve_access_index));

struct cgroup___wd {
	struct kernfs_node *kn;
	struct cgroup_root___wd *root;
} __attribute__((preserve_access_index));

enum { MKDIR = 1, RMDIR, RELEASE, RENAME };	/* enum wd_cgroup_event */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, WD_CGEV_RING_BYTES);
} cgroup_events SEC(".maps");

__u64 lost;

static __always_inline int tell(struct cgroup___wd *cgrp, const char *path, __u32 kind)
{
	struct wd_cgev *ev;
	long n;

	if (BPF_CORE_READ(cgrp, root, hierarchy_id) != 0)
		return 0;
	ev = path ? bpf_ringbuf_reserve(&cgroup_events,
					 sizeof(*ev) + WD_CGEV_PATH_BYTES, 0)
		  : bpf_ringbuf_reserve(&cgroup_events, sizeof(*ev), 0);
	if (!ev) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	ev->id = BPF_CORE_READ(cgrp, kn, id);
	ev->ts = bpf_ktime_get_ns();
	ev->kind = kind;
	ev->path_len = 0;
	if (path) {
		n = bpf_probe_read_kernel_str(ev->path, WD_CGEV_PATH_BYTES, path);
		/* a path that fills the buffer may have been cut: none then */
		ev->path_len = n > 0 && n < WD_CGEV_PATH_BYTES ? (__u32)n : 0;
	}
	bpf_ringbuf_submit(ev, 0);
	return 0;
}

SEC("tp_btf/cgroup_mkdir")
int cgroup_mkdir(__u64 *ctx)
{
	return tell((struct cgroup___wd *)ctx[0], (const char *)ctx[1], MKDIR);
}

SEC("tp_btf/cgroup_rename")
int cgroup_rename(__u64 *ctx)
{
	return tell((struct cgroup___wd *)ctx[0], (const char *)ctx[1], RENAME);
}

SEC("tp_btf/cgroup_rmdir")
int cgroup_rmdir(__u64 *ctx)
{
	return tell((struct cgroup___wd *)ctx[0], NULL, RMDIR);
}

SEC("tp_btf/cgroup_release")
int cgroup_release(__u64 *ctx)
{
	return tell((struct cgroup___wd *)ctx[0], NULL, RELEASE);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
