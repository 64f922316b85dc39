// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * For tests/system/nftrace.sh: NETFILTER_DROP in one network namespace,
 * split by the skb's nf_trace bit as the tracepoint sees it. Proves that a
 * kfree_skb program can tell the drops of packets nftables traced (whose
 * verdict a trace message names) from the others, exactly, in the kernel.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* The nf_trace bit (a bitfield of sk_buff, under CONFIG_NF_TABLES or xt TRACE). */
struct sk_buff___nft {
	__u8 nf_trace : 1;
} __attribute__((preserve_access_index));

const volatile __u32 netns_inum;	/* the namespace counted */
const volatile __u32 reason_nf_drop;	/* SKB_DROP_REASON_NETFILTER_DROP here */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);		/* [nf_trace] */
	__type(key, __u32);
	__type(value, __u64);
} drops SEC(".maps");

static __u32 skb_netns(struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct sock *sk = skb->sk;

	if (dev)
		return dev->nd_net.net->ns.inum;
	if (sk)
		return sk->__sk_common.skc_net.net->ns.inum;
	return 0;
}

SEC("tp_btf/kfree_skb")
int count_nf_drop(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	struct sk_buff___nft *nft = (void *)skb;
	__u32 key;
	__u64 *v;

	if ((__u32)ctx[2] != reason_nf_drop || skb_netns(skb) != netns_inum)
		return 0;
	key = BPF_CORE_READ_BITFIELD(nft, nf_trace) ? 1 : 0;
	v = bpf_map_lookup_elem(&drops, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
