// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop's TCP events, a program of its own, loaded only when asked
 * (src/core/tcp_events.c): resets sent (tcp:tcp_send_reset, with the
 * kernel's enum sk_rst_reason since 6.10) and received
 * (tcp:tcp_receive_reset), counted exactly per CPU by direction, reason,
 * TCP state and network namespace; retransmitted segments per flow, counted
 * as the kernel counts TcpRetransSegs (tcp:tcp_retransmit_skb with the
 * skb's segment count, tcp:tcp_retransmit_synack one each, what calls it
 * did not see at the socket's next call or state change,
 * sock:inet_sock_set_state: tcp_retrans.h); and a rate-limited ring buffer
 * of single events, its losses counted.
 *
 * The tracepoints' shapes (reason since 6.10, err since 6.17) come from the
 * kernel's BTF at load time, never from its version. tp_btf reads the
 * socket with direct loads; the raw_tp twin does the same through
 * bpf_probe_read_kernel where tp_btf cannot attach.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "tcp_core_types.h"
#include "tcp_shared.h"
#include "flavour.h"
#include "keyed_count.h"
#include "record_budget.h"
#include "sock_ids.h"

#define AF_INET			2
#define AF_INET6		10
#define WAKEUP_BYTES		(16 * 1024)
#define SKB_DST_PTRMASK		~1UL
#define NO_HEADER		0xffff	/* an unset skb header offset */
#define TCP_CLOSE		7	/* include/net/tcp_states.h, as /proc/net/tcp shows it */
#define TCP_LISTEN		10
#define IPPROTO_TCP		6

/* Set by user space before load (and detail_budget, jiffies_hz: record_budget.h). */
const volatile __u64 filter_netns_cookie;	/* 0: every namespace */

_Static_assert(WD_TCP_NO_LIMIT == WD_NO_LIMIT, "detail_budget: one 'every record'");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, WD_TCP_RST_KEYS);
	__type(key, struct wd_tcp_rst_key);
	__type(value, __u64);
} rst_counts SEC(".maps");

/* Resets the hash had no room for: by direction and reason, never lost. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2 * WD_TCP_RST_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} rst_overflow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, WD_TCP_FLOWS);
	__type(key, struct wd_tcp_flow);
	__type(value, __u64);
} flows SEC(".maps");

/* Retransmitted segments of flows the hash had no room for. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} flow_overflow SEC(".maps");

/*
 * The socket's total_retrans when this program last saw it retransmit:
 * the kernel adds to it exactly what it adds to TcpRetransSegs, so the
 * difference at the next call also counts calls this program did not see.
 */
struct {
	__uint(type, WD_BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, WD_TCP_SOCKETS);
	__type(key, __u64);		/* the socket's address */
	__type(value, __u32);
} retrans_seen SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, WD_TCP_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} tcp_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, WD_TCP_RING_BYTES);
} tcp_records SEC(".maps");

static __always_inline void stat_add(__u32 slot, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&tcp_stats, &slot);

	if (v)
		*v += n;
}

static __always_inline bool tp_has_rst_reason(void)
{
	return bpf_core_field_exists(struct trace_event_raw_tcp_send_reset, reason);
}

/* --------------------------------------------------------------- where */

static __always_inline struct net___wdtcp *sock_net(struct sock___wdtcp *sk, bool btf)
{
	return (struct net___wdtcp *)RD(btf, sk, __sk_common.skc_net.net);
}

/*
 * A reset sent without a socket: the namespace of the input route's device,
 * as tcp_v4_send_reset() and tcp_v6_send_reset() take it.
 */
static __always_inline struct net___wdtcp *skb_net(struct sk_buff___wdtcp *skb)
{
	unsigned long refdst = BPF_CORE_READ(skb, _skb_refdst);
	struct dst_entry *dst = (struct dst_entry *)(refdst & SKB_DST_PTRMASK);

	if (!dst)
		return NULL;
	return (struct net___wdtcp *)BPF_CORE_READ(dst, dev, nd_net.net);
}

/* Fill the namespace of f; false when the event is not for this reader. */
static __always_inline bool netns_fill(struct wd_tcp_flow *f, struct net___wdtcp *net, bool btf)
{
	if (net) {
		f->netns_cookie = RD(btf, net, net_cookie);
		f->netns_ino = RD(btf, net, ns.inum);
	}
	return !filter_netns_cookie || f->netns_cookie == filter_netns_cookie;
}

/* Addresses and ports of a full, request or timewait socket: local first. */
static __always_inline void flow_from_sock(struct wd_tcp_flow *f, struct sock___wdtcp *sk,
					   bool btf)
{
	__u16 family = RD(btf, sk, __sk_common.skc_family);
	__be32 a;

	f->family = family;
	f->sport = RD(btf, sk, __sk_common.skc_num);
	f->dport = bpf_ntohs(RD(btf, sk, __sk_common.skc_dport));
	/*
	 * An active reset comes after TCP_CLOSE gave the port back. inet_sock
	 * lies beyond the struct sock tp_btf knows: a probe read.
	 */
	if (!f->sport && RD(btf, sk, __sk_common.skc_state) == TCP_CLOSE)
		f->sport = bpf_ntohs(BPF_CORE_READ((struct inet_sock___wdtcp *)sk, inet_sport));
	if (family == AF_INET6 &&
	    bpf_core_field_exists(sk->__sk_common.skc_v6_daddr)) {
		BPF_CORE_READ_INTO(&f->saddr, sk, __sk_common.skc_v6_rcv_saddr);
		BPF_CORE_READ_INTO(&f->daddr, sk, __sk_common.skc_v6_daddr);
	} else if (family == AF_INET) {
		a = RD(btf, sk, __sk_common.skc_rcv_saddr);
		__builtin_memcpy(f->saddr, &a, 4);
		a = RD(btf, sk, __sk_common.skc_daddr);
		__builtin_memcpy(f->daddr, &a, 4);
	}
}

/* A reset answering a packet no socket took: the packet's flow, reversed. */
static __always_inline void flow_from_skb(struct wd_tcp_flow *f, struct sk_buff___wdtcp *skb)
{
	unsigned char *head = BPF_CORE_READ(skb, head);
	__u16 nh = BPF_CORE_READ(skb, network_header);
	__u16 th = BPF_CORE_READ(skb, transport_header);
	__be16 ports[2];
	__u8 v = 0;

	if (!head || nh == NO_HEADER || th == NO_HEADER ||
	    bpf_probe_read_kernel(&v, 1, head + nh))
		return;
	if (v >> 4 == 4) {
		bpf_probe_read_kernel(f->daddr, 4, head + nh + 12);
		bpf_probe_read_kernel(f->saddr, 4, head + nh + 16);
		f->family = AF_INET;
	} else if (v >> 4 == 6) {
		bpf_probe_read_kernel(f->daddr, 16, head + nh + 8);
		bpf_probe_read_kernel(f->saddr, 16, head + nh + 24);
		f->family = AF_INET6;
	} else {
		return;
	}
	if (bpf_probe_read_kernel(ports, sizeof(ports), head + th))
		return;
	f->dport = bpf_ntohs(ports[0]);
	f->sport = bpf_ntohs(ports[1]);
}

/* ------------------------------------------------------------- counting */

/*
 * The task the reset ran for: one holding the socket (lock_sock(): close(),
 * setsockopt(), the processing of its backlog), whose socket no interrupt
 * handles meanwhile (softirq input and timers defer to the owner). Not a
 * listener's: its input is handled whoever holds it.
 */
static __always_inline bool owner_running(struct sock___wdtcp *sk, __u8 state, bool btf)
{
	if (!sk || !full_socket(state) || state == TCP_LISTEN)
		return false;
	if (!bpf_core_field_exists(sk->sk_lock.owned))
		return false;
	return RD(btf, sk, sk_lock.owned) == 1;
}

/* Who a reset counts for: a full socket's cgroup, the task holding the socket. */
static __always_inline void rst_who(struct wd_tcp_rst_key *k, struct sock___wdtcp *sk, bool btf)
{
	__u64 ino = 0;

	if (sk && full_socket(k->state))
		sock_ids((const struct sock *)sk, &ino, &k->cgroup_id, btf);
	if (!owner_running(sk, k->state, btf))
		return;
	k->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(k->comm, sizeof(k->comm));
}

/*
 * A reset counted exactly, in f's namespace, for whom rst_who() says: the
 * hash, else the overflow slot of the reason; and one more in stat, the
 * total of its direction.
 */
static __always_inline void count_rst(struct wd_tcp_rst_key *k, const struct wd_tcp_flow *f,
				      struct sock___wdtcp *sk, __u32 stat, bool btf)
{
	__u32 slot;

	k->netns_cookie = f->netns_cookie;
	k->netns_ino = f->netns_ino;
	rst_who(k, sk, btf);
	slot = k->reason < WD_TCP_RST_SLOTS - 1 ? k->reason : WD_TCP_RST_SLOTS - 1;
	if (k->dir == WD_TCP_RECEIVED)
		slot += WD_TCP_RST_SLOTS;
	if (!hash_add_or_overflow(&rst_counts, k, 1, &rst_overflow, slot))
		stat_add(WD_TCP_STAT_RST_OVERFLOW, 1);
	stat_add(stat, 1);
}

static __always_inline void count_flow(const struct wd_tcp_flow *f, __u64 segs)
{
	if (!hash_add_or_overflow(&flows, f, segs, &flow_overflow, 0))
		stat_add(WD_TCP_STAT_FLOW_OVERFLOW, segs);
}

/* -------------------------------------------------------------- records */

static __always_inline __u64 wakeup(void)
{
	return bpf_ringbuf_query(&tcp_records, BPF_RB_AVAIL_DATA) >= WAKEUP_BYTES ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* What one record says beside its flow. */
struct what {
	__u16 reason;
	__u8 type;
	__u8 state;
	__s32 err;
	__u32 segs;
	__u32 flags;
	struct sock___wdtcp *sk;	/* resets: the socket whose owner to name */
};

/* A reset's socket owner (a full socket only) and the task holding it. */
static __always_inline void owner_fill(struct wd_tcp_event *ev, const struct what *w, bool btf)
{
	const struct sock *sk = (const struct sock *)w->sk;

	ev->uid = 0;
	ev->sock_ino = 0;
	ev->cgroup_id = 0;
	ev->pid = 0;
	__builtin_memset(ev->comm, 0, sizeof(ev->comm));
	if (w->type > WD_TCP_EV_RST_RECEIVED)
		return;
	if (owner_running(w->sk, w->state, btf)) {
		ev->pid = bpf_get_current_pid_tgid() >> 32;
		bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	}
	if (!sk || !full_socket(w->state))
		return;
	ev->flags |= WD_TCP_EVF_SOCK;
	ev->uid = RD(btf, sk, sk_uid.val);
	sock_ids(sk, &ev->sock_ino, &ev->cgroup_id, btf);
}

static __always_inline void emit(const struct wd_tcp_flow *f, const struct what *w, bool btf)
{
	struct wd_tcp_event *ev;

	if (!record_allowed()) {
		stat_add(WD_TCP_STAT_RATE_LIMITED, 1);
		return;
	}
	ev = bpf_ringbuf_reserve(&tcp_records, sizeof(*ev), 0);
	if (!ev) {
		stat_add(WD_TCP_STAT_RING_FULL, 1);
		return;
	}
	ev->ts_ns = bpf_ktime_get_ns();
	ev->flow = *f;
	ev->reason = w->reason;
	ev->type = w->type;
	ev->state = w->state;
	ev->err = w->err;
	ev->segs = w->segs;
	ev->cpu = bpf_get_smp_processor_id();
	ev->flags = w->flags;
	ev->pad = 0;
	owner_fill(ev, w, btf);
	bpf_ringbuf_submit(ev, wakeup());
	stat_add(WD_TCP_STAT_EMITTED, 1);
}

/* --------------------------------------------------------------- resets */

static __always_inline int on_send_reset(__u64 *args, void *ctx, bool btf)
{
	struct sock___wdtcp *sk = (struct sock___wdtcp *)args[0];
	struct sk_buff___wdtcp *skb = (struct sk_buff___wdtcp *)args[1];
	struct wd_tcp_rst_key k = { .reason = WD_TCP_REASON_NONE, .dir = WD_TCP_SENT };
	struct what w = { .type = WD_TCP_EV_RST_SENT };
	struct wd_tcp_flow f = {};

	if (tp_has_rst_reason())
		k.reason = (__u16)args[2];
	if (sk) {
		k.state = RD(btf, sk, __sk_common.skc_state);
		if (!netns_fill(&f, sock_net(sk, btf), btf))
			return 0;
	} else if (!netns_fill(&f, skb ? skb_net(skb) : NULL, false)) {
		return 0;	/* a probe read's pointer: no direct loads */
	}
	count_rst(&k, &f, sk, WD_TCP_STAT_RST_SENT, btf);
	if (!detail_budget)
		return 0;
	/* a listener (INVALID_SYN) knows no peer: the packet does */
	if (sk && RD(btf, sk, __sk_common.skc_dport)) {
		flow_from_sock(&f, sk, btf);
	} else if (skb) {
		flow_from_skb(&f, skb);
		w.flags = WD_TCP_EVF_FROM_PACKET;
	}
	w.reason = k.reason;
	w.state = k.state;
	w.sk = sk;
	emit(&f, &w, btf);
	return 0;
}

/*
 * tcp_reset(): a reset arrived, or (TCP_ABORT_ON_DATA) this socket aborts
 * on data after its shutdown and runs the same code before it sends one.
 */
static __always_inline int on_receive_reset(__u64 *args, void *ctx, bool btf)
{
	struct sock___wdtcp *sk = (struct sock___wdtcp *)args[0];
	struct wd_tcp_rst_key k = { .reason = WD_TCP_REASON_NONE, .dir = WD_TCP_RECEIVED };
	struct what w = { .type = WD_TCP_EV_RST_RECEIVED, .reason = WD_TCP_REASON_NONE };
	struct wd_tcp_flow f = {};

	if (!sk)
		return 0;
	k.state = RD(btf, sk, __sk_common.skc_state);
	if (!netns_fill(&f, sock_net(sk, btf), btf))
		return 0;
	count_rst(&k, &f, sk, WD_TCP_STAT_RST_RECEIVED, btf);
	if (!detail_budget)
		return 0;
	flow_from_sock(&f, sk, btf);
	w.state = k.state;
	w.sk = sk;
	emit(&f, &w, btf);
	return 0;
}

/* --------------------------------------------------------- retransmits */

#include "tcp_retrans.h"

/* ------------------------------------------------------------ programs */

BOTH_FLAVOURS(tcp_send_reset, rst_sent, on_send_reset)
BOTH_FLAVOURS(tcp_receive_reset, rst_recv, on_receive_reset)
BOTH_FLAVOURS(tcp_retransmit_skb, retrans, on_retransmit)
BOTH_FLAVOURS(tcp_retransmit_synack, synack, on_synack)
BOTH_FLAVOURS(inet_sock_set_state, state, on_set_state)

char LICENSE[] SEC("license") = "Dual BSD/GPL";
