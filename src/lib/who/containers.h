/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The names people use for a container or a Kubernetes pod, from the node's
 * own files (no API server, no runtime socket), for a cgroup v2 path:
 *   podman      containers/storage: <graph root>/<driver>-containers/containers.json
 *   docker      <data root>/containers/<id>/config.v2.json (Name, io.kubernetes.* labels)
 *   Kubernetes  /var/log/containers/<pod>_<namespace>_<container>-<id>.log links and
 *               /var/log/pods/<namespace>_<pod>_<uid>/ (containerd, CRI-O, dockershim)
 * Every path is taken below a root prefix ("/host" when the host's files are
 * mounted there). Answers are cached: a name, once learned, is kept while it
 * is used (the container may be gone by the time a drop is looked up); a
 * miss reads the files again only when they changed, at most once per
 * refresh interval; the cache is bounded and idle entries age out. A file
 * that cannot be read or parsed leaves the bare id and one warning.
 */
#ifndef WD_CONTAINERS_H
#define WD_CONTAINERS_H

#include <stddef.h>

#define WD_CTR_ID_LEN	65	/* a 64-hex container id and its NUL */
#define WD_CTR_UID_LEN	37	/* a pod UID with dashes */
#define WD_CTR_NAME_LEN	254	/* a DNS subdomain (a pod name) is at most 253 */
#define WD_CTR_NS_LEN	64	/* a DNS label (a namespace) is at most 63 */

/* What is known of a container or pod; empty strings where nothing is. */
struct wd_ctr_name {
	char runtime[16];		/* docker, podman, containerd, cri-o, "" */
	char id[WD_CTR_ID_LEN];		/* the container id of the cgroup path */
	char pod_uid[WD_CTR_UID_LEN];	/* the pod of a kubepods path */
	char name[WD_CTR_NAME_LEN];	/* the runtime's name, or the pod's container's */
	char pod[WD_CTR_NAME_LEN];	/* Kubernetes pod name */
	char k8s_namespace[WD_CTR_NS_LEN];
};

enum wd_ctr_found {
	WD_CTR_NONE,	/* the path names no container and no pod */
	WD_CTR_BARE,	/* a container or pod whose name is unknown: ids only */
	WD_CTR_NAMED,	/* name, or pod and namespace, known */
};

typedef void (*wd_ctr_warn_fn)(void *ctx, const char *msg);

struct wd_ctr_config {
	const char *root;		/* prefix of every path below; "" or NULL: none */
	const char *podman_roots;	/* ':'-separated graph roots */
	const char *docker_root;	/* dockerd's --data-root */
	const char *pods_dir;		/* kubelet's pod logs */
	const char *containers_dir;	/* kubelet's links, one per container */
	unsigned int max_entries;	/* cache bound */
	double refresh_s;		/* a miss reads files at most this often */
	double max_idle_s;		/* entries not looked up this long go */
	double (*clock)(void);		/* seconds, monotonic; NULL: CLOCK_MONOTONIC */
	wd_ctr_warn_fn warn;		/* NULL: "whydrop: ..." on stderr */
	void *warn_ctx;
};

struct wd_ctr_stats {
	unsigned long lookups, hits, resolves, files_read, dirs_read, evicted, aged, warnings;
	size_t entries;
};

/* The defaults: the paths above, 1024 entries, 1 s, 600 s. */
void wd_ctr_config_default(struct wd_ctr_config *cfg);
/* NULL when out of memory; the configuration's strings are copied. */
struct wd_ctr_names *wd_ctr_names_new(const struct wd_ctr_config *cfg);
void wd_ctr_names_free(struct wd_ctr_names *n);

/*
 * Name the container or pod a cgroup v2 path (as in /proc/PID/cgroup) is
 * in. *out always holds what the path itself says (runtime, id, pod UID).
 */
enum wd_ctr_found wd_ctr_lookup(struct wd_ctr_names *n, const char *cgroup_path,
				struct wd_ctr_name *out);
/*
 * One short label: "podman:web", "docker:web", "pod default/web-0/nginx",
 * "pod default/web-0" (no container name known); for a bare id the cgroup's
 * own label ("podman:0123456789ab", "pod UID/containerd:0123456789ab").
 */
const char *wd_ctr_label(const struct wd_ctr_name *c, char *buf, size_t len);
void wd_ctr_get_stats(const struct wd_ctr_names *n, struct wd_ctr_stats *st);

#endif /* WD_CONTAINERS_H */
