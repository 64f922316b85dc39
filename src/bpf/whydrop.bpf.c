// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop kernel side: one program on the skb:kfree_skb tracepoint.
 *
 * Every drop that passes the filters is counted exactly (counting.h); a
 * rate-limited sample of drops is copied, with the first bytes of the
 * network header, into a ring buffer. The tp_btf program reads the skb with
 * direct (BTF-checked) loads; the raw_tp twin does the same through
 * bpf_probe_read_kernel for kernels where tp_btf cannot attach. The shape
 * of the tracepoint (reason since 5.17, rx_sk since 6.11) is taken from the
 * kernel's BTF at load time, never from its version.
 *
 * A pcap filter is not in this file: user space translates its classic BPF
 * into a program of its own (src/lib/cbpf_ebpf.c), which this one
 * tail-calls; on a match it tail-calls kfree_skb_matched_*, which counts.
 * Without a filter none of that is loaded.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "whydrop.h"
#include "counting.h"
#include "stacks.h"
#include "sock_owner.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define NSEC_PER_SEC	1000000000ULL
#define NO_LIMIT	0xffffffffU	/* detail_budget of --rate 0 */
#define WAKEUP_BYTES	(64 * 1024)	/* wake the reader once this much waits */

/* Set by user space before load; the verifier treats them as constants. */
const volatile __u32 filter_netns;
const volatile __u32 filter_ifindex;
const volatile __u32 detail_budget;	/* records per second, 0 = none */
const volatile bool has_filter;		/* a translated pcap filter is loaded */
const volatile bool direct_pkt;		/* tp_btf may load packet bytes directly */
const volatile __u32 jiffies_hz;	/* HZ, from the coarse clock's resolution; 0: unknown */

/* --rate: records of this second, for all CPUs: (second << 32) | used. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rate SEC(".maps");

/* The second in which this CPU found the budget spent: it stops asking. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} rate_spent SEC(".maps");

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
	__u32 linear;		/* bytes from nh to the end of the linear data */
	__u32 nonlinear;	/* skb->data_len: bytes in paged data */
	__u16 l3proto;
	__u16 caplen;		/* min(linear, WD_HDR_BYTES) */
	__u8 l4proto;
	__u8 pad[7];
	void *ctx;		/* the program's context, for the stack */
	unsigned char *nh;	/* network header, NULL when unknown */
	struct net_device *dev;	/* NULL when skb->dev is not a device */
	struct sk_buff *skb;	/* read further only for sampled records */
	struct sock *rx_sk;	/* the receiving socket (6.11+), else NULL */
};

/* Between the program, the translated filter and kfree_skb_matched_*. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wd_filter_ctx);
} filter_ctx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct drop);
} filter_drop SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} filter_progs SEC(".maps");

static __always_inline bool tp_has_reason(void)
{
	return bpf_core_field_exists(struct trace_event_raw_kfree_skb, reason);
}

static __always_inline bool tp_has_rx_sk(void)
{
	return bpf_core_field_exists(struct trace_event_raw_kfree_skb, rx_sk);
}

/*
 * A byte of the packet. tp_btf on kernels that allow it (direct_pkt, probed
 * by user space) loads it directly; elsewhere it is a helper call.
 */
static __always_inline __u8 pkt_byte(const struct drop *d, __u32 off, bool btf)
{
	__u8 v = 0;

	if (btf && direct_pkt)
		return d->nh[off];
	bpf_probe_read_kernel(&v, 1, d->nh + off);
	return v;
}

/* Header offsets are only meaningful for IP packets with a set header. */
static __always_inline void locate_header(struct drop *d, unsigned char *head,
					  __u16 nh_off, __u32 tail, bool btf)
{
	int proto_off = d->l3proto == ETH_P_IP ? 9 : 6;

	if (d->l3proto != ETH_P_IP && d->l3proto != ETH_P_IPV6)
		return;
	if (nh_off == (__u16)~0U || !head || tail <= nh_off)
		return;
	d->nh = head + nh_off;
	d->linear = tail - nh_off;
	d->caplen = d->linear > WD_HDR_BYTES ? WD_HDR_BYTES : d->linear;
	if (d->linear > proto_off)
		d->l4proto = pkt_byte(d, proto_off, btf);
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
 * tp_btf: direct loads, which the kernel guards against faults like
 * bpf_probe_read_kernel but at the cost of a plain load.
 */
static __always_inline struct net *device_net_btf(const struct net_device *dev)
{
	struct net *net;

	if (!kernel_ptr(dev))
		return NULL;
	net = dev->nd_net.net;
	if (!kernel_ptr(net) || net->loopback_dev->nd_net.net != net)
		return NULL;
	return net;
}

static __always_inline struct net *device_net_raw(const struct net_device *dev)
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
	net = device_net_raw(BPF_CORE_READ(dst, dev));
	return net ? BPF_CORE_READ(net, ns.inum) : 0;
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
	key.l4proto = d->l4proto;
	count_key(&key);
}

/*
 * The second, from jiffies where HZ is known: a tracing program may not use
 * bpf_ktime_get_coarse_ns(), and the precise clock costs more per drop.
 */
static __always_inline __u64 this_second(void)
{
	if (jiffies_hz)
		return bpf_jiffies64() / jiffies_hz;
	return bpf_ktime_get_ns() / NSEC_PER_SEC;
}

/*
 * --rate for all CPUs together: a shared (second, used) word, taken with a
 * compare-and-swap only while the second's budget lasts. A CPU that finds
 * it spent remembers the second in its own slot and, until the next one,
 * decides with no shared access and no precise clock: a storm past the
 * budget costs each drop a per-CPU read. Losing a race is one record not
 * shown; what is not shown is the count minus what was (user space).
 */
static __always_inline bool detail_allowed(void)
{
	__u64 sec = this_second(), old, new, *word, *spent;
	__u32 zero = 0;

	if (detail_budget == NO_LIMIT)
		return true;
	spent = bpf_map_lookup_elem(&rate_spent, &zero);
	word = bpf_map_lookup_elem(&rate, &zero);
	if (!spent || !word || *spent == sec + 1)
		return false;
	old = *(volatile __u64 *)word;
	if (old >> 32 != (__u32)sec)
		new = (__u64)(__u32)sec << 32 | 1;
	else if ((__u32)old < detail_budget)
		new = old + 1;
	else
		goto spent;
	if (__sync_val_compare_and_swap(word, old, new) == old)
		return true;
	return false;
spent:
	*spent = sec + 1;	/* +1: the slot starts at 0, which is a second too */
	return false;
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
	__u64 flags;

	if (!detail_budget || !detail_allowed())
		return;
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		stat_inc(WD_STAT_RING_FULL);
		return;
	}
	ev->ts_ns = bpf_ktime_get_ns();
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
	/* No wake-up per record: the reader polls, or is woken when much waits. */
	flags = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= WAKEUP_BYTES ?
		BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
	bpf_ringbuf_submit(ev, flags);
	stat_inc(WD_STAT_EMITTED);
}

/* A drop that passed every filter. */
static __always_inline int counted(const struct drop *d)
{
	count(d);
	if (count_by_socket)
		sock_count(skb_sock(d), d->reason, d->netns);
	emit(d, stacks_count(d->ctx, d->reason, d->location));
	return 0;
}

/* pcap's len: the IP header's own length (UDP may have pulled its header). */
static __always_inline __u32 ip_length(const struct drop *d, bool btf)
{
	__u8 v = d->linear >= 6 ? pkt_byte(d, 0, btf) >> 4 : 0;

	if (v == 4)
		return (__u32)pkt_byte(d, 2, btf) << 8 | pkt_byte(d, 3, btf);
	if (v == 6)
		return 40 + ((__u32)pkt_byte(d, 4, btf) << 8 | pkt_byte(d, 5, btf));
	return d->len;
}

/*
 * Hand the drop to the translated filter. The drop waits in filter_drop;
 * its pointers become plain numbers there, which the counting side only
 * passes to bpf_probe_read_kernel.
 */
static __always_inline int run_filter(const struct drop *d, bool btf)
{
	struct wd_filter_ctx *fc;
	struct drop *saved;
	__u32 zero = 0;

	if (!d->nh)
		return 0;	/* not IP, or no header: a filter cannot match */
	fc = bpf_map_lookup_elem(&filter_ctx, &zero);
	saved = bpf_map_lookup_elem(&filter_drop, &zero);
	if (!fc || !saved)
		return 0;
	*saved = *d;
	saved->ctx = NULL;
	fc->nh = (__u64)d->nh;
	fc->linear = d->linear;
	fc->wirelen = ip_length(d, btf);
	if (d->nonlinear && fc->wirelen > d->linear + d->nonlinear)
		fc->wirelen = d->linear + d->nonlinear;
	bpf_tail_call(d->ctx, &filter_progs, WD_FILTER_PROG);
	return 0;
}

static __always_inline int handle(const struct drop *d, bool btf)
{
	if (filter_netns && d->netns != filter_netns)
		return 0;
	if (filter_ifindex && d->ifindex != filter_ifindex)
		return 0;
	if (!reason_wanted(d->reason))
		return 0;
	if (has_filter)
		return run_filter(d, btf);
	return counted(d);
}

/* After a match: the drop the filter accepted, with this program's context. */
static __always_inline int matched(void *ctx)
{
	struct drop *saved, d;
	__u32 zero = 0;

	saved = bpf_map_lookup_elem(&filter_drop, &zero);
	if (!saved)
		return 0;
	d = *saved;
	d.ctx = ctx;
	return counted(&d);
}

SEC("tp_btf/kfree_skb")
int kfree_skb_btf(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	struct net_device *dev = skb->dev;
	struct net *net = device_net_btf(dev);
	struct drop d = { .ctx = ctx };

	d.location = ctx[1];
	d.skb = skb;
	if (tp_has_rx_sk())
		d.rx_sk = (struct sock *)ctx[3];
	if (tp_has_reason())
		d.reason = (__u32)ctx[2];
	d.len = skb->len;
	d.nonlinear = skb->data_len;
	d.l3proto = bpf_ntohs(skb->protocol);
	if (net) {
		d.dev = dev;
		d.ifindex = dev->ifindex;
		d.netns = net->ns.inum;
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
	locate_header(&d, skb->head, skb->network_header, skb->tail, true);
	return handle(&d, true);
}

SEC("raw_tp/kfree_skb")
int kfree_skb_raw(struct bpf_raw_tracepoint_args *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx->args[0];
	struct net_device *dev = BPF_CORE_READ(skb, dev);
	struct net *net = device_net_raw(dev);
	struct drop d = { .ctx = ctx };

	d.location = ctx->args[1];
	d.skb = skb;
	if (tp_has_rx_sk())
		d.rx_sk = (struct sock *)ctx->args[3];
	if (tp_has_reason())
		d.reason = (__u32)ctx->args[2];
	d.len = BPF_CORE_READ(skb, len);
	d.nonlinear = BPF_CORE_READ(skb, data_len);
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
	locate_header(&d, BPF_CORE_READ(skb, head), BPF_CORE_READ(skb, network_header),
		      BPF_CORE_READ(skb, tail), false);
	return handle(&d, false);
}

/* Tail-called by the filter on a match; loaded only with a filter. */
SEC("tp_btf/kfree_skb")
int kfree_skb_matched_btf(__u64 *ctx)
{
	return matched(ctx);
}

SEC("raw_tp/kfree_skb")
int kfree_skb_matched_raw(struct bpf_raw_tracepoint_args *ctx)
{
	return matched(ctx);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
