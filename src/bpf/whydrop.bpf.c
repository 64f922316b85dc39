// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop kernel side: one program on the skb:kfree_skb tracepoint.
 *
 * Every drop that passes the filters is counted exactly in a per-CPU hash;
 * a rate-limited sample of drops is copied, with the first bytes of the
 * network header, into a ring buffer. The tp_btf program reads the skb with
 * direct (BTF-checked) loads; the raw_tp twin does the same through
 * bpf_probe_read_kernel for kernels where tp_btf cannot attach. The shape
 * of the tracepoint (reason since 5.17, rx_sk since 6.11) is taken from the
 * kernel's BTF at load time, never from its version.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "whydrop.h"
#include "counting.h"
#include "cbpf.h"
#include "stacks.h"
#include "sock_owner.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define NSEC_PER_SEC	1000000000ULL

/* Set by user space before load; the verifier treats them as constants. */
const volatile __u32 filter_netns;
const volatile __u32 filter_ifindex;
const volatile __u32 detail_budget;	/* records per second, 0 = none */

struct rate_window {
	__u64 start_ns;
	__u64 used;
};

/* Shared by all CPUs so that --rate holds whichever CPUs drop. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rate_window);
} rate SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 21);
} events SEC(".maps");

/* What the two attach flavours extract from their arguments. */
struct drop {
	__u64 location;
	__u32 reason;
	__u32 netns;
	__u32 ifindex;
	__u32 len;
	__u16 l3proto;
	__u16 caplen;
	void *ctx;		/* the program's context, for the stack */
	unsigned char *nh;	/* network header, NULL when unknown */
	struct net_device *dev;	/* NULL when skb->dev is not a device */
	struct sk_buff *skb;	/* read further only for sampled records */
	struct sock *rx_sk;	/* the receiving socket (6.11+), else NULL */
};

static __always_inline bool tp_has_reason(void)
{
	return bpf_core_field_exists(struct trace_event_raw_kfree_skb, reason);
}

static __always_inline bool tp_has_rx_sk(void)
{
	return bpf_core_field_exists(struct trace_event_raw_kfree_skb, rx_sk);
}

/* Header offsets are only meaningful for IP packets with a set header. */
static __always_inline void locate_header(struct drop *d, unsigned char *head,
					  __u16 nh_off, __u32 tail)
{
	if (d->l3proto != ETH_P_IP && d->l3proto != ETH_P_IPV6)
		return;
	if (nh_off == (__u16)~0U || !head || tail <= nh_off)
		return;
	d->nh = head + nh_off;
	d->caplen = tail - nh_off > WD_HDR_BYTES ? WD_HDR_BYTES : tail - nh_off;
}

#define SKB_DST_PTRMASK	~1UL

/*
 * UDP reuses skb->dev as dev_scratch (truesize, length, flags) once the
 * socket is found: a value that is no kernel pointer (kernel addresses
 * are in the upper half on 64-bit). Such a dev must not be followed.
 */
static __always_inline bool kernel_ptr(const void *p)
{
	return (long)p < 0;
}

/*
 * Is dev a network device? skb->dev shares its bytes with dev_scratch (UDP,
 * not a pointer) and with rbnode.rb_left (an skb taken off an rbtree, e.g.
 * the TCP out-of-order queue: a kernel pointer, to another skb). A device's
 * namespace has a loopback device in that same namespace; garbage has not.
 */
static __always_inline struct net *device_net(const struct net_device *dev)
{
	struct net *net;

	if (!kernel_ptr(dev))
		return NULL;
	net = BPF_CORE_READ(dev, nd_net.net);
	if (!kernel_ptr(net) || BPF_CORE_READ(net, loopback_dev, nd_net.net) != net)
		return NULL;
	return net;
}

/*
 * Before 6.11 a drop after the socket lookup has neither skb->dev (cleared
 * by tcp_v4_rcv) nor rx_sk: the input route's device still tells the netns.
 */
static __always_inline __u32 netns_from_dst(unsigned long refdst)
{
	struct dst_entry *dst = (struct dst_entry *)(refdst & SKB_DST_PTRMASK);
	struct net *net;

	if (!dst)
		return 0;
	net = device_net(BPF_CORE_READ(dst, dev));
	return net ? BPF_CORE_READ(net, ns.inum) : 0;
}

static __always_inline __u8 l4_proto(const struct drop *d)
{
	__u8 proto = 0;
	int off = d->l3proto == ETH_P_IP ? 9 : 6;

	if (!d->nh || d->caplen <= off)
		return 0;
	bpf_probe_read_kernel(&proto, 1, d->nh + off);
	return proto;
}

static __always_inline void count(const struct drop *d)
{
	struct wd_key key;

	__builtin_memset(&key, 0, sizeof(key));
	key.reason = d->reason;
	key.netns = d->netns;
	key.location = d->location;
	key.ifindex = d->ifindex;
	key.l3proto = d->l3proto;
	key.l4proto = l4_proto(d);
	count_key(&key);
}

/*
 * One-second window shared by all CPUs. Once the budget is spent, a drop
 * only reads the shared line: no atomic, so a storm stays cheap. A racing
 * reset may let a few extra records through; none is lost uncounted.
 */
static __always_inline bool detail_allowed(__u64 now)
{
	__u32 zero = 0;
	struct rate_window *w = bpf_map_lookup_elem(&rate, &zero);
	__u64 start;

	if (!w)
		return false;
	start = w->start_ns;
	if (now - start >= NSEC_PER_SEC &&
	    __sync_val_compare_and_swap(&w->start_ns, start, now) == start)
		w->used = 0;
	if (*(volatile __u64 *)&w->used >= detail_budget)
		return false;
	return __sync_fetch_and_add(&w->used, 1) < detail_budget;
}

/* The sender's socket (skb->sk), else the receiver's (rx_sk). */
static __always_inline struct sock *skb_sock(const struct drop *d)
{
	struct sk_buff *skb = d->skb;	/* a local: no CO-RE relocation on struct drop */
	struct sock *sk = BPF_CORE_READ(skb, sk);

	return sk ? sk : d->rx_sk;
}

static __always_inline void emit(const struct drop *d, __s32 stack_id)
{
	struct wd_event *ev;
	__u64 now;

	if (!detail_budget)
		return;
	now = bpf_ktime_get_ns();
	if (!detail_allowed(now)) {
		stat_inc(WD_STAT_RATE_LIMITED);
		return;
	}
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		stat_inc(WD_STAT_RING_FULL);
		return;
	}
	ev->ts_ns = now;
	ev->location = d->location;
	ev->reason = d->reason;
	ev->netns = d->netns;
	ev->ifindex = d->ifindex;
	ev->skb_len = d->len;
	ev->cpu = bpf_get_smp_processor_id();
	ev->l3proto = d->l3proto;
	ev->caplen = 0;
	if (d->nh && !bpf_probe_read_kernel(ev->hdr, sizeof(ev->hdr), d->nh))
		ev->caplen = d->caplen;
	/* The name now: the device may be renamed or gone when user space looks. */
	ev->ifname[0] = '\0';
	if (d->dev)
		bpf_probe_read_kernel_str(ev->ifname, sizeof(ev->ifname), &d->dev->name);
	ev->stack_id = stack_id;
	ev->reserved = 0;
	sock_fill(&ev->sock, skb_sock(d), tp_has_rx_sk());
	bpf_ringbuf_submit(ev, 0);
	stat_inc(WD_STAT_EMITTED);
}

static __always_inline int handle(const struct drop *d)
{
	if (filter_netns && d->netns != filter_netns)
		return 0;
	if (filter_ifindex && d->ifindex != filter_ifindex)
		return 0;
	if (!reason_wanted(d->reason))
		return 0;
	if (cbpf_len && !cbpf_match(d->nh, d->caplen, d->len))
		return 0;
	count(d);
	if (count_by_socket)
		sock_count(skb_sock(d), d->reason, d->netns);
	emit(d, stacks_count(d->ctx, d->reason, d->location));
	return 0;
}

SEC("tp_btf/kfree_skb")
int kfree_skb_btf(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	struct net_device *dev = skb->dev;
	struct net *net = device_net(dev);
	struct drop d = { .ctx = ctx };

	d.location = ctx[1];
	d.skb = skb;
	if (tp_has_rx_sk())
		d.rx_sk = (struct sock *)ctx[3];
	if (tp_has_reason())
		d.reason = (__u32)ctx[2];
	d.len = skb->len;
	d.l3proto = bpf_ntohs(skb->protocol);
	if (net) {
		d.dev = dev;
		d.ifindex = dev->ifindex;
		d.netns = BPF_CORE_READ(net, ns.inum);
	} else {
		struct sock *sk = skb->sk;

		d.ifindex = skb->skb_iif;
		if (!sk)
			sk = d.rx_sk;
		if (sk)
			d.netns = sk->__sk_common.skc_net.net->ns.inum;
		else
			d.netns = netns_from_dst(skb->_skb_refdst);
	}
	locate_header(&d, skb->head, skb->network_header, skb->tail);
	return handle(&d);
}

SEC("raw_tp/kfree_skb")
int kfree_skb_raw(struct bpf_raw_tracepoint_args *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx->args[0];
	struct net_device *dev = BPF_CORE_READ(skb, dev);
	struct net *net = device_net(dev);
	struct drop d = { .ctx = ctx };

	d.location = ctx->args[1];
	d.skb = skb;
	if (tp_has_rx_sk())
		d.rx_sk = (struct sock *)ctx->args[3];
	if (tp_has_reason())
		d.reason = (__u32)ctx->args[2];
	d.len = BPF_CORE_READ(skb, len);
	d.l3proto = bpf_ntohs(BPF_CORE_READ(skb, protocol));
	if (net) {
		d.dev = dev;
		d.ifindex = BPF_CORE_READ(dev, ifindex);
		d.netns = BPF_CORE_READ(net, ns.inum);
	} else {
		struct sock *sk = BPF_CORE_READ(skb, sk);

		d.ifindex = BPF_CORE_READ(skb, skb_iif);
		if (!sk)
			sk = d.rx_sk;
		if (sk)
			d.netns = BPF_CORE_READ(sk, __sk_common.skc_net.net, ns.inum);
		else
			d.netns = netns_from_dst(BPF_CORE_READ(skb, _skb_refdst));
	}
	locate_header(&d, BPF_CORE_READ(skb, head),
		      BPF_CORE_READ(skb, network_header),
		      BPF_CORE_READ(skb, tail));
	return handle(&d);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
