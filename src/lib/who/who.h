/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who a drop hurts, for sampled records: the namespace's name, the socket's
 * process and cgroup (with the unit, container or pod it names).
 */
#ifndef WD_WHO_H
#define WD_WHO_H

#include "cgroup.h"
#include "containers.h"
#include "format.h"
#include "owners.h"
#include <linux/types.h>
#include "whydrop.h"

struct wd_who {
	bool processes;		/* name sockets' processes (-p) */
	struct wd_owners owners;
	struct wd_cgroups cgroups;
	struct wd_ctr_names *ctr;	/* names of containers and pods; NULL: none */
	struct wd_ctr_name ctr_name;
	char workload[200];
	char comm[WD_COMM_LEN + 1];
	char netns_name[64];
};

/*
 * Scans /proc now: call while still privileged. Containers and pods are
 * named from the runtimes' files below root (NULL: /), docker's under
 * docker_root (NULL: its default); see containers.h.
 */
void wd_who_init(struct wd_who *w, bool processes, const char *root, const char *docker_root);
void wd_who_free(struct wd_who *w);
/*
 * The container or pod of a cgroup path, if its runtime's files name it
 * (WD_CTR_NAMED) or at least the path does (WD_CTR_BARE); *c lives in w
 * until the next call.
 */
enum wd_ctr_found wd_who_container(struct wd_who *w, const char *cgroup_path,
				   const struct wd_ctr_name **c);
/*
 * --netns ARG: the namespace ns is called as the user wrote it, an `ip
 * netns` name or a path, whatever other names it has.
 */
void wd_who_netns_given(struct wd_who *w, const struct wd_netns_id *ns, const char *arg);
/* Fill v->netns_name and v->sock; the strings live in w until the next call. */
void wd_who_view(struct wd_who *w, const struct wd_netns_id *ns, const struct wd_sock *sk,
		 struct wd_drop_view *v);

#endif /* WD_WHO_H */
