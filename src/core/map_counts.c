// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Exact counts read from the kernel's per-CPU maps; see map_counts.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "map_counts.h"

#define BATCH_BYTES	(1 << 20)	/* per-CPU values fetched per system call, at most */
#define BATCH_MIN	64
#define BATCH_MAX	4096

static uint64_t cpu_sum(const uint64_t *vals, int ncpu)
{
	uint64_t s = 0;

	for (int i = 0; i < ncpu; i++)
		s += vals[i];
	return s;
}

/* Keys per batch: their per-CPU values within BATCH_BYTES. */
static uint32_t batch_keys(int ncpu)
{
	size_t n = BATCH_BYTES / ((size_t)ncpu * sizeof(uint64_t));

	return n < BATCH_MIN ? BATCH_MIN : n > BATCH_MAX ? BATCH_MAX : (uint32_t)n;
}

/* The kernel has no batch operations for this map (before 5.6). */
static bool no_batch(int err)
{
	return err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP;
}

/* Key by key. */
static int read_hash_slow(int fd, struct wd_keyset *out, uint64_t *vals, int ncpu)
{
	size_t ks = out->key_size;
	char *key = malloc(2 * ks), *next = key + ks;
	bool first = true;
	int err = 0;

	if (!key)
		return -ENOMEM;
	while (!err && !bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		memcpy(key, next, ks);
		first = false;
		if (bpf_map_lookup_elem(fd, key, vals))
			continue;	/* only a swap deletes, and not under a read */
		err = wd_keyset_push(out, key, cpu_sum(vals, ncpu));
	}
	if (!err && errno != ENOENT)
		err = -errno;
	free(key);
	return err;
}

/* What one batch lookup said, or -errno. */
enum batch_end {
	BATCH_MORE,	/* more may follow */
	BATCH_LAST,	/* ENOENT: this was the last one */
	BATCH_NONE,	/* the kernel has no batch operations: key by key */
};

static int lookup_batch(int fd, bool first, void *pos, void *keys, uint64_t *vals, __u32 *n)
{
	if (!bpf_map_lookup_batch(fd, first ? NULL : pos, pos, keys, vals, n, NULL))
		return BATCH_MORE;
	if (errno == ENOENT)
		return BATCH_LAST;
	return first && no_batch(errno) ? BATCH_NONE : -errno;
}

int wd_map_read_hash(int fd, struct wd_keyset *out, int ncpu)
{
	uint32_t batch = batch_keys(ncpu);
	char *keys = malloc((size_t)batch * out->key_size);
	uint64_t *vals = malloc((size_t)batch * ncpu * sizeof(*vals));
	__u64 pos = 0;
	int end = BATCH_MORE, err = keys && vals ? 0 : -ENOMEM;

	for (bool first = true; !err && end == BATCH_MORE; first = false) {
		__u32 n = batch;

		end = lookup_batch(fd, first, &pos, keys, vals, &n);
		if (end < 0 || end == BATCH_NONE)
			break;
		for (__u32 i = 0; !err && i < n; i++)
			err = wd_keyset_push(out, keys + (size_t)i * out->key_size,
					     cpu_sum(vals + (size_t)i * ncpu, ncpu));
	}
	if (!err && end == BATCH_NONE)
		err = read_hash_slow(fd, out, vals, ncpu);
	else if (!err && end < 0)
		err = end;
	free(keys);
	free(vals);
	return err;
}

static int read_array_slow(int fd, uint32_t n, uint64_t *sums, uint64_t *vals, int ncpu)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!bpf_map_lookup_elem(fd, &i, vals))
			sums[i] = cpu_sum(vals, ncpu);
		else if (errno != ENOENT)
			return -errno;
	}
	return 0;
}

int wd_map_read_array(int fd, uint32_t n, uint64_t *sums, int ncpu)
{
	uint32_t *keys = malloc((size_t)n * sizeof(*keys));
	uint64_t *vals = malloc((size_t)n * ncpu * sizeof(*vals));
	__u32 pos = 0, got = 0;
	int end = BATCH_MORE, err = keys && vals ? 0 : -ENOMEM;

	memset(sums, 0, (size_t)n * sizeof(*sums));
	for (bool first = true; !err && end == BATCH_MORE && got < n; first = false) {
		__u32 k = n - got;

		end = lookup_batch(fd, first, &pos, keys, vals, &k);
		if (end < 0 || end == BATCH_NONE)
			break;
		for (__u32 i = 0; i < k; i++)
			if (keys[i] < n)
				sums[keys[i]] = cpu_sum(vals + (size_t)i * ncpu, ncpu);
		got += k;
		if (!k)
			break;
	}
	if (!err && end == BATCH_NONE)
		err = read_array_slow(fd, n, sums, vals, ncpu);
	else if (!err && end < 0)
		err = end;
	free(keys);
	free(vals);
	return err;
}

/* ------------------------------------------------------------ generations */

static int hash_create(const char *name, uint32_t key_size, uint32_t entries)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, name, key_size, sizeof(uint64_t),
				entries, NULL);

	return fd < 0 ? -errno : fd;
}

void wd_gen_init(struct wd_gen *g, uint32_t key_size)
{
	memset(g, 0, sizeof(*g));
	g->outer_fd = g->cur_fd = g->spare_fd = -1;
	wd_keyset_init(&g->retired, key_size);
}

int wd_gen_setup(struct wd_gen *g, int outer_fd, const char *name, uint32_t key_size,
		 uint32_t entries)
{
	__u32 zero = 0;

	g->outer_fd = outer_fd;
	g->entries = entries;
	g->retired.key_size = key_size;
	g->cur_fd = hash_create(name, key_size, entries);
	if (g->cur_fd < 0)
		return g->cur_fd;
	g->spare_fd = hash_create(name, key_size, entries);
	if (g->spare_fd < 0)
		return g->spare_fd;
	if (bpf_map_update_elem(outer_fd, &zero, &g->cur_fd, BPF_ANY))
		return -errno;
	return 0;
}

void wd_gen_close(struct wd_gen *g)
{
	if (g->cur_fd >= 0)
		close(g->cur_fd);
	if (g->spare_fd >= 0)
		close(g->spare_fd);
	g->cur_fd = g->spare_fd = -1;
}

void wd_gen_free(struct wd_gen *g)
{
	wd_gen_close(g);
	wd_keyset_free(&g->retired);
}

int wd_gen_read(struct wd_gen *g, struct wd_keyset *out, int ncpu)
{
	size_t before;
	int err;

	if (g->cur_fd < 0)
		return -EINVAL;
	err = wd_keyset_append(out, &g->retired);
	before = out->n;
	if (!err)
		err = wd_map_read_hash(g->cur_fd, out, ncpu);
	if (!err)
		g->cur_keys = out->n - before;
	return err;
}

void wd_gen_note_pending(struct wd_gen *g, size_t keys)
{
	g->pending = keys;
}

bool wd_gen_half_full(const struct wd_gen *g)
{
	return g->cur_fd >= 0 && g->spare_fd >= 0 && g->cur_keys + g->pending >= g->entries / 2;
}

/* Delete keys [from, n) of ks from the hash at fd: it becomes the empty spare. */
static int empty_hash(int fd, const struct wd_keyset *ks, size_t from)
{
	for (size_t i = from; i < ks->n; i++)
		if (bpf_map_delete_elem(fd, wd_keyset_key(ks, i)) && errno != ENOENT)
			return -errno;
	return 0;
}

struct let_go_from {
	size_t from, i;
	bool (*fn)(void *ctx, void *key, uint64_t count);
	void *ctx;
};

/* The rows before from were retired already: only the old hash's go to fn. */
static bool keep_row(void *ctx, void *key, uint64_t count)
{
	struct let_go_from *l = ctx;

	return l->i++ < l->from || l->fn(l->ctx, key, count);
}

int wd_gen_swap(struct wd_gen *g, int ncpu, bool (*let_go)(void *ctx, void *key, uint64_t count),
		void *ctx)
{
	struct let_go_from l = { .from = g->retired.n, .fn = let_go, .ctx = ctx };
	int old = g->cur_fd, err;
	__u32 zero = 0;

	if (g->spare_fd < 0 || bpf_map_update_elem(g->outer_fd, &zero, &g->spare_fd, BPF_ANY))
		return 0;
	g->cur_fd = g->spare_fd;
	g->spare_fd = -1;
	g->cur_keys = g->pending = 0;
	g->swaps++;
	/* Read now, the old hash is exact: no program writes to it any more. */
	err = wd_map_read_hash(old, &g->retired, ncpu);
	if (!err)
		err = empty_hash(old, &g->retired, l.from);
	if (!err)
		g->spare_fd = old;
	else
		close(old);	/* never used again: no more swaps */
	if (let_go)
		wd_keyset_filter(&g->retired, keep_row, &l);
	wd_keyset_merge(&g->retired);
	return err;
}
