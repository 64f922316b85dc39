// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <string.h>

#include "who.h"

/* The runtimes' files below root (NULL: /), docker's under docker_root (NULL: default). */
static void containers_open(struct wd_who *w, const char *root, const char *docker_root)
{
	struct wd_ctr_config cfg;

	wd_ctr_config_default(&cfg);
	if (root)
		cfg.root = root;
	if (docker_root)
		cfg.docker_root = docker_root;
	w->ctr = wd_ctr_names_new(&cfg);
	if (!w->ctr)
		fprintf(stderr, "whydrop: out of memory: containers and pods are not named\n");
	/* namespaces are named after their containers too */
	w->owners.ctr = w->ctr;
}

void wd_who_init(struct wd_who *w, bool processes, const char *root, const char *docker_root)
{
	memset(w, 0, sizeof(*w));
	w->processes = processes;
	wd_owners_init(&w->owners, NULL, NULL);
	wd_cgroups_init(&w->cgroups, NULL);
	containers_open(w, root, docker_root);
	wd_owners_scan(&w->owners);
}

void wd_who_free(struct wd_who *w)
{
	wd_owners_free(&w->owners);
	wd_cgroups_free(&w->cgroups);
	wd_ctr_names_free(w->ctr);
	w->ctr = NULL;
	w->owners.ctr = NULL;
}

enum wd_ctr_found wd_who_container(struct wd_who *w, const char *cgroup_path,
				   const struct wd_ctr_name **c)
{
	enum wd_ctr_found f;

	*c = NULL;
	if (!w->ctr || !cgroup_path)
		return WD_CTR_NONE;
	f = wd_ctr_lookup(w->ctr, cgroup_path, &w->ctr_name);
	if (f != WD_CTR_NONE)
		*c = &w->ctr_name;
	return f;
}

static void container_view(struct wd_who *w, struct wd_sock_view *k)
{
	const struct wd_ctr_name *c;

	if (wd_who_container(w, k->cgroup, &c) != WD_CTR_NAMED)
		return;
	k->container = c->name[0] ? c->name : NULL;
	k->pod = c->pod[0] ? c->pod : NULL;
	k->k8s_namespace = c->k8s_namespace[0] ? c->k8s_namespace : NULL;
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
	container_view(w, k);
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
