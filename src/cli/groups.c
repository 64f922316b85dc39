// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* count/top --group-by: the tables of a snapshot by who the drops hurt; see groups.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "grow.h"
#include "options.h"

void wd_groups_init(struct wd_groups *g, const struct wd_opts *o, struct wd_session *s)
{
	memset(g, 0, sizeof(*g));
	g->by = o->group_by;
	g->max_groups = o->max_groups;
	g->s = s;
}

void wd_groups_free(struct wd_groups *g)
{
	free(g->socks);
	free(g->retired);
	g->socks = NULL;
	g->retired = NULL;
	g->n_socks = g->cap_socks = g->n_retired = g->cap_retired = 0;
}

/* The first known socket with an inode >= ino (socks is sorted by inode). */
static size_t sock_pos(const struct wd_groups *g, uint64_t ino)
{
	size_t lo = 0, hi = g->n_socks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->socks[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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

static void sock_label(struct wd_groups *g, const struct wd_sock_key *k, char *buf, size_t len);

/* Add count to the (group, reason) row of *v, or a new row. */
static int add_count(struct wd_group_row **v, size_t *n, size_t *cap, const char *group,
		     uint32_t reason, uint64_t count)
{
	for (size_t i = 0; i < *n; i++) {
		if ((*v)[i].reason == reason && !strcmp((*v)[i].group, group)) {
			(*v)[i].count += count;
			return 0;
		}
	}
	if (wd_grow(v, cap, *n, sizeof(**v), 16))
		return -ENOMEM;
	memset(&(*v)[*n], 0, sizeof(**v));
	snprintf((*v)[*n].group, sizeof((*v)[*n].group), "%s", group);
	(*v)[*n].reason = reason;
	(*v)[(*n)++].count = count;
	return 0;
}

/* sock_fold: a swapped-out socket's count goes to its process's row, if known. */
static bool fold_sock(void *ctx, const struct wd_sock_total *t)
{
	struct wd_groups *g = ctx;
	char label[256];

	if (!learn(g, t->key.ino))
		return false;	/* kept by the session, as a socket whose process was not seen */
	sock_label(g, &t->key, label, sizeof(label));
	return !add_count(&g->retired, &g->n_retired, &g->cap_retired, label, t->key.reason,
			  t->count);
}

void wd_groups_maintain(struct wd_groups *g, struct wd_session *s)
{
	wd_session_maintain(s, g->by == WD_GROUP_PROCESS ? fold_sock : NULL, g);
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
}

static void netns_label(struct wd_session *s, const struct wd_netns_id *ns, char *buf,
			size_t len)
{
	const char *name = wd_netns_name(&s->who.owners, ns);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		wd_netns_label(ns, buf, len);
}

static void key_label(struct wd_groups *g, struct wd_session *s, const struct wd_netns_id *id,
		      const struct wd_key *k, char *buf, size_t len)
{
	char ns[128];
	const char *ifname;

	netns_label(s, id, ns, sizeof(ns));
	if (g->by == WD_GROUP_NETNS) {
		snprintf(buf, len, "%s", ns);
		return;
	}
	ifname = wd_ifname(&s->ifnames, id, k->ifindex);
	if (ifname)
		snprintf(buf, len, "%s@%s", ifname, ns);
	else if (k->ifindex)
		snprintf(buf, len, "ifindex %u@%s", k->ifindex, ns);
	else
		snprintf(buf, len, "(no device)@%s", ns);
}

static void sock_label(struct wd_groups *g, const struct wd_sock_key *k, char *buf, size_t len)
{
	struct wd_session *s = g->s;
	const struct wd_known_sock *ks;
	const char *path;

	if (!k->ino && !k->cgroup_id) {
		snprintf(buf, len, "(no socket)");
		return;
	}
	if (g->by == WD_GROUP_CGROUP) {
		path = wd_cgroup_path(&s->who.cgroups, k->cgroup_id);
		if (path)
			wd_cgroup_label(path, buf, len);
		else
			snprintf(buf, len, "cgroup %" PRIu64, (uint64_t)k->cgroup_id);
		return;
	}
	ks = known(g, k->ino);
	if (ks)
		snprintf(buf, len, "%s[%d]", ks->comm, ks->pid);
	else if (k->ino == WD_SOCK_INO_RETIRED)
		snprintf(buf, len, "(socket: process not seen)");
	else
		snprintf(buf, len, "(socket %" PRIu64 ": process not seen)", (uint64_t)k->ino);
}

static int add_row(struct wd_group_row **v, size_t *n, size_t *cap, const char *group,
		   const struct wd_netns_id *ns, uint32_t reason, uint64_t count)
{
	struct wd_group_row *tmp;

	if (wd_grow(v, cap, *n, sizeof(**v), 64))
		return -ENOMEM;
	tmp = *v;
	memset(&tmp[*n], 0, sizeof(tmp[*n]));
	snprintf(tmp[*n].group, sizeof(tmp[*n].group), "%s", group);
	if (ns)
		tmp[*n].ns = *ns;
	tmp[*n].reason = reason;
	tmp[*n].count = count;
	(*n)++;
	return 0;
}

static int collect_keys(struct wd_groups *g, const struct wd_snapshot *snap,
			struct wd_group_row **v, size_t *n, size_t *cap)
{
	const struct wd_key_total *k = wd_key_rows(&snap->keys);
	char label[256];
	int err = 0;

	for (size_t i = 0; !err && i < snap->keys.n; i++) {
		struct wd_netns_id ns = { k[i].key.netns_cookie, k[i].key.netns };

		key_label(g, g->s, &ns, &k[i].key, label, sizeof(label));
		err = add_row(v, n, cap, label, &ns, k[i].key.reason, k[i].count);
	}
	return err;
}

/*
 * The counts of the snapshot's sockets, and those of sockets swapped out
 * before it to their process's row (g->retired): wd_groups_maintain() after
 * the tables, never between, so that none is in both.
 */
static int collect_socks(struct wd_groups *g, const struct wd_snapshot *snap,
			 struct wd_group_row **v, size_t *n, size_t *cap)
{
	const struct wd_sock_total *t = wd_sock_rows(&snap->socks);
	char label[256];
	int err = 0;

	if (!snap->has_socks)
		return -EOPNOTSUPP;
	for (size_t i = 0; !err && i < g->n_retired; i++)
		err = add_row(v, n, cap, g->retired[i].group, NULL, g->retired[i].reason,
			      g->retired[i].count);
	if (err)
		return err;
	g->generation = snap->sock_generation;
	/* after the counts: every cgroup they name was made before it was told */
	wd_session_cgroups_read(g->s);
	if (g->by == WD_GROUP_PROCESS)
		learn_all(g, snap);
	for (size_t i = 0; !err && i < snap->socks.n; i++) {
		sock_label(g, &t[i].key, label, sizeof(label));
		err = add_row(v, n, cap, label, NULL, t[i].key.reason, t[i].count);
	}
	forget_idle(g);
	if (g->by == WD_GROUP_CGROUP)
		prune_cgroups(g, snap);
	return err;
}

/* The group of a row: its label and, by netns or interface, its namespace. */
static int cmp_group(const struct wd_group_row *a, const struct wd_group_row *b)
{
	int c = strcmp(a->group, b->group);

	return c ? c : wd_netns_cmp(&a->ns, &b->ns);
}

static int cmp_name(const void *x, const void *y)
{
	const struct wd_group_row *a = x, *b = y;
	int c = cmp_group(a, b);

	if (c)
		return c;
	return a->reason < b->reason ? -1 : a->reason > b->reason;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct wd_group_row *a = x, *b = y;
	int c;

	if (a->group_total != b->group_total)
		return a->group_total > b->group_total ? -1 : 1;
	c = cmp_group(a, b);
	if (c)
		return c;
	return a->count > b->count ? -1 : a->count < b->count;
}

/* One row per (group, reason), each with its group's total; largest group first. */
static void normalize(struct wd_group_row *v, size_t *n)
{
	size_t m = 0, first = 0;

	if (!*n)
		return;		/* nothing dropped yet: v may be NULL, no qsort of it */
	qsort(v, *n, sizeof(*v), cmp_name);
	for (size_t i = 0; i < *n; i++) {
		if (m && !cmp_name(&v[m - 1], &v[i]))
			v[m - 1].count += v[i].count;
		else
			v[m++] = v[i];
	}
	for (size_t i = 0; i <= m; i++) {
		uint64_t total = 0;

		if (i < m && !cmp_group(&v[i], &v[first]))
			continue;
		for (size_t j = first; j < i; j++)
			total += v[j].count;
		for (size_t j = first; j < i; j++)
			v[j].group_total = total;
		first = i;
	}
	*n = m;
	qsort(v, m, sizeof(*v), cmp_rows);
}

/* Past the max_groups largest groups, every row goes to "(other)", by reason. */
static void fold_other(struct wd_groups *g, struct wd_group_row *v, size_t *n)
{
	size_t groups = 0;
	bool folded = false;

	for (size_t i = 0; i < *n; i++) {
		if (!i || cmp_group(&v[i], &v[i - 1]))
			groups++;
		if (groups > g->max_groups) {
			snprintf(v[i].group, sizeof(v[i].group), "(other)");
			memset(&v[i].ns, 0, sizeof(v[i].ns));
			folded = true;
		}
	}
	if (folded)
		normalize(v, n);
}

int wd_groups_rows(struct wd_groups *g, const struct wd_snapshot *snap,
		   struct wd_group_row **out, size_t *n)
{
	struct wd_group_row *v = NULL;
	size_t m = 0, cap = 0;
	int err;

	if (g->by == WD_GROUP_NETNS || g->by == WD_GROUP_INTERFACE)
		err = collect_keys(g, snap, &v, &m, &cap);
	else
		err = collect_socks(g, snap, &v, &m, &cap);
	if (err) {
		free(v);
		return err;
	}
	normalize(v, &m);
	fold_other(g, v, &m);
	*out = v;
	*n = m;
	return 0;
}

int wd_groups_doc(struct wd_groups *g, struct wd_session *s, const struct wd_snapshot *snap,
		  struct wd_count_doc *doc, struct wd_groups_doc *gd)
{
	size_t n;
	int err;

	memset(gd, 0, sizeof(*gd));
	err = wd_groups_rows(g, snap, &gd->rows, &n);
	if (err)
		return err;
	gd->out = calloc(n ? n : 1, sizeof(*gd->out));
	gd->names = calloc(n ? n : 1, sizeof(*gd->names));
	if (!gd->out || !gd->names) {
		wd_groups_doc_free(gd);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		gd->out[i] = (struct wd_group_out){
			.group = gd->rows[i].group, .code = gd->rows[i].reason,
			.count = gd->rows[i].count, .netns = gd->rows[i].ns.inode,
			.netns_cookie = gd->rows[i].ns.cookie,
		};
		if (s->reasons.has_reason)
			gd->out[i].reason = wd_reason_name(&s->reasons, gd->rows[i].reason,
							   gd->names[i], sizeof(gd->names[i]));
	}
	doc->group_by = wd_group_by_name(g->by);
	doc->groups = gd->out;
	doc->n_groups = n;
	doc->groups_lost = snap->stats.v[WD_STAT_SOCK_OVERFLOW];
	return 0;
}

void wd_groups_doc_free(struct wd_groups_doc *gd)
{
	free(gd->rows);
	free(gd->out);
	free(gd->names);
	memset(gd, 0, sizeof(*gd));
}

void wd_groups_print_live(struct wd_groups *g, struct wd_session *s,
			  const struct wd_snapshot *snap, FILE *f)
{
	struct wd_count_doc doc = { 0 };
	struct wd_groups_doc gd;

	/* No wd_groups_refresh(): making the rows learns owners too. */
	if (wd_groups_doc(g, s, snap, &doc, &gd))
		return;
	wd_print_groups_table(f, &doc);
	wd_groups_doc_free(&gd);
}
