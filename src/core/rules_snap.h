/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --rules: the nftables-trace source's section of a snapshot
 * (source_nftrace.c): per network namespace traced, the drops of packets
 * whydrop marked per rule or chain policy, the foreign ones (a user's own
 * nftrace marks), and what its trace socket lost. The BPF source's keys
 * give the other half, NETFILTER_DROP split by the skb's nf_trace bit
 * (WD_KEY_NF_TRACE); src/cli/rules_report.c joins the two.
 */
#ifndef WD_RULES_SNAP_H
#define WD_RULES_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netns.h"
#include "nftrace.h"
#include "nftrace_claims.h"
#include "nftrules.h"

struct wd_source;

struct wd_rules_snap_ns {
	struct wd_netns_id id;
	char label[64];			/* "netns 4026532238", or its --netns name */
	struct wd_nft_claim *claims;	/* per rule, in order of first drop */
	size_t n;
	uint64_t claimed;		/* sum of claims[].count + other */
	uint64_t other;			/* past WD_NFT_CLAIMS_MAX rules */
	uint64_t foreign;		/* drops of packets whydrop did not mark */
	struct wd_nftrace_stats st;	/* messages, overruns, lost */
	int n_legacy;			/* legacy iptables tables, -1 unknown */
	char legacy[128];		/* "ip:filter ip6:raw" */
};

struct wd_rules_snap {
	struct wd_source *src;		/* for names (wd_nftrace_rule_name) */
	struct wd_rules_snap_ns *ns;
	size_t n;
};

void wd_rules_snap_free(struct wd_rules_snap *r);

/*
 * The rule of claim @c of namespace @ns of the snapshot, as nft lists it
 * now (CAP_NET_ADMIN raised around a listing): 1 found, 0 not (why in
 * @why).
 */
int wd_nftrace_rule_name(struct wd_source *src, size_t ns, const struct wd_nft_claim *c,
			 struct wd_nft_rule_info *info, char *why, size_t len);

#endif /* WD_RULES_SNAP_H */
