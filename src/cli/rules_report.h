/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --rules: count's NETFILTER_DROP split by rule (rules_format.h), from one
 * snapshot: the BPF keys' nf_trace split joined with the nftables-trace
 * source's claims, per network namespace, rules named now.
 */
#ifndef WD_RULES_REPORT_H
#define WD_RULES_REPORT_H

#include "rules_format.h"
#include "session.h"

struct wd_rules_parts;

/*
 * Into *d from snap (NULL parts when snap has no rules section); @names:
 * the rules' text and comment looked up too (else only what the traces
 * say: family, table, chain, handle). 0 or -ENOMEM.
 */
int wd_rules_report_build(struct wd_session *s, const struct wd_snapshot *snap, bool names,
			  struct wd_rules_doc *d, struct wd_rules_parts **parts);
/* "inet/fw/input/2", "ip/pol/input/policy": serve's bounded rule label. */
void wd_rules_label(const struct wd_rule_out *r, char *buf, size_t len);
void wd_rules_report_free(struct wd_rules_parts *parts);

#endif /* WD_RULES_REPORT_H */
