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

/* Add one to the key's count; the key must be zeroed before it was filled. */
static __always_inline void count_key(const struct wd_key *key)
{
	__u64 one = 1, *val;
	__u32 slot;

	val = bpf_map_lookup_elem(&counts, key);
	if (val) {
		*val += 1;
		return;
	}
	if (!bpf_map_update_elem(&counts, key, &one, BPF_NOEXIST))
		return;
	/* Another CPU may have inserted the key meanwhile. */
	val = bpf_map_lookup_elem(&counts, key);
	if (val) {
		*val += 1;
		return;
	}
	slot = key->reason < WD_OVERFLOW_SLOTS ? key->reason : WD_OVERFLOW_SLOTS - 1;
	val = bpf_map_lookup_elem(&overflow, &slot);
	if (val)
		*val += 1;
	stat_inc(WD_STAT_OVERFLOW);
}

#endif /* WHYDROP_COUNTING_H */
