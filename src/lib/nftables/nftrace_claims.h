/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which rule dropped the packets whydrop marked: trace messages in, counts
 * per (family, table, chain, rule handle or chain policy) out.
 *
 * A packet is whydrop's when its own table's marking rule reported it (a
 * trace of type rule, with a handle and verdict accept, from that table:
 * the rule matched and set nftrace) under the same trace id, which the
 * kernel derives per packet and hook; whydrop's chain runs first at every
 * hook, so that trace precedes any verdict at the hook. Drops of packets others marked (a
 * user's own `meta nftrace set 1`) are counted apart, never as whydrop's.
 */
#ifndef WD_NFTRACE_CLAIMS_H
#define WD_NFTRACE_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nftrace.h"

#define WD_NFT_MARKS		1024	/* recent marked packets remembered */
#define WD_NFT_CLAIMS_MAX	4096	/* distinct rules counted; more go to other */

struct wd_nft_claim {
	uint32_t family;	/* the table's NFPROTO_* */
	char table[WD_NFT_NAME_LEN];
	char chain[WD_NFT_NAME_LEN];
	bool policy;		/* the chain's policy, not a rule */
	uint64_t handle;	/* the rule's (0 for a policy) */
	uint64_t count;
};

struct wd_nft_mark {
	uint32_t id;
	int32_t next;		/* next in its bucket, -1: none */
	bool used;
};

struct wd_nft_claims {
	char own_table[WD_NFT_NAME_LEN];
	/*
	 * whydrop -i: only drops of packets with this input device (index)
	 * count, as the drop's skb names it at prerouting, input and
	 * forward; others are not the drops counted (0: every drop).
	 */
	uint32_t ifindex;
	struct wd_nft_mark marks[WD_NFT_MARKS];
	int32_t buckets[2 * WD_NFT_MARKS];
	size_t next_mark;	/* ring position of the next mark */
	struct wd_nft_claim *v;	/* per rule, in order of first drop */
	size_t n, cap;
	uint64_t claimed;	/* drops of whydrop's packets: sum of v[].count + other */
	uint64_t other;		/* of them, past WD_NFT_CLAIMS_MAX rules */
	uint64_t foreign;	/* drops of packets whydrop did not mark */
	uint64_t marked;	/* marking traces seen */
};

enum wd_nft_claim_result {
	WD_NFT_NOT_DROP,	/* no drop verdict (or a marking) */
	WD_NFT_CLAIMED,		/* a drop of a packet whydrop marked */
	WD_NFT_FOREIGN,		/* a drop of a packet someone else marked */
};

/* Start empty; @own_table is whydrop's table in this namespace. */
void wd_nft_claims_init(struct wd_nft_claims *c, const char *own_table);
/*
 * Account one trace of the namespace's trace socket; for a claimed drop,
 * *@claim (when given) points at its rule's entry (NULL: counted in other),
 * valid until the next call.
 */
enum wd_nft_claim_result wd_nft_claims_add(struct wd_nft_claims *c,
					   const struct wd_nftrace_event *ev,
					   const struct wd_nft_claim **claim);
/* The count of one rule (policy: handle ignored), 0 when none. */
uint64_t wd_nft_claims_count(const struct wd_nft_claims *c, uint32_t family, const char *table,
			     const char *chain, bool policy, uint64_t handle);
void wd_nft_claims_free(struct wd_nft_claims *c);

#endif /* WD_NFTRACE_CLAIMS_H */
