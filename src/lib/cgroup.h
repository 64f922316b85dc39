/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cgroup v2 ids to paths, and paths to what an admin calls them: the systemd
 * unit, the container (docker, podman, containerd, CRI-O, LXC) and the
 * Kubernetes pod.
 */
#ifndef WD_CGROUP_H
#define WD_CGROUP_H

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

/* Cache of cgroup v2 id -> path below the v2 mount, filled by walking it. */
struct wd_cgroup_entry {
	uint64_t id;
	char *path;		/* relative to the mount, "/" for the root */
};

struct wd_cgroups {
	char root[256];		/* the cgroup2 mount point, "" if none */
	struct wd_cgroup_entry *v;
	size_t n;
	double last_walk;	/* wd clock seconds of the last walk */
};

/* Find the cgroup2 mount in a mountinfo file (NULL: /proc/self/mountinfo). */
int wd_cgroups_init(struct wd_cgroups *c, const char *mountinfo);
/*
 * The path of a cgroup id, NULL when unknown. A miss walks the hierarchy
 * again, at most once a second: cgroups come and go with containers.
 */
const char *wd_cgroup_path(struct wd_cgroups *c, uint64_t id);
void wd_cgroups_free(struct wd_cgroups *c);

#endif /* WD_CGROUP_H */
