/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The nftables-trace source's state (source_nftrace.c: traces read and
 * claimed, records joined, the snapshot) and its per-namespace setup
 * (nftrace_ns.c: tracing installed in each namespace watched, and in the
 * ones created while running). Between these two files only.
 */
#ifndef WD_NFTRACE_SRC_H
#define WD_NFTRACE_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core.h"
#include "nftables_setup.h"
#include "privileges.h"
#include "rules_snap.h"

#define NFT_NS_MAX	256	/* namespaces traced without --netns */
#define NH_SLOTS	1024	/* network headers of recent trace ids */
#define RECENT_DROPS	4096	/* claimed drops waiting for their record */
#define RECENT_SECS	2.0	/* a claimed drop whose record never came (--rate) */
#define LABEL_LEN	(3 * WD_NFT_NAME_LEN + 32)
#define SCAN_SECS	1.0	/* new namespaces looked for (no --netns) */
/* kept permitted for that: enter (setns), install (nftables), open /proc/PID/ns/net */
#define SCAN_CAPS	(WD_CAP(WD_CAP_SYS_ADMIN) | WD_CAP(WD_CAP_NET_ADMIN) | \
			 WD_CAP(WD_CAP_SYS_PTRACE))

/* The network header a trace id's packet had (the first message of each chain has it). */
struct nh_slot {
	uint32_t id;
	uint8_t len;
	uint8_t nh[WD_NFTRACE_NH_LEN];
	uint8_t th_len;		/* the transport header after it (filter expressions) */
	uint8_t th[WD_NFTRACE_TH_LEN];
};

/* A claimed drop, for the record of the same packet (watch, record). */
struct recent_drop {
	bool used;
	size_t ns;
	double t;
	uint8_t len;
	uint8_t nh[WD_NFTRACE_NH_LEN];
	char label[LABEL_LEN];	/* "inet/fw/input/2" */
};

/* A namespace file's (dev, inode), to take each namespace once. */
struct ns_file {
	dev_t dev;
	ino_t ino;
};

struct nft_ns {
	struct wd_netns_id id;
	char label[64];
	struct wd_nft_trace_table table;
	struct wd_nftrace *tr;
	struct wd_nft_rules *rules;
	struct wd_nft_claims claims;
	int n_legacy;
	char legacy[128];
	struct nh_slot *nh;	/* NH_SLOTS, by id */
};

struct nft_src {
	struct nft_ns *ns;
	size_t n;
	int epfd;		/* every trace socket: the session waits on it */
	bool removed;		/* tables removed (detach) */
	uint32_t nf_drop;	/* NETFILTER_DROP's code, for records */
	uint32_t ifindex;	/* -i: mark and claim by this input index */
	struct wd_cbpf_insn *filter;	/* a filter expression (a copy): claim its drops only */
	size_t filter_len;
	struct recent_drop *recent;	/* ring of RECENT_DROPS (records asked for) */
	size_t next_recent;
	uint64_t lost_seen;	/* trace messages lost, at the last record */
	char label[LABEL_LEN];	/* of the last record viewed */
	bool scan;		/* no --netns: trace namespaces created while running */
	double next_scan;
	struct ns_file *seen;	/* NFT_NS_MAX namespaces taken (or left out) */
	size_t n_seen;
};

/*
 * Trace the namespace of @fd (-1: ours), labelled @label (NULL: by its
 * inode): 0; -1 left out (said); an exit status when @fatal.
 */
int wd_nft_src_install_ns(struct nft_src *t, int fd, const char *label, bool fatal);
/* Every namespace that exists now and is not taken yet. 0, or an exit status. */
int wd_nft_src_install_all(struct nft_src *t);
/* Its table removed, its sockets closed. */
void wd_nft_src_ns_close(struct nft_ns *n);
/* Say which namespaces have legacy iptables tables. */
void wd_nft_src_say_legacy(const struct nft_src *t);

#endif /* WD_NFTRACE_SRC_H */
