// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop kernel side: one program on the skb:kfree_skb tracepoint.
 *
 * Every drop that passes the filters is counted exactly (counting.h); a
 * rate-limited sample of drops is copied, with the first bytes of the
 * network header, into a ring buffer. The code is written once and built
 * twice (flavour.h): the tp_btf program reads the skb with direct
 * (BTF-checked) loads, the raw_tp one through bpf_probe_read_kernel for
 * kernels where tp_btf cannot attach. The shape of the tracepoint (reason
 * since 5.17, rx_sk since 6.11) is taken from the kernel's BTF at load
 * time, never from its version.
 *
 * The filters run first, each before the reads it does not need: -r on
 * the tracepoint's reason, --netns on the namespace, -i on the interface;
 * the packet's header and lengths are read only for records and filter
 * expressions.
 *
 * A pcap filter is not in this file: user space translates its classic BPF
 * into a program of its own (src/lib/filter/cbpf_ebpf.c), which this one
 * tail-calls; on a match it tail-calls kfree_skb_matched_*, which counts.
 * Without a filter none of that is loaded.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "whydrop.h"
#include "flavour.h"
#include "keyed_count.h"
#include "counting.h"
#include "filter_maps.h"
#include "stacks.h"
#include "sock_owner.h"
#include "record_budget.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define WAKEUP_BYTES	(64 * 1024)	/* wake the reader once this much waits */
#define SKB_DST_PTRMASK	~1UL

/* Set by user space before load; the verifier treats them as constants. */
const volatile __u32 filter_netns;		/* --netns: its inode, */
const volatile __u64 filter_netns_cookie;	/* and its cookie where known */
const volatile __u32 filter_ifindex;
const volatile bool has_filter;		/* a translated pcap filter is loaded */
const volatile bool direct_pkt;		/* tp_btf may load packet bytes directly */
/* record: -s, packet bytes per record (<= WD_COPY_MAX); 0 for watch */
const volatile __u32 record_bytes;
/* --rules: NETFILTER_DROP's code here (read by the kfree_skb_rules_* programs only) */
const volatile __u32 nftrace_reason;

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

#define DROP_DEV	1	/* skb->dev is a network device */

/*
 * What a drop is, in numbers: all that the filter's side hands on to the
 * counting side (kfree_skb_matched_*), which finds the pointers again in
 * its own arguments. The counting key is filled in place (zeroed with the
 * rest), so counting copies nothing.
 */
struct drop_facts {
	struct wd_key key;	/* reason, ifindex, location, netns cookie and inode */
	__u32 len;
	__u32 linear;		/* bytes from nh to the end of the linear data, 0: no nh */
	__u32 nonlinear;	/* skb->data_len: bytes in paged data */
	__u16 caplen;		/* min(linear, WD_HDR_BYTES) */
	__u16 l3proto;		/* ETH_P_* in host order (skb->protocol) */
	__u32 flags;		/* DROP_* */
};

/* A drop: its facts and where they come from, in this program's own arguments. */
struct drop {
	struct drop_facts f;
	void *ctx;		/* the program's context, for the stack */
	struct sk_buff *skb;
	struct sock *rx_sk;	/* the receiving socket (6.11+), else NULL */
	struct net_device *dev;	/* NULL when skb->dev is not a device */
	unsigned char *nh;	/* network header, NULL when unknown */
};

/* The drop a matching filter hands on to kfree_skb_matched_* (filter_maps.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct drop_facts);
} filter_drop SEC(".maps");

static __always_inline bool tp_has_reason(void)
{
	return bpf_core_field_exists(struct trace_event_raw_kfree_skb, reason);
}

static __always_inline bool tp_has_rx_sk(void)
{
	return bpf_core_field_exists(struct trace_event_raw_kfree_skb, rx_sk);
}

static __always_inline bool has_netns_cookie(void)
{
	return bpf_core_field_exists(struct net, net_cookie);
}

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
static __always_inline struct net *device_net(const struct net_device *dev, bool btf)
{
	struct net *net;

	if (!kernel_ptr(dev))
		return NULL;
	net = RD(btf, dev, nd_net.net);
	if (!kernel_ptr(net) || RD(btf, net, loopback_dev, nd_net.net) != net)
		return NULL;
	return net;
}

/*
 * Before 6.11 a drop after the socket lookup has neither skb->dev (cleared
 * by tcp_v4_rcv) nor rx_sk: the input route's device still tells the netns.
 * A number, not a BTF pointer: read with the helper in both flavours.
 */
static __always_inline struct net *route_net(unsigned long refdst)
{
	struct dst_entry *dst = (struct dst_entry *)(refdst & SKB_DST_PTRMASK);

	return dst ? device_net(BPF_CORE_READ(dst, dev), false) : NULL;
}

/* --netns: by cookie where the kernel has one (an inode can be reused). */
static __always_inline bool netns_wanted(const struct wd_key *k)
{
	if (filter_netns_cookie && has_netns_cookie())
		return k->netns_cookie == filter_netns_cookie;
	return !filter_netns || k->netns == filter_netns;
}

/*
 * The namespace's cookie where the kernel has one, and its inode; false
 * when --netns wants another. The cookie decides before the inode, which
 * only names the namespace, is read.
 */
static __always_inline bool set_netns(struct wd_key *k, const struct net *net, bool btf)
{
	if (has_netns_cookie()) {
		k->netns_cookie = RD(btf, net, net_cookie);
		if (!netns_wanted(k))
			return false;
	}
	k->netns = RD(btf, net, ns.inum);
	return netns_wanted(k);
}

/*
 * Where the drop happened: the namespace of its device, else of its socket
 * (the sender's, else the receiver's), else of its route. False when it
 * is not the one --netns asks for.
 */
static __always_inline bool where(struct drop *d, bool btf)
{
	struct sk_buff *skb = d->skb;
	struct net_device *dev = RD(btf, skb, dev);
	struct net *net = device_net(dev, btf);
	struct sock *sk;

	if (net) {
		d->dev = dev;
		d->f.flags |= DROP_DEV;
	} else {
		sk = RD(btf, skb, sk);
		if (!sk)
			sk = d->rx_sk;
		if (sk)
			net = RD(btf, sk, __sk_common.skc_net.net);
	}
	if (net)
		return set_netns(&d->f.key, net, btf);
	net = route_net(RD(btf, skb, _skb_refdst));
	if (net)
		return set_netns(&d->f.key, net, false);	/* a number: probe reads */
	return netns_wanted(&d->f.key);	/* unknown: only without --netns */
}

/* The device's interface, else the one the packet came in by; false: not -i's. */
static __always_inline bool interface(struct drop *d, bool btf)
{
	struct net_device *dev = d->dev;
	struct sk_buff *skb = d->skb;

	d->f.key.ifindex = dev ? RD(btf, dev, ifindex) : RD(btf, skb, skb_iif);
	return !filter_ifindex || d->f.key.ifindex == filter_ifindex;
}

/* Header offsets are only meaningful for IP packets with a set header. */
static __always_inline void locate_header(struct drop *d, unsigned char *head,
					  __u16 nh_off, __u32 tail)
{
	if (d->f.l3proto != ETH_P_IP && d->f.l3proto != ETH_P_IPV6)
		return;
	if (nh_off == (__u16)~0U || !head || tail <= nh_off)
		return;
	d->nh = head + nh_off;
	d->f.linear = tail - nh_off;
	d->f.caplen = d->f.linear > WD_HDR_BYTES ? WD_HDR_BYTES : d->f.linear;
}

/* What only records and filter expressions use: the packet and its lengths. */
static __always_inline void packet(struct drop *d, bool btf)
{
	struct sk_buff *skb = d->skb;

	d->f.len = RD(btf, skb, len);
	d->f.nonlinear = RD(btf, skb, data_len);
	d->f.l3proto = bpf_ntohs(RD(btf, skb, protocol));
	locate_header(d, RD(btf, skb, head), RD(btf, skb, network_header), RD(btf, skb, tail));
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

/* The sender's socket (skb->sk), else the receiver's (rx_sk). */
static __always_inline struct sock *skb_sock(const struct drop *d, bool btf)
{
	struct sk_buff *skb = d->skb;
	struct sock *sk = RD(btf, skb, sk);

	return sk ? sk : d->rx_sk;
}

/* Everything but the packet bytes (hdr[], caplen). */
static __always_inline void fill_event(struct wd_event *ev, const struct drop *d,
				       __s32 stack_id, __u16 flags, bool btf)
{
	ev->ts_ns = bpf_ktime_get_ns();
	ev->location = d->f.key.location;
	ev->reason = d->f.key.reason;
	ev->netns = d->f.key.netns;
	ev->netns_cookie = d->f.key.netns_cookie;
	ev->ifindex = d->f.key.ifindex;
	ev->skb_len = d->f.len;
	/* the length when the IP header says 0 (BIG TCP, jumbograms) */
	ev->wire_len = d->nh ? d->f.linear + d->f.nonlinear : 0;
	ev->pad = 0;
	ev->cpu = bpf_get_smp_processor_id();
	ev->l3proto = d->f.l3proto;
	ev->flags = flags;
	/* The name now: the device may be renamed or gone when user space looks. */
	ev->ifname[0] = '\0';
	if (d->dev)
		bpf_probe_read_kernel_str(ev->ifname, sizeof(ev->ifname), &d->dev->name);
	ev->stack_id = stack_id;
	sock_fill(&ev->sock, skb_sock(d, btf), tp_has_rx_sk(), btf);
}

/* No wake-up per record: the reader polls, or is woken when much waits. */
static __always_inline __u64 wakeup(void)
{
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= WAKEUP_BYTES ?
	       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * This CPU's long_events slot, for record -s beyond WD_HDR_BYTES and a
 * packet whose linear data is longer; NULL (use the ring buffer's record)
 * for any other record, or when the slot is in use.
 */
static __always_inline struct wd_long_event *long_slot(const struct drop *d, __u32 bytes)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct wd_long_event *le;

	if (bytes <= WD_HDR_BYTES || !d->nh || d->f.linear <= WD_HDR_BYTES)
		return NULL;
	le = bpf_map_lookup_elem(&long_events, &cpu);
	if (!le || le->busy)
		return NULL;
	le->busy = 1;
	return le;
}

/*
 * A record of the drop, within --rate. record -s beyond WD_HDR_BYTES takes
 * up to record_bytes of the linear data, assembled in this CPU's
 * long_events slot; bytes in paged fragments cannot be read here
 * (WD_EV_PAGED says there were some). One fill_event() for both kinds.
 */
static __always_inline void emit(const struct drop *d, __s32 stack_id, bool btf)
{
	struct wd_long_event *le = NULL;
	struct wd_event *ev;
	__u32 bytes, n = WD_HDR_BYTES, caplen = d->f.caplen;

	if (!detail_budget || !record_allowed())
		return;
	bytes = record_bytes;	/* read once; 0 for watch */
	if (bytes) {
		/*
		 * record only. A branch, not a select: for watch the verifier
		 * knows bytes is 0 and drops all of it at load time.
		 */
		compiler_barrier();
		le = long_slot(d, bytes);
	}
	if (le) {
		ev = &le->ev;
		n = d->f.linear < bytes ? d->f.linear : bytes;
		if (n > WD_COPY_MAX)
			n = WD_COPY_MAX;
		caplen = n;
	} else {
		ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
		if (!ev) {
			stat_inc(WD_STAT_RING_FULL);
			return;
		}
	}
	fill_event(ev, d, stack_id, bytes && d->f.nonlinear ? WD_EV_PAGED : 0, btf);
	ev->caplen = 0;
	if (d->nh && !bpf_probe_read_kernel(ev->hdr, n, d->nh))
		ev->caplen = caplen;
	if (!le) {
		bpf_ringbuf_submit(ev, wakeup());
		stat_inc(WD_STAT_EMITTED);
		return;
	}
	n = WD_EVENT_BYTES(ev->caplen);
	if (n > sizeof(*le) - 8)	/* for the verifier: n fits the slot after busy/pad */
		n = sizeof(*le) - 8;
	if (bpf_ringbuf_output(&events, ev, n, wakeup()))
		stat_inc(WD_STAT_RING_FULL);
	else
		stat_inc(WD_STAT_EMITTED);
	le->busy = 0;
}

/* A drop that passed every filter. */
static __always_inline int counted(const struct drop *d, bool btf)
{
	count_key(&d->f.key);
	if (count_by_socket)
		sock_count(skb_sock(d, btf), &d->f.key, btf);
	emit(d, stacks_count(d->ctx, d->f.key.reason, d->f.key.location), btf);
	return 0;
}

/*
 * pcap's len: the IP header's own length (UDP may have pulled its header).
 * A length field of 0 cannot say (BIG TCP over IPv4, an IPv6 jumbogram):
 * there, the skb's bytes from the network header on.
 */
static __always_inline __u32 ip_length(const struct drop *d, bool btf)
{
	__u8 v = d->f.linear >= 6 ? pkt_byte(d, 0, btf) >> 4 : 0;
	__u32 n;

	if (v == 4) {
		n = (__u32)pkt_byte(d, 2, btf) << 8 | pkt_byte(d, 3, btf);
		return n ? n : d->f.linear + d->f.nonlinear;
	}
	if (v == 6) {
		n = (__u32)pkt_byte(d, 4, btf) << 8 | pkt_byte(d, 5, btf);
		return n ? 40 + n : d->f.linear + d->f.nonlinear;
	}
	return d->f.len;
}

/*
 * Hand the drop to the translated filter: its facts wait in filter_drop,
 * numbers only; on a match, kfree_skb_matched_* takes them up with the
 * pointers of its own arguments.
 */
static __always_inline int run_filter(const struct drop *d, bool btf)
{
	struct wd_filter_ctx *fc;
	struct drop_facts *saved;
	__u32 zero = 0;

	if (!d->nh)
		return 0;	/* not IP, or no header: a filter cannot match */
	fc = bpf_map_lookup_elem(&filter_ctx, &zero);
	saved = bpf_map_lookup_elem(&filter_drop, &zero);
	if (!fc || !saved)
		return 0;
	*saved = d->f;
	fc->nh = (__u64)d->nh;
	fc->linear = d->f.linear;
	fc->wirelen = ip_length(d, btf);
	/* a truncated packet whose IP length claims more: its bytes end here */
	if (fc->wirelen > d->f.linear + d->f.nonlinear)
		fc->wirelen = d->f.linear + d->f.nonlinear;
	bpf_tail_call(d->ctx, &filter_progs, WD_FILTER_PROG);
	return 0;
}

/*
 * The tracepoint's arguments are skb, location, reason (5.17+) and rx_sk
 * (6.11+), the same in both flavours: a raw_tp context is its array of
 * arguments. Here the pointers; the key's two are the drop program's.
 */
static __always_inline void from_args(struct drop *d, __u64 *args, void *ctx)
{
	d->ctx = ctx;
	d->skb = (struct sk_buff *)args[0];
	if (tp_has_rx_sk())
		d->rx_sk = (struct sock *)args[3];
}

/*
 * --rules: a NETFILTER_DROP of a packet nftables traced (nf_trace set)
 * counts under a key of its own, so that the drops whose verdict a trace
 * message names add up exactly. A bitfield: direct in tp_btf, probed in
 * raw_tp.
 */
static __always_inline void nf_trace(struct drop *d, bool btf)
{
	struct sk_buff *skb = d->skb;

	if (d->f.key.reason != nftrace_reason ||
	    !bpf_core_field_exists(struct sk_buff, nf_trace))
		return;
	if (btf ? BPF_CORE_READ_BITFIELD(skb, nf_trace) :
		  BPF_CORE_READ_BITFIELD_PROBED(skb, nf_trace))
		d->f.key.flags = WD_KEY_NF_TRACE;
}

/*
 * A drop's key and pointers from the arguments; false when the program's
 * own filters (-r, --netns, -i) leave it out.
 */
static __always_inline bool drop_wanted(struct drop *d, __u64 *args, void *ctx, bool btf)
{
	d->f.key.location = args[1];
	if (tp_has_reason())
		d->f.key.reason = (__u32)args[2];
	from_args(d, args, ctx);
	return reason_wanted(d->f.key.reason) && where(d, btf) && interface(d, btf);
}

/* A drop: each filter as soon as what it needs is known, then the rest. */
static __always_inline int on_drop(__u64 *args, void *ctx, bool btf, bool rules)
{
	struct drop d = {};

	if (!drop_wanted(&d, args, ctx, btf))
		return 0;
	if (rules)
		nf_trace(&d, btf);
	if (detail_budget || has_filter)
		packet(&d, btf);
	if (has_filter)
		return run_filter(&d, btf);
	return counted(&d, btf);
}

/*
 * After a match: the facts the filter's side left, and the pointers again
 * from this program's own arguments (the same call of the tracepoint),
 * read only where records or counts by socket need them.
 */
static __always_inline int on_match(__u64 *args, void *ctx, bool btf)
{
	struct drop_facts *saved;
	struct drop d = {};
	struct sk_buff *skb;
	__u32 zero = 0;

	saved = bpf_map_lookup_elem(&filter_drop, &zero);
	if (!saved)
		return 0;
	d.f = *saved;
	from_args(&d, args, ctx);
	skb = d.skb;
	if (detail_budget && (d.f.flags & DROP_DEV))
		d.dev = RD(btf, skb, dev);
	if (detail_budget && d.f.linear)
		d.nh = RD(btf, skb, head) + RD(btf, skb, network_header);
	return counted(&d, btf);
}

/* kfree_skb_btf, kfree_skb_raw */
BOTH_FLAVOURS(kfree_skb, kfree_skb, on_drop, false)

/*
 * --rules: the same with NETFILTER_DROP split by nf_trace. Programs of
 * their own, so that without --rules not one instruction of it is loaded.
 */
BOTH_FLAVOURS(kfree_skb, kfree_skb_rules, on_drop, true)

/* Tail-called by the filter on a match; loaded only with a filter. */
BOTH_FLAVOURS(kfree_skb, kfree_skb_matched, on_match)

/* --tcp: programs of their own beside these, with the filters above (tcp_drops.h) */
#include "tcp_drops.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";
