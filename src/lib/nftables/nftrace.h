/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nftables traces (NFNLGRP_NFTRACE, what `nft monitor trace` prints): one
 * message per rule evaluation of a packet whose nftrace bit is set, parsed
 * with libnftnl's trace API. The socket is opened inside a network
 * namespace while privileged and keeps working once capabilities are gone.
 * See docs/firewall.md.
 */
#ifndef WD_NFTRACE_H
#define WD_NFTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WD_NFT_NAME_LEN		256	/* NFT_NAME_MAXLEN: tables, chains */
#define WD_NFTRACE_NH_LEN	40	/* the kernel sends at most 40 bytes */
#define WD_NFTRACE_TH_LEN	20	/* and of the transport header, 20 */
#define WD_NFTRACE_RCVBUF	(16 << 20)	/* room for bursts of traces */

struct wd_nftrace_event {
	uint32_t id;		/* the packet's trace id (per skb and hook) */
	uint32_t type;		/* NFT_TRACETYPE_RULE, _RETURN, _POLICY */
	uint32_t family;	/* the table's NFPROTO_* (inet: 1) */
	char table[WD_NFT_NAME_LEN];
	char chain[WD_NFT_NAME_LEN];
	bool has_handle;
	uint64_t handle;	/* the rule's (type rule and return) */
	bool has_verdict;
	int32_t verdict;	/* rule and return traces: NF_DROP, NF_ACCEPT, ...,
				 * NFT_CONTINUE, NFT_JUMP... */
	char jump_target[WD_NFT_NAME_LEN];	/* jump/goto verdicts */
	bool has_policy;
	uint32_t policy;	/* policy traces: the base chain's (NF_DROP, NF_ACCEPT) */
	bool has_nfproto;
	uint32_t nfproto;	/* the packet's: NFPROTO_IPV4, _IPV6 */
	bool has_iif, has_oif, has_mark;
	uint32_t iif, oif, mark;
	size_t nh_len;		/* network header bytes (first message of a chain) */
	uint8_t nh[WD_NFTRACE_NH_LEN];
	size_t th_len;		/* transport header bytes (with nh, when known) */
	uint8_t th[WD_NFTRACE_TH_LEN];
};

struct wd_nftrace_stats {
	uint64_t messages;	/* netlink messages received */
	uint64_t traces;	/* of them, traces parsed */
	uint64_t other;		/* of them, neither a trace nor an error */
	uint64_t bad;		/* not parsed: malformed, cut short, or not
				 * sent by the kernel */
	uint64_t overruns;	/* ENOBUFS: times the socket overflowed */
	uint64_t lost;		/* messages the kernel could not queue: exact
				 * (SO_MEMINFO's drops, read at least once per
				 * 2^32 of them); ~0 when unknown */
	int rcvbuf;		/* the receive buffer granted (SO_RCVBUF) */
};

struct wd_nftrace;

/*
 * Open a trace socket inside the network namespace of @netns_fd (-1: ours),
 * subscribed to NFNLGRP_NFTRACE, non-blocking, with a receive buffer of
 * @rcvbuf bytes (0: WD_NFTRACE_RCVBUF; SO_RCVBUFFORCE while CAP_NET_ADMIN
 * is in effect, else as much as net.core.rmem_max allows). Needs
 * CAP_NET_ADMIN (and CAP_SYS_ADMIN to enter another namespace) now, none
 * later. NULL with a message in @err.
 */
struct wd_nftrace *wd_nftrace_open(int netns_fd, int rcvbuf, char *err, size_t errlen);
int wd_nftrace_fd(const struct wd_nftrace *t);
/*
 * The next trace into @ev: 1, or 0 when none is waiting (poll the fd), or
 * -1 with errno on a socket error. An overrun (ENOBUFS) is counted and
 * reading goes on.
 */
int wd_nftrace_next(struct wd_nftrace *t, struct wd_nftrace_event *ev);
void wd_nftrace_stats(struct wd_nftrace *t, struct wd_nftrace_stats *s);
void wd_nftrace_close(struct wd_nftrace *t);

/* Parse one netlink message: 1 a trace, 0 another message, -1 malformed. */
int wd_nftrace_parse(const void *nlh, size_t len, struct wd_nftrace_event *ev);

/* "drop", "accept", "continue", "jump", "queue", ... or "verdict N". */
const char *wd_nftrace_verdict_name(int32_t verdict, char *buf, size_t len);
/* "rule", "return", "policy", or "type N". */
const char *wd_nftrace_type_name(uint32_t type, char *buf, size_t len);
/* "inet", "ip", "ip6", "arp", "bridge", "netdev", or "family N". */
const char *wd_nft_family_name(uint32_t family, char *buf, size_t len);
/* Whether the trace is a drop verdict (a rule's, or a chain's policy). */
bool wd_nftrace_is_drop(const struct wd_nftrace_event *ev);

#endif /* WD_NFTRACE_H */
