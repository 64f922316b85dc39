/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types shared by the BPF program and user space. Fixed-width fields only,
 * laid out without implicit padding so that a zeroed key hashes the same
 * on every CPU.
 */
#ifndef WHYDROP_H
#define WHYDROP_H

#define WD_HDR_BYTES		128	/* bytes copied from the network header */
#define WD_IFNAME_BYTES		16	/* IFNAMSIZ */
#define WD_OVERFLOW_SLOTS	256	/* overflow bucket: one slot per core reason */
#define WD_REASON_BITMAP_WORDS	8	/* 256 core reasons for the -r filter */
#define WD_SUBSYS_SHIFT		16	/* SKB_DROP_REASON_SUBSYS_SHIFT */

#define WD_CBPF_MAX_INSNS	512	/* longest pcap filter program accepted */

/* A classic BPF instruction of a compiled pcap filter (struct sock_filter). */
struct wd_cbpf_insn {
	__u16 code;
	__u8 jt;
	__u8 jf;
	__u32 k;
};

/* Key of the exact per-CPU counting map. */
struct wd_key {
	__u32 reason;
	__u32 netns;		/* inode of the network namespace */
	__u64 location;		/* return address inside the dropping function */
	__u32 ifindex;
	__u16 l3proto;		/* ETH_P_* in host order (skb->protocol) */
	__u8 l4proto;		/* IPPROTO_* of the first header, 0 if unknown */
	__u8 pad;
};

/*
 * The current run of identical keys on one CPU, counted here before it
 * reaches the hash: a storm of one kind of drop costs no hash lookup. seq
 * is odd while the run is being replaced, so a reader on another CPU can
 * tell a consistent copy (see src/cli/counts.c).
 */
struct wd_pending {
	__u64 seq;
	struct wd_key key;
	__u64 n;
};

/* One sampled drop, sent through the ring buffer. */
struct wd_event {
	__u64 ts_ns;		/* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	__u64 location;
	__u32 reason;
	__u32 netns;
	__u32 ifindex;
	__u32 skb_len;
	__u32 cpu;
	__u16 l3proto;
	__u16 caplen;		/* valid bytes in hdr[] */
	char ifname[WD_IFNAME_BYTES];	/* skb->dev's name at the drop, "" if none */
	__u8 hdr[WD_HDR_BYTES];
};

/* Slots of the per-CPU statistics array. */
enum wd_stat {
	WD_STAT_EMITTED,	/* detail records written to the ring buffer */
	WD_STAT_RATE_LIMITED,	/* detail records skipped by the rate limit */
	WD_STAT_RING_FULL,	/* detail records lost: ring buffer full */
	WD_STAT_OVERFLOW,	/* counts that went to the overflow bucket */
	WD_STAT_MAX,
};

#endif /* WHYDROP_H */
