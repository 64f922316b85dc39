/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Sets of exact counts by counting key, as user space assembles them from
 * the kernel's maps (src/core/counts.c does the reading): push, merge equal
 * keys, clamp against the previous read so live totals never go down, and
 * take the runs of src/bpf/counting.h that a seqcount read found
 * consistent. Pure: unit-tested with fixtures.
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

struct wd_keyset {
	struct wd_key_total *v;
	size_t n, cap;
};

int wd_keyset_push(struct wd_keyset *ks, const struct wd_key *key, uint64_t count);
/* Sort by key and add up equal keys (a key in the hash and in a run). */
void wd_keyset_merge(struct wd_keyset *ks);
/*
 * cur (merged) becomes the union of cur and prev (sorted, merged), each key
 * at the larger of its two counts: a key a live read missed, or read
 * lower, keeps its earlier total, unless its reason's overflow bucket grew
 * meanwhile (its run may have moved there: the bucket holds it now). 0 or
 * -ENOMEM (cur unchanged).
 */
int wd_keyset_clamp(struct wd_keyset *cur, const struct wd_key_total *prev, size_t n_prev);
void wd_keyset_free(struct wd_keyset *ks);

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
