/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tcp_events.bpf.c's retransmissions: segments counted per flow as the
 * kernel counts TcpRetransSegs (tcp:tcp_retransmit_skb with the skb's
 * segment count, tcp:tcp_retransmit_synack one each), with what calls this
 * program did not see caught up at the socket's next call or state change
 * (sock:inet_sock_set_state). Included by tcp_events.bpf.c after its maps,
 * the flow of a socket (flow_from_sock, netns_fill), the counts and the
 * records (count_flow, stat_add, emit), as tcp_drops.h is by whydrop.bpf.c.
 */
#ifndef WHYDROP_TCP_RETRANS_H
#define WHYDROP_TCP_RETRANS_H

#define TCPCB_EVER_RETRANS	0x80	/* include/net/tcp.h, TCP_SKB_CB()->sacked */

/* asm-generic errno values __tcp_retransmit_skb() returns */
#define EAGAIN			11
#define ENOMEM			12
#define EBUSY			16
#define EINVAL			22
#define EHOSTUNREACH		113

static __always_inline bool tp_has_retrans_err(void)
{
	return bpf_core_field_exists(struct trace_event_raw_tcp_retransmit_skb, err);
}

/* tcp_skb_pcount(): the segments TcpRetransSegs adds for this skb. */
static __always_inline __u32 skb_segs(struct sk_buff___wdtcp *skb)
{
	struct tcp_skb_cb *cb = (struct tcp_skb_cb *)__builtin_preserve_access_index(&skb->cb);

	return BPF_CORE_READ(cb, tcp_gso_segs);
}

/*
 * Since 6.17 the tracepoint fires whatever __tcp_retransmit_skb() returns.
 * -EBUSY, -EAGAIN, -ENOMEM, -EINVAL and -EHOSTUNREACH come from its checks
 * before TcpRetransSegs is added to; any other result is the transmit's,
 * after it (NET_XMIT_DROP from a qdisc is 1). The transmit can also fail
 * with the last three: a segment never retransmitted before
 * (TCPCB_EVER_RETRANS, set after every counted attempt) cannot have got
 * that far; one that was leaves it open, and is flagged unsure.
 */
static __always_inline bool err_after_count(__s32 err, struct sk_buff___wdtcp *skb,
					    __u32 *flags)
{
	struct tcp_skb_cb *cb;

	if (err >= 0)
		return true;
	if (err == -EBUSY || err == -EAGAIN)
		return false;
	if (err != -ENOMEM && err != -EINVAL && err != -EHOSTUNREACH)
		return true;
	cb = (struct tcp_skb_cb *)__builtin_preserve_access_index(&skb->cb);
	if (BPF_CORE_READ(cb, sacked) & TCPCB_EVER_RETRANS)
		*flags |= WD_TCP_EVF_UNSURE;
	return false;
}

/*
 * What the kernel added to TcpRetransSegs since this program last saw the
 * socket retransmit: own (this call's, as classified) plus what calls the
 * program did not see added. The kernel does not always run tracepoint
 * programs for every hit (seen on 6.18: none counted as a recursion miss),
 * and before 6.17 it traces only retransmissions that went out, while
 * TcpRetransSegs also counts those a qdisc or netfilter then dropped. A
 * socket seen for the first time, or whose total went back (a reused
 * address, tcp_disconnect()), counts own alone.
 */
static __always_inline __u32 segs_since(struct sock___wdtcp *sk, __u32 own)
{
	__u32 now = BPF_CORE_READ((struct tcp_sock___wdtcp *)sk, total_retrans);
	__u64 key = (__u64)sk;
	__u32 *last = bpf_map_lookup_elem(&retrans_seen, &key);
	__u32 n = own;

	if (last && now - *last >= own && now - *last < (1U << 24))
		n = now - *last;
	if (last)
		*last = now;
	else
		bpf_map_update_elem(&retrans_seen, &key, &now, BPF_ANY);
	if (n > own)
		stat_add(WD_TCP_STAT_RETRANS_CAUGHT_UP, n - own);
	return n;
}

static __always_inline int on_retransmit(__u64 *args, void *ctx, bool btf)
{
	struct sock___wdtcp *sk = (struct sock___wdtcp *)args[0];
	struct sk_buff___wdtcp *skb = (struct sk_buff___wdtcp *)args[1];
	struct what w = { .type = WD_TCP_EV_RETRANS, .reason = WD_TCP_REASON_NONE };
	struct wd_tcp_flow f = {};
	__u32 own = 0;

	if (!sk || !skb)
		return 0;
	if (tp_has_retrans_err())
		w.err = (__s32)args[2];
	if (!netns_fill(&f, sock_net(sk, btf), btf))
		return 0;
	stat_add(WD_TCP_STAT_RETRANS_CALLS, 1);
	flow_from_sock(&f, sk, btf);
	if (w.err && !err_after_count(w.err, skb, &w.flags)) {
		w.flags |= WD_TCP_EVF_NOT_COUNTED;
		stat_add(WD_TCP_STAT_RETRANS_SKIPPED, 1);
		if (w.flags & WD_TCP_EVF_UNSURE)
			stat_add(WD_TCP_STAT_RETRANS_UNSURE, 1);
	} else {
		own = skb_segs(skb);
		if (w.err)
			stat_add(WD_TCP_STAT_RETRANS_FAILED, 1);
	}
	w.segs = segs_since(sk, own);
	if (w.segs) {
		count_flow(&f, w.segs);
		stat_add(WD_TCP_STAT_RETRANS_SEGS, w.segs);
	}
	if (!detail_budget)
		return 0;
	w.state = RD(btf, sk, __sk_common.skc_state);
	emit(&f, &w, btf);
	return 0;
}

/*
 * sock:inet_sock_set_state: a socket that retransmitted changes state.
 * Counts what the kernel added to its total_retrans since this program last
 * saw it, as segs_since() does at its next retransmission: the misses of a
 * socket's last retransmissions are counted by its next state change at the
 * latest (TCP_CLOSE, which also forgets it). Other sockets: one lookup.
 */
static __always_inline int on_set_state(__u64 *args, void *ctx, bool btf)
{
	struct sock___wdtcp *sk = (struct sock___wdtcp *)args[0];
	int newstate = (int)args[2];
	__u64 key = (__u64)sk;
	struct wd_tcp_flow f = {};
	__u32 *last, now, n;

	last = bpf_map_lookup_elem(&retrans_seen, &key);
	if (!last || !sk || RD(btf, sk, sk_protocol) != IPPROTO_TCP)
		return 0;
	now = BPF_CORE_READ((struct tcp_sock___wdtcp *)sk, total_retrans);
	n = now - *last;
	if (newstate == TCP_CLOSE)
		bpf_map_delete_elem(&retrans_seen, &key);
	else
		*last = now;
	/* a total that went back: not the socket last seen (as segs_since()) */
	if (!n || n >= (1U << 24) || !netns_fill(&f, sock_net(sk, btf), btf))
		return 0;
	flow_from_sock(&f, sk, btf);
	/* TCP_CLOSE has given the port back before the tracepoint runs */
	if (!f.sport)
		f.sport = bpf_ntohs(BPF_CORE_READ((struct inet_sock___wdtcp *)sk, inet_sport));
	count_flow(&f, n);
	stat_add(WD_TCP_STAT_RETRANS_SEGS, n);
	stat_add(WD_TCP_STAT_RETRANS_CAUGHT_UP, n);
	return 0;
}

/* tcp_rtx_synack(): one segment, traced only once it went out, as counted. */
static __always_inline int on_synack(__u64 *args, void *ctx, bool btf)
{
	struct sock___wdtcp *req = (struct sock___wdtcp *)args[1];
	struct what w = { .type = WD_TCP_EV_SYNACK, .reason = WD_TCP_REASON_NONE, .segs = 1 };
	struct wd_tcp_flow f = {};

	if (!req || !netns_fill(&f, sock_net(req, btf), btf))
		return 0;
	flow_from_sock(&f, req, btf);
	count_flow(&f, 1);
	stat_add(WD_TCP_STAT_RETRANS_SEGS, 1);
	stat_add(WD_TCP_STAT_SYNACK, 1);
	if (!detail_budget)
		return 0;
	w.state = RD(btf, req, __sk_common.skc_state);
	emit(&f, &w, btf);
	return 0;
}

#endif /* WHYDROP_TCP_RETRANS_H */
