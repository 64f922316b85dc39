// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Which namespaces are gone for top and count; see aging.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aging.h"
#include "snapshot.h"
#include "sorted.h"

#define NS_BY_INODE	(1ULL << 63)
#define SCAN_EVERY_S	5.0	/* a /proc scan for aging at most this often */

void wd_aging_init(struct wd_aging *ag, struct wd_session *s)
{
	memset(ag, 0, sizeof(*ag));
	ag->s = s;
	ag->scan_every = SCAN_EVERY_S;
}

void wd_aging_free(struct wd_aging *ag)
{
	free(ag->missed);
	free(ag->next);
	ag->missed = ag->next = NULL;
	ag->n_missed = ag->cap_missed = ag->n_next = ag->cap_next = 0;
}

static uint64_t ns_id(const struct wd_netns_id *ns)
{
	return ns->cookie ? ns->cookie : NS_BY_INODE | ns->inode;
}

/* Remembered for the next pass; a failure only delays the aging. */
static void note_missed(struct wd_aging *ag, uint64_t id)
{
	if (ag->n_next == ag->cap_next) {
		size_t cap = ag->cap_next ? 2 * ag->cap_next : 16;
		uint64_t *v = realloc(ag->next, cap * sizeof(*v));

		if (!v)
			return;
		ag->next = v;
		ag->cap_next = cap;
	}
	ag->next[ag->n_next++] = id;
}

static bool ns_gone(void *ctx, const struct wd_netns_id *ns)
{
	struct wd_aging *ag = ctx;
	struct wd_owners *o = &ag->s->who.owners;
	uint64_t id = ns_id(ns);

	if (wd_netns_found(o, ns))
		return false;
	if (wd_sorted_has_u64(ag->missed, ag->n_missed, id))
		return true;
	note_missed(ag, id);
	return false;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* A sorted v without repeats (a namespace is missed once per key): its new length. */
static size_t unique(uint64_t *v, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

/* Removed (the kernel said so, or a whole walk missed it): ids are never reused. */
static bool cg_gone(void *ctx, uint64_t id)
{
	struct wd_aging *ag = ctx;
	bool known;

	return wd_cgroup_gone(&ag->s->who.cgroups, id, &known) > 0;
}

static bool if_gone(void *ctx, const struct wd_netns_id *ns, uint32_t ifindex)
{
	struct wd_aging *ag = ctx;

	return wd_ifindex_gone(&ag->s->ifnames, ns, ifindex);
}

/* The namespaces this pass missed become those the next one judges gone. */
static void next_pass(struct wd_aging *ag)
{
	uint64_t *tmp;
	size_t cap;

	ag->scan = ag->s->who.owners.scans;
	tmp = ag->missed;
	cap = ag->cap_missed;
	ag->missed = ag->next;
	ag->n_missed = ag->n_next;
	ag->cap_missed = ag->cap_next;
	ag->next = tmp;
	ag->cap_next = cap;
	if (ag->n_missed > 1)	/* qsort() of NULL is undefined */
		qsort(ag->missed, ag->n_missed, sizeof(*ag->missed), cmp_u64);
	ag->n_missed = unique(ag->missed, ag->n_missed);
}

int wd_aging_run(struct wd_aging *ag)
{
	struct wd_owners *o = &ag->s->who.owners;
	struct wd_age a = { .ctx = ag };
	int err;

	if (!o->proc)	/* no names asked for: no scan, nothing judged */
		return 0;
	wd_owners_refresh(o, ag->scan_every);
	/* namespaces: only from a complete scan newer than the last pass's */
	if (o->complete && o->scans != ag->scan)
		a.netns_gone = ns_gone;
	if (ag->cgroups)
		a.cgroup_gone = cg_gone;
	a.iface_gone = if_gone;
	ag->n_next = 0;
	err = wd_session_age(ag->s, &a);
	if (a.netns_gone)
		next_pass(ag);
	return err;
}
