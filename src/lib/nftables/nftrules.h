/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The text of an nftables rule by (family, table, handle), as
 * `nft -a -s list table FAMILY TABLE` prints it (stateless: no counter
 * values), and its comment, through libnftables in the namespace where the
 * rule lives. Listings are cached per table and dropped whenever the
 * ruleset's generation changes (NFT_MSG_NEWGEN on NFNLGRP_NFTABLES).
 * Rule handles are unique per table and never reused while it exists.
 * Also: whether legacy iptables (x_tables, no nftables traces) has tables
 * in that namespace. See docs/firewall.md.
 */
#ifndef WD_NFTRULES_H
#define WD_NFTRULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WD_NFT_RULE_TEXT_LEN	1024
#define WD_NFT_COMMENT_LEN	256

struct wd_nft_rule_info {
	char chain[256];
	char text[WD_NFT_RULE_TEXT_LEN];	/* without " # handle N" */
	bool truncated;				/* text cut to fit */
	bool has_comment;
	char comment[WD_NFT_COMMENT_LEN];
};

struct wd_nft_rules_stats {
	uint64_t listings;	/* tables listed through libnftables */
	uint64_t generations;	/* ruleset changes seen (NEWGEN) */
	uint64_t overruns;	/* generation socket overflows (cache dropped) */
};

struct wd_nft_rules;

/*
 * For the namespace of @netns_fd (-1: ours): a libnftables context and a
 * generation socket made inside it. Needs CAP_NET_ADMIN (and CAP_SYS_ADMIN
 * to enter another namespace) now; looking rules up needs CAP_NET_ADMIN in
 * effect (nfnetlink asks it of every request, listings too).
 */
struct wd_nft_rules *wd_nft_rules_open(int netns_fd, char *err, size_t errlen);
/*
 * The rule @handle of table @table (family @family, NFPROTO_*): 1 found,
 * 0 no such rule now (the ruleset changed since, or the table is not
 * listable: a reason in @err), -1 error with a message in @err.
 */
int wd_nft_rules_lookup(struct wd_nft_rules *r, uint32_t family, const char *table,
			uint64_t handle, struct wd_nft_rule_info *out, char *err, size_t errlen);
/*
 * Legacy iptables tables in the namespace, as "ip:filter ip6:raw" in @buf
 * (from /proc/net/{ip,ip6,arp}_tables_names, opened at wd_nft_rules_open):
 * how many, or -1 when unknown (x_tables not built).
 */
int wd_nft_rules_legacy(struct wd_nft_rules *r, char *buf, size_t len);
void wd_nft_rules_stats(const struct wd_nft_rules *r, struct wd_nft_rules_stats *s);
void wd_nft_rules_close(struct wd_nft_rules *r);

/* "policy drop of chain input" for a chain's policy verdict. */
const char *wd_nft_policy_text(int32_t verdict, const char *chain, char *buf, size_t len);

/*
 * Parse a listing of `nft -a -s list table` (text) and `nft -j -a list
 * table` (JSON, NULL: no comments) into rules; exposed for unit tests.
 */
struct wd_nft_rule_entry {
	uint64_t handle;
	char *chain;
	char *text;
	char *comment;		/* NULL: none */
};
int wd_nft_rules_parse(const char *text, const char *json, struct wd_nft_rule_entry **out,
		       size_t *n);
void wd_nft_rules_entries_free(struct wd_nft_rule_entry *v, size_t n);
/* Whether libnftables can be given @name unquoted (nft's identifier syntax). */
bool wd_nft_name_listable(const char *name);

#endif /* WD_NFTRULES_H */
