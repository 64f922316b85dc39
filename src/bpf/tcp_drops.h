/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --tcp: the drops of TCP packets counted per flow, reason and namespace,
 * exactly, for user space to join with the flows that retransmitted
 * (docs/tcp.md); --group-by flow|src|dst: those of every packet (IP
 * protocol, addresses, ports for TCP and UDP; "(not IP)"), for count and
 * top (docs/who.md). A program of its own on skb:kfree_skb beside the drop
 * program, with the same filters (-r, --netns, -i; not a filter
 * expression), included at the end of whydrop.bpf.c to use them. Without
 * --tcp or --group-by flow|src|dst neither it nor its maps are loaded
 * (autoload, autocreate), and the drop program is the same to the
 * instruction. A key the hash has no room for is counted in
 * flow_drops_ovf: never lost.
 */
#ifndef WHYDROP_TCP_DROPS_H
#define WHYDROP_TCP_DROPS_H

#include "tcp_drop_key.h"

#define WD_AF_INET	2
#define WD_AF_INET6	10
#define WD_IPPROTO_TCP	6
#define WD_IPPROTO_UDP	17

/* Drops by flow (of TCP packets, or of every IP packet: flows_all_ip). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);	/* this CPU's count: no atomics */
	__uint(max_entries, WD_TCP_DROP_FLOWS);
	__type(key, struct wd_tcp_drop_key);
	__type(value, struct wd_tcp_drop_count);
} flow_drops SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wd_tcp_drop_count);
} flow_drops_ovf SEC(".maps");

/* What only this file reads of the skb: its segments (CO-RE flavours). */
struct sk_buff___tcp {
	unsigned int end;	/* sk_buff_data_t: an offset from head on 64-bit */
} __attribute__((preserve_access_index));

struct skb_shared_info {
	__u16 gso_segs;
} __attribute__((preserve_access_index));

/* The TCP segments a packet holds, as TcpRetransSegs would count them. */
static __always_inline __u64 skb_segs(struct sk_buff *skb, unsigned char *head)
{
	unsigned int end = BPF_CORE_READ((struct sk_buff___tcp *)skb, end);
	struct skb_shared_info *sh = (struct skb_shared_info *)(head + end);
	__u16 segs = BPF_CORE_READ(sh, gso_segs);

	return segs ? segs : 1;
}

/* --group-by flow|src|dst: every IP drop by its flow; --tcp alone: TCP drops only. */
const volatile bool flows_all_ip;

/* The IP header's addresses and protocol, TCP's and UDP's ports; false: not counted. */
static __always_inline bool tcp_flow_of(const unsigned char *nh, __u32 linear,
					struct wd_tcp_drop_key *k)
{
	__u8 h[40];
	__u32 off;
	__be16 ports[2];

	if (linear < 20 || bpf_probe_read_kernel(h, 20, nh))
		return flows_all_ip;	/* by flow: "(not IP)" */
	if (h[0] >> 4 == 4) {
		k->proto = h[9];
		k->family = WD_AF_INET;
		__builtin_memcpy(k->saddr, &h[12], 4);
		__builtin_memcpy(k->daddr, &h[16], 4);
		off = (h[0] & 0xf) * 4;
		/* by flow, a later fragment has no ports */
		if (flows_all_ip && ((h[6] & 0x1f) || h[7]))
			off = 0;
	} else if (h[0] >> 4 == 6) {
		/* extension headers are not followed: such drops stay unjoined */
		if (linear < 40 || bpf_probe_read_kernel(h, 40, nh))
			return flows_all_ip;	/* by flow: "(not IP)" */
		k->proto = h[6];
		k->family = WD_AF_INET6;
		__builtin_memcpy(k->saddr, &h[8], 16);
		__builtin_memcpy(k->daddr, &h[24], 16);
		off = 40;
	} else {
		k->proto = 0;
		return flows_all_ip;
	}
	if (k->proto != WD_IPPROTO_TCP && (!flows_all_ip || k->proto != WD_IPPROTO_UDP))
		return flows_all_ip;	/* the flow without ports */
	if (off < 20 || off + 4 > linear || off > 60 ||
	    bpf_probe_read_kernel(ports, sizeof(ports), nh + off))
		return flows_all_ip;
	k->sport = bpf_ntohs(ports[0]);
	k->dport = bpf_ntohs(ports[1]);
	return true;
}

/* Count a TCP drop by its flow: added to its key, else created, else overflow. */
static __always_inline void tcp_flow_count(struct sk_buff *skb, const struct wd_key *dk,
					   bool btf)
{
	struct wd_tcp_drop_key k = {};
	unsigned char *head = RD(btf, skb, head);
	__u16 nh_off = RD(btf, skb, network_header);
	__u32 tail = RD(btf, skb, tail);
	struct wd_tcp_drop_count one = { 1 }, *v;
	__u32 zero = 0;

	if (!head || nh_off == (__u16)~0U || tail <= nh_off) {
		if (!flows_all_ip)
			return;
	} else if (!tcp_flow_of(head + nh_off, tail - nh_off, &k)) {
		return;
	}
	k.netns_cookie = dk->netns_cookie;
	k.netns = dk->netns;
	k.reason = dk->reason;
	one.segs = head ? skb_segs(skb, head) : 1;
	v = bpf_map_lookup_elem(&flow_drops, &k);
	if (v) {
		v->packets++;
		v->segs += one.segs;
		return;
	}
	/* this CPU's count, the others' 0 */
	if (!bpf_map_update_elem(&flow_drops, &k, &one, BPF_NOEXIST))
		return;
	/* another CPU made it meanwhile, or the hash is full */
	v = bpf_map_lookup_elem(&flow_drops, &k);
	if (!v)
		v = bpf_map_lookup_elem(&flow_drops_ovf, &zero);
	if (v) {
		v->packets++;
		v->segs += one.segs;
	}
}

/* A drop, through the drop program's own filters (-r, --netns, -i), by its flow. */
static __always_inline int on_tcp_drop(__u64 *args, void *ctx, bool btf)
{
	struct drop d = {};

	if (!drop_wanted(&d, args, ctx, btf))
		return 0;
	tcp_flow_count(d.skb, &d.f.key, btf);
	return 0;
}

/* kfree_skb_tcp_btf, kfree_skb_tcp_raw */
BOTH_FLAVOURS(kfree_skb, kfree_skb_tcp, on_tcp_drop)

#endif /* WHYDROP_TCP_DROPS_H */
