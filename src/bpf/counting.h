/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Exact counting, shared by the CO-RE program and the fallback without BTF:
 * the per-CPU counting hash, the per-reason overflow bucket, statistics and
 * the -r reason filter.
 */
#ifndef WHYDROP_COUNTING_H
#define WHYDROP_COUNTING_H

const volatile bool filter_reasons;
const volatile __u64 reason_bits[WD_REASON_BITMAP_WORDS];

/*
 * The counting hash of the current generation, reached through a one-slot
 * array of maps: user space can swap in an empty one (the update waits for
 * every program still running) and read the old one whole, so keys that
 * went idle leave the kernel without losing a count (src/core/counts.c).
 */
struct wd_counts_map {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, struct wd_key);
	__type(value, __u64);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct wd_counts_map);
} counts SEC(".maps");

/* Where counts go when the hash is full: indexed by reason, never lost. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WD_OVERFLOW_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} overflow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WD_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_inc(__u32 slot)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &slot);

	if (v)
		*v += 1;
}

static __always_inline bool reason_wanted(__u32 reason)
{
	__u32 slot;
	__u64 word;

	if (!filter_reasons)
		return true;
	slot = wd_reason_slot(reason);
	if (slot >= WD_REASON_SLOTS)
		return false;
	/* Mask in asm: clang drops a C mask it can prove redundant, the verifier can't. */
	word = slot / 64;
	asm volatile("%0 &= %1" : "+r"(word) : "i"(WD_REASON_BITMAP_WORDS - 1));
	return reason_bits[word] & (1ULL << (slot % 64));
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wd_runs);
} runs SEC(".maps");

#define compiler_barrier() asm volatile("" ::: "memory")

/* Into the hash, else the overflow bucket of its reason: never lost. */
static __always_inline void add_to_hash(const struct wd_key *key, __u64 n)
{
	__u32 zero = 0;
	/* NULL: not set up, which cannot happen once attached */
	void *hash = bpf_map_lookup_elem(&counts, &zero);

	if (!hash_add_or_overflow(hash, key, n, &overflow, wd_reason_slot(key->reason)))
		stat_inc(WD_STAT_OVERFLOW);
}

static __always_inline bool same_key(const struct wd_key *a, const struct wd_key *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;

	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}

_Static_assert(sizeof(struct wd_key) == 4 * sizeof(__u64), "same_key, run_set: four words");

/* The set of a key: multiply-xor of its four words, top bits. */
static __always_inline __u32 run_set(const struct wd_key *k)
{
	const __u64 *x = (const __u64 *)k;
	__u64 h = x[0] * 0x9E3779B97F4A7C15ULL ^ x[1] * 0xC2B2AE3D27D4EB4FULL ^
		  x[2] * 0x165667B19E3779F9ULL ^ x[3] * 0x27D4EB2F165667C5ULL;

	return (__u32)(h >> 60) & (WD_RUN_SETS - 1);
}

/*
 * Add one to the key's count; the key must be zeroed before it was filled.
 * A drop like a recent one on this CPU only bumps its run; another kind
 * takes the way of its set with the shorter run, whose count moves into
 * the hash (after it left the slot). A reader that reads the hash first
 * and the runs second can miss a run in flight but never counts one twice.
 * One place adds to the hash, so the program holds that code once.
 */
static __always_inline void count_key(const struct wd_key *key)
{
	struct wd_run *a, *b, *r;
	struct wd_runs *rs;
	struct wd_key old;
	__u32 zero = 0, set;
	__u64 n;

	rs = bpf_map_lookup_elem(&runs, &zero);
	if (!rs) {
		old = *key;
		n = 1;
		goto hash;
	}
	/* A storm repeats one kind of drop: its run first, no hashing. */
	a = &rs->slot[rs->last & (WD_RUN_SETS * WD_RUN_WAYS - 1)];
	if (a->n && same_key(&a->key, key)) {
		a->n++;
		return;
	}
	set = run_set(key) * WD_RUN_WAYS;
	a = &rs->slot[set];
	b = &rs->slot[set + 1];
	if (a->n && same_key(&a->key, key)) {
		a->n++;
		rs->last = set;
		return;
	}
	if (b->n && same_key(&b->key, key)) {
		b->n++;
		rs->last = set + 1;
		return;
	}
	if (a->n > b->n)
		set++;
	r = &rs->slot[set & (WD_RUN_SETS * WD_RUN_WAYS - 1)];
	rs->last = set;
	/* A new run in slot r; the old one leaves the slot before it enters the hash. */
	old = r->key;
	n = r->n;
	r->seq++;
	compiler_barrier();
	r->key = *key;
	r->n = 1;
	compiler_barrier();
	r->seq++;
	if (!n)
		return;
hash:
	add_to_hash(&old, n);
}

#endif /* WHYDROP_COUNTING_H */
