// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * How user space assembles exact counts (src/lib/counting/keyset.c), for every key
 * size: equal keys are summed, a live read never goes below an earlier
 * one, and a CPU's run is taken only from a consistent seqcount read,
 * never twice; counting one by one through the hash of rows equals sorting
 * and summing; what user-space sources share with the BPF program
 * (src/lib/counting/sampling.h): the -r filter and the --rate limit.
 */
#include <stdbool.h>
#include "unit.h"
#include "keyset.h"
#include "sampling.h"

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
	const struct wd_key_total *v = wd_key_rows(ks);

	for (size_t i = 0; i < ks->n; i++)
		if (!memcmp(&v[i].key, &k, sizeof(k)))
			return v[i].count;
	return (uint64_t)-1;
}

static void keys_init(struct wd_keyset *ks)
{
	wd_keyset_init(ks, sizeof(struct wd_key));
}

/* A count of a key, as a read of the maps gives it. */
struct push {
	const void *key;
	uint64_t count;
};

#define PUSHES(...) ((const struct push[]){ __VA_ARGS__, { NULL, 0 } })

/* Push each of @p (up to its NULL key) into @ks. */
static void push_all(struct wd_keyset *ks, const struct push *p)
{
	for (; p->key; p++)
		wd_keyset_push(ks, p->key, p->count);
}

/* One read: @p pushed into @ks, then merged. */
static void read_keys(struct wd_keyset *ks, const struct push *p)
{
	push_all(ks, p);
	wd_keyset_merge(ks);
}

/* The hash and a run hold the same key: one row, the sum. */
static void test_merge(void)
{
	struct wd_keyset ks;
	struct wd_key a = key(2, 0x100), b = key(3, 0x200);

	keys_init(&ks);
	read_keys(&ks, PUSHES({ &b, 5 }, { &a, 7 }, { &b, 1 }, { &a, 3 }, { &a, 0 }));
	CHECK_INT(ks.n, 2);
	CHECK_INT(count_of(&ks, 2, 0x100), 10);
	CHECK_INT(count_of(&ks, 3, 0x200), 6);
	CHECK(memcmp(&wd_key_rows(&ks)[0].key, &wd_key_rows(&ks)[1].key,
		     sizeof(struct wd_key)) < 0);
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
	struct wd_keyset ks;
	struct wd_key a = key(2, 0x100), b = key(2, 0x100);

	keys_init(&ks);
	b.netns_cookie = 8;
	read_keys(&ks, PUSHES({ &a, 4 }, { &b, 5 }, { &a, 2 }));
	CHECK_INT(ks.n, 2);
	CHECK_INT(wd_key_rows(&ks)[0].key.netns_cookie, 7);
	CHECK_INT(wd_key_rows(&ks)[0].count, 6);
	CHECK_INT(wd_key_rows(&ks)[1].key.netns_cookie, 8);
	CHECK_INT(wd_key_rows(&ks)[1].count, 5);
	wd_keyset_free(&ks);
}

/*
 * Reasons by slot (the -r bitmap, the overflow bucket): every core reason
 * below 512 and every subsystem reason of 8 subsystems of 64 has a slot of
 * its own, and the slot gives the reason back; others share the last one.
 */
static void test_reason_slots(void)
{
	static bool used[WD_OVERFLOW_SLOTS];
	uint32_t n = 0;

	for (uint32_t sub = 0; sub <= WD_SUBSYS_MAX; sub++) {
		for (uint32_t low = 0; low < (sub ? WD_SUBSYS_SLOTS : WD_CORE_SLOTS); low++) {
			uint32_t code = sub << WD_SUBSYS_SHIFT | low, slot = wd_reason_slot(code);

			UNIT_RECORD(slot < WD_REASON_SLOTS && !used[slot] &&
				    wd_slot_reason(slot) == code, "%#x: slot %u", code, slot);
			if (slot < WD_REASON_SLOTS)
				used[slot] = true;
			n++;
		}
	}
	CHECK_INT(n, WD_REASON_SLOTS);
	CHECK_INT(wd_reason_slot(255), 255);
	CHECK(wd_reason_slot(0x20001) != wd_reason_slot(0x20002));
	CHECK(wd_reason_slot(0x20001) != wd_reason_slot(255));
	CHECK_INT(wd_reason_slot(512), WD_REASON_SLOTS);
	CHECK_INT(wd_reason_slot(0x20040), WD_REASON_SLOTS);
	CHECK_INT(wd_reason_slot(0x90001), WD_REASON_SLOTS);
	CHECK_INT(wd_slot_reason(WD_REASON_SLOTS), WD_REASON_NO_SLOT);
	CHECK_INT(wd_reason_slot(WD_REASON_NO_SLOT), WD_REASON_SLOTS);
}

static int cmp_total(const void *a, const void *b)
{
	return memcmp(&((const struct wd_key_total *)a)->key, &((const struct wd_key_total *)b)->key,
		      sizeof(struct wd_key));
}

/*
 * Overflow rows (location 0) of two subsystem reasons and of reason 255:
 * three buckets. A run of one that moved into its bucket is not kept twice,
 * and the others' buckets, which did not grow, do not hide their runs.
 */
static void test_clamp_subsys_overflow(void)
{
	struct wd_keyset cur, prev;
	struct wd_key ovs1 = key(0x20001, 0), ovs2 = key(0x20002, 0), r255 = key(255, 0);
	struct wd_key run2 = key(0x20002, 0x500), run255 = key(255, 0x600);

	keys_init(&cur);
	keys_init(&prev);
	push_all(&prev, PUSHES({ &r255, 1 }, { &run255, 5 }, { &ovs1, 2 }, { &run2, 3 }));
	qsort(prev.v, 4, sizeof(struct wd_key_total), cmp_total);
	/* now: 0x20002's run of 3 moved into its bucket (4), the others unchanged */
	read_keys(&cur, PUSHES({ &r255, 1 }, { &ovs1, 2 }, { &ovs2, 4 }));
	CHECK_INT(wd_keys_clamp(&cur, &prev), 0);
	CHECK_INT(count_of(&cur, 0x20002, 0), 4);
	CHECK_INT(count_of(&cur, 0x20002, 0x500), (uint64_t)-1);
	CHECK_INT(count_of(&cur, 255, 0x600), 5);	/* 255's bucket did not grow */
	CHECK_INT(count_of(&cur, 0x20001, 0), 2);
	wd_keyset_free(&cur);
	wd_keyset_free(&prev);
}

/* A run in flight was missed, or a key is gone from this read: no step back. */
static void test_clamp(void)
{
	struct wd_keyset prev, cur;
	struct wd_key a = key(2, 0x100), b = key(3, 0x200), c = key(4, 0x300);

	keys_init(&prev);
	keys_init(&cur);
	read_keys(&prev, PUSHES({ &a, 10 }, { &b, 20 }));
	/* a lower than before: keep 10; c new; b missing: keep 20 */
	read_keys(&cur, PUSHES({ &a, 8 }, { &c, 1 }));
	CHECK_INT(wd_keys_clamp(&cur, &prev), 0);
	CHECK_INT(cur.n, 3);
	CHECK_INT(count_of(&cur, 2, 0x100), 10);
	CHECK_INT(count_of(&cur, 3, 0x200), 20);
	CHECK_INT(count_of(&cur, 4, 0x300), 1);
	for (size_t i = 1; i < cur.n; i++)
		CHECK(memcmp(&wd_key_rows(&cur)[i - 1].key, &wd_key_rows(&cur)[i].key,
			     sizeof(struct wd_key)) < 0);

	/* and growth is kept */
	wd_keyset_free(&prev);
	wd_keyset_push(&prev, &a, 12);
	CHECK_INT(wd_keys_clamp(&prev, &cur), 0);
	CHECK_INT(count_of(&prev, 2, 0x100), 12);
	CHECK_INT(count_of(&prev, 3, 0x200), 20);
	wd_keyset_free(&cur);
	CHECK_INT(wd_keys_clamp(&prev, &cur), 0);	/* nothing before */
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
	struct wd_keyset ks;
	long left;

	keys_init(&ks);
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
	struct wd_keyset prev, cur;
	struct wd_key a = key(2, 0x100), b = key(3, 0x200), ovf = key(2, 0);
	uint64_t total = 0;

	keys_init(&prev);
	keys_init(&cur);
	read_keys(&prev, PUSHES({ &a, 10 }, { &b, 5 }));
	/* a and b are gone: a's 10 and 2 more in the bucket */
	read_keys(&cur, PUSHES({ &ovf, 12 }));
	CHECK_INT(wd_keys_clamp(&cur, &prev), 0);
	CHECK_INT(count_of(&cur, 2, 0x100), (uint64_t)-1);
	CHECK_INT(count_of(&cur, 2, 0), 12);
	CHECK_INT(count_of(&cur, 3, 0x200), 5);
	for (size_t i = 0; i < cur.n; i++)
		total += wd_key_rows(&cur)[i].count;
	CHECK_INT(total, 17);
	CHECK_INT(wd_keyset_sum(&cur), 17);
	wd_keyset_free(&prev);
	wd_keyset_free(&cur);
}

/*
 * Counting one by one through the hash of rows (drop_monitor's alerts)
 * gives what appending and merging gives: up to 3000 keys, 20000 adds in a
 * scrambled order, a merge in between (the index is rebuilt after it).
 */
static void test_add_equals_merge(void)
{
	struct wd_keyset added, pushed;
	uint64_t x = 12345;
	bool same = true;
	size_t n_added;
	int err = 0;

	keys_init(&added);
	keys_init(&pushed);
	for (int i = 0; i < 20000; i++) {
		struct wd_key k;
		uint64_t n = i % 7 + 1;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		k = key((uint32_t)(x >> 33) % 30, 0x1000 + (x >> 40) % 100);
		err |= wd_keyset_add(&added, &k, n) | wd_keyset_push(&pushed, &k, n);
		if (i == 10000)
			wd_keyset_merge(&added);	/* sorted: the index goes stale */
	}
	CHECK_INT(err, 0);
	n_added = added.n;	/* one row per key already */
	wd_keyset_merge(&added);
	wd_keyset_merge(&pushed);
	CHECK(pushed.n > 2900 && pushed.n <= 3000);
	CHECK_INT(n_added, pushed.n);
	CHECK_INT(added.n, pushed.n);
	for (size_t i = 0; same && i < added.n; i++)
		same = !memcmp(wd_keyset_key(&added, i), wd_keyset_key(&pushed, i),
			       sizeof(struct wd_key) + 8);
	CHECK(same);
	CHECK_INT(wd_keyset_sum(&added), wd_keyset_sum(&pushed));
	{
		struct wd_key k = key(7, 0x1000), absent = key(99, 0x1000);
		uint64_t *c = wd_keyset_find(&added, &k);

		CHECK(c && *c == count_of(&pushed, 7, 0x1000));
		CHECK(!wd_keyset_find(&added, &absent));
	}
	wd_keyset_free(&added);
	wd_keyset_free(&pushed);
}

static struct wd_sock_key sock(uint64_t ino, uint64_t cgroup)
{
	struct wd_sock_key k;

	memset(&k, 0, sizeof(k));
	k.reason = 3;
	k.netns = 4026532238u;
	k.netns_cookie = 7;
	k.ino = ino;
	k.cgroup_id = cgroup;
	return k;
}

/* Give up sockets 1 and 2 (a fold took socket 1), keep the rest as they are. */
static bool let_go(void *ctx, void *key, uint64_t count)
{
	struct wd_sock_key *k = key;

	(void)ctx;
	(void)count;
	if (k->ino == 1)
		return false;
	if (k->ino == 2 || k->ino == 3)
		k->ino = UINT64_MAX;
	return true;
}

/*
 * The by-socket counts use the same structure with their own key: merged,
 * let go of their inodes when swapped out (two sockets of one cgroup
 * become one row), one taken elsewhere; and forgotten by cgroup.
 */
static void test_sock_keys(void)
{
	struct wd_keyset ks;
	struct wd_sock_key a = sock(1, 100), b = sock(2, 100), c = sock(3, 100), d = sock(4, 200);
	const struct wd_sock_total *v;

	wd_keyset_init(&ks, sizeof(struct wd_sock_key));
	read_keys(&ks, PUSHES({ &d, 1 }, { &c, 2 }, { &b, 3 }, { &a, 4 }, { &c, 5 }));
	CHECK_INT(ks.n, 4);
	v = wd_sock_rows(&ks);
	CHECK_INT(v[2].key.ino, 3);
	CHECK_INT(v[2].count, 7);
	wd_keyset_filter(&ks, let_go, NULL);
	wd_keyset_merge(&ks);
	v = wd_sock_rows(&ks);
	CHECK_INT(ks.n, 2);
	CHECK_INT(v[0].key.ino, 4);
	CHECK_INT(v[0].count, 1);
	CHECK_INT(v[1].key.ino, UINT64_MAX);
	CHECK_INT(v[1].key.cgroup_id, 100);
	CHECK_INT(v[1].count, 10);	/* sockets 2 and 3, one row */
	CHECK_INT(wd_keyset_sum(&ks), 11);
	wd_keyset_free(&ks);
}

static bool gone_odd(void *ctx, const void *key)
{
	(void)ctx;
	return ((const struct wd_key *)key)->reason % 2;
}

/* The generic clamp: a key missing from this read is kept unless gone() says so. */
static void test_clamp_gone(void)
{
	struct wd_keyset prev, cur, copy;
	struct wd_key a = key(2, 0x100), b = key(3, 0x200), c = key(4, 0x300);

	keys_init(&prev);
	keys_init(&cur);
	keys_init(&copy);
	read_keys(&prev, PUSHES({ &a, 1 }, { &b, 2 }, { &c, 3 }));
	CHECK_INT(wd_keyset_append(&copy, &cur), 0);
	CHECK_INT(wd_keyset_clamp(&cur, &prev, gone_odd, NULL), 0);
	CHECK_INT(cur.n, 2);
	CHECK_INT(count_of(&cur, 3, 0x200), (uint64_t)-1);
	CHECK_INT(wd_keyset_clamp(&copy, &prev, NULL, NULL), 0);
	CHECK_INT(copy.n, 3);
	CHECK_INT(wd_keyset_sum(&copy), 6);
	wd_keyset_clear(&copy);
	CHECK_INT(copy.n, 0);
	wd_keyset_free(&prev);
	wd_keyset_free(&cur);
	wd_keyset_free(&copy);
}

/* --rate in user space: so many records a second, the rest counted as refused; 0: all. */
static void test_rate(void)
{
	struct wd_rate r = { .per_s = 3 }, none = { 0 };
	int allowed = 0;

	for (int i = 0; i < 5; i++)
		allowed += wd_rate_allow(&r, 100.2);
	CHECK_INT(allowed, 3);
	CHECK_INT(r.limited, 2);
	CHECK(!wd_rate_allow(&r, 101.1));	/* the same window */
	CHECK(wd_rate_allow(&r, 101.3));	/* a new one */
	CHECK_INT(r.limited, 3);
	for (int i = 0; i < 1000; i++)
		allowed += wd_rate_allow(&none, 5.0);
	CHECK_INT(allowed, 1003);
	CHECK_INT(none.limited, 0);
}

/* -r in user space: the slots the bitmap holds, core and subsystem reasons alike. */
static void test_reason_selected(void)
{
	__u64 bits[WD_REASON_BITMAP_WORDS] = { 0 };
	uint32_t ovs = 0x30001, slot = wd_reason_slot(ovs);

	bits[2 / 64] |= 1ULL << 2;
	bits[slot / 64] |= 1ULL << (slot % 64);
	CHECK(wd_reason_selected(bits, true, 2));
	CHECK(!wd_reason_selected(bits, true, 3));
	CHECK(wd_reason_selected(bits, true, ovs));
	CHECK(!wd_reason_selected(bits, true, 0x30002));
	CHECK(!wd_reason_selected(bits, true, 0x90001));	/* no slot */
	CHECK(wd_reason_selected(bits, false, 3));	/* no -r */
}

/*
 * The keys waiting in the runs that the counting hash lacks: a key on two
 * CPUs counts once, a key already in the hash not at all, a key only in
 * rows outside the hash's range (retired, overflow) does count: it is new
 * to the hash when evicted into it.
 */
static void test_count_absent(void)
{
	struct wd_keyset kv, runs;
	struct wd_key k;

	keys_init(&kv);
	keys_init(&runs);
	k = key(1, 0x10);
	wd_keyset_push(&kv, &k, 5);	/* retired: row 0 */
	for (uint64_t l = 0x20; l < 0x25; l++) {	/* the hash: rows 1..5 */
		k = key(2, l);
		wd_keyset_push(&kv, &k, 1);
	}
	k = key(3, 0);
	wd_keyset_push(&kv, &k, 9);	/* overflow: row 6 */
	CHECK_INT(wd_keyset_count_absent(&kv, 1, 6, &runs), 0);
	k = key(2, 0x21);
	wd_keyset_push(&runs, &k, 3);	/* in the hash */
	k = key(1, 0x10);
	wd_keyset_push(&runs, &k, 3);	/* retired only: new to the hash */
	k = key(4, 0x30);
	wd_keyset_push(&runs, &k, 1);	/* new, on two CPUs */
	wd_keyset_push(&runs, &k, 2);
	k = key(3, 0);
	wd_keyset_push(&runs, &k, 1);	/* like the overflow row: new to the hash */
	CHECK_INT(wd_keyset_count_absent(&kv, 1, 6, &runs), 3);
	CHECK_INT(wd_keyset_count_absent(&kv, 0, 7, &runs), 1);
	CHECK_INT(wd_keyset_count_absent(&kv, 3, 3, &runs), 4);	/* an empty hash */
	CHECK_INT(runs.n, 5);	/* probe left as it was */
	wd_keyset_free(&kv);
	wd_keyset_free(&runs);
}

static bool fold_ns7(void *ctx, void *key)
{
	struct wd_key *k = key;

	(void)ctx;
	if (k->netns_cookie != 7)
		return false;
	k->netns_cookie = UINT64_MAX;
	k->netns = 0;
	k->ifindex = 0;
	return true;
}

static uint64_t row_count(const struct wd_keyset *ks, const struct wd_key *k)
{
	const struct wd_key_total *v = wd_key_rows(ks);

	for (size_t i = 0; i < ks->n; i++)
		if (!memcmp(&v[i].key, k, sizeof(*k)))
			return v[i].count;
	return 0;
}

/*
 * Aging: the retired rows of a gone namespace move to its reason and
 * location's gone row, the floor alike; a later live read clamped against
 * that floor has the same sum as before, nothing counted twice.
 */
static void test_fold(void)
{
	struct wd_keyset retired, floor, cur;
	struct wd_key a = key(2, 0x100), b = key(2, 0x100), c = key(3, 0x100);
	struct wd_key live = key(2, 0x300), other = key(2, 0x100), gone;

	keys_init(&retired);
	keys_init(&floor);
	keys_init(&cur);
	a.ifindex = 3;
	b.ifindex = 4;
	other.netns_cookie = 8;
	gone = a;
	gone.netns_cookie = UINT64_MAX;
	gone.netns = 0;
	gone.ifindex = 0;
	wd_keyset_push(&retired, &a, 5);
	wd_keyset_push(&retired, &b, 4);	/* the same reason and location as a, later */
	wd_keyset_push(&retired, &c, 9);	/* grew in a swap after the floor's read */
	wd_keyset_push(&retired, &other, 6);	/* namespace 8: stays */
	wd_keyset_merge(&retired);
	wd_keyset_push(&floor, &a, 7);		/* 5 retired, 2 in the hash then */
	wd_keyset_push(&floor, &b, 4);
	wd_keyset_push(&floor, &c, 8);
	wd_keyset_push(&floor, &other, 6);
	wd_keyset_push(&floor, &live, 1);	/* namespace 7, only in the hash */
	wd_keyset_merge(&floor);
	CHECK_INT(wd_keyset_fold(&retired, &floor, fold_ns7, NULL), 0);
	CHECK_INT(retired.n, 3);		/* a and b one row */
	CHECK_INT(row_count(&retired, &gone), 9);
	CHECK_INT(row_count(&retired, &other), 6);
	CHECK_INT(wd_keyset_sum(&retired), 24);
	CHECK_INT(row_count(&floor, &a), 2);	/* what the hash held stays under a */
	CHECK_INT(row_count(&floor, &b), 0);
	CHECK_INT(row_count(&floor, &gone), 9);
	CHECK_INT(row_count(&floor, &live), 1);
	CHECK_INT(wd_keyset_sum(&floor), 26);
	gone = c;	/* another reason: a gone row of its own */
	gone.netns_cookie = UINT64_MAX;
	gone.netns = 0;
	CHECK_INT(row_count(&retired, &gone), 9);
	CHECK_INT(row_count(&floor, &gone), 8);	/* as far as the floor held it */
	CHECK_INT(row_count(&floor, &c), 0);
	/* the next read: retired, then the hash (a: 2 + 1 more, live: 1) */
	wd_keyset_append(&cur, &retired);
	wd_keyset_push(&cur, &a, 3);
	wd_keyset_push(&cur, &live, 1);
	wd_keyset_merge(&cur);
	CHECK_INT(wd_keys_clamp(&cur, &floor), 0);
	CHECK_INT(wd_keyset_sum(&cur), 24 + 3 + 1);
	CHECK_INT(row_count(&cur, &a), 3);
	/* nothing left to fold: nothing changes */
	CHECK_INT(wd_keyset_fold(&retired, &floor, fold_ns7, NULL), 0);
	CHECK_INT(retired.n, 3);
	CHECK_INT(wd_keyset_sum(&floor), 26);
	wd_keyset_free(&retired);
	wd_keyset_free(&floor);
	wd_keyset_free(&cur);
}

UNIT_MAIN(test_merge, test_reused_inode, test_reason_slots, test_clamp_subsys_overflow, test_clamp,
	  test_clamp_overflow, test_runs_seqcount, test_add_equals_merge, test_sock_keys,
	  test_clamp_gone, test_rate, test_reason_selected, test_count_absent, test_fold)
