/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who a drop hurts, for sampled records: the namespace's name, the socket's
 * process and cgroup (with the unit, container or pod it names).
 */
#ifndef WD_WHO_H
#define WD_WHO_H

#include "cgroup.h"
#include "format.h"
#include "owners.h"
#include <linux/types.h>
#include "whydrop.h"

struct wd_who {
	bool processes;		/* name sockets' processes (-p) */
	struct wd_owners owners;
	struct wd_cgroups cgroups;
	char workload[200];
	char comm[WD_COMM_LEN + 1];
	char netns_name[64];
};

/* Scans /proc now: call while still privileged. */
void wd_who_init(struct wd_who *w, bool processes);
void wd_who_free(struct wd_who *w);
/*
 * --netns ARG: the namespace ns is called as the user wrote it, an `ip
 * netns` name or a path, whatever other names it has.
 */
void wd_who_netns_given(struct wd_who *w, const struct wd_netns_id *ns, const char *arg);
/* Fill v->netns_name and v->sock; the strings live in w until the next call. */
void wd_who_view(struct wd_who *w, const struct wd_netns_id *ns, const struct wd_sock *sk,
		 struct wd_drop_view *v);

#endif /* WD_WHO_H */
