// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Exact counts by key, any key size; see keyset.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "keyset.h"

#define RUN_SLOTS	(WD_RUN_SETS * WD_RUN_WAYS)
#define FIRST_ROWS	256

static size_t row_size(const struct wd_keyset *ks)
{
	return ks->key_size + sizeof(uint64_t);
}

void wd_keyset_init(struct wd_keyset *ks, size_t key_size)
{
	memset(ks, 0, sizeof(*ks));
	ks->key_size = key_size;
}

void wd_keyset_free(struct wd_keyset *ks)
{
	size_t key_size = ks->key_size;

	free(ks->v);
	free(ks->index);
	wd_keyset_init(ks, key_size);
}

void wd_keyset_clear(struct wd_keyset *ks)
{
	ks->n = 0;
	ks->indexed = false;
}

/* Room for one more row; the rows are bytes of row_size() each. */
static int room(struct wd_keyset *ks)
{
	char *v;
	size_t cap;

	if (ks->n < ks->cap)
		return 0;
	cap = ks->cap ? ks->cap * 2 : FIRST_ROWS;
	v = realloc(ks->v, cap * row_size(ks));
	if (!v)
		return -ENOMEM;
	ks->v = v;
	ks->cap = cap;
	return 0;
}

int wd_keyset_push(struct wd_keyset *ks, const void *key, uint64_t count)
{
	if (room(ks))
		return -ENOMEM;
	memcpy(wd_keyset_key(ks, ks->n), key, ks->key_size);
	*wd_keyset_count(ks, ks->n) = count;
	ks->n++;
	ks->indexed = false;
	return 0;
}

int wd_keyset_append(struct wd_keyset *ks, const struct wd_keyset *from)
{
	for (size_t i = 0; i < from->n; i++)
		if (wd_keyset_push(ks, wd_keyset_key(from, i), *wd_keyset_count(from, i)))
			return -ENOMEM;
	return 0;
}

/* ------------------------------------------------------------ the hash of rows */

/* Multiply-xor over the key's words (key_size is a multiple of 8). */
static uint64_t hash_key(const void *key, size_t key_size)
{
	const unsigned char *p = key;
	uint64_t h = 0x9E3779B97F4A7C15ULL, w;

	for (size_t i = 0; i < key_size; i += sizeof(w)) {
		memcpy(&w, p + i, sizeof(w));
		h = (h ^ w) * 0xC2B2AE3D27D4EB4FULL;
		h ^= h >> 29;
	}
	return h;
}

/* The slot of key in the index: its row's, or the free one where it would go. */
static size_t slot_of(const struct wd_keyset *ks, const void *key)
{
	size_t mask = ks->index_cap - 1, i = hash_key(key, ks->key_size) & mask;

	while (ks->index[i] && memcmp(wd_keyset_key(ks, ks->index[i] - 1), key, ks->key_size))
		i = (i + 1) & mask;
	return i;
}

/* Every row in an index at least twice as large as the rows' room. */
static int reindex(struct wd_keyset *ks)
{
	size_t cap = ks->index_cap ? ks->index_cap : 64;

	while (cap < 2 * (ks->n + 1))
		cap *= 2;
	if (cap != ks->index_cap || !ks->index) {
		uint32_t *idx = calloc(cap, sizeof(*idx));

		if (!idx)
			return -ENOMEM;
		free(ks->index);
		ks->index = idx;
		ks->index_cap = cap;
	} else {
		memset(ks->index, 0, cap * sizeof(*ks->index));
	}
	for (size_t i = 0; i < ks->n; i++)
		ks->index[slot_of(ks, wd_keyset_key(ks, i))] = (uint32_t)(i + 1);
	ks->indexed = true;
	return 0;
}

uint64_t *wd_keyset_find(struct wd_keyset *ks, const void *key)
{
	size_t i;

	if (!ks->indexed && reindex(ks))
		return NULL;
	i = slot_of(ks, key);
	return ks->index[i] ? wd_keyset_count(ks, ks->index[i] - 1) : NULL;
}

int wd_keyset_add(struct wd_keyset *ks, const void *key, uint64_t count)
{
	uint64_t *c = wd_keyset_find(ks, key);

	if (c) {
		*c += count;
		return 0;
	}
	if (!ks->indexed || 2 * (ks->n + 1) > ks->index_cap || ks->n >= UINT32_MAX - 1) {
		if (ks->n >= UINT32_MAX - 1 || reindex(ks))
			return -ENOMEM;
	}
	if (room(ks))
		return -ENOMEM;
	memcpy(wd_keyset_key(ks, ks->n), key, ks->key_size);
	*wd_keyset_count(ks, ks->n) = count;
	ks->index[slot_of(ks, key)] = (uint32_t)(ks->n + 1);
	ks->n++;
	return 0;
}

/* A copy of rows [from, to) of ks into out (initialised, same key size). */
static int copy_rows(struct wd_keyset *out, const struct wd_keyset *ks, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (wd_keyset_push(out, wd_keyset_key(ks, i), *wd_keyset_count(ks, i)))
			return -ENOMEM;
	return 0;
}

long wd_keyset_count_absent(const struct wd_keyset *ks, size_t from, size_t to,
			    const struct wd_keyset *probe)
{
	struct wd_keyset have, want;
	long n = 0;

	wd_keyset_init(&have, ks->key_size);
	wd_keyset_init(&want, ks->key_size);
	if (copy_rows(&have, ks, from, to) || copy_rows(&want, probe, 0, probe->n)) {
		n = -ENOMEM;
		goto out;
	}
	wd_keyset_merge(&want);	/* one row per key: a key on two CPUs counts once */
	for (size_t i = 0; i < want.n && n >= 0; i++) {
		if (wd_keyset_find(&have, wd_keyset_key(&want, i)))
			continue;
		if (!have.indexed)
			n = -ENOMEM;	/* the index could not be built */
		else
			n++;
	}
out:
	wd_keyset_free(&have);
	wd_keyset_free(&want);
	return n;
}

/* ------------------------------------------------------------ merging */

static int cmp_key(const void *x, const void *y, void *key_size)
{
	return memcmp(x, y, *(const size_t *)key_size);
}

void wd_keyset_merge(struct wd_keyset *ks)
{
	size_t out = 0;

	if (!ks->n)
		return;
	qsort_r(ks->v, ks->n, row_size(ks), cmp_key, &ks->key_size);
	for (size_t i = 1; i < ks->n; i++) {
		if (!memcmp(wd_keyset_key(ks, out), wd_keyset_key(ks, i), ks->key_size))
			*wd_keyset_count(ks, out) += *wd_keyset_count(ks, i);
		else if (++out != i)
			memcpy(wd_keyset_key(ks, out), wd_keyset_key(ks, i), row_size(ks));
	}
	ks->n = out + 1;
	ks->indexed = false;
}

uint64_t wd_keyset_sum(const struct wd_keyset *ks)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < ks->n; i++)
		sum += *wd_keyset_count(ks, i);
	return sum;
}

void wd_keyset_filter(struct wd_keyset *ks, bool (*keep)(void *ctx, void *key, uint64_t count),
		      void *ctx)
{
	size_t out = 0;

	for (size_t i = 0; i < ks->n; i++) {
		if (!keep(ctx, wd_keyset_key(ks, i), *wd_keyset_count(ks, i)))
			continue;
		if (out != i)
			memcpy(wd_keyset_key(ks, out), wd_keyset_key(ks, i), row_size(ks));
		out++;
	}
	ks->n = out;
	ks->indexed = false;
}

/* The row of key among the first n (sorted) rows of ks; NULL if absent. */
static uint64_t *sorted_find(const struct wd_keyset *ks, size_t n, const void *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = memcmp(wd_keyset_key(ks, mid), key, ks->key_size);

		if (!d)
			return wd_keyset_count(ks, mid);
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool nonzero(void *ctx, void *key, uint64_t count)
{
	(void)ctx;
	(void)key;
	return count != 0;
}

/* count of old moves to new in floor, as far as floor holds it. */
static int move_floor(struct wd_keyset *floor, size_t n, const void *old, const void *new,
		      uint64_t count)
{
	uint64_t *c = sorted_find(floor, n, old);
	uint64_t m;

	if (!c)
		return 0;
	m = *c < count ? *c : count;
	*c -= m;
	return wd_keyset_push(floor, new, m);
}

int wd_keyset_fold(struct wd_keyset *retired, struct wd_keyset *floor,
		   bool (*fold)(void *ctx, void *key), void *ctx)
{
	size_t n = floor ? floor->n : 0, ks = retired->key_size;
	char *key = malloc(ks);
	bool moved = false;
	int err = key ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < retired->n; i++) {
		memcpy(key, wd_keyset_key(retired, i), ks);
		if (!fold(ctx, key))
			continue;
		if (floor)
			err = move_floor(floor, n, wd_keyset_key(retired, i), key,
					 *wd_keyset_count(retired, i));
		if (!err)
			memcpy(wd_keyset_key(retired, i), key, ks);
		moved = true;
	}
	free(key);
	if (!moved)
		return err;
	wd_keyset_merge(retired);
	if (floor) {
		wd_keyset_filter(floor, nonzero, NULL);
		wd_keyset_merge(floor);
	}
	return err;
}

int wd_keyset_clamp(struct wd_keyset *cur, const struct wd_keyset *prev,
		    bool (*gone)(void *ctx, const void *key), void *ctx)
{
	struct wd_keyset res;
	size_t i = 0, j = 0;
	int d, err = 0;

	wd_keyset_init(&res, cur->key_size);
	while (!err && (i < cur->n || j < prev->n)) {
		const void *a = i < cur->n ? wd_keyset_key(cur, i) : NULL;
		const void *b = j < prev->n ? wd_keyset_key(prev, j) : NULL;

		d = !a ? 1 : !b ? -1 : memcmp(a, b, cur->key_size);
		if (d < 0) {
			err = wd_keyset_push(&res, a, *wd_keyset_count(cur, i++));
		} else if (d > 0) {
			if (!gone || !gone(ctx, b))
				err = wd_keyset_push(&res, b, *wd_keyset_count(prev, j));
			j++;
		} else {
			uint64_t x = *wd_keyset_count(cur, i++), y = *wd_keyset_count(prev, j++);

			err = wd_keyset_push(&res, a, x > y ? x : y);
		}
	}
	if (err) {
		wd_keyset_free(&res);
		return err;
	}
	wd_keyset_free(cur);
	*cur = res;
	return 0;
}

/* ------------------------------------------------------------ drop keys */

/* Overflow counts by slot: the keys with location 0. */
static void overflow_counts(const struct wd_keyset *ks, uint64_t *out)
{
	const struct wd_key_total *v = wd_key_rows(ks);

	memset(out, 0, WD_OVERFLOW_SLOTS * sizeof(*out));
	for (size_t i = 0; i < ks->n; i++)
		if (!v[i].key.location)
			out[wd_reason_slot(v[i].key.reason)] += v[i].count;
}

struct overflow_growth {
	uint64_t cur[WD_OVERFLOW_SLOTS], prev[WD_OVERFLOW_SLOTS];
};

/*
 * Gone from this read: a run in flight (keep it), or a run moved into its
 * reason's overflow bucket, which grew and now holds it (keeping it would
 * count twice).
 */
static bool moved_to_overflow(void *ctx, const void *key)
{
	const struct overflow_growth *g = ctx;
	const struct wd_key *k = key;
	uint32_t slot = wd_reason_slot(k->reason);

	return k->location && g->cur[slot] > g->prev[slot];
}

int wd_keys_clamp(struct wd_keyset *cur, const struct wd_keyset *prev)
{
	struct overflow_growth *g = malloc(sizeof(*g));
	int err;

	if (!g)
		return -ENOMEM;
	overflow_counts(cur, g->cur);
	overflow_counts(prev, g->prev);
	err = wd_keyset_clamp(cur, prev, moved_to_overflow, g);
	free(g);
	return err;
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
