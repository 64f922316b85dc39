// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One read of every source of a session; see snapshot.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules_snap.h"
#include "session.h"
#include "snapshot.h"
#include "source_tcp.h"

int wd_session_snapshot(struct wd_session *s, struct wd_snapshot *snap)
{
	int err = 0;

	memset(snap, 0, sizeof(*snap));
	wd_keyset_init(&snap->keys, sizeof(struct wd_key));
	wd_keyset_init(&snap->socks, sizeof(struct wd_sock_key));
	snap->t = wd_now();
	for (size_t i = 0; !err && i < s->n_src; i++)
		err = s->src[i]->ops->snapshot(s->src[i], snap);
	if (err)
		wd_snapshot_free(snap);
	return err;
}

void wd_snapshot_free(struct wd_snapshot *snap)
{
	wd_keyset_free(&snap->keys);
	wd_keyset_free(&snap->socks);
	free(snap->stacks);
	snap->stacks = NULL;
	snap->n_stacks = 0;
	wd_rules_snap_free(snap->rules);
	snap->rules = NULL;
	wd_tcp_snap_free(snap->tcp);
	snap->tcp = NULL;
}

int wd_session_maintain(struct wd_session *s, wd_sock_fold_fn fold, void *ctx)
{
	int err = 0;

	for (size_t i = 0; i < s->n_src; i++) {
		struct wd_source *src = s->src[i];
		int e = src->ops->maintain ? src->ops->maintain(src, fold, ctx) : 0;

		if (!err)
			err = e;
	}
	return err;
}

int wd_session_age(struct wd_session *s, const struct wd_age *a)
{
	int err = 0;

	for (size_t i = 0; i < s->n_src; i++) {
		struct wd_source *src = s->src[i];
		int e = src->ops->age ? src->ops->age(src, a) : 0;

		if (!err)
			err = e;
	}
	return err;
}

static int cmp_site(const void *x, const void *y)
{
	const struct wd_total *a = x, *b = y;

	if (a->reason != b->reason)
		return a->reason < b->reason ? -1 : 1;
	return a->location < b->location ? -1 : a->location > b->location;
}

static int cmp_count(const void *x, const void *y)
{
	const struct wd_total *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return cmp_site(x, y);
}

int wd_snapshot_totals(const struct wd_snapshot *snap, struct wd_total **out, size_t *n_out)
{
	const struct wd_key_total *k = wd_key_rows(&snap->keys);
	size_t n = snap->keys.n, m = 0;
	struct wd_total *t = calloc(n ? n : 1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		t[i] = (struct wd_total){ k[i].key.reason, k[i].key.location, k[i].count };
	if (n) {
		qsort(t, n, sizeof(*t), cmp_site);
		for (size_t i = 1; i < n; i++) {
			if (!cmp_site(&t[m], &t[i]))
				t[m].count += t[i].count;
			else
				t[++m] = t[i];
		}
		m++;
		qsort(t, m, sizeof(*t), cmp_count);
	}
	*out = t;
	*n_out = m;
	return 0;
}
