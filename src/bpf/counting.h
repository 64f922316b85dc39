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

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, struct wd_key);
	__type(value, __u64);
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
	__u64 word;

	if (!filter_reasons)
		return true;
	if (reason >= WD_REASON_BITMAP_WORDS * 64)
		return false;
	/* Mask in asm: clang drops a C mask it can prove redundant, the verifier can't. */
	word = reason / 64;
	asm volatile("%0 &= %1" : "+r"(word) : "i"(WD_REASON_BITMAP_WORDS - 1));
	return reason_bits[word] & (1ULL << (reason % 64));
}

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wd_pending);
} pending SEC(".maps");

#define compiler_barrier() asm volatile("" ::: "memory")

static __always_inline void add_to_hash(const struct wd_key *key, __u64 n)
{
	__u64 *val;
	__u32 slot;

	val = bpf_map_lookup_elem(&counts, key);
	if (val) {
		*val += n;
		return;
	}
	if (!bpf_map_update_elem(&counts, key, &n, BPF_NOEXIST))
		return;
	/* Another CPU may have inserted the key meanwhile. */
	val = bpf_map_lookup_elem(&counts, key);
	if (val) {
		*val += n;
		return;
	}
	slot = key->reason < WD_OVERFLOW_SLOTS ? key->reason : WD_OVERFLOW_SLOTS - 1;
	val = bpf_map_lookup_elem(&overflow, &slot);
	if (val)
		*val += n;
	stat_inc(WD_STAT_OVERFLOW);
}

static __always_inline bool same_key(const struct wd_key *a, const struct wd_key *b)
{
	const __u64 *x = (const __u64 *)a, *y = (const __u64 *)b;

	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

/*
 * Add one to the key's count; the key must be zeroed before it was filled.
 * A drop like the previous one on this CPU only bumps the pending run;
 * another kind moves the run into the hash. The run leaves `pending` before
 * it enters the hash, so a reader that reads the hash first and `pending`
 * second can miss a run in flight but never counts one twice.
 */
static __always_inline void count_key(const struct wd_key *key)
{
	struct wd_pending *p;
	struct wd_key old;
	__u32 zero = 0;
	__u64 n;

	p = bpf_map_lookup_elem(&pending, &zero);
	if (!p) {
		add_to_hash(key, 1);
		return;
	}
	if (p->n && same_key(&p->key, key)) {
		p->n++;
		return;
	}
	n = p->n;
	old = p->key;
	p->seq++;
	compiler_barrier();
	p->key = *key;
	p->n = 1;
	compiler_barrier();
	p->seq++;
	if (n)
		add_to_hash(&old, n);
}

#endif /* WHYDROP_COUNTING_H */
