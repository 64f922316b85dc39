/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types shared by the BPF program and user space. Fixed-width fields only,
 * laid out without implicit padding so that a zeroed key hashes the same
 * on every CPU.
 */
#ifndef WHYDROP_H
#define WHYDROP_H

#define WD_HDR_BYTES		128	/* bytes copied from the network header */
#define WD_SNAPLEN_MAX		262144	/* record -s: the most, as tcpdump's */
#define WD_COPY_MAX		65536	/* the most packet bytes one record carries */
#define WD_RING_BYTES		(1 << 21)	/* ring buffer: records of WD_HDR_BYTES */
#define WD_RING_BYTES_LONG	(1 << 24)	/* ... of more (record -s > 128) */
#define WD_IFNAME_BYTES		16	/* IFNAMSIZ */
#define WD_SUBSYS_SHIFT		16	/* SKB_DROP_REASON_SUBSYS_SHIFT */

/*
 * Reasons by slot, for the -r bitmap and the overflow bucket: a core
 * reason below WD_CORE_SLOTS is its own slot; a subsystem's (its id, 1 to
 * WD_SUBSYS_MAX, in the upper 16 bits: openvswitch, mac80211) has
 * WD_SUBSYS_SLOTS from WD_CORE_SLOTS on. A reason no slot holds (none on
 * any kernel so far) gets WD_REASON_SLOTS: -r refuses it, and its overflow
 * slot, the last, is no other reason's.
 */
#define WD_CORE_SLOTS		512
#define WD_SUBSYS_SLOTS		64
#define WD_SUBSYS_MAX		8
#define WD_REASON_SLOTS		(WD_CORE_SLOTS + WD_SUBSYS_MAX * WD_SUBSYS_SLOTS)
#define WD_REASON_BITMAP_WORDS	(WD_REASON_SLOTS / 64)	/* the -r filter */
#define WD_OVERFLOW_SLOTS	(WD_REASON_SLOTS + 1)	/* the overflow bucket */
#define WD_REASON_NO_SLOT	0xffffffffu	/* the reason of the last overflow slot */

static inline __u32 wd_reason_slot(__u32 reason)
{
	__u32 sub = reason >> WD_SUBSYS_SHIFT, low = reason & 0xffff;

	if (!sub)
		return reason < WD_CORE_SLOTS ? reason : WD_REASON_SLOTS;
	if (sub > WD_SUBSYS_MAX || low >= WD_SUBSYS_SLOTS)
		return WD_REASON_SLOTS;
	return WD_CORE_SLOTS + (sub - 1) * WD_SUBSYS_SLOTS + low;
}

/* The reason of an overflow slot: wd_reason_slot() undone. */
static inline __u32 wd_slot_reason(__u32 slot)
{
	if (slot < WD_CORE_SLOTS)
		return slot;
	if (slot >= WD_REASON_SLOTS)
		return WD_REASON_NO_SLOT;
	slot -= WD_CORE_SLOTS;
	return (slot / WD_SUBSYS_SLOTS + 1) << WD_SUBSYS_SHIFT | slot % WD_SUBSYS_SLOTS;
}

#define WD_CBPF_MAX_INSNS	4096	/* longest pcap filter accepted: BPF_MAXINSNS,
					   the kernel's own limit for classic BPF */

#define WD_STACK_DEPTH		64	/* frames kept per stack (--stacks) */
#define WD_STACK_MAP_ENTRIES	16384	/* distinct stacks stored */
#define WD_STACK_NONE		(-0x7fffffff)	/* no stack taken: --stacks is off */

#define WD_FILTER_BUF		256	/* packet bytes a filter copies at once */
#define WD_FILTER_MEMWORDS	16	/* M[] of classic BPF (BPF_MEMWORDS) */
#define WD_FILTER_PROG		0	/* filter_progs: the translated filter */
#define WD_FILTER_MATCHED	1	/* filter_progs: counting, after a match */

/*
 * Per-CPU state of a pcap filter (map filter_ctx, key 0). The program on
 * the tracepoint fills nh, linear and wirelen, then tail-calls the filter
 * translated from classic BPF at load time (src/lib/filter/cbpf_ebpf.c), which
 * copies the first bytes into buf[] itself and, on a match, tail-calls
 * WD_FILTER_MATCHED (returning 1 if that is absent, 0 on no match).
 */
struct wd_filter_ctx {
	__u64 nh;		/* kernel address of the network header */
	__u32 linear;		/* bytes from nh to the end of the linear data */
	__u32 wirelen;		/* the IP packet's length: pcap's len */
	__u64 nonlinear;	/* drops left unmatched: a load needed paged data */
	__u32 mem[WD_FILTER_MEMWORDS];	/* M[] */
	__u8 tmp[8];		/* a load past buf[] lands here */
	__u8 buf[WD_FILTER_BUF];	/* up to the first WD_FILTER_BUF bytes, as the
					   filter needs them: the rest is stale */
};

/* A classic BPF instruction of a compiled pcap filter (struct sock_filter). */
struct wd_cbpf_insn {
	__u16 code;
	__u8 jt;
	__u8 jf;
	__u32 k;
};

/*
 * Key of the exact per-CPU counting map. A network namespace is its cookie
 * (net->net_cookie, unique for the boot); the inode, which the kernel hands
 * to the next namespace once this one is gone, only names it (`ip netns
 * identify`). Both 0: the drop's namespace is unknown. Where the kernel has
 * no cookie (before 5.14) netns_cookie is 0 and the inode is all there is.
 */
struct wd_key {
	__u32 reason;
	__u32 ifindex;
	__u64 location;		/* return address inside the dropping function */
	__u64 netns_cookie;	/* net->net_cookie, 0 if the kernel has none */
	__u32 netns;		/* inode of the network namespace */
	__u32 pad;
};

/*
 * Runs of identical drops, counted per CPU before they reach the hash: a
 * storm of a few kinds of drop costs no hash lookup. WD_RUN_SETS sets of
 * two ways each, indexed by a hash of the key. seq is odd while a slot is
 * being replaced, so a reader on another CPU can tell a consistent copy
 * (see src/core/counts.c).
 */
#define WD_RUN_SETS		16	/* a power of two */
#define WD_RUN_WAYS		2

struct wd_run {
	__u64 seq;
	struct wd_key key;
	__u64 n;		/* 0: the slot is free */
};

struct wd_runs {
	struct wd_run slot[WD_RUN_SETS * WD_RUN_WAYS];
	__u64 last;		/* the slot counted last: checked first */
};

/*
 * Key of the --stacks counting map. stack_id < 0 is the error that
 * bpf_get_stackid() returned instead (-EEXIST: the stack's bucket holds
 * another stack), so such drops stay apart from every real stack.
 */
struct wd_stack_key {
	__u32 reason;
	__s32 stack_id;
	__u64 location;
};

/* wd_sock.flags */
#define WD_SOCK_FOUND		1	/* skb->sk or rx_sk named a socket */
#define WD_SOCK_FULL		2	/* a full socket: ino, uid, cgroup are valid */
#define WD_SOCK_TP_RX_SK	4	/* this kernel's tracepoint carries rx_sk (6.11+) */

/* The socket a drop belongs to: the sender's (skb->sk) or the receiver's (rx_sk). */
struct wd_sock {
	__u64 ino;		/* inode, as in ss -e and /proc/PID/fd */
	__u64 cgroup_id;	/* cgroup v2 id (the directory's inode), 0 if none */
	__u32 uid;
	__u16 sport;		/* local port, host order */
	__u16 dport;		/* remote port, host order */
	__u16 family;		/* AF_* */
	__u8 state;		/* TCP_* state (sk_state) */
	__u8 flags;		/* WD_SOCK_* */
	__u32 pad;
};

/*
 * Key of the optional by-socket count (count/top --group-by cgroup|process):
 * ino and cgroup 0 for a drop without a full socket.
 */
/* Sockets counted per generation of the by-socket hash (sock_owner.h). */
#define WD_SOCK_MAP_SIZE	4096

struct wd_sock_key {
	__u32 reason;
	__u32 netns;		/* inode of the network namespace, as in wd_key */
	__u64 netns_cookie;
	__u64 ino;
	__u64 cgroup_id;
};

/* wd_event.flags */
#define WD_EV_PAGED		1	/* the skb had paged data: none of it is in hdr[] */

/*
 * One sampled drop, sent through the ring buffer. hdr[] is last: a record
 * of record -s beyond WD_HDR_BYTES is longer than the struct, its packet
 * bytes going on past hdr[] (WD_EVENT_BYTES(caplen) in all).
 */
struct wd_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u64 location;
	__u64 netns_cookie;	/* as in wd_key */
	__u32 reason;
	__u32 netns;
	__u32 ifindex;
	__u32 skb_len;
	__u32 wire_len;		/* bytes from the network header to the end, 0 if unknown */
	__u32 cpu;
	__u32 caplen;		/* packet bytes from hdr[0] on, at most WD_COPY_MAX */
	__u16 l3proto;
	__u16 flags;		/* WD_EV_* */
	__s32 stack_id;		/* in the stack map, <0 error, WD_STACK_NONE: off */
	__u32 pad;
	char ifname[WD_IFNAME_BYTES];	/* skb->dev's name at the drop, "" if none */
	struct wd_sock sock;
	__u8 hdr[WD_HDR_BYTES];	/* the network header on, caplen bytes (here and after) */
};

/* Bytes of a record whose packet bytes are caplen: never less than the struct. */
#define WD_EVENT_HEAD		(sizeof(struct wd_event) - WD_HDR_BYTES)
#define WD_EVENT_BYTES(caplen)	\
	(WD_EVENT_HEAD + ((caplen) > WD_HDR_BYTES ? (caplen) : WD_HDR_BYTES))

_Static_assert(__builtin_offsetof(struct wd_event, hdr) == WD_EVENT_HEAD,
	       "hdr[] ends struct wd_event: long records go on past it");

/* Slots of the per-CPU statistics array. */
enum wd_stat {
	WD_STAT_EMITTED,	/* detail records written to the ring buffer */
	WD_STAT_RING_FULL,	/* detail records lost: ring buffer full */
	WD_STAT_OVERFLOW,	/* counts that went to the overflow bucket */
	WD_STAT_STACK_COLLISION, /* --stacks: bucket held another stack (-EEXIST) */
	WD_STAT_STACK_ERROR,	/* --stacks: stack not stored (map full, fault) */
	WD_STAT_STACK_OVERFLOW,	/* --stacks: stack_counts full, by reason only */
	WD_STAT_SOCK_OVERFLOW,	/* by-socket counts lost: that map was full */
	WD_STAT_MAX,
};

#endif /* WHYDROP_H */
