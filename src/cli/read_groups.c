// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop read: the drops of a recording counted by key, by (reason,
 * location) as count does, and with --group-by by (who, reason), labelled
 * as count --group-by labels its groups.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "read.h"

/* ---- rows counted by key: an array and an open-addressing index into it ---- */

static void *row_at(const struct table *t, size_t i)
{
	return t->rows + i * t->size;
}

void wd_table_free(struct table *t)
{
	free(t->rows);
	free(t->slots);
	t->rows = NULL;
	t->slots = NULL;
	t->n = t->cap = t->n_slots = 0;
}

static int rehash(struct table *t)
{
	size_t n_slots = t->n_slots ? t->n_slots * 2 : 64;
	uint32_t *slots = calloc(n_slots, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		size_t j = t->hash(row_at(t, i)) & (n_slots - 1);

		while (slots[j])
			j = (j + 1) & (n_slots - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->n_slots = n_slots;
	return 0;
}

/* The row equal to key; a copy of key if there is none yet. NULL: out of memory. */
static void *table_get(struct table *t, const void *key)
{
	size_t j;

	if (!t->slots && rehash(t))
		return NULL;
	j = t->hash(key) & (t->n_slots - 1);
	for (; t->slots[j]; j = (j + 1) & (t->n_slots - 1))
		if (t->same(row_at(t, t->slots[j] - 1), key))
			return row_at(t, t->slots[j] - 1);
	if (wd_grow(&t->rows, &t->cap, t->n, t->size, 32))
		return NULL;
	memcpy(row_at(t, t->n), key, t->size);
	t->slots[j] = (uint32_t)++t->n;
	if (t->n * 2 >= t->n_slots && rehash(t))
		return NULL;
	return row_at(t, t->n - 1);
}

static uint32_t fnv(uint32_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return (h ^ 0xffu) * 16777619u;	/* the end of a field */
}

/* ---- drops by (reason, location), as count ---- */

static uint32_t row_hash(const void *p)
{
	const struct read_row *r = p;

	return fnv(fnv(r->m.has_reason ? 1u : 2u, r->m.reason), r->m.location);
}

static bool same_row(const void *a, const void *b)
{
	const struct read_row *x = a, *y = b;

	return x->m.has_reason == y->m.has_reason && !strcmp(x->m.reason, y->m.reason) &&
	       !strcmp(x->m.location, y->m.location);
}

/* ---- --group-by: drops by (who, reason), as count --group-by ---- */

static uint32_t group_hash(const void *p)
{
	const struct read_group *g = p;

	return fnv(fnv(2166136261u, g->group), g->reason) ^ (uint32_t)g->ns.cookie ^ g->ns.inode;
}

/* A group: its label and, by netns or interface, its namespace (names may repeat). */
static int cmp_group(const struct read_group *x, const struct read_group *y)
{
	int c = strcmp(x->group, y->group);

	return c ? c : wd_netns_cmp(&x->ns, &y->ns);
}

static bool same_group(const void *a, const void *b)
{
	const struct read_group *x = a, *y = b;

	return !cmp_group(x, y) && !strcmp(x->reason, y->reason);
}

/* "ifindex=N": the word record writes when the device had no name; 0 if none. */
static uint32_t comment_ifindex(const char *c)
{
	for (const char *p = c; p && (p = strstr(p, "ifindex=")); p += 8)
		if (p == c || p[-1] == ' ')
			return (uint32_t)strtoul(p + 8, NULL, 10);
	return 0;
}

static struct wd_netns_id comment_netns(const struct wd_pcapng_meta *m)
{
	return (struct wd_netns_id){ m->has_netns_cookie ? m->netns_cookie : 0,
				     m->has_netns ? m->netns : 0 };
}

static void netns_label(const struct wd_pcapng_meta *m, char *buf, size_t len)
{
	struct wd_netns_id ns = comment_netns(m);

	if (m->has_netns_name)
		snprintf(buf, len, "%s", m->netns_name);
	else
		wd_netns_label(&ns, buf, len);
}

static void interface_label(const struct wd_pcapng_meta *m, const char *comment, char *buf,
			    size_t len)
{
	uint32_t ifindex = comment_ifindex(comment);
	char ns[80];

	netns_label(m, ns, sizeof(ns));
	if (m->has_ifname)
		snprintf(buf, len, "%s@%s", m->ifname, ns);
	else if (ifindex)
		snprintf(buf, len, "ifindex %u@%s", ifindex, ns);
	else
		snprintf(buf, len, "(no device)@%s", ns);
}

/* The socket's cgroup or process; the labels of count --group-by. */
static void socket_label(const struct wd_pcapng_meta *m, enum wd_group_by by, char *buf,
			 size_t len)
{
	if (m->sock_unknown)
		snprintf(buf, len, "(socket unknown)");
	else if (!m->has_sock && !m->has_lport)
		snprintf(buf, len, "(no socket)");
	else if (by == WD_GROUP_CGROUP && (m->has_workload || m->has_cgroup))
		snprintf(buf, len, "%s", m->has_workload ? m->workload : m->cgroup);
	else if (by == WD_GROUP_CGROUP)
		snprintf(buf, len, "(socket: cgroup not recorded)");
	else if (m->has_pid)
		snprintf(buf, len, "%s[%u]", m->has_comm ? m->comm : "?", m->pid);
	else if (m->has_sock)
		snprintf(buf, len, "(socket %" PRIu64 ": process not seen)", m->sock);
	else
		snprintf(buf, len, "(socket: process not seen)");
}

static void group_label(const struct wd_pcapng_meta *m, const char *comment,
			enum wd_group_by by, char *buf, size_t len)
{
	if (by == WD_GROUP_NETNS)
		netns_label(m, buf, len);
	else if (by == WD_GROUP_INTERFACE)
		interface_label(m, comment, buf, len);
	else
		socket_label(m, by, buf, len);
}

static int cmp_group_name(const void *a, const void *b)
{
	const struct read_group *x = a, *y = b;
	int c = cmp_group(x, y);

	return c ? c : strcmp(x->reason, y->reason);
}

static int cmp_group_size(const void *a, const void *b)
{
	const struct read_group *x = a, *y = b;
	int c;

	if (x->group_total != y->group_total)
		return x->group_total > y->group_total ? -1 : 1;
	c = cmp_group(x, y);
	if (c)
		return c;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->reason, y->reason);
}

/* Each row gets its group's total; the largest group first. */
static void order_groups(struct table *t)
{
	struct read_group *g = (struct read_group *)t->rows;
	size_t first = 0;

	if (!t->n)
		return;
	qsort(g, t->n, sizeof(*g), cmp_group_name);
	for (size_t i = 1; i <= t->n; i++) {
		uint64_t total = 0;

		if (i < t->n && !cmp_group(&g[i], &g[first]))
			continue;
		for (size_t j = first; j < i; j++)
			total += g[j].count;
		for (size_t j = first; j < i; j++)
			g[j].group_total = total;
		first = i;
	}
	qsort(g, t->n, sizeof(*g), cmp_group_size);
}

/* Past the max largest groups, every row goes to "(other)", by reason. */
int wd_read_fold_groups(struct table *t, uint32_t max)
{
	struct table o = { .size = sizeof(struct read_group), .hash = group_hash,
			   .same = same_group };
	const struct read_group *g = (const struct read_group *)t->rows;
	size_t groups = 0;

	order_groups(t);	/* the index is stale from here: rebuilt in o */
	for (size_t i = 0; i < t->n; i++) {
		struct read_group key = g[i], *r;

		if (!i || cmp_group(&g[i], &g[i - 1]))
			groups++;
		if (groups > max) {
			snprintf(key.group, sizeof(key.group), "(other)");
			memset(&key.ns, 0, sizeof(key.ns));
		}
		key.count = 0;
		r = table_get(&o, &key);
		if (!r) {
			wd_table_free(&o);
			return -ENOMEM;
		}
		r->count += g[i].count;
	}
	wd_table_free(t);
	*t = o;
	order_groups(t);
	return 0;
}

void wd_read_tables_init(struct table *drops, struct table *groups)
{
	*drops = (struct table){ .size = sizeof(struct read_row), .hash = row_hash,
				 .same = same_row };
	*groups = (struct table){ .size = sizeof(struct read_group), .hash = group_hash,
				  .same = same_group };
}

int wd_read_add_drop(struct table *t, const struct wd_pcapng_meta *m)
{
	struct read_row key = { .m = *m }, *r = table_get(t, &key);

	if (!r)
		return -ENOMEM;
	r->count++;
	return 0;
}

int wd_read_add_group(struct table *t, const struct wd_pcapng_meta *m, const char *comment,
		      enum wd_group_by by)
{
	struct read_group key = { .code = m->code }, *r;

	group_label(m, comment, by, key.group, sizeof(key.group));
	if (by == WD_GROUP_NETNS || by == WD_GROUP_INTERFACE)
		key.ns = comment_netns(m);
	if (m->has_reason)
		snprintf(key.reason, sizeof(key.reason), "%s", m->reason);
	r = table_get(t, &key);
	if (!r)
		return -ENOMEM;
	r->count++;
	return 0;
}
