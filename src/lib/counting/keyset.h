/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exact counts by key, one structure for every kind of counting key: the
 * drop counts (struct wd_key) and the counts by socket (struct wd_sock_key)
 * alike. A row is the key's bytes followed by its u64 count, which is the
 * layout of struct wd_key_total and struct wd_sock_total, so a set of
 * either is read as an array of that type (wd_key_rows(), wd_sock_rows()).
 *
 * Rows are appended as the kernel's maps are read (push), or counted one
 * by one in user space (add: drop_monitor's alerts, through a hash of the
 * rows), then sorted with equal keys summed (merge). A live read is
 * clamped against the previous one so that totals only grow. The runs of
 * src/bpf/counting.h are taken from a seqcount read. Pure: no kernel, no
 * I/O; unit-tested in tests/unit/test_keyset.c. Reading the kernel's maps
 * into a set is src/core/map_counts.c.
 */
#ifndef WD_KEYSET_H
#define WD_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "whydrop.h"

/* One key of the counting map, summed over CPUs (location 0: overflow). */
struct wd_key_total {
	struct wd_key key;
	uint64_t count;
};

/* Drops by socket (--group-by cgroup|process), summed over CPUs. */
struct wd_sock_total {
	struct wd_sock_key key;
	uint64_t count;
};

_Static_assert(sizeof(struct wd_key_total) == sizeof(struct wd_key) + 8, "key, then count");
_Static_assert(sizeof(struct wd_sock_total) == sizeof(struct wd_sock_key) + 8, "key, then count");

struct wd_keyset {
	void *v;		/* rows: key_size bytes of key, then a uint64_t count */
	size_t n, cap;
	size_t key_size;	/* a multiple of 8, set by wd_keyset_init() */
	uint32_t *index;	/* wd_keyset_add()'s hash of rows: row + 1, 0 free */
	size_t index_cap;	/* a power of two, twice the rows or more */
	bool indexed;		/* index holds every row (push, merge: rebuilt on demand) */
};

void wd_keyset_init(struct wd_keyset *ks, size_t key_size);
void wd_keyset_free(struct wd_keyset *ks);
/* Forget every row; the memory stays for the next ones. */
void wd_keyset_clear(struct wd_keyset *ks);

static inline void *wd_keyset_key(const struct wd_keyset *ks, size_t i)
{
	return (char *)ks->v + i * (ks->key_size + sizeof(uint64_t));
}

static inline uint64_t *wd_keyset_count(const struct wd_keyset *ks, size_t i)
{
	return (uint64_t *)((char *)wd_keyset_key(ks, i) + ks->key_size);
}

/* The rows as their own type; NULL when empty. */
static inline struct wd_key_total *wd_key_rows(const struct wd_keyset *ks)
{
	return ks->v;
}

static inline struct wd_sock_total *wd_sock_rows(const struct wd_keyset *ks)
{
	return ks->v;
}

/* Append a row (equal keys stay apart until wd_keyset_merge). 0 or -ENOMEM. */
int wd_keyset_push(struct wd_keyset *ks, const void *key, uint64_t count);
/* Every row of from (same key size) appended. 0 or -ENOMEM. */
int wd_keyset_append(struct wd_keyset *ks, const struct wd_keyset *from);
/* The count of key, found through the hash of the rows; NULL if absent. */
uint64_t *wd_keyset_find(struct wd_keyset *ks, const void *key);
/* Add count to key's row, or a new row: one row per key. 0 or -ENOMEM. */
int wd_keyset_add(struct wd_keyset *ks, const void *key, uint64_t count);
/*
 * How many distinct keys of probe are not among rows [from, to) of ks: the
 * keys waiting in the runs that would be new to the counting hash when
 * they are evicted into it. -ENOMEM when out of memory.
 */
long wd_keyset_count_absent(const struct wd_keyset *ks, size_t from, size_t to,
			    const struct wd_keyset *probe);
/* Sort by key (bytes, as memcmp) and add up equal keys. */
void wd_keyset_merge(struct wd_keyset *ks);
/* The sum of all counts. */
uint64_t wd_keyset_sum(const struct wd_keyset *ks);
/*
 * Keep only the rows keep() says yes to; it may change a row's key (rows
 * whose keys become equal are summed by the next merge).
 */
void wd_keyset_filter(struct wd_keyset *ks, bool (*keep)(void *ctx, void *key, uint64_t count),
		      void *ctx);

/*
 * Aging: each row of retired (merged) whose key fold() rewrites (true) moves
 * to its new key, and floor (the clamp's previous read, merged; NULL: none)
 * moves the same count from the old key to the new one, so that no later
 * clamp counts it twice and every sum stays the same. Both merged again.
 * 0 or -ENOMEM (then a part may be moved, in both alike).
 */
int wd_keyset_fold(struct wd_keyset *retired, struct wd_keyset *floor,
		   bool (*fold)(void *ctx, void *key), void *ctx);

/*
 * cur (merged) becomes the union of cur and prev (merged, same key size),
 * each key at the larger of its two counts: a key a live read missed, or
 * read lower, keeps its earlier total, unless gone(ctx, key) says the key
 * left for good (NULL: never). 0 or -ENOMEM (cur unchanged).
 */
int wd_keyset_clamp(struct wd_keyset *cur, const struct wd_keyset *prev,
		    bool (*gone)(void *ctx, const void *key), void *ctx);

/*
 * The drop counts' clamp: a key missing from cur is kept, unless its
 * reason's overflow bucket grew meanwhile (its run may have moved there:
 * the bucket holds it now).
 */
int wd_keys_clamp(struct wd_keyset *cur, const struct wd_keyset *prev);

/*
 * Three copies a, b, c of every CPU's runs, read one after the other: a
 * slot of b is consistent where a and c show the same even sequence number
 * (no replacement began or ended in between). Push each consistent,
 * non-empty run not yet taken and mark it in taken[] (ncpu x slots).
 * Returns how many slots are still untaken, or -ENOMEM.
 */
long wd_runs_take(const struct wd_runs *a, const struct wd_runs *b, const struct wd_runs *c,
		  int ncpu, bool *taken, struct wd_keyset *out);

#endif /* WD_KEYSET_H */
