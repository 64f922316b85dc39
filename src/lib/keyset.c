// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Sets of exact counts by key; see keyset.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "keyset.h"

#define RUN_SLOTS	(WD_RUN_SETS * WD_RUN_WAYS)

int wd_keyset_push(struct wd_keyset *ks, const struct wd_key *key, uint64_t count)
{
	if (wd_grow(&ks->v, &ks->cap, ks->n, sizeof(*ks->v), 256))
		return -ENOMEM;
	ks->v[ks->n].key = *key;
	ks->v[ks->n].count = count;
	ks->n++;
	return 0;
}

static int cmp_key(const void *x, const void *y)
{
	return memcmp(&((const struct wd_key_total *)x)->key,
		      &((const struct wd_key_total *)y)->key, sizeof(struct wd_key));
}

void wd_keyset_merge(struct wd_keyset *ks)
{
	size_t out = 0;

	if (!ks->n)
		return;
	qsort(ks->v, ks->n, sizeof(*ks->v), cmp_key);
	for (size_t i = 1; i < ks->n; i++) {
		if (!cmp_key(&ks->v[out], &ks->v[i]))
			ks->v[out].count += ks->v[i].count;
		else
			ks->v[++out] = ks->v[i];
	}
	ks->n = out + 1;
}

/* Overflow counts by slot: the keys with location 0. */
static void overflow_counts(const struct wd_key_total *v, size_t n, uint64_t *out)
{
	memset(out, 0, WD_OVERFLOW_SLOTS * sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (!v[i].key.location)
			out[wd_reason_slot(v[i].key.reason)] += v[i].count;
}

int wd_keyset_clamp(struct wd_keyset *cur, const struct wd_key_total *prev, size_t n_prev)
{
	uint64_t ovf_cur[WD_OVERFLOW_SLOTS], ovf_prev[WD_OVERFLOW_SLOTS];
	struct wd_keyset res = { 0 };
	size_t i = 0, j = 0;
	int d, err = 0;

	overflow_counts(cur->v, cur->n, ovf_cur);
	overflow_counts(prev, n_prev, ovf_prev);

	while (!err && (i < cur->n || j < n_prev)) {
		if (i == cur->n)
			d = 1;
		else if (j == n_prev)
			d = -1;
		else
			d = cmp_key(&cur->v[i], &prev[j]);
		if (d < 0) {
			err = wd_keyset_push(&res, &cur->v[i].key, cur->v[i].count);
			i++;
		} else if (d > 0) {
			/*
			 * Gone from this read: a run in flight (keep it), or a
			 * run moved into its reason's overflow bucket, which
			 * grew and now holds it (keeping it would count twice).
			 */
			uint32_t slot = wd_reason_slot(prev[j].key.reason);

			if (!prev[j].key.location || ovf_cur[slot] <= ovf_prev[slot])
				err = wd_keyset_push(&res, &prev[j].key, prev[j].count);
			j++;
		} else {
			uint64_t n = cur->v[i].count > prev[j].count ? cur->v[i].count :
								       prev[j].count;

			err = wd_keyset_push(&res, &cur->v[i].key, n);
			i++;
			j++;
		}
	}
	if (err) {
		free(res.v);
		return err;
	}
	free(cur->v);
	*cur = res;
	return 0;
}

void wd_keyset_free(struct wd_keyset *ks)
{
	free(ks->v);
	memset(ks, 0, sizeof(*ks));
}

long wd_runs_take(const struct wd_runs *a, const struct wd_runs *b, const struct wd_runs *c,
		  int ncpu, bool *taken, struct wd_keyset *out)
{
	long left = 0;

	for (size_t i = 0; i < (size_t)ncpu * RUN_SLOTS; i++) {
		const struct wd_run *ra = &a[i / RUN_SLOTS].slot[i % RUN_SLOTS];
		const struct wd_run *rb = &b[i / RUN_SLOTS].slot[i % RUN_SLOTS];
		const struct wd_run *rc = &c[i / RUN_SLOTS].slot[i % RUN_SLOTS];

		if (taken[i])
			continue;
		if (ra->seq != rc->seq || (ra->seq & 1) || rb->seq != ra->seq) {
			left++;
			continue;
		}
		taken[i] = true;
		if (rb->n && wd_keyset_push(out, &rb->key, rb->n))
			return -ENOMEM;
	}
	return left;
}
