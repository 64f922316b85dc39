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
#include "filter_maps.h"
#include "stacks.h"
#include "sock_owner.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define NSEC_PER_SEC	1000000000ULL
#define NO_LIMIT	0xffffffffU	/* detail_budget of --rate 0 */
#define WAKEUP_BYTES	(64 * 1024)	/* wake the reader once this much waits */

/* Set by user space before load; the verifier treats them as constants. */
const volatile __u32 filter_netns;		/* --netns: its inode, */
const volatile __u64 filter_netns_cookie;	/* and its cookie where known */
const volatile __u32 filter_ifindex;
const volatile __u32 detail_budget;	/* records per second, 0 = none */
const volatile bool has_filter;		/* a translated pcap filter is loaded */
const volatile bool direct_pkt;		/* tp_btf may load packet bytes directly */
const volatile __u32 jiffies_hz;	/* HZ, from the coarse clock's resolution; 0: unknown */
/* record: -s, packet bytes per record (<= WD_COPY_MAX); 0 for watch */
const volatile __u32 record_bytes;

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
	__uint(max_entries, WD_RING_BYTES);	/* WD_RING_BYTES_LONG: record -s > 128 */
} events SEC(".maps");

/*
 * A record longer than WD_HDR_BYTES is assembled here, then copied into
 * the ring buffer: bpf_ringbuf_reserve() takes only a constant size. One
 * slot per CPU (a plain array: per-CPU values are limited to 32 KiB),
 * indexed by the CPU's number; one slot, unused, unless record_bytes is
 * more than WD_HDR_BYTES.
 * busy is set while the slot is in use: a drop inside a drop on the same
 * CPU (an interrupt, where the kernel does not keep the program from
 * running nested) falls back to the short record rather than overwrite it.
 */
struct wd_long_event {
	__u32 busy;
	__u32 pad;
	struct wd_event ev;
	__u8 more[WD_COPY_MAX - WD_HDR_BYTES];	/* hdr[] goes on here */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);		/* user space: the number of possible CPUs */
	__type(key, __u32);
	__type(value, struct wd_long_event);
} long_events SEC(".maps");

/*
 * What the two attach flavours extract from their arguments. The counting
 * key is filled in place (zeroed with the rest), so counting copies nothing.
 */
struct drop {
	struct wd_key key;	/* reason, ifindex, location, netns cookie and inode */
	__u32 len;
	__u32 linear;		/* bytes from nh to the end of the linear data */
	__u32 nonlinear;	/* skb->data_len: bytes in paged data */
	__u16 caplen;		/* min(linear, WD_HDR_BYTES) */
	__u16 l3proto;		/* ETH_P_* in host order (skb->protocol) */
	void *ctx;		/* the program's context, for the stack */
	unsigned char *nh;	/* network header, NULL when unknown */
	struct net_device *dev;	/* NULL when skb->dev is not a device */
	struct sk_buff *skb;	/* read further only for sampled records */
	struct sock *rx_sk;	/* the receiving socket (6.11+), else NULL */
};

/* The drop a matching filter hands on to kfree_skb_matched_* (filter_maps.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct drop);
} filter_drop SEC(".maps");

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
					  __u16 nh_off, __u32 tail)
{
	if (d->l3proto != ETH_P_IP && d->l3proto != ETH_P_IPV6)
		return;
	if (nh_off == (__u16)~0U || !head || tail <= nh_off)
		return;
	d->nh = head + nh_off;
	d->linear = tail - nh_off;
	d->caplen = d->linear > WD_HDR_BYTES ? WD_HDR_BYTES : d->linear;
}

static __always_inline bool has_netns_cookie(void)
{
	return bpf_core_field_exists(struct net, net_cookie);
}

/* The namespace of the drop: its inode, and its cookie where the kernel has one. */
static __always_inline void set_netns_btf(struct drop *d, const struct net *net)
{
	d->key.netns = net->ns.inum;
	if (has_netns_cookie())
		d->key.netns_cookie = net->net_cookie;
}

static __always_inline void set_netns_raw(struct drop *d, const struct net *net)
{
	d->key.netns = BPF_CORE_READ(net, ns.inum);
	if (has_netns_cookie())
		d->key.netns_cookie = BPF_CORE_READ(net, net_cookie);
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
static __always_inline void netns_from_dst(struct drop *d, unsigned long refdst)
{
	struct dst_entry *dst = (struct dst_entry *)(refdst & SKB_DST_PTRMASK);
	struct net *net;

	if (!dst)
		return;
	net = device_net_raw(BPF_CORE_READ(dst, dev));
	if (net)
		set_netns_raw(d, net);
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
static __always_inline struct sock *skb_sock(const struct drop *d, bool btf)
{
	struct sk_buff *skb = d->skb;	/* a local: no CO-RE relocation on struct drop */
	struct sock *sk = btf ? skb->sk : BPF_CORE_READ(skb, sk);

	return sk ? sk : d->rx_sk;
}

/* Everything but the packet bytes (hdr[], caplen). */
static __always_inline void fill_event(struct wd_event *ev, const struct drop *d,
				       __s32 stack_id, __u16 flags)
{
	ev->ts_ns = bpf_ktime_get_ns();
	ev->location = d->key.location;
	ev->reason = d->key.reason;
	ev->netns = d->key.netns;
	ev->netns_cookie = d->key.netns_cookie;
	ev->ifindex = d->key.ifindex;
	ev->skb_len = d->len;
	/* the length when the IP header says 0 (BIG TCP, jumbograms) */
	ev->wire_len = d->nh ? d->linear + d->nonlinear : 0;
	ev->pad = 0;
	ev->cpu = bpf_get_smp_processor_id();
	ev->l3proto = d->l3proto;
	ev->flags = flags;
	/* The name now: the device may be renamed or gone when user space looks. */
	ev->ifname[0] = '\0';
	if (d->dev)
		bpf_probe_read_kernel_str(ev->ifname, sizeof(ev->ifname), &d->dev->name);
	ev->stack_id = stack_id;
	sock_fill(&ev->sock, skb_sock(d, false), tp_has_rx_sk());
}

/* No wake-up per record: the reader polls, or is woken when much waits. */
static __always_inline __u64 wakeup(void)
{
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= WAKEUP_BYTES ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * record -s beyond WD_HDR_BYTES, for a packet whose linear data is longer:
 * up to record_bytes of it, assembled in this CPU's long_events slot. Bytes
 * in paged fragments cannot be read here (WD_EV_PAGED says there were some).
 * False, with nothing done, when the slot is in use.
 */
static __always_inline bool emit_long(const struct drop *d, __s32 stack_id, __u32 bytes)
{
	__u32 cpu = bpf_get_smp_processor_id(), n;
	struct wd_long_event *le = bpf_map_lookup_elem(&long_events, &cpu);
	struct wd_event *ev;

	if (!le || le->busy)
		return false;
	le->busy = 1;
	ev = &le->ev;
	fill_event(ev, d, stack_id, d->nonlinear ? WD_EV_PAGED : 0);
	n = d->linear < bytes ? d->linear : bytes;
	if (n > WD_COPY_MAX)
		n = WD_COPY_MAX;
	ev->caplen = 0;
	if (!bpf_probe_read_kernel(ev->hdr, n, d->nh))
		ev->caplen = n;
	n = WD_EVENT_BYTES(ev->caplen);
	if (n > sizeof(*le) - 8)	/* for the verifier: n fits the slot after busy/pad */
		n = sizeof(*le) - 8;
	if (bpf_ringbuf_output(&events, ev, n, wakeup()))
		stat_inc(WD_STAT_RING_FULL);
	else
		stat_inc(WD_STAT_EMITTED);
	le->busy = 0;
	return true;
}

static __always_inline void emit(const struct drop *d, __s32 stack_id)
{
	struct wd_event *ev;
	__u16 flags = 0;
	__u32 bytes;

	if (!detail_budget || !detail_allowed())
		return;
	bytes = record_bytes;	/* read once; 0 for watch */
	if (bytes) {
		/*
		 * record only. A branch, not a select: for watch the verifier
		 * knows bytes is 0 and drops all of it at load time.
		 */
		compiler_barrier();
		if (bytes > WD_HDR_BYTES && d->nh && d->linear > WD_HDR_BYTES &&
		    emit_long(d, stack_id, bytes))
			return;
		if (d->nonlinear)
			flags = WD_EV_PAGED;
	}
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		stat_inc(WD_STAT_RING_FULL);
		return;
	}
	fill_event(ev, d, stack_id, flags);
	ev->caplen = 0;
	if (d->nh && !bpf_probe_read_kernel(ev->hdr, sizeof(ev->hdr), d->nh))
		ev->caplen = d->caplen;
	bpf_ringbuf_submit(ev, wakeup());
	stat_inc(WD_STAT_EMITTED);
}

/*
 * A drop that passed every filter. btf: d's pointers are the tp_btf
 * program's own (not numbers from the filter's map).
 */
static __always_inline int counted(const struct drop *d, bool btf)
{
	count_key(&d->key);
	if (count_by_socket)
		sock_count(skb_sock(d, btf), &d->key, btf);
	emit(d, stacks_count(d->ctx, d->key.reason, d->key.location));
	return 0;
}

/*
 * pcap's len: the IP header's own length (UDP may have pulled its header).
 * A length field of 0 cannot say (BIG TCP over IPv4, an IPv6 jumbogram):
 * there, the skb's bytes from the network header on.
 */
static __always_inline __u32 ip_length(const struct drop *d, bool btf)
{
	__u8 v = d->linear >= 6 ? pkt_byte(d, 0, btf) >> 4 : 0;
	__u32 n;

	if (v == 4) {
		n = (__u32)pkt_byte(d, 2, btf) << 8 | pkt_byte(d, 3, btf);
		return n ? n : d->linear + d->nonlinear;
	}
	if (v == 6) {
		n = (__u32)pkt_byte(d, 4, btf) << 8 | pkt_byte(d, 5, btf);
		return n ? 40 + n : d->linear + d->nonlinear;
	}
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
	/* a truncated packet whose IP length claims more: its bytes end here */
	if (fc->wirelen > d->linear + d->nonlinear)
		fc->wirelen = d->linear + d->nonlinear;
	bpf_tail_call(d->ctx, &filter_progs, WD_FILTER_PROG);
	return 0;
}

static __always_inline int handle(const struct drop *d, bool btf)
{
	if (filter_netns && d->key.netns != filter_netns)
		return 0;
	if (filter_netns_cookie && has_netns_cookie() &&
	    d->key.netns_cookie != filter_netns_cookie)
		return 0;
	if (filter_ifindex && d->key.ifindex != filter_ifindex)
		return 0;
	if (!reason_wanted(d->key.reason))
		return 0;
	if (has_filter)
		return run_filter(d, btf);
	return counted(d, btf);
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
	return counted(&d, false);
}

SEC("tp_btf/kfree_skb")
int kfree_skb_btf(__u64 *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx[0];
	struct net_device *dev = skb->dev;
	struct net *net = device_net_btf(dev);
	struct drop d = { .ctx = ctx };

	d.key.location = ctx[1];
	d.skb = skb;
	if (tp_has_rx_sk())
		d.rx_sk = (struct sock *)ctx[3];
	if (tp_has_reason())
		d.key.reason = (__u32)ctx[2];
	/* What only records and filters use is not read for counting alone. */
	if (detail_budget || has_filter) {
		d.len = skb->len;
		d.nonlinear = skb->data_len;
	}
	d.l3proto = bpf_ntohs(skb->protocol);
	if (net) {
		d.dev = dev;
		d.key.ifindex = dev->ifindex;
		set_netns_btf(&d, net);
	} else {
		struct sock *sk = skb->sk;

		d.key.ifindex = skb->skb_iif;
		if (!sk)
			sk = d.rx_sk;
		if (sk)
			set_netns_btf(&d, sk->__sk_common.skc_net.net);
		else
			netns_from_dst(&d, skb->_skb_refdst);
	}
	locate_header(&d, skb->head, skb->network_header, skb->tail);
	return handle(&d, true);
}

SEC("raw_tp/kfree_skb")
int kfree_skb_raw(struct bpf_raw_tracepoint_args *ctx)
{
	struct sk_buff *skb = (struct sk_buff *)ctx->args[0];
	struct net_device *dev = BPF_CORE_READ(skb, dev);
	struct net *net = device_net_raw(dev);
	struct drop d = { .ctx = ctx };

	d.key.location = ctx->args[1];
	d.skb = skb;
	if (tp_has_rx_sk())
		d.rx_sk = (struct sock *)ctx->args[3];
	if (tp_has_reason())
		d.key.reason = (__u32)ctx->args[2];
	if (detail_budget || has_filter) {
		d.len = BPF_CORE_READ(skb, len);
		d.nonlinear = BPF_CORE_READ(skb, data_len);
	}
	d.l3proto = bpf_ntohs(BPF_CORE_READ(skb, protocol));
	if (net) {
		d.dev = dev;
		d.key.ifindex = BPF_CORE_READ(dev, ifindex);
		set_netns_raw(&d, net);
	} else {
		struct sock *sk = BPF_CORE_READ(skb, sk);

		d.key.ifindex = BPF_CORE_READ(skb, skb_iif);
		if (!sk)
			sk = d.rx_sk;
		if (sk)
			set_netns_raw(&d, BPF_CORE_READ(sk, __sk_common.skc_net.net));
		else
			netns_from_dst(&d, BPF_CORE_READ(skb, _skb_refdst));
	}
	locate_header(&d, BPF_CORE_READ(skb, head), BPF_CORE_READ(skb, network_header),
		      BPF_CORE_READ(skb, tail));
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
