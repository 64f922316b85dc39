/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --rules in count's report: NETFILTER_DROP split by the nftables rule or
 * chain policy that dropped each packet, per network namespace traced.
 * The parts add up exactly:
 *
 *   netfilter_drop = not_traced + traced_elsewhere + sum over namespaces of traced
 *   traced         = sum of by_rule counts + other_rules + foreign + unclaimed
 *
 * (docs/design.md, the JSON contract; docs/firewall.md).
 */
#ifndef WD_RULES_FORMAT_H
#define WD_RULES_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct wd_json;

struct wd_rule_out {
	const char *family;	/* "inet", "ip", "ip6", ... */
	const char *table;
	const char *chain;
	bool policy;		/* the chain's policy, not a rule */
	uint64_t handle;	/* the rule's (not for a policy) */
	const char *text;	/* as `nft -a list` prints it, or "policy drop of chain X";
				 * NULL: unavailable (text_why says why) */
	const char *comment;	/* NULL: none */
	const char *text_why;
	uint64_t count;
};

/*
 * One part of a NETFILTER_DROP row of count --json (--rules): the drops of
 * that (reason, location) one rule or chain policy dropped, or the part no
 * rule can be named for, and why. A row's parts add up to its count.
 */
struct wd_row_rule {
	const struct wd_rule_out *rule;	/* NULL: rule unknown */
	const char *why;		/* rule unknown: why */
	uint64_t count;
};

struct wd_rules_ns_out {
	const char *netns;	/* its name or label */
	uint32_t inode;
	uint64_t cookie;
	uint64_t traced;	/* NETFILTER_DROP with nf_trace set, counted by BPF */
	uint64_t foreign;	/* of packets a user's own nftrace rule marked */
	uint64_t other_rules;	/* claimed past the rules whydrop keeps apart */
	uint64_t unclaimed;	/* traced, no trace names a rule */
	const char *unclaimed_why;
	uint64_t messages_lost;	/* trace messages the socket could not hold */
	uint64_t overruns;
	const char *legacy;	/* legacy iptables tables, NULL: none */
	const struct wd_rule_out *rules;
	size_t n_rules;
};

struct wd_rules_doc {
	uint64_t netfilter_drop;	/* every NETFILTER_DROP counted */
	uint64_t not_traced;		/* nf_trace not set: not marked by whydrop */
	uint64_t traced_elsewhere;	/* nf_trace set in namespaces whydrop does not trace */
	const struct wd_rules_ns_out *ns;
	size_t n_ns;
};

/* The "rule" object of a part of a row. */
void wd_print_row_rule_json(struct wd_json *j, const struct wd_row_rule *p);
void wd_print_rules_json(struct wd_json *j, const struct wd_rules_doc *d);
void wd_print_rules_text(FILE *f, const struct wd_rules_doc *d);

#endif /* WD_RULES_FORMAT_H */
