/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel types the TCP events program reads beyond core_types.h, for
 * CO-RE. The ___wdtcp suffix is a flavour: libbpf matches struct
 * sock___wdtcp against the kernel's struct sock, so these add fields
 * without redeclaring core_types.h's. Only names matter, not layouts;
 * fields inside anonymous unions (skc_daddr, tcp_gso_segs) are found there.
 */
#ifndef WD_TCP_CORE_TYPES_H
#define WD_TCP_CORE_TYPES_H

/* enum bpf_map_type (uapi) members core_types.h does not list */
#define WD_BPF_MAP_TYPE_LRU_HASH	9

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

struct in6_addr {
	union {
		__u8 u6_addr8[16];
	} in6_u;
};

struct net___wdtcp {
	struct ns_common ns;
	__u64 net_cookie;	/* 5.14+ */
};

struct sock_common___wdtcp {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	__be16 skc_dport;
	unsigned short skc_num;
	unsigned short skc_family;
	volatile unsigned char skc_state;
	possible_net_t skc_net;
	struct in6_addr skc_v6_daddr;
	struct in6_addr skc_v6_rcv_saddr;
};

/* Also a request_sock or an inet_timewait_sock: both begin with sock_common. */
/* socket_lock_t: owned while a task holds the socket (lock_sock()) */
struct socket_lock___wdtcp {
	int owned;
};

struct sock___wdtcp {
	struct sock_common___wdtcp __sk_common;
	struct socket_lock___wdtcp sk_lock;
	__u16 sk_protocol;	/* a plain __u16 since 5.6 */
};

/* A full socket: its port stays here once TCP_CLOSE unhashed skc_num. */
struct inet_sock___wdtcp {
	__be16 inet_sport;
};

/* What __tcp_retransmit_skb() adds to TcpRetransSegs, per socket too. */
struct tcp_sock___wdtcp {
	__u32 total_retrans;
};

struct sk_buff___wdtcp {
	char cb[48];
	unsigned long _skb_refdst;
	__u16 transport_header;
	__u16 network_header;
	unsigned char *head;
};

/* What TCP keeps in skb->cb. */
struct tcp_skb_cb {
	__u16 tcp_gso_segs;	/* tcp_skb_pcount() */
	__u8 sacked;		/* TCPCB_* */
};

/* Values are never used: names come from the kernel at run time. */
enum sk_rst_reason {
	SK_RST_REASON_NOT_SPECIFIED___wdtcp,
};

/* Only used to ask, at load time, which shape the tracepoints have. */
struct trace_event_raw_tcp_send_reset {
	enum sk_rst_reason reason;	/* 6.10+ */
};

struct trace_event_raw_tcp_retransmit_skb {
	int err;		/* 6.17+: called whatever the outcome */
};

#pragma clang attribute pop

#endif /* WD_TCP_CORE_TYPES_H */
