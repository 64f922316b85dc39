/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --tcp: the drop program's per-flow count of TCP drops (tcp_drops.h), as
 * user space reads it (source_bpf.c). The packet's own addresses and
 * ports, as they were in the header at the drop, in the namespace where
 * it was dropped; user space joins them with the flows that retransmitted,
 * in either direction. No implicit padding.
 */
#ifndef WD_TCP_DROP_KEY_H
#define WD_TCP_DROP_KEY_H

#define WD_TCP_DROP_FLOWS	8192	/* (flow, reason, namespace) keys, --tcp or --group-by flow */

struct wd_tcp_drop_key {
	__u64 netns_cookie;	/* where it was dropped (the drop's key) */
	__u32 netns;
	__u32 reason;
	__u16 family;		/* AF_INET, AF_INET6 */
	__u16 sport;		/* the packet's, host order */
	__u16 dport;
	__u8 proto;		/* IPPROTO_*; ports only for TCP and UDP */
	__u8 pad;
	__u8 saddr[16];		/* the packet's source; IPv4 in the first 4 bytes */
	__u8 daddr[16];
};

/* Per CPU: the packets (skbs, as whydrop counts drops) and their TCP segments. */
struct wd_tcp_drop_count {
	__u64 packets;
	__u64 segs;		/* a GSO packet's gso_segs, else 1 */
};

#endif /* WD_TCP_DROP_KEY_H */
