/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cgroup v2 ids to paths, and paths to what an admin calls them: the systemd
 * unit, the container (docker, podman, containerd, CRI-O, LXC) and the
 * Kubernetes pod.
 */
#ifndef WD_CGROUP_H
#define WD_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WD_CGROUP_ID_LEN	65	/* a 64-hex container id and its NUL */
#define WD_CGROUP_UID_LEN	37	/* a pod UID with dashes */

/* What a cgroup path says about its owner; empty strings when it says nothing. */
struct wd_cgroup_info {
	char runtime[16];		/* docker, podman, containerd, cri-o, lxc */
	char container[WD_CGROUP_ID_LEN];	/* container id, or LXC name */
	char pod_uid[WD_CGROUP_UID_LEN];	/* kubepods pod UID, dashes restored */
	char qos[16];			/* guaranteed, burstable, besteffort */
	char unit[128];			/* innermost systemd unit (.service/.scope) */
};

/* Read a cgroup v2 path (as in /proc/PID/cgroup, "/system.slice/x.service"). */
void wd_cgroup_parse(const char *path, struct wd_cgroup_info *ci);
/*
 * One short name for a table or a label: "pod 3f2c…/containerd:0123456789ab",
 * "docker:0123456789ab", "nginx.service", else the path itself.
 */
const char *wd_cgroup_label(const char *path, char *buf, size_t len);
/*
 * The workload that owns what a process in this cgroup lives in (its
 * network namespace): "pod UID" for a Kubernetes pod, whose containers share
 * one, else the container, "docker:0123456789ab"; NULL (and "") for anything
 * else, systemd units included.
 */
const char *wd_cgroup_workload(const char *path, char *buf, size_t len);

/*
 * cgroup v2 id -> path below the v2 mount, learned from walking it (at
 * start, then on a miss at most once a second) and, where the kernel tells
 * them (src/core/cgroup_events.c), from each mkdir, rename, rmdir and
 * release: a cgroup made while whydrop runs is named before it can vanish.
 */
struct wd_cgroup_entry {
	uint64_t id;
	char *path;		/* relative to the mount, "/" for the root */
	double gone;		/* rmdir seen, or missing from a whole walk; 0: exists */
	double released;	/* freed by the kernel: no socket names it any more */
	unsigned int walk;	/* the last walk that found it */
};

enum wd_cgroup_event { WD_CGROUP_MKDIR = 1, WD_CGROUP_RMDIR, WD_CGROUP_RELEASE,
		       WD_CGROUP_RENAME };

struct wd_cgroups {
	char root[256];		/* the cgroup2 mount point, "" if none */
	char mnt_root[256];	/* the mount's root in the hierarchy ("/"; else a cgroup namespace's) */
	struct wd_cgroup_entry *v;	/* sorted by id (the first n_sorted; all between walks) */
	size_t n, cap, n_sorted;
	bool walking;		/* a walk appends what it finds new, then sorts once */
	double last_walk;	/* monotonic seconds of the last walk */
	unsigned int walks;
	bool events;		/* every event is told (none lost): no walk needed to see one go */
	double keep;		/* seconds a released cgroup stays named (0: for ever) */
};

/* Find the cgroup2 mount in a mountinfo file (NULL: /proc/self/mountinfo). */
int wd_cgroups_init(struct wd_cgroups *c, const char *mountinfo);
/*
 * The path of a cgroup id, NULL when unknown. A miss walks the hierarchy
 * again, at most once a second: cgroups come and go with containers.
 */
const char *wd_cgroup_path(struct wd_cgroups *c, uint64_t id);
/* Walk the hierarchy now, unless the last walk is less than min_age seconds old. */
void wd_cgroups_walk(struct wd_cgroups *c, double min_age);
/*
 * What the kernel said of a cgroup at monotonic time t: its path (made or
 * renamed; as the kernel names it, from the hierarchy's root), or that it
 * was removed or released.
 */
void wd_cgroups_event(struct wd_cgroups *c, enum wd_cgroup_event ev, uint64_t id,
		      const char *path, double t);
/*
 * Since when a cgroup is gone (removed, or missing from a whole walk): 0
 * while it exists; *known false when the id was never named.
 */
double wd_cgroup_gone(const struct wd_cgroups *c, uint64_t id, bool *known);
/*
 * Forget cgroups released more than keep seconds ago (without events:
 * gone), which no socket can name any more. Nothing when keep is 0.
 */
void wd_cgroups_prune(struct wd_cgroups *c, double now);
/* The same with keep given, sparing the ids in_use() says a count still names. */
void wd_cgroups_prune_unused(struct wd_cgroups *c, double now, double keep,
			     bool (*in_use)(void *ctx, uint64_t id), void *ctx);
void wd_cgroups_free(struct wd_cgroups *c);

#endif /* WD_CGROUP_H */
