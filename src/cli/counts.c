// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reading the kernel's exact counts: the counting hash, the per-reason
 * overflow bucket, and each CPU's pending run of identical drops.
 *
 * While the program runs, a run moves from `pending` into the hash. It
 * leaves `pending` first, and the hash is read before `pending`, so a live
 * read can miss a run in flight but never counts one twice. Each key's
 * total is then never allowed below what an earlier read returned: live
 * totals only grow (Prometheus counters, top's rates) and never exceed the
 * truth; once detached, a read is exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "session.h"
#include "source_dropmon.h"

#define PENDING_TRIES 100

struct key_vec {
	struct wd_key_total *v;
	size_t n, cap;
};

static int push(struct key_vec *kv, const struct wd_key *key, uint64_t count)
{
	if (kv->n == kv->cap) {
		size_t ncap = kv->cap ? kv->cap * 2 : 256;
		struct wd_key_total *tmp = realloc(kv->v, ncap * sizeof(*tmp));

		if (!tmp)
			return -ENOMEM;
		kv->v = tmp;
		kv->cap = ncap;
	}
	kv->v[kv->n].key = *key;
	kv->v[kv->n].count = count;
	kv->n++;
	return 0;
}

static uint64_t sum(const uint64_t *vals, int ncpu)
{
	uint64_t s = 0;

	for (int i = 0; i < ncpu; i++)
		s += vals[i];
	return s;
}

static int read_hash(int fd, struct key_vec *kv, uint64_t *vals, int ncpu)
{
	struct wd_key key, next, *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue;	/* cannot vanish: nothing deletes */
		if (push(kv, &key, sum(vals, ncpu)))
			return -ENOMEM;
	}
	return errno == ENOENT ? 0 : -errno;
}

static int read_overflow(int fd, struct key_vec *kv, uint64_t *vals, int ncpu)
{
	for (uint32_t slot = 0; slot < WD_OVERFLOW_SLOTS; slot++) {
		struct wd_key key = { .reason = slot };
		uint64_t n;

		if (bpf_map_lookup_elem(fd, &slot, vals))
			continue;
		n = sum(vals, ncpu);
		if (n && push(kv, &key, n))
			return -ENOMEM;
	}
	return 0;
}

/*
 * A seqcount read: copies a, b, c of every CPU's run; b is consistent where
 * a and c carry the same even sequence number. A CPU that never settles is
 * left out (an undercount the monotonic clamp absorbs).
 */
static int read_pending(int fd, struct key_vec *kv, int ncpu)
{
	struct wd_pending *a = calloc((size_t)ncpu * 3, sizeof(*a)), *b, *c;
	bool *done = calloc((size_t)ncpu, sizeof(*done));
	uint32_t zero = 0;
	int err = 0, left = ncpu;

	if (!a || !done) {
		err = -ENOMEM;
		goto out;
	}
	b = a + ncpu;
	c = b + ncpu;
	for (int t = 0; t < PENDING_TRIES && left; t++) {
		if (bpf_map_lookup_elem(fd, &zero, a) || bpf_map_lookup_elem(fd, &zero, b) ||
		    bpf_map_lookup_elem(fd, &zero, c)) {
			err = -errno;
			goto out;
		}
		for (int i = 0; i < ncpu; i++) {
			if (done[i] || a[i].seq != c[i].seq || (a[i].seq & 1))
				continue;
			done[i] = true;
			left--;
			if (b[i].n && push(kv, &b[i].key, b[i].n)) {
				err = -ENOMEM;
				goto out;
			}
		}
	}
out:
	free(a);
	free(done);
	return err;
}

static int cmp_key(const void *x, const void *y)
{
	return memcmp(&((const struct wd_key_total *)x)->key,
		      &((const struct wd_key_total *)y)->key, sizeof(struct wd_key));
}

/* Sort by key and add up equal keys (a key in the hash and pending). */
static void merge_equal(struct key_vec *kv)
{
	size_t out = 0;

	if (!kv->n)
		return;
	qsort(kv->v, kv->n, sizeof(*kv->v), cmp_key);
	for (size_t i = 1; i < kv->n; i++) {
		if (!cmp_key(&kv->v[out], &kv->v[i]))
			kv->v[out].count += kv->v[i].count;
		else
			kv->v[++out] = kv->v[i];
	}
	kv->n = out + 1;
}

/* Union of the new read and the previous one, each key at its maximum. */
static int clamp(struct wd_session *s, struct key_vec *cur)
{
	struct key_vec res = { 0 };
	size_t i = 0, j = 0;
	int d, err = 0;

	while (!err && (i < cur->n || j < s->n_last_keys)) {
		if (i == cur->n)
			d = 1;
		else if (j == s->n_last_keys)
			d = -1;
		else
			d = cmp_key(&cur->v[i], &s->last_keys[j]);
		if (d < 0) {
			err = push(&res, &cur->v[i].key, cur->v[i].count);
			i++;
		} else if (d > 0) {
			err = push(&res, &s->last_keys[j].key, s->last_keys[j].count);
			j++;
		} else {
			uint64_t n = cur->v[i].count;

			if (s->last_keys[j].count > n)
				n = s->last_keys[j].count;
			err = push(&res, &cur->v[i].key, n);
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

static int remember(struct wd_session *s, const struct key_vec *kv)
{
	struct wd_key_total *copy = malloc((kv->n ? kv->n : 1) * sizeof(*copy));

	if (!copy)
		return -ENOMEM;
	if (kv->n)
		memcpy(copy, kv->v, kv->n * sizeof(*copy));
	free(s->last_keys);
	s->last_keys = copy;
	s->n_last_keys = kv->n;
	return 0;
}

int wd_session_keys(struct wd_session *s, struct wd_key_total **out, size_t *n)
{
	int ncpu = libbpf_num_possible_cpus();
	struct key_vec kv = { 0 };
	uint64_t *vals;
	int err;

	if (s->dm)
		return wd_dm_source_keys(s, out, n);
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	/* Order matters: hash and overflow before the pending runs. */
	err = read_hash(s->counts_fd, &kv, vals, ncpu);
	if (!err)
		err = read_overflow(s->overflow_fd, &kv, vals, ncpu);
	if (!err)
		err = read_pending(s->pending_fd, &kv, ncpu);
	free(vals);
	if (!err) {
		merge_equal(&kv);
		err = clamp(s, &kv);
	}
	if (!err)
		err = remember(s, &kv);
	if (err) {
		free(kv.v);
		return err;
	}
	*out = kv.v;
	*n = kv.n;
	return 0;
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

int wd_session_totals(struct wd_session *s, struct wd_total **out, size_t *n_out)
{
	struct wd_key_total *k;
	struct wd_total *t;
	size_t n, m = 0;
	int err = wd_session_keys(s, &k, &n);

	if (err)
		return err;
	t = calloc(n ? n : 1, sizeof(*t));
	if (!t) {
		free(k);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		t[i] = (struct wd_total){ k[i].key.reason, k[i].key.location, k[i].count };
	free(k);
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
