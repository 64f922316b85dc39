/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types shared by the TCP events program (tcp_events.bpf.c) and its reader
 * (src/core/tcp_events.c): resets sent and received, retransmitted segments
 * per flow, and the records of single events. Fixed-width fields, no
 * implicit padding: a zeroed key hashes the same on every CPU.
 */
#ifndef WD_TCP_SHARED_H
#define WD_TCP_SHARED_H

#define WD_TCP_RST_KEYS		1024	/* reset counting keys (default) */
#define WD_TCP_FLOWS		4096	/* flows with retransmissions (default) */
#define WD_TCP_SOCKETS		4096	/* sockets whose retransmissions were seen last */
#define WD_TCP_RST_SLOTS	128	/* overflow slots per direction, by reason */
#define WD_TCP_RING_BYTES	(1 << 20)
#define WD_TCP_REASON_NONE	0xffff	/* the tracepoint has no reason (before 6.10) */
#define WD_TCP_NO_LIMIT		0xffffffffU	/* detail_budget: every record */

/* wd_tcp_rst_key.dir */
#define WD_TCP_SENT		0
#define WD_TCP_RECEIVED		1

/*
 * Key of the reset counts: direction, reason, state, namespace, and who:
 * the socket's cgroup and the process the reset ran in, where exact.
 */
struct wd_tcp_rst_key {
	__u64 netns_cookie;	/* net->net_cookie: never reused */
	__u32 netns_ino;	/* the namespace's inode, to name it while it lives */
	__u16 reason;		/* enum sk_rst_reason, or WD_TCP_REASON_NONE */
	__u8 state;		/* TCP state of the socket, 0: no socket */
	__u8 dir;		/* WD_TCP_SENT, WD_TCP_RECEIVED */
	__u64 cgroup_id;	/* a full socket's cgroup v2 id; 0: none */
	__u32 pid;		/* tgid of the task holding the socket (lock_sock())
				 * when it reset: close(), setsockopt(), its backlog;
				 * 0: none (softirq input, timers, a listener, no
				 * full socket) */
	char comm[16];		/* that task's comm (TASK_COMM_LEN), "" if no pid */
	__u32 pad;
};

/*
 * A connection as this host sees it: the local address and port first.
 * IPv4 addresses fill the first 4 bytes of saddr/daddr; an IPv6 socket's
 * IPv4-mapped addresses stay as the socket has them (AF_INET6).
 */
struct wd_tcp_flow {
	__u64 netns_cookie;
	__u32 netns_ino;
	__u16 family;		/* AF_INET, AF_INET6; 0: unknown */
	__u16 sport;		/* local port, host order */
	__u16 dport;		/* remote port, host order */
	__u16 pad[3];
	__u8 saddr[16];		/* local address */
	__u8 daddr[16];		/* remote address */
};

/* wd_tcp_event.type */
#define WD_TCP_EV_RST_SENT	0
#define WD_TCP_EV_RST_RECEIVED	1
#define WD_TCP_EV_RETRANS	2	/* tcp:tcp_retransmit_skb */
#define WD_TCP_EV_SYNACK	3	/* tcp:tcp_retransmit_synack */

/* wd_tcp_event.flags */
#define WD_TCP_EVF_FROM_PACKET	1	/* no socket: the flow is the packet's, reversed */
#define WD_TCP_EVF_NOT_COUNTED	2	/* a retransmission that ended before TcpRetransSegs */
#define WD_TCP_EVF_UNSURE	4	/* ... and that may have been counted after all */
#define WD_TCP_EVF_SOCK		8	/* resets: a full socket, sock_ino, cgroup_id and uid valid */

/* One event, sent through the ring buffer (rate-limited, losses counted). */
struct wd_tcp_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC */
	struct wd_tcp_flow flow;
	__u16 reason;		/* resets sent: enum sk_rst_reason or WD_TCP_REASON_NONE */
	__u8 type;		/* WD_TCP_EV_* */
	__u8 state;		/* TCP state, 0: no socket */
	__s32 err;		/* retransmissions: the kernel's result (6.17+), else 0 */
	__u32 segs;		/* retransmissions: segments added to TcpRetransSegs */
	__u32 cpu;
	__u32 flags;		/* WD_TCP_EVF_* */
	__u32 uid;		/* WD_TCP_EVF_SOCK: the socket's owner */
	__u64 sock_ino;		/* ... its inode, as in ss -e and /proc/PID/fd */
	__u64 cgroup_id;	/* ... its cgroup v2 id, 0 if none */
	/* resets: the task holding the socket when it reset (as wd_tcp_rst_key's) */
	__u32 pid;		/* its tgid, 0: none */
	char comm[16];		/* TASK_COMM_LEN */
	__u32 pad;
};

/* Slots of the per-CPU statistics array. */
enum wd_tcp_stat {
	WD_TCP_STAT_RST_SENT,		/* tcp_send_reset events counted */
	WD_TCP_STAT_RST_RECEIVED,	/* tcp_receive_reset events counted */
	WD_TCP_STAT_RETRANS_CALLS,	/* tcp_retransmit_skb events seen */
	WD_TCP_STAT_RETRANS_SEGS,	/* segments counted as TcpRetransSegs counts them */
	WD_TCP_STAT_RETRANS_FAILED,	/* counted, but the transmit failed (6.17+) */
	WD_TCP_STAT_RETRANS_SKIPPED,	/* ended before TcpRetransSegs: not counted (6.17+) */
	WD_TCP_STAT_RETRANS_UNSURE,	/* of those, ones whose error is ambiguous */
	WD_TCP_STAT_SYNACK,		/* SYN-ACK retransmissions (in RETRANS_SEGS too) */
	WD_TCP_STAT_RETRANS_CAUGHT_UP,	/* segments of calls the program did not see,
					 * counted at the socket's next one */
	WD_TCP_STAT_EMITTED,		/* records written to the ring buffer */
	WD_TCP_STAT_RATE_LIMITED,	/* records not written: over the budget */
	WD_TCP_STAT_RING_FULL,		/* records lost: ring buffer full */
	WD_TCP_STAT_RST_OVERFLOW,	/* resets counted in rst_overflow (hash full) */
	WD_TCP_STAT_FLOW_OVERFLOW,	/* segments counted in flow_overflow (hash full) */
	WD_TCP_STAT_MAX,
};

#endif /* WD_TCP_SHARED_H */
