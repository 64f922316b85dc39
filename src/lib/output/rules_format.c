// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* count --rules: the split of NETFILTER_DROP by rule, as JSON and text; see rules_format.h. */
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "json.h"
#include "rules_format.h"

#define NOT_TRACED_WHY	"packets whydrop did not mark: dropped at a hook it does not trace " \
			"(netdev, bridge, arp, inet ingress, or a chain at priority " \
			"-2147483648 registered before its own), or in a namespace created " \
			"after it started"
#define ELSEWHERE_WHY	"nf_trace set (by a user's own nftrace rule) in namespaces whydrop " \
			"does not trace"

/* The "rule" object: what the trace and the listing say of the rule. */
static void rule_obj_json(struct wd_json *j, const struct wd_rule_out *r)
{
	wd_json_open(j, "rule", '{');
	wd_json_str(j, "family", r->family);
	wd_json_str(j, "table", r->table);
	wd_json_str(j, "chain", r->chain);
	if (r->policy)
		wd_json_str(j, "policy", "drop");
	else
		wd_json_uint(j, "handle", r->handle);
	if (r->text)
		wd_json_str(j, "text", r->text);
	else
		wd_json_str(j, "text_unavailable", r->text_why ? r->text_why : "");
	wd_json_str_opt(j, "comment", r->comment);
	wd_json_close(j, '}');
}

static void rule_json(struct wd_json *j, const struct wd_rule_out *r)
{
	wd_json_open(j, NULL, '{');
	rule_obj_json(j, r);
	wd_json_uint(j, "count", r->count);
	wd_json_close(j, '}');
}

void wd_print_row_rule_json(struct wd_json *j, const struct wd_row_rule *p)
{
	if (p->rule) {
		rule_obj_json(j, p->rule);
		return;
	}
	wd_json_open(j, "rule", '{');
	wd_json_str(j, "unknown", p->why);
	wd_json_close(j, '}');
}

static void ns_json(struct wd_json *j, const struct wd_rules_ns_out *n)
{
	wd_json_open(j, NULL, '{');
	wd_json_str(j, "netns", n->netns);
	wd_json_uint(j, "netns_inode", n->inode);
	wd_json_uint_opt(j, "netns_cookie", n->cookie);
	wd_json_uint(j, "traced", n->traced);
	wd_json_open(j, "by_rule", '[');
	for (size_t i = 0; i < n->n_rules; i++)
		rule_json(j, &n->rules[i]);
	wd_json_close(j, ']');
	wd_json_uint(j, "other_rules", n->other_rules);
	wd_json_uint(j, "foreign", n->foreign);
	wd_json_uint(j, "unclaimed", n->unclaimed);
	if (n->unclaimed)
		wd_json_str(j, "unclaimed_why", n->unclaimed_why);
	wd_json_uint(j, "trace_messages_lost", n->messages_lost);
	wd_json_uint(j, "trace_overruns", n->overruns);
	wd_json_str_opt(j, "legacy_iptables", n->legacy);
	wd_json_close(j, '}');
}

void wd_print_rules_json(struct wd_json *j, const struct wd_rules_doc *d)
{
	wd_json_open(j, "rules", '{');
	wd_json_uint(j, "netfilter_drop", d->netfilter_drop);
	wd_json_uint(j, "not_traced", d->not_traced);
	if (d->not_traced)
		wd_json_str(j, "not_traced_why", NOT_TRACED_WHY);
	wd_json_uint(j, "traced_elsewhere", d->traced_elsewhere);
	wd_json_open(j, "namespaces", '[');
	for (size_t i = 0; i < d->n_ns; i++)
		ns_json(j, &d->ns[i]);
	wd_json_close(j, ']');
	wd_json_close(j, '}');
}

static void rule_text(FILE *f, const struct wd_rule_out *r)
{
	fprintf(f, "%10" PRIu64 "  %s %s %s ", r->count, r->family, r->table, r->chain);
	if (r->policy)
		fprintf(f, "policy: %s", r->text ? r->text : "policy drop");
	else
		fprintf(f, "handle %" PRIu64 ": %s%s%s", r->handle, r->text ? r->text :
			"(text unavailable: ", r->text ? "" : r->text_why ? r->text_why : "",
			r->text ? "" : ")");
	if (r->comment && !(r->text && strstr(r->text, "comment")))
		fprintf(f, "  # %s", r->comment);
	fputc('\n', f);
}

static void ns_text(FILE *f, const struct wd_rules_ns_out *n)
{
	fprintf(f, "  in %s: %" PRIu64 " traced\n", n->netns, n->traced);
	for (size_t i = 0; i < n->n_rules; i++)
		rule_text(f, &n->rules[i]);
	if (n->other_rules)
		fprintf(f, "%10" PRIu64 "  (other rules: past the rules kept apart)\n",
			n->other_rules);
	if (n->foreign)
		fprintf(f, "%10" PRIu64 "  (foreign: packets a user's own nftrace rule marked)\n",
			n->foreign);
	if (n->unclaimed)
		fprintf(f, "%10" PRIu64 "  rule unknown: %s\n", n->unclaimed, n->unclaimed_why);
	if (n->legacy)
		fprintf(f, "%12slegacy iptables tables here: %s (their rules cannot be named)\n",
			"", n->legacy);
}

void wd_print_rules_text(FILE *f, const struct wd_rules_doc *d)
{
	fprintf(f, "\nNETFILTER_DROP by nftables rule (--rules): %" PRIu64 "\n",
		d->netfilter_drop);
	for (size_t i = 0; i < d->n_ns; i++)
		ns_text(f, &d->ns[i]);
	if (d->traced_elsewhere)
		fprintf(f, "%10" PRIu64 "  %s\n", d->traced_elsewhere, ELSEWHERE_WHY);
	if (d->not_traced)
		fprintf(f, "%10" PRIu64 "  not traced: %s\n", d->not_traced, NOT_TRACED_WHY);
}
