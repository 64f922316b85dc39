// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --rules: NETFILTER_DROP rows split by rule, exactly or not at all.
 *
 * Where a drop verdict is freed (kernel source): since 2023 nft_do_chain
 * frees its own drops with NF_DROP_REASON, a rule's drop at one place and
 * a base chain's policy drop at another (6.18: nft_do_chain+0x46f and
 * +0x637); before, nf_hook_slow freed them. nf_hook_slow also frees legacy
 * iptables' drops and conntrack's. So a namespace's claimed drops belong
 * to its traced drops at nft_do_chain (or at nf_hook_slow on a kernel with
 * no nft_do_chain row). Where they are at two places, the rules' claims go
 * to one and the policies' to the other only when the counts tell which
 * is which; otherwise the part is "rule unknown", never a guess.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "rules_rows.h"
#include "rules_snap.h"

#define NOT_TRACED	"not traced: whydrop did not mark the packet (a hook or namespace " \
			"it does not trace)"
#define ELSEWHERE	"not traced: nf_trace set by a user's own rule in a namespace " \
			"whydrop does not trace"
#define FOREIGN		"a packet a user's own nftrace rule marked, not whydrop: its rule " \
			"is not counted"
#define OTHER_RULES	"more distinct rules than whydrop keeps apart"
#define TWO_PLACES	"drops at several places in nft_do_chain (a rule's verdict and a " \
			"chain policy are freed at different places) that the counts cannot " \
			"tell apart"
#define REST_MIXED	"trace lost, a packet a user's own nftrace rule marked, or more " \
			"rules than whydrop keeps apart"
#define NO_LOCATION	"location unknown (the counting map was full): not split"
#define TOO_MANY	"traces name more drops than counted here (read live)"
/* NETFILTER_DROP rows whose classes are worked out (2^n assignments tried) */
#define SITES_MAX	12

/* Per NETFILTER_DROP row and namespace: the drops of the keys. */
struct row_counts {
	size_t row;		/* index into rows */
	bool rule_site;		/* where drop verdicts are freed */
	bool known, policy;	/* a rule site's class: a policy's place or a rule's */
	uint64_t untraced, elsewhere;
	uint64_t *traced;	/* per namespace of the doc */
};

static uint32_t rule_mask(const struct row_counts *rc, size_t nrc)
{
	uint32_t m = 0;

	for (size_t r = 0; r < nrc; r++)
		if (rc[r].rule_site)
			m |= 1u << r;
	return m;
}

static int add(struct wd_rules_rows *r, const struct wd_rule_out *rule, const char *why,
	       uint64_t count)
{
	if (!count)
		return 0;
	if (wd_grow(&r->v, &r->cap, r->n, sizeof(*r->v), 32))
		return -ENOMEM;
	r->v[r->n++] = (struct wd_row_rule){ rule, why, count };
	return 0;
}

static bool is_fn(const char *fn, const char *name)
{
	return fn && !strncmp(fn, name, strlen(name)) &&
	       (!fn[strlen(name)] || fn[strlen(name)] == ' ');
}

/* The drops of each key, by row and namespace. */
static void count_keys(const struct wd_snapshot *snap, uint32_t code, const struct wd_total *t,
		       const struct wd_rules_doc *d, struct row_counts *rc, size_t nrc)
{
	const struct wd_key_total *k = wd_key_rows(&snap->keys);

	for (size_t i = 0; i < snap->keys.n; i++) {
		const struct wd_key *key = &k[i].key;
		size_t r, ns;

		if (key->reason != code)
			continue;
		for (r = 0; r < nrc && t[rc[r].row].location != key->location; r++)
			;
		if (r == nrc)
			continue;
		if (!(key->flags & WD_KEY_NF_TRACE)) {
			rc[r].untraced += k[i].count;
			continue;
		}
		for (ns = 0; ns < d->n_ns; ns++) {
			const struct wd_netns_id a = { key->netns_cookie, key->netns };
			const struct wd_netns_id b = { d->ns[ns].cookie, d->ns[ns].inode };

			if (wd_netns_same(&a, &b))
				break;
		}
		if (ns < d->n_ns)
			rc[r].traced[ns] += k[i].count;
		else
			rc[r].elsewhere += k[i].count;
	}
}

/* The claims of one class (policies, or rules) of namespace @n. */
static uint64_t class_sum(const struct wd_rules_ns_out *n, bool policy)
{
	uint64_t s = 0;

	for (size_t i = 0; i < n->n_rules; i++)
		if (n->rules[i].policy == policy)
			s += n->rules[i].count;
	return s;
}

static int add_class(struct wd_rules_rows *out, const struct wd_rules_ns_out *n, bool policy)
{
	int err = 0;

	for (size_t i = 0; !err && i < n->n_rules; i++)
		if (n->rules[i].policy == policy)
			err = add(out, &n->rules[i], NULL, n->rules[i].count);
	return err;
}

/* The namespace's claims at its one rule site: per rule, the rest unknown. */
static int one_site(struct wd_rules_rows *out, const struct wd_rules_ns_out *n, uint64_t traced)
{
	uint64_t claimed = class_sum(n, false) + class_sum(n, true);
	int err;

	if (claimed + n->other_rules + n->foreign > traced)
		return add(out, NULL, TOO_MANY, traced);
	err = add_class(out, n, false);
	if (!err)
		err = add_class(out, n, true);
	if (!err)
		err = add(out, NULL, OTHER_RULES, n->other_rules);
	if (!err)
		err = add(out, NULL, FOREIGN, n->foreign);
	if (!err)
		err = add(out, NULL, n->unclaimed_why,
			  traced - claimed - n->other_rules - n->foreign);
	return err;
}

/*
 * Whether assignment @m (bit r of rule site r set: a policy's place) fits
 * namespace @ns: each class's claims at most its places' drops, exactly
 * when every drop there is claimed by a rule or policy.
 */
static bool fits(const struct row_counts *rc, size_t nrc, uint32_t m, size_t ns,
		 const struct wd_rules_ns_out *n)
{
	uint64_t cr = class_sum(n, false), cp = class_sum(n, true), tr = 0, tp = 0;

	for (size_t r = 0; r < nrc; r++) {
		if (!rc[r].rule_site)
			continue;
		if (m & (1u << r))
			tp += rc[r].traced[ns];
		else
			tr += rc[r].traced[ns];
	}
	if (!n->foreign && !n->other_rules && tr + tp == cr + cp)
		return tr == cr && tp == cp;
	return tr >= cr && tp >= cp;
}

/*
 * Which rule sites are a policy's place and which a rule's: a place is one
 * or the other (the kernel's code), the same in every namespace. A site's
 * class is known when every assignment that fits every namespace agrees.
 */
static void site_classes(struct row_counts *rc, size_t nrc, const struct wd_rules_doc *d)
{
	uint32_t all = ~0u, any = 0;
	bool found = false;

	if (nrc > SITES_MAX)
		return;
	for (uint32_t m = 0; m < (1u << nrc); m++) {
		bool ok = true;

		if (m & ~rule_mask(rc, nrc))
			continue;
		for (size_t ns = 0; ok && ns < d->n_ns; ns++)
			ok = fits(rc, nrc, m, ns, &d->ns[ns]);
		if (!ok)
			continue;
		found = true;
		all &= m;
		any |= m;
	}
	for (size_t r = 0; found && r < nrc; r++) {
		uint32_t bit = 1u << r;

		rc[r].known = rc[r].rule_site && (all & bit) == (any & bit);
		rc[r].policy = all & bit;
	}
}

/* Rule site @me among others in namespace @ns: its class's claims, if it can be told. */
static int class_site(struct wd_rules_rows *out, const struct row_counts *rc, size_t nrc,
		      size_t me, size_t ns, const struct wd_rules_ns_out *n)
{
	uint64_t traced = rc[me].traced[ns], claimed = class_sum(n, rc[me].policy);
	size_t same = 0;
	int err;

	for (size_t r = 0; r < nrc; r++)
		same += rc[r].rule_site && rc[r].traced[ns] &&
			(!rc[r].known || rc[r].policy == rc[me].policy);
	if (!rc[me].known || same != 1)
		return add(out, NULL, TWO_PLACES, traced);
	if (claimed > traced)
		return add(out, NULL, TOO_MANY, traced);
	err = add_class(out, n, rc[me].policy);
	if (!err && (n->foreign || n->other_rules))
		err = add(out, NULL, REST_MIXED, traced - claimed);
	else if (!err)
		err = add(out, NULL, n->unclaimed_why, traced - claimed);
	return err;
}

static int split_ns(struct wd_rules_rows *out, const struct row_counts *rc, size_t nrc,
		    size_t me, size_t ns, const struct wd_rules_ns_out *n, const char *why)
{
	uint64_t traced = rc[me].traced[ns];
	size_t sites = 0;

	if (!traced)
		return 0;
	if (!rc[me].rule_site)
		return add(out, NULL, why, traced);
	for (size_t r = 0; r < nrc; r++)
		sites += rc[r].rule_site && rc[r].traced[ns];
	if (sites == 1)
		return one_site(out, n, traced);
	return class_site(out, rc, nrc, me, ns, n);
}

/* "dropped outside nft_do_chain: not a rule verdict (legacy iptables: ...)". */
static void outside_why(const struct wd_rules_doc *d, const char *site, char *buf, size_t len)
{
	const char *legacy = NULL;

	for (size_t i = 0; i < d->n_ns && !legacy; i++)
		legacy = d->ns[i].legacy;
	snprintf(buf, len, "dropped outside %s: not a rule verdict (%s%s; conntrack or "
		 "another non-rule drop)", site, legacy ? "legacy iptables, tables " :
		 "no legacy iptables tables", legacy ? legacy : "");
}

static int split_row(struct wd_rules_rows *out, const struct wd_rules_doc *d,
		     struct row_counts *rc, size_t nrc, size_t me, const char *outside)
{
	int err = 0;

	for (size_t ns = 0; !err && ns < d->n_ns; ns++)
		err = split_ns(out, rc, nrc, me, ns, &d->ns[ns], outside);
	if (!err)
		err = add(out, NULL, rc[me].rule_site ? ELSEWHERE : outside, rc[me].elsewhere);
	if (!err)
		err = add(out, NULL, rc[me].rule_site ? NOT_TRACED : outside, rc[me].untraced);
	return err;
}

static int split_all(const struct wd_rules_doc *d, const struct wd_total *t,
		     struct row_counts *rc, size_t nrc, const char *site,
		     struct wd_count_row *rows, struct wd_rules_rows *out)
{
	size_t *first = calloc(nrc ? nrc : 1, sizeof(*first));
	int err = 0;

	out->why = calloc(nrc ? nrc : 1, sizeof(*out->why));
	if (!first || !out->why) {
		free(first);
		return -ENOMEM;
	}
	for (size_t r = 0; !err && r < nrc; r++) {
		first[r] = out->n;
		if (!t[rc[r].row].location) {
			err = add(out, NULL, NO_LOCATION, t[rc[r].row].count);
			continue;
		}
		outside_why(d, site, out->why[r], sizeof(out->why[r]));
		err = split_row(out, d, rc, nrc, r, out->why[r]);
	}
	/* pointers only once v no longer moves */
	for (size_t r = 0; !err && r < nrc; r++) {
		size_t end = r + 1 < nrc ? first[r + 1] : out->n;

		rows[rc[r].row].rules = out->v + first[r];
		rows[rc[r].row].n_rules = end - first[r];
	}
	free(first);
	return err;
}

/*
 * Rows at nft_do_chain hold the verdicts; without any, nf_hook_slow's (old
 * kernels). The function where they are.
 */
static const char *mark_sites(struct wd_count_row *rows, struct row_counts *rc, size_t nrc)
{
	bool nft = false;

	for (size_t r = 0; r < nrc; r++)
		nft |= is_fn(rows[rc[r].row].function, "nft_do_chain");
	for (size_t r = 0; r < nrc; r++) {
		const char *fn = rows[rc[r].row].function;

		rc[r].rule_site = nft ? is_fn(fn, "nft_do_chain") :
			is_fn(fn, "nf_hook_slow") || is_fn(fn, "nf_hook_slow_list");
	}
	return nft ? "nft_do_chain" : "nf_hook_slow";
}

int wd_rules_rows_split(struct wd_session *s, const struct wd_snapshot *snap,
			const struct wd_rules_doc *d, const struct wd_total *t,
			struct wd_count_row *rows, size_t n, struct wd_rules_rows *out)
{
	struct row_counts *rc = calloc(n ? n : 1, sizeof(*rc));
	uint64_t *cells = calloc((n ? n : 1) * (d->n_ns ? d->n_ns : 1), sizeof(*cells));
	const char *site;
	uint32_t code;
	size_t nrc = 0;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!rc || !cells)
		goto out;
	err = 0;
	if (wd_reason_code(&s->reasons, "NETFILTER_DROP", &code))
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (t[i].reason != code)
			continue;
		rc[nrc] = (struct row_counts){ .row = i, .traced = cells + nrc * d->n_ns };
		nrc++;
	}
	count_keys(snap, code, t, d, rc, nrc);
	site = mark_sites(rows, rc, nrc);
	site_classes(rc, nrc, d);
	err = split_all(d, t, rc, nrc, site, rows, out);
out:
	free(cells);
	free(rc);
	return err;
}

void wd_rules_rows_free(struct wd_rules_rows *r)
{
	free(r->v);
	free(r->why);
	memset(r, 0, sizeof(*r));
}
