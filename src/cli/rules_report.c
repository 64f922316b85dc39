// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --rules in a report: NETFILTER_DROP split exactly. The BPF keys say how
 * many were traced (WD_KEY_NF_TRACE) per namespace; the trace source's
 * claims say by which rule; what no trace names is unclaimed, said why.
 * See rules_report.h, docs/firewall.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_report.h"
#include "rules_snap.h"

#define VERDICT_DROP	0	/* NF_DROP: <linux/netfilter.h> clashes with libc's */

/* What the doc's strings point into. */
struct rule_names {
	char family[16];
	struct wd_nft_rule_info info;
	char why[160];
	char policy[300];
};

struct wd_rules_parts {
	struct wd_rules_ns_out *ns;
	size_t n_ns;
	struct wd_rule_out **rules;		/* per namespace */
	struct rule_names **names;		/* per namespace */
	char (*why)[320];			/* per namespace: unclaimed_why */
};

void wd_rules_report_free(struct wd_rules_parts *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_ns; i++) {
		free(p->rules[i]);
		free(p->names[i]);
	}
	free(p->rules);
	free(p->names);
	free(p->why);
	free(p->ns);
	free(p);
}

/* NETFILTER_DROP of the keys: traced in namespace ns, or not traced. */
static void bpf_split(const struct wd_snapshot *snap, uint32_t code, struct wd_rules_doc *d,
		      const struct wd_rules_snap *rs, struct wd_rules_ns_out *ns)
{
	const struct wd_key_total *k = wd_key_rows(&snap->keys);

	for (size_t i = 0; i < snap->keys.n; i++) {
		const struct wd_netns_id id = { k[i].key.netns_cookie, k[i].key.netns };
		size_t n;

		if (k[i].key.reason != code)
			continue;
		d->netfilter_drop += k[i].count;
		if (!(k[i].key.flags & WD_KEY_NF_TRACE)) {
			d->not_traced += k[i].count;
			continue;
		}
		for (n = 0; n < rs->n && !wd_netns_same(&id, &rs->ns[n].id); n++)
			;
		if (n < rs->n)
			ns[n].traced += k[i].count;
		else
			d->traced_elsewhere += k[i].count;
	}
}

static void name_rule(bool names, const struct wd_rules_snap *rs, size_t ns,
		      const struct wd_nft_claim *c, struct wd_rule_out *r, struct rule_names *nm)
{
	*r = (struct wd_rule_out){
		.family = wd_nft_family_name(c->family, nm->family, sizeof(nm->family)),
		.table = c->table, .chain = c->chain, .policy = c->policy,
		.handle = c->handle, .count = c->count,
	};
	if (c->policy) {
		r->text = wd_nft_policy_text(VERDICT_DROP, c->chain, nm->policy, sizeof(nm->policy));
		return;
	}
	if (!names) {
		r->text_why = "not looked up";
		return;
	}
	if (wd_nftrace_rule_name(rs->src, ns, c, &nm->info, nm->why, sizeof(nm->why)) == 1) {
		r->text = nm->info.text;
		r->comment = nm->info.has_comment ? nm->info.comment : NULL;
	} else {
		r->text_why = nm->why;
	}
}

/* Rules by count, largest first; equal counts in order of first drop. */
static int cmp_rule(const void *x, const void *y)
{
	const struct wd_rule_out *a = x, *b = y;

	return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

static void unclaimed_why(const struct wd_rules_snap_ns *n, char *buf, size_t len)
{
	uint64_t lost = n->st.lost;

	if (lost && lost != ~0ULL)
		snprintf(buf, len, "trace lost (%" PRIu64 " trace messages the socket could not "
			 "hold, %" PRIu64 " overruns), or dropped outside nftables' rules "
			 "(legacy iptables, conntrack)", lost, n->st.overruns);
	else if (lost)
		snprintf(buf, len, "trace lost (the socket overflowed), or dropped outside "
			 "nftables' rules (legacy iptables, conntrack)");
	else
		snprintf(buf, len, "no trace names a rule: dropped outside nftables' rules "
			 "(%s%s, or conntrack: see its counters); no trace was lost",
			 n->n_legacy > 0 ? "legacy iptables: " : "legacy iptables",
			 n->n_legacy > 0 ? n->legacy : "");
}

static int build_ns(bool names, const struct wd_rules_snap *rs, size_t i,
		    struct wd_rules_parts *p)
{
	const struct wd_rules_snap_ns *n = &rs->ns[i];
	struct wd_rules_ns_out *o = &p->ns[i];
	uint64_t claimed = n->claimed + n->foreign;

	p->rules[i] = calloc(n->n ? n->n : 1, sizeof(**p->rules));
	p->names[i] = calloc(n->n ? n->n : 1, sizeof(**p->names));
	if (!p->rules[i] || !p->names[i])
		return -ENOMEM;
	for (size_t k = 0; k < n->n; k++)
		name_rule(names, rs, i, &n->claims[k], &p->rules[i][k], &p->names[i][k]);
	qsort(p->rules[i], n->n, sizeof(**p->rules), cmp_rule);
	o->netns = n->label;
	o->inode = n->id.inode;
	o->cookie = n->id.cookie;
	o->foreign = n->foreign;
	o->other_rules = n->other;
	/* live, a trace can be read before its drop is counted: never below 0 */
	o->unclaimed = o->traced > claimed ? o->traced - claimed : 0;
	unclaimed_why(n, p->why[i], sizeof(p->why[i]));
	o->unclaimed_why = p->why[i];
	o->messages_lost = n->st.lost == ~0ULL ? 0 : n->st.lost;
	o->overruns = n->st.overruns;
	o->legacy = n->n_legacy > 0 ? n->legacy : NULL;
	o->rules = p->rules[i];
	o->n_rules = n->n;
	return 0;
}

int wd_rules_report_build(struct wd_session *s, const struct wd_snapshot *snap, bool names,
			  struct wd_rules_doc *d, struct wd_rules_parts **parts)
{
	const struct wd_rules_snap *rs = snap->rules;
	struct wd_rules_parts *p;
	uint32_t code = 0;
	int err = 0;

	memset(d, 0, sizeof(*d));
	*parts = NULL;
	if (!rs)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	*parts = p;
	p->ns = calloc(rs->n ? rs->n : 1, sizeof(*p->ns));
	p->rules = calloc(rs->n ? rs->n : 1, sizeof(*p->rules));
	p->names = calloc(rs->n ? rs->n : 1, sizeof(*p->names));
	p->why = calloc(rs->n ? rs->n : 1, sizeof(*p->why));
	if (!p->ns || !p->rules || !p->names || !p->why)
		return -ENOMEM;
	p->n_ns = rs->n;
	if (!wd_reason_code(&s->reasons, "NETFILTER_DROP", &code))
		bpf_split(snap, code, d, rs, p->ns);
	for (size_t i = 0; !err && i < rs->n; i++)
		err = build_ns(names, rs, i, p);
	d->ns = p->ns;
	d->n_ns = rs->n;
	return err;
}

void wd_rules_label(const struct wd_rule_out *r, char *buf, size_t len)
{
	if (r->policy)
		snprintf(buf, len, "%s/%s/%s/policy", r->family, r->table, r->chain);
	else
		snprintf(buf, len, "%s/%s/%s/%" PRIu64, r->family, r->table, r->chain, r->handle);
}
