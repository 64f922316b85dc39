// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * count/top --group-by: who the drops of a snapshot hurt, as the engine
 * (groups.c) groups them: the namespace and interface of every counting
 * key, the cgroup and process of the counts by socket; see groups.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "grow.h"
#include "options.h"
#include "sorted.h"
#include "source_tcp.h"

void wd_groups_init(struct wd_groups *g, const struct wd_opts *o, struct wd_session *s)
{
	memset(g, 0, sizeof(*g));
	g->by = o->group_by;
	g->max_groups = o->max_groups;
	g->s = s;
	wd_group_rows_init(&g->retired);
	wd_aging_init(&g->aging, s);
	g->aging.cgroups = true;
}

void wd_groups_free(struct wd_groups *g)
{
	free(g->socks);
	g->socks = NULL;
	g->n_socks = g->cap_socks = 0;
	wd_keyset_free(&g->retired);
	wd_aging_free(&g->aging);
}

/* The first known socket with an inode >= ino (socks is sorted by inode). */
static size_t sock_pos(const struct wd_groups *g, uint64_t ino)
{
	return WD_LOWER_BOUND(g->socks, g->n_socks, ino, ino);
}

static struct wd_known_sock *known(struct wd_groups *g, uint64_t ino)
{
	size_t i = sock_pos(g, ino);

	return i < g->n_socks && g->socks[i].ino == ino ? &g->socks[i] : NULL;
}

/* The owner of socket ino, from /proc now if not known yet; NULL if not found. */
static struct wd_known_sock *learn(struct wd_groups *g, uint64_t ino)
{
	struct wd_session *s = g->s;
	const struct wd_owner_entry *e;
	struct wd_known_sock *ks;
	size_t i;

	if (!ino || ino == WD_SOCK_INO_RETIRED)
		return NULL;
	ks = known(g, ino);
	if (!ks) {
		e = wd_socket_owner(&s->who.owners, ino);
		if (!e || wd_grow(&g->socks, &g->cap_socks, g->n_socks, sizeof(*ks), 64))
			return NULL;	/* asked again at the next refresh */
		i = sock_pos(g, ino);
		ks = &g->socks[i];
		memmove(ks + 1, ks, (g->n_socks++ - i) * sizeof(*ks));
		ks->ino = ino;
		ks->pid = e->pid;
		snprintf(ks->comm, sizeof(ks->comm), "%.*s", WD_COMM_LEN, e->name);
	}
	ks->seen_gen = g->generation;
	return ks;
}

static int cmp_sock_ino(const void *a, const void *b)
{
	const struct wd_known_sock *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* fresh (sorted, none known yet) merged into g->socks from the back: no move per socket. */
static int merge_socks(struct wd_groups *g, const struct wd_known_sock *fresh, size_t m)
{
	size_t i, j, w;

	while (g->cap_socks < g->n_socks + m)
		if (wd_grow(&g->socks, &g->cap_socks, g->cap_socks, sizeof(*fresh), 64))
			return -ENOMEM;
	i = g->n_socks;
	j = m;
	w = g->n_socks + m;
	while (j) {
		if (i && g->socks[i - 1].ino > fresh[j - 1].ino)
			g->socks[--w] = g->socks[--i];
		else
			g->socks[--w] = fresh[--j];
	}
	g->n_socks += m;
	return 0;
}

/*
 * learn() for every socket of a snapshot: the owners not known yet are
 * sorted and merged in once (learning one by one moved the table for each:
 * quadratic in the sockets new since the last refresh).
 */
static void learn_all(struct wd_groups *g, const struct wd_snapshot *snap)
{
	const struct wd_sock_total *t = wd_sock_rows(&snap->socks);
	struct wd_known_sock *fresh = NULL;
	size_t m = 0, cap = 0, u = 0;

	for (size_t i = 0; i < snap->socks.n; i++) {
		uint64_t ino = t[i].key.ino;
		struct wd_known_sock *ks = known(g, ino);
		const struct wd_owner_entry *e;

		if (ks)
			ks->seen_gen = g->generation;
		if (ks || !ino || ino == WD_SOCK_INO_RETIRED)
			continue;
		e = wd_socket_owner(&g->s->who.owners, ino);
		if (!e || wd_grow(&fresh, &cap, m, sizeof(*fresh), 64))
			continue;	/* asked again at the next refresh */
		fresh[m] = (struct wd_known_sock){ .ino = ino, .pid = e->pid,
						   .seen_gen = g->generation };
		snprintf(fresh[m++].comm, sizeof(fresh->comm), "%.*s", WD_COMM_LEN, e->name);
	}
	if (m)
		qsort(fresh, m, sizeof(*fresh), cmp_sock_ino);
	for (size_t i = 0; i < m; i++)	/* one row per socket (several reasons) */
		if (!u || fresh[u - 1].ino != fresh[i].ino)
			fresh[u++] = fresh[i];
	merge_socks(g, fresh, u);
	free(fresh);
}

#define CGROUP_KEEP_S	60.0	/* a released cgroup's name, kept while a count may name it */

struct id_list {
	uint64_t *ids;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool named_by(void *ctx, uint64_t id)
{
	const struct id_list *l = ctx;

	return l->n && bsearch(&id, l->ids, l->n, sizeof(id), cmp_u64);
}

/*
 * The names of cgroups released a minute ago or more that no count of the
 * snapshot names are let go: the host's cgroups come and go (the kernel
 * tells each one), the table follows those that exist or are counted.
 */
static void prune_cgroups(struct wd_groups *g, const struct wd_snapshot *snap)
{
	const struct wd_sock_total *t = wd_sock_rows(&snap->socks);
	struct id_list l = { calloc(snap->socks.n ? snap->socks.n : 1, sizeof(uint64_t)), 0 };

	if (!l.ids)
		return;		/* kept for now */
	for (size_t i = 0; i < snap->socks.n; i++)
		l.ids[l.n++] = t[i].key.cgroup_id;
	qsort(l.ids, l.n, sizeof(*l.ids), cmp_u64);
	wd_cgroups_prune_unused(&g->s->who.cgroups, wd_now(), CGROUP_KEEP_S, named_by, &l);
	free(l.ids);
}

/* Let go of the owners of sockets that have not dropped for two generations. */
static void forget_idle(struct wd_groups *g)
{
	size_t m = 0;

	for (size_t i = 0; i < g->n_socks; i++)
		if (g->socks[i].seen_gen + 2 > g->generation)
			g->socks[m++] = g->socks[i];
	g->n_socks = m;
}

/* The reason's name, NULL in location-only mode. */
static const char *reason_name(struct wd_session *s, uint32_t code, char *buf, size_t len)
{
	return s->reasons.has_reason ? wd_reason_name(&s->reasons, code, buf, len) : NULL;
}

/* Who a count by socket names: its namespace, cgroup and process. */
static void sock_who(struct wd_groups *g, const struct wd_sock_key *k, struct wd_group_who *w,
		     char *cg, size_t len)
{
	struct wd_session *s = g->s;
	const struct wd_known_sock *ks;
	const char *path;

	memset(w, 0, sizeof(*w));
	w->ns = (struct wd_netns_id){ k->netns_cookie, k->netns };
	w->sock = !k->ino && !k->cgroup_id ? WD_SOCK_NONE : WD_SOCK_SEEN;
	w->sock_ino = k->ino;
	w->cgroup_id = k->cgroup_id;
	if (g->by == WD_GROUP_PROCESS || g->by == WD_GROUP_NONE || k->cgroup_id == WD_CGROUP_GONE)
		goto process;
	path = wd_cgroup_path(&s->who.cgroups, k->cgroup_id);
	if (g->by == WD_GROUP_CGROUP)
		w->cgroup = path ? wd_cgroup_label(path, cg, len) : NULL;
	else
		wd_who_container(&s->who, path, &w->ctr);
process:
	ks = g->by == WD_GROUP_PROCESS ? known(g, k->ino) : NULL;
	if (ks) {
		w->pid = ks->pid;
		w->comm = ks->comm;
	}
}

/* sock_fold: a swapped-out socket's count goes to its process's row, if known. */
static bool fold_sock(void *ctx, const struct wd_sock_total *t)
{
	struct wd_groups *g = ctx;
	struct wd_group_who w;
	char reason[128], cg[WD_GROUP_LABEL];

	if (!learn(g, t->key.ino))
		return false;	/* kept by the session, as a socket whose process was not seen */
	sock_who(g, &t->key, &w, cg, sizeof(cg));
	return !wd_group_add(&g->retired, g->by, &w,
			     reason_name(g->s, t->key.reason, reason, sizeof(reason)),
			     t->key.reason, t->count);
}

/* The pid of a process's row, "comm[pid]", and the length of its comm; 0 for another row. */
static int label_pid(const char *label, size_t *comm_len)
{
	const char *open = strrchr(label, '[');
	char *end;
	long pid;

	if (!open || open == label)
		return 0;
	pid = strtol(open + 1, &end, 10);
	if (end == open + 1 || strcmp(end, "]") || pid <= 0 || pid > INT_MAX)
		return 0;
	*comm_len = (size_t)(open - label);
	return (int)pid;
}

/* No process pid named comm any more (a pid taken again by another is not it). */
static bool exited(const char *proc, int pid, const char *comm, size_t len)
{
	char path[512], now[WD_COMM_LEN + 2];
	FILE *f;
	bool gone;

	snprintf(path, sizeof(path), "%s/%d/comm", proc, pid);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT || errno == ESRCH;
	gone = !fgets(now, sizeof(now), f) || strcspn(now, "\n") != len ||
	       strncmp(now, comm, len);
	fclose(f);
	return gone;
}

/* wd_keyset_fold: a row of a process that exited goes to "(process exited)". */
static bool fold_exited(void *ctx, void *key)
{
	struct wd_group_key *k = key;
	struct wd_groups *g = ctx;
	size_t len;
	int pid = label_pid(k->group, &len);

	if (!pid || !exited(g->s->who.owners.proc, pid, k->group, len))
		return false;
	memset(k->group, 0, sizeof(k->group));	/* keys compare as bytes */
	snprintf(k->group, sizeof(k->group), "(process exited)");
	return true;
}

void wd_groups_maintain(struct wd_groups *g, struct wd_session *s)
{
	const struct wd_owners *o = &s->who.owners;

	wd_session_maintain(s, g->by == WD_GROUP_PROCESS ? fold_sock : NULL, g);
	wd_aging_run(&g->aging);
	/* the rows of exited processes, at the pace of the /proc scans */
	if (g->by != WD_GROUP_PROCESS || !o->proc || o->scans == g->exited_scan)
		return;
	g->exited_scan = o->scans;
	wd_keyset_fold(&g->retired, NULL, fold_exited, g);
}

/*
 * The names of the containers that dropped, looked up now: the cache keeps
 * a name learned while its container lives, for the report after it is gone.
 */
static void learn_containers(struct wd_groups *g, const struct wd_snapshot *snap)
{
	const struct wd_sock_total *v = wd_sock_rows(&snap->socks);
	struct wd_who *who = &g->s->who;
	const struct wd_ctr_name *c;

	for (size_t i = 0; i < snap->socks.n; i++)
		if (v[i].key.cgroup_id != WD_CGROUP_GONE)
			wd_who_container(who, wd_cgroup_path(&who->cgroups, v[i].key.cgroup_id),
					 &c);
}

void wd_groups_refresh(struct wd_groups *g, const struct wd_snapshot *snap)
{
	if (!snap->has_socks)
		return;
	g->generation = snap->sock_generation;
	if (g->by == WD_GROUP_PROCESS)
		learn_all(g, snap);
	forget_idle(g);
	wd_session_cgroups_read(g->s);
	if (g->by == WD_GROUP_CONTAINER || g->by == WD_GROUP_POD)
		learn_containers(g, snap);
}

/* The namespace and interface of every counting key. */
static int collect_keys(struct wd_groups *g, const struct wd_snapshot *snap,
			struct wd_keyset *rows)
{
	const struct wd_key_total *k = wd_key_rows(&snap->keys);
	struct wd_session *s = g->s;
	char reason[128];
	int err = 0;

	for (size_t i = 0; !err && i < snap->keys.n; i++) {
		struct wd_group_who w = { .ns = { k[i].key.netns_cookie, k[i].key.netns } };

		w.netns_name = wd_netns_name(&s->who.owners, &w.ns);
		w.ifindex = k[i].key.ifindex;
		if (g->by == WD_GROUP_INTERFACE)
			w.ifname = wd_ifname(&s->ifnames, &w.ns, k[i].key.ifindex);
		err = wd_group_add(rows, g->by, &w,
				   reason_name(s, k[i].key.reason, reason, sizeof(reason)),
				   k[i].key.reason, k[i].count);
	}
	return err;
}

/* A per-flow key as the engine's flow: addresses as text, ports for TCP and UDP. */
static void key_flow(const struct wd_tcp_drop_key *k, struct wd_flow *f)
{
	int af = k->family == AF_INET6 ? AF_INET6 : AF_INET;

	memset(f, 0, sizeof(*f));
	if (k->family != AF_INET && k->family != AF_INET6)
		return;		/* "(not IP)" */
	f->family = af == AF_INET6 ? 6 : 4;
	f->has_l4 = true;
	f->l4 = k->proto;
	inet_ntop(af, k->saddr, f->src, sizeof(f->src));
	inet_ntop(af, k->daddr, f->dst, sizeof(f->dst));
	/* none for a later IPv4 fragment (0, 0 in the key) */
	f->has_ports = (k->proto == IPPROTO_TCP || k->proto == IPPROTO_UDP) &&
		       (k->sport || k->dport);
	f->sport = k->sport;
	f->dport = k->dport;
}

/* The drop program's per-flow counts (tcp_drops.h): --group-by flow, src, dst. */
static int collect_flows(struct wd_groups *g, const struct wd_snapshot *snap,
			 struct wd_keyset *rows)
{
	const struct wd_tcp_snap *t = snap->tcp;
	struct wd_session *s = g->s;
	char reason[128];
	struct wd_flow f;
	int err = 0;

	if (!t || !t->has_drops)
		return -EOPNOTSUPP;
	for (size_t i = 0; !err && i < t->n_drops; i++) {
		const struct wd_tcp_drop_key *k = &t->drops[i].key;
		struct wd_group_who w = { .ns = { k->netns_cookie, k->netns }, .flow = &f };

		key_flow(k, &f);
		w.netns_name = wd_netns_name(&s->who.owners, &w.ns);
		err = wd_group_add(rows, g->by, &w, reason_name(s, k->reason, reason, sizeof(reason)),
				   k->reason, t->drops[i].count.packets);
	}
	return err;
}

/*
 * The counts of the snapshot's sockets, and those of sockets swapped out
 * before it to their process's row (g->retired): wd_groups_maintain() after
 * the tables, never between, so that none is in both.
 */
static int collect_socks(struct wd_groups *g, const struct wd_snapshot *snap,
			 struct wd_keyset *rows)
{
	const struct wd_sock_total *t = wd_sock_rows(&snap->socks);
	char reason[128], cg[WD_GROUP_LABEL];
	struct wd_group_who w;
	int err;

	if (!snap->has_socks)
		return -EOPNOTSUPP;
	err = wd_keyset_append(rows, &g->retired);
	if (err)
		return err;
	g->generation = snap->sock_generation;
	/* after the counts: every cgroup they name was made before it was told */
	wd_session_cgroups_read(g->s);
	if (g->by == WD_GROUP_PROCESS)
		learn_all(g, snap);
	for (size_t i = 0; !err && i < snap->socks.n; i++) {
		sock_who(g, &t[i].key, &w, cg, sizeof(cg));
		err = wd_group_add(rows, g->by, &w,
				   reason_name(g->s, t[i].key.reason, reason, sizeof(reason)),
				   t[i].key.reason, t[i].count);
	}
	forget_idle(g);
	/* by cgroup, container or pod: the cgroups' names follow those counted */
	if (g->by != WD_GROUP_PROCESS)
		prune_cgroups(g, snap);
	return err;
}

int wd_groups_doc(struct wd_groups *g, const struct wd_snapshot *snap, struct wd_count_doc *doc,
		  struct wd_groups_doc *gd)
{
	struct wd_keyset rows;
	int err;

	memset(gd, 0, sizeof(*gd));
	wd_group_rows_init(&rows);
	if (g->by == WD_GROUP_NETNS || g->by == WD_GROUP_INTERFACE)
		err = collect_keys(g, snap, &rows);
	else if (wd_group_by_flow(g->by))
		err = collect_flows(g, snap, &rows);
	else
		err = collect_socks(g, snap, &rows);
	if (!err)
		err = wd_groups_doc_make(&rows, g->by, g->max_groups, doc, gd);
	wd_keyset_free(&rows);
	if (err)
		return err;
	/* the drops the per-flow hash had no room for: said, never in a row */
	doc->groups_lost = wd_group_by_flow(g->by) ? snap->tcp->drops_overflow.packets
						   : snap->stats.v[WD_STAT_SOCK_OVERFLOW];
	return err;
}

void wd_groups_print_live(struct wd_groups *g, const struct wd_snapshot *snap, FILE *f)
{
	struct wd_count_doc doc = { 0 };
	struct wd_groups_doc gd;

	/* No wd_groups_refresh(): making the rows learns owners too. */
	if (wd_groups_doc(g, snap, &doc, &gd))
		return;
	wd_print_groups_table(f, &doc);
	wd_groups_doc_free(&gd);
	/*
	 * A snapshot's rows by socket (a label each for sockets whose process
	 * was not seen) are megabytes for a moment, every second: give them
	 * back, or top's memory stays at its busiest second.
	 */
	malloc_trim(0);
}
