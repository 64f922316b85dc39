// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * How user space assembles exact counts (src/lib/keyset.c): equal keys are
 * summed, a live read never goes below an earlier one, and a CPU's run is
 * taken only from a consistent seqcount read, never twice.
 */
#include <stdbool.h>
#include "unit.h"
#include "keyset.h"

#define SLOTS (WD_RUN_SETS * WD_RUN_WAYS)

static struct wd_key key(uint32_t reason, uint64_t location)
{
	struct wd_key k;

	memset(&k, 0, sizeof(k));
	k.reason = reason;
	k.location = location;
	k.netns = 4026532238u;
	k.netns_cookie = 7;
	return k;
}

static uint64_t count_of(const struct wd_keyset *ks, uint32_t reason, uint64_t location)
{
	struct wd_key k = key(reason, location);

	for (size_t i = 0; i < ks->n; i++)
		if (!memcmp(&ks->v[i].key, &k, sizeof(k)))
			return ks->v[i].count;
	return (uint64_t)-1;
}

/* The hash and a run hold the same key: one row, the sum. */
static void test_merge(void)
{
	struct wd_keyset ks = { 0 };
	struct wd_key a = key(2, 0x100), b = key(3, 0x200);

	wd_keyset_push(&ks, &b, 5);
	wd_keyset_push(&ks, &a, 7);
	wd_keyset_push(&ks, &b, 1);
	wd_keyset_push(&ks, &a, 3);
	wd_keyset_push(&ks, &a, 0);
	wd_keyset_merge(&ks);
	CHECK_INT(ks.n, 2);
	CHECK_INT(count_of(&ks, 2, 0x100), 10);
	CHECK_INT(count_of(&ks, 3, 0x200), 6);
	CHECK(memcmp(&ks.v[0].key, &ks.v[1].key, sizeof(struct wd_key)) < 0);
	wd_keyset_merge(&ks);	/* idempotent */
	CHECK_INT(ks.n, 2);
	wd_keyset_free(&ks);

	wd_keyset_merge(&ks);	/* empty: nothing to do */
	CHECK_INT(ks.n, 0);
}

/*
 * Two namespaces, one after the other, with the inode the kernel reused:
 * their cookies keep them apart.
 */
static void test_reused_inode(void)
{
	struct wd_keyset ks = { 0 };
	struct wd_key a = key(2, 0x100), b = key(2, 0x100);

	b.netns_cookie = 8;
	wd_keyset_push(&ks, &a, 4);
	wd_keyset_push(&ks, &b, 5);
	wd_keyset_push(&ks, &a, 2);
	wd_keyset_merge(&ks);
	CHECK_INT(ks.n, 2);
	CHECK_INT(ks.v[0].key.netns_cookie, 7);
	CHECK_INT(ks.v[0].count, 6);
	CHECK_INT(ks.v[1].key.netns_cookie, 8);
	CHECK_INT(ks.v[1].count, 5);
	wd_keyset_free(&ks);
}

/* A run in flight was missed, or a key is gone from this read: no step back. */
static void test_clamp(void)
{
	struct wd_keyset prev = { 0 }, cur = { 0 };
	struct wd_key a = key(2, 0x100), b = key(3, 0x200), c = key(4, 0x300);

	wd_keyset_push(&prev, &a, 10);
	wd_keyset_push(&prev, &b, 20);
	wd_keyset_merge(&prev);
	wd_keyset_push(&cur, &a, 8);	/* lower than before: keep 10 */
	wd_keyset_push(&cur, &c, 1);	/* new */
	wd_keyset_merge(&cur);		/* b missing: keep 20 */
	CHECK_INT(wd_keyset_clamp(&cur, prev.v, prev.n), 0);
	CHECK_INT(cur.n, 3);
	CHECK_INT(count_of(&cur, 2, 0x100), 10);
	CHECK_INT(count_of(&cur, 3, 0x200), 20);
	CHECK_INT(count_of(&cur, 4, 0x300), 1);
	for (size_t i = 1; i < cur.n; i++)
		CHECK(memcmp(&cur.v[i - 1].key, &cur.v[i].key, sizeof(struct wd_key)) < 0);

	/* and growth is kept */
	wd_keyset_free(&prev);
	wd_keyset_push(&prev, &a, 12);
	CHECK_INT(wd_keyset_clamp(&prev, cur.v, cur.n), 0);
	CHECK_INT(count_of(&prev, 2, 0x100), 12);
	CHECK_INT(count_of(&prev, 3, 0x200), 20);
	CHECK_INT(wd_keyset_clamp(&prev, NULL, 0), 0);	/* nothing before */
	CHECK_INT(prev.n, 3);
	wd_keyset_free(&prev);
	wd_keyset_free(&cur);
}

static void set_run(struct wd_runs *r, int slot, uint64_t seq, uint32_t reason, uint64_t n)
{
	r->slot[slot].seq = seq;
	r->slot[slot].key = key(reason, 0x100 + reason);
	r->slot[slot].n = n;
}

/*
 * Two CPUs. CPU 0: slot 0 steady (taken), slot 1 being replaced in copy a
 * (odd), slot 2 replaced between a and c (seq moved), slot 3 empty.
 * CPU 1: slot 5 steady. A second pass with settled copies takes slots 1
 * and 2 and nothing twice.
 */
static void test_runs_seqcount(void)
{
	struct wd_runs *a = calloc(6, sizeof(*a)), *b = a + 2, *c = a + 4;
	bool taken[2 * SLOTS] = { false };
	struct wd_keyset ks = { 0 };
	long left;

	for (int cpu = 0; cpu < 2; cpu++)
		for (int s = 0; s < SLOTS; s++)
			a[cpu].slot[s].seq = b[cpu].slot[s].seq = c[cpu].slot[s].seq = 2;
	set_run(&a[0], 0, 4, 1, 5);
	set_run(&b[0], 0, 4, 1, 6);
	set_run(&c[0], 0, 4, 1, 7);
	set_run(&a[0], 1, 5, 2, 1);	/* odd: mid-replacement */
	set_run(&b[0], 1, 6, 2, 1);
	set_run(&c[0], 1, 6, 2, 2);
	set_run(&a[0], 2, 6, 3, 9);	/* 6 -> 8: replaced meanwhile */
	set_run(&b[0], 2, 8, 4, 1);
	set_run(&c[0], 2, 8, 4, 1);
	set_run(&a[1], 5, 2, 5, 11);
	set_run(&b[1], 5, 2, 5, 12);
	set_run(&c[1], 5, 2, 5, 12);

	left = wd_runs_take(a, b, c, 2, taken, &ks);
	CHECK_INT(left, 2);
	CHECK_INT(ks.n, 2);
	CHECK_INT(count_of(&ks, 1, 0x101), 6);	/* b's copy */
	CHECK_INT(count_of(&ks, 5, 0x105), 12);
	CHECK(!taken[1] && !taken[2] && taken[0] && taken[3] && taken[SLOTS + 5]);

	/* settled: a = b = c */
	memcpy(a, c, 2 * sizeof(*a));
	memcpy(b, c, 2 * sizeof(*a));
	left = wd_runs_take(a, b, c, 2, taken, &ks);
	CHECK_INT(left, 0);
	CHECK_INT(ks.n, 4);
	CHECK_INT(count_of(&ks, 2, 0x102), 2);
	CHECK_INT(count_of(&ks, 4, 0x104), 1);
	CHECK_INT(count_of(&ks, 1, 0x101), 6);	/* not taken again */
	CHECK_INT(count_of(&ks, 3, 0x103), (uint64_t)-1);	/* the replaced run */
	wd_keyset_free(&ks);
	free(a);
}

/*
 * A run that left its slot when the hash was full went to its reason's
 * overflow bucket: the key is gone and the bucket grew by its count. It
 * must not be kept as well (that counted it twice); a key of another
 * reason, whose bucket did not grow, is kept (a run in flight).
 */
static void test_clamp_overflow(void)
{
	struct wd_keyset prev = { 0 }, cur = { 0 };
	struct wd_key a = key(2, 0x100), b = key(3, 0x200), ovf = key(2, 0);
	uint64_t total = 0;

	wd_keyset_push(&prev, &a, 10);
	wd_keyset_push(&prev, &b, 5);
	wd_keyset_merge(&prev);
	wd_keyset_push(&cur, &ovf, 12);	/* a's 10 and 2 more, in the bucket */
	wd_keyset_merge(&cur);		/* a and b are gone */
	CHECK_INT(wd_keyset_clamp(&cur, prev.v, prev.n), 0);
	CHECK_INT(count_of(&cur, 2, 0x100), (uint64_t)-1);
	CHECK_INT(count_of(&cur, 2, 0), 12);
	CHECK_INT(count_of(&cur, 3, 0x200), 5);
	for (size_t i = 0; i < cur.n; i++)
		total += cur.v[i].count;
	CHECK_INT(total, 17);
	wd_keyset_free(&prev);
	wd_keyset_free(&cur);
}

UNIT_MAIN(test_merge, test_reused_inode, test_clamp, test_clamp_overflow, test_runs_seqcount)
