// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fallback for kernels without BTF, where CO-RE cannot relocate skb field
 * reads: a raw tracepoint that only uses its arguments, never the skb.
 * Counts stay exact, keyed by reason and location; netns, interface,
 * protocol and packet bytes are unknown. Whether the tracepoint passes a
 * reason comes from the tracefs format, set by user space before load.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include "whydrop.h"

const volatile bool has_reason;
const volatile bool filter_reasons;
const volatile __u64 reason_bits[WD_REASON_BITMAP_WORDS];

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, struct wd_key);
	__type(value, __u64);
} counts SEC(".maps");

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

static __always_inline void bump(void *map, const void *key)
{
	__u64 *v = bpf_map_lookup_elem(map, key);

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
	word = reason / 64;
	asm volatile("%0 &= %1" : "+r"(word) : "i"(WD_REASON_BITMAP_WORDS - 1));
	return reason_bits[word] & (1ULL << (reason % 64));
}

SEC("raw_tp/kfree_skb")
int kfree_skb_nobtf(struct bpf_raw_tracepoint_args *ctx)
{
	struct wd_key key;
	__u64 one = 1, *val;
	__u32 slot = WD_STAT_SEEN;

	__builtin_memset(&key, 0, sizeof(key));
	key.location = ctx->args[1];
	if (has_reason)
		key.reason = (__u32)ctx->args[2];
	if (!reason_wanted(key.reason))
		return 0;
	bump(&stats, &slot);
	val = bpf_map_lookup_elem(&counts, &key);
	if (val) {
		*val += 1;
		return 0;
	}
	if (!bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST))
		return 0;
	val = bpf_map_lookup_elem(&counts, &key);
	if (val) {
		*val += 1;
		return 0;
	}
	slot = key.reason < WD_OVERFLOW_SLOTS ? key.reason : WD_OVERFLOW_SLOTS - 1;
	bump(&overflow, &slot);
	slot = WD_STAT_OVERFLOW;
	bump(&stats, &slot);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
