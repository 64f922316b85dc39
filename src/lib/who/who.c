// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "who.h"

void wd_who_init(struct wd_who *w, bool processes)
{
	memset(w, 0, sizeof(*w));
	w->processes = processes;
	wd_owners_init(&w->owners, NULL, NULL);
	wd_cgroups_init(&w->cgroups, NULL);
	wd_owners_scan(&w->owners);
}

void wd_who_free(struct wd_who *w)
{
	wd_owners_free(&w->owners);
	wd_cgroups_free(&w->cgroups);
}

void wd_who_netns_given(struct wd_who *w, const struct wd_netns_id *ns, const char *arg)
{
	wd_owners_name_netns(&w->owners, ns, arg);
}

static void sock_view(struct wd_who *w, const struct wd_sock *sk, struct wd_sock_view *k)
{
	const struct wd_owner_entry *owner;

	memset(k, 0, sizeof(*k));
	if (!(sk->flags & WD_SOCK_FOUND)) {
		k->kind = sk->flags & WD_SOCK_TP_RX_SK ? WD_SOCK_NONE : WD_SOCK_UNKNOWN;
		return;
	}
	k->kind = WD_SOCK_SEEN;
	k->lport = sk->sport;
	k->rport = sk->dport;
	k->state = sk->state;
	if (!(sk->flags & WD_SOCK_FULL))
		return;
	k->full = true;
	k->ino = sk->ino;
	k->uid = sk->uid;
	k->cgroup_id = sk->cgroup_id;
	k->cgroup = wd_cgroup_path(&w->cgroups, sk->cgroup_id);
	if (k->cgroup && strcmp(wd_cgroup_label(k->cgroup, w->workload, sizeof(w->workload)),
				k->cgroup))
		k->workload = w->workload;
	/* Without -p a rescan could not read /proc/PID/fd: say nothing, not half. */
	owner = w->processes ? wd_socket_owner(&w->owners, sk->ino) : NULL;
	if (!owner)
		return;
	snprintf(w->comm, sizeof(w->comm), "%.*s", WD_COMM_LEN, owner->name);
	k->pid = owner->pid;
	k->comm = w->comm;
}

void wd_who_view(struct wd_who *w, const struct wd_netns_id *ns, const struct wd_sock *sk,
		 struct wd_drop_view *v)
{
	const char *name = wd_netns_name(&w->owners, ns);

	/* Copied: the socket lookup below may rescan and move the name. */
	v->netns_name = NULL;
	if (name) {
		snprintf(w->netns_name, sizeof(w->netns_name), "%s", name);
		v->netns_name = w->netns_name;
	}
	sock_view(w, sk, &v->sock);
}
