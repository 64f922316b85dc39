/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Records of cgroup_events.bpf.c, shared with user space
 * (src/core/cgroup_events.c): what happened to a cgroup v2 directory.
 */
#ifndef WHYDROP_CGROUP_EVENTS_H
#define WHYDROP_CGROUP_EVENTS_H

#define WD_CGEV_PATH_BYTES	512	/* a longer path is not used (cut short, it would lie) */
#define WD_CGEV_RING_BYTES	(1024 * 1024)

/* kind: the values of enum wd_cgroup_event (src/lib/who/cgroup.h) */
struct wd_cgev {
	__u64 id;		/* the cgroup id: its kernfs node's, as sockets name it */
	__u64 ts;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 kind;
	__u32 path_len;		/* with the NUL; 0: no path (rmdir, release, or unreadable) */
	char path[];		/* mkdir, rename: from the hierarchy's root, "/a/b" */
};

#endif /* WHYDROP_CGROUP_EVENTS_H */
