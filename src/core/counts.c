// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reading the kernel's exact counts: the counting hash of this generation,
 * those of swapped-out generations (kept here), the per-reason overflow
 * bucket, and each CPU's runs of identical drops (src/bpf/counting.h).
 *
 * While the program runs, a run moves from its slot into the hash. It
 * leaves the slot first, and the hash is read before the runs, so a live
 * read can miss a run in flight but never counts one twice. Each key's
 * total is then never allowed below what an earlier read returned: live
 * totals only grow (Prometheus counters, top's rates) and never exceed the
 * truth; once detached, a read is exact. Also the statistics of the
 * program (its counts by socket: sock_counts.c).
 *
 * Generations: once a read finds the hash half full (--map-size), the
 * empty spare takes its place. Updating the array that holds it waits for
 * every program still running (the kernel does that for arrays of maps),
 * so the old hash is then read whole and exactly, folded into `retired`,
 * and emptied to be the next spare: keys that went idle (namespaces and
 * interfaces come and go) leave the kernel without losing a count, and a
 * hash read every second (top, serve) does not fill up from churn.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core.h"
#include "session.h"
#include "source_dropmon.h"

#define RUNS_TRIES	100
#define BATCH_KEYS	256

/* Key by key, for kernels without batch operations (before 5.6). */
static int read_hash_slow(int fd, struct wd_keyset *kv, uint64_t *vals, int ncpu)
{
	struct wd_key key, next, *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, vals))
			continue;	/* only a swap deletes, and not under a read */
		if (wd_keyset_push(kv, &key, wd_cpu_sum(vals, ncpu)))
			return -ENOMEM;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* BATCH_KEYS keys and their per-CPU values per system call. */
static int read_hash(int fd, struct wd_keyset *kv, int ncpu)
{
	struct wd_key *keys = calloc(BATCH_KEYS, sizeof(*keys));
	uint64_t *vals = calloc((size_t)BATCH_KEYS * ncpu, sizeof(*vals));
	__u64 batch = 0;
	bool first = true, done = false;
	int err = -ENOMEM;

	while (keys && vals && !done) {
		__u32 n = BATCH_KEYS;

		err = bpf_map_lookup_batch(fd, first ? NULL : &batch, &batch, keys, vals, &n,
					   NULL);
		if (err && errno != ENOENT)
			break;
		done = err != 0;	/* ENOENT: this was the last batch */
		err = 0;
		first = false;
		for (__u32 i = 0; !err && i < n; i++)
			err = wd_keyset_push(kv, &keys[i], wd_cpu_sum(vals + (size_t)i * ncpu, ncpu));
	}
	if (err && first && (errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP))
		err = read_hash_slow(fd, kv, vals, ncpu);
	else if (err && err != -ENOMEM)
		err = -errno;
	free(keys);
	free(vals);
	return err;
}

static int read_overflow(int fd, struct wd_keyset *kv, uint64_t *vals, int ncpu)
{
	for (uint32_t slot = 0; slot < WD_OVERFLOW_SLOTS; slot++) {
		struct wd_key key = { .reason = wd_slot_reason(slot) };
		uint64_t n;

		if (bpf_map_lookup_elem(fd, &slot, vals))
			continue;
		n = wd_cpu_sum(vals, ncpu);
		if (n && wd_keyset_push(kv, &key, n))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Runs are read by seqcount: three copies of every CPU's slots, taken
 * where consistent (src/lib/keyset.c). A slot that never settles is left
 * out, an undercount the monotonic clamp absorbs.
 */
static int read_runs(int fd, struct wd_keyset *kv, int ncpu)
{
	const size_t slots = WD_RUN_SETS * WD_RUN_WAYS;
	struct wd_runs *a = calloc((size_t)ncpu * 3, sizeof(*a));
	bool *taken = calloc((size_t)ncpu * slots, sizeof(*taken));
	uint32_t zero = 0;
	long left = 1;
	int err = 0;

	if (!a || !taken) {
		err = -ENOMEM;
		goto out;
	}
	for (int t = 0; t < RUNS_TRIES && left > 0; t++) {
		if (bpf_map_lookup_elem(fd, &zero, a) ||
		    bpf_map_lookup_elem(fd, &zero, a + ncpu) ||
		    bpf_map_lookup_elem(fd, &zero, a + 2 * ncpu)) {
			err = -errno;
			goto out;
		}
		left = wd_runs_take(a, a + ncpu, a + 2 * ncpu, ncpu, taken, kv);
		if (left < 0)
			err = (int)left;
	}
out:
	free(a);
	free(taken);
	return err;
}

static int remember(struct wd_session *s, const struct wd_keyset *kv)
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

/* Both generations now, while whydrop may still create maps (generations.c). */
int wd_counts_setup(struct wd_session *s, int outer_fd)
{
	return wd_gen_setup(&s->counts, outer_fd, "wd_counts", sizeof(struct wd_key),
			    s->map_size);
}

void wd_counts_free(struct wd_session *s)
{
	free(s->retired);
	s->retired = NULL;
	s->n_retired = 0;
	free(s->last_keys);
	s->last_keys = NULL;
	s->n_last_keys = 0;
}

/* Delete keys [from, n) of kv from the map: it becomes the empty spare. */
static int empty_map(int fd, const struct wd_keyset *kv, size_t from)
{
	for (size_t i = from; i < kv->n; i++)
		if (bpf_map_delete_elem(fd, &kv->v[i].key) && errno != ENOENT)
			return -errno;
	return 0;
}

/*
 * Put the empty spare in place of the current hash and fold the old one
 * into `retired`: read now, it is exact; emptied, it is the next spare. On
 * any failure the current hash stays (and fills up into the overflow
 * bucket, as it would without generations).
 */
static int swap_generation(struct wd_session *s, int ncpu)
{
	struct wd_keyset kv = { .v = s->retired, .n = s->n_retired, .cap = s->n_retired };
	int old = wd_gen_swap(&s->counts), err;

	if (old < 0)
		return 0;
	err = read_hash(old, &kv, ncpu);
	wd_gen_retire(&s->counts, old, !err && !empty_map(old, &kv, s->n_retired));
	s->gen_keys = 0;
	s->generations++;
	wd_keyset_merge(&kv);
	s->retired = kv.v;
	s->n_retired = kv.n;
	return err;
}

int wd_session_keys(struct wd_session *s, struct wd_key_total **out, size_t *n)
{
	int ncpu = libbpf_num_possible_cpus();
	struct wd_keyset kv = { 0 };
	uint64_t *vals;
	int err = 0;

	if (s->dm)
		return wd_dm_source_keys(s, out, n);
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (size_t i = 0; !err && i < s->n_retired; i++)
		err = wd_keyset_push(&kv, &s->retired[i].key, s->retired[i].count);
	/* Order matters: hash and overflow before the runs. */
	if (!err)
		err = read_hash(s->counts.cur_fd, &kv, ncpu);
	s->gen_keys = kv.n - s->n_retired;
	if (!err)
		err = read_overflow(s->overflow_fd, &kv, vals, ncpu);
	if (!err)
		err = read_runs(s->runs_fd, &kv, ncpu);
	free(vals);
	/* Half full: the next keys go to an empty hash (this read stays valid). */
	if (!err && s->link && s->gen_keys >= s->map_size / 2)
		err = swap_generation(s, ncpu);
	if (!err) {
		wd_keyset_merge(&kv);
		err = wd_keyset_clamp(&kv, s->last_keys, s->n_last_keys);
	}
	if (!err)
		err = remember(s, &kv);
	if (err) {
		wd_keyset_free(&kv);
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

/*
 * What the program does not count itself, to keep a storm cheap: drops over
 * --rate are those counted minus those recorded or lost to a full ring
 * (0 while a live read of the counts lags the records), and the filter's
 * drops left unmatched for want of paged data, from its per-CPU state.
 */
static void derive_stats(struct wd_session *s, struct wd_stats *st)
{
	uint64_t done = st->v[WD_STAT_EMITTED] + st->v[WD_STAT_RING_FULL];
	int ncpu = libbpf_num_possible_cpus();
	struct wd_filter_ctx *fc;
	__u32 zero = 0;

	if (s->details)
		st->rate_limited = st->seen > done ? st->seen - done : 0;
	if (s->filter_ctx_fd < 0 || ncpu <= 0)
		return;
	fc = calloc((size_t)ncpu, sizeof(*fc));
	if (fc && !bpf_map_lookup_elem(s->filter_ctx_fd, &zero, fc))
		for (int c = 0; c < ncpu; c++)
			st->filter_nonlinear += fc[c].nonlinear;
	free(fc);
}

int wd_session_stats_of(struct wd_session *s, struct wd_stats *st,
			const struct wd_key_total *k, size_t n)
{
	int fd = s->stats_fd, ncpu = libbpf_num_possible_cpus();
	uint64_t *vals = calloc((size_t)ncpu, sizeof(*vals));
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (s->dm) {
		free(vals);
		return wd_dm_source_stats(s, st);
	}
	if (!vals)
		return -ENOMEM;
	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < n; i++)
		st->seen += k[i].count;
	for (uint32_t i = 0; i < WD_STAT_MAX; i++)
		if (!bpf_map_lookup_elem(fd, &i, vals))
			st->v[i] += wd_cpu_sum(vals, ncpu);
	free(vals);
	derive_stats(s, st);
	if (!bpf_obj_get_info_by_fd(s->prog_fd, &info, &len))
		st->recursion_misses = info.recursion_misses;
	return 0;
}

int wd_session_stats(struct wd_session *s, struct wd_stats *st)
{
	struct wd_key_total *k = NULL;
	size_t n = 0;
	int err = s->dm ? 0 : wd_session_keys(s, &k, &n);

	if (!err)
		err = wd_session_stats_of(s, st, k, n);
	free(k);
	return err;
}
