// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Counter <-> reason reconciliation; see reconcile.h. The rules
 * (reconcile_data.h) name the catalogue's reasons (catalogue_data.h); a unit
 * test checks that every reason named there exists.
 *
 * Only pairs that are one-to-one on the paths that count them are rules:
 * each increment of the counter is followed by one kfree_skb_reason() with
 * one of the listed reasons (6.18). A rule may list reasons that also drop
 * without the counter moving (the traced side is then larger: never
 * flagged); the opposite, an increment without the event, is exactly what
 * is reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "callsites.h"
#include "catalogue.h"
#include "diagnose.h"
#include "grow.h"
#include "reconcile.h"

#define NAME_LEN	128

#include "reconcile_data.h"

#define N_RULES		(sizeof(rules) / sizeof(rules[0]))
#define N_CONTEXT	(sizeof(context) / sizeof(context[0]))

static const struct wd_recon_rule *rule_find(const char *counter)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (!strcmp(rules[i].counter, counter))
			return &rules[i];
	return NULL;
}

/* Reason part of a match ("NO_SOCKET@__udp4_lib_rcv" -> "NO_SOCKET"). */
static void match_reason(const char *match, char *buf, size_t len)
{
	size_t n = strcspn(match, "@");

	snprintf(buf, len, "%.*s", (int)n, match);
}

/*
 * What the catalogue pairs a counter with: "REASON" for a reason's own
 * counters, "REASON@function" for a cause's or a call site's. Into m
 * (NULL: only count them); their number.
 */
#define MAX_PAIRS	32

static bool listed(const char *const *v, const char *counter)
{
	for (; v && *v; v++)
		if (!strcmp(*v, counter))
			return true;
	return false;
}

static size_t pair_add(char (*m)[NAME_LEN], size_t n, const char *reason, const char *function)
{
	if (n >= MAX_PAIRS)
		return n;
	if (m)
		snprintf(m[n], NAME_LEN, "%s%s%s", reason, function ? "@" : "",
			 function ? function : "");
	return n + 1;
}

static size_t paired_with(const char *counter, char (*m)[NAME_LEN])
{
	size_t n = 0;

	for (size_t i = 0; i < wd_catalogue_count(); i++)
		if (listed(wd_catalogue_at(i)->counters, counter))
			n = pair_add(m, n, wd_catalogue_at(i)->name, NULL);
	for (size_t i = 0; i < wd_cause_count(); i++) {
		const struct wd_cause *c = wd_cause_at(i);

		if (listed(c->counters, counter) && strcmp(c->function, "*"))
			n = pair_add(m, n, c->reason, c->function);
	}
	for (size_t i = 0; i < wd_callsite_count(); i++) {
		const struct wd_callsite *c = wd_callsite_at(i);

		for (const char *const *r = c->reasons; listed(c->counters, counter) && *r; r++)
			n = pair_add(m, n, *r, c->function);
	}
	return n;
}

/* Context note of a counter; *known tells whether it is listed at all. */
static const char *context_note(const char *counter, bool *known)
{
	*known = true;
	for (size_t i = 0; i < N_CONTEXT; i++)
		if (!strcmp(context[i].name, counter))
			return context[i].note;
	for (size_t i = 0; i < wd_catalogue_count(); i++) {
		const char *const *c = wd_catalogue_at(i)->counters;

		for (; c && *c; c++)
			if (!strcmp(*c, counter))
				return NULL;
	}
	*known = paired_with(counter, NULL) > 0;
	return NULL;
}

/* "tcp_v4_rcv.isra.0" matches "tcp_v4_rcv". */
static bool same_function(const char *traced, const char *want)
{
	size_t n = strlen(want);

	if (!traced || strncmp(traced, want, n))
		return false;
	return traced[n] == '\0' || traced[n] == '.';
}

/*
 * A drop of unknown function (no CAP_SYSLOG: /proc/kallsyms shows zeros;
 * the overflow bucket) matches "REASON@function" by its reason alone:
 * *by_reason says so. Leaving it out would flag every such drop as one the
 * tracepoint never saw, a false alarm.
 */
static bool matches(const char *match, const struct wd_traced *t, bool *by_reason)
{
	const char *at = strchr(match, '@');
	size_t n = at ? (size_t)(at - match) : strlen(match);

	if (!t->reason || strlen(t->reason) != n || strncasecmp(t->reason, match, n))
		return false;
	if (at && !t->function) {
		*by_reason = true;
		return true;
	}
	return !at || same_function(t->function, at + 1);
}

static uint64_t traced_for(const struct wd_recon_rule *r, const struct wd_traced *t, size_t nt,
			   bool *by_reason)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < nt; i++) {
		if (t[i].elsewhere && !r->global)
			continue;
		for (const char *const *m = r->match; *m; m++)
			if (matches(*m, &t[i], by_reason)) {
				sum += t[i].count;
				break;
			}
	}
	return sum;
}

/* Is reason in the -r list? Names compare through the catalogue (any case,
 * prefixes, old names). */
static bool in_list(const char *list, const char *reason)
{
	const struct wd_cat_entry *want = wd_catalogue_find(reason);
	char tok[NAME_LEN];
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");

		snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
		if (!strcasecmp(tok, reason) || (want && wd_catalogue_find(tok) == want))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

static bool rule_filtered(const struct wd_recon_rule *r, const char *list)
{
	char reason[NAME_LEN];

	for (const char *const *m = r->match; *m; m++) {
		match_reason(*m, reason, sizeof(reason));
		if (!in_list(list, reason))
			return true;
	}
	return false;
}

/* Why a rule cannot be compared under these options, NULL when it can. */
static const char *why_not(const struct wd_recon_rule *r, const struct wd_recon_opts *o)
{
	if (!o->traced)
		return "counters only: nothing traced to compare with";
	if (o->no_compare)
		return o->no_compare;
	if (r->global && o->netns_scoped)
		return "counted for every namespace, traced in one";
	if (o->reasons && rule_filtered(r, o->reasons))
		return "-r leaves out some of its reasons";
	return NULL;
}

static void fill_rule_row(struct wd_recon_row *row, const struct wd_recon_rule *r,
			  const struct wd_traced *t, size_t nt, const struct wd_recon_opts *o)
{
	bool by_reason = false;

	row->rule = r;
	row->note = why_not(r, o);
	if (row->note)
		return;
	row->compared = true;
	row->traced = traced_for(r, t, nt, &by_reason);
	row->unexplained = row->delta > row->traced ? row->delta - row->traced : 0;
	if (by_reason)
		row->note = WD_RECON_BY_REASON;
}

static int push(struct wd_recon_row **v, size_t *n, size_t *cap, const struct wd_recon_row *r)
{
	if (wd_grow(v, cap, *n, sizeof(**v), 16))
		return -ENOMEM;
	(*v)[(*n)++] = *r;
	return 0;
}

static bool moved(const struct wd_counters *before, const struct wd_counter *c, uint64_t *delta)
{
	uint64_t old;

	if (!wd_counters_get(before, c->name, &old) || c->value <= old)
		return false;
	*delta = c->value - old;
	return true;
}

static int cmp_context(const void *a, const void *b)
{
	const struct wd_recon_row *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return strcmp(x->name, y->name);
}

static bool is_part(const char *name)
{
	return strchr(name, WD_COUNTER_PART) != NULL;
}

static int cmp_part(const void *a, const void *b)
{
	const struct wd_counter_part *x = a, *y = b;

	if (x->delta != y->delta)
		return x->delta < y->delta ? 1 : -1;
	return strcmp(x->device, y->device);
}

/* The parts of row's counter ("qdisc:drops@eth0 fq_codel 0:") that moved. */
static int add_parts(const struct wd_counters *before, const struct wd_counters *after,
		     struct wd_recon_row *row)
{
	size_t len = strlen(row->name), cap = 0;
	struct wd_counter_part p;

	for (size_t j = 0; j < after->n; j++) {
		const char *name = after->v[j].name;

		if (strncmp(name, row->name, len) || name[len] != WD_COUNTER_PART ||
		    wd_counter_part_parse(name + len + 1, &p) ||
		    !moved(before, &after->v[j], &p.delta))
			continue;
		if (wd_grow(&row->parts, &cap, row->n_parts, sizeof(p), 4))
			return -ENOMEM;
		row->parts[row->n_parts++] = p;
	}
	if (row->n_parts > 1)
		qsort(row->parts, row->n_parts, sizeof(p), cmp_part);
	return 0;
}

/* Push row with its parts; on failure they are freed here. */
static int push_row(const struct wd_counters *before, const struct wd_counters *after,
		    struct wd_recon_row **v, size_t *n, size_t *cap, struct wd_recon_row *row)
{
	if (!add_parts(before, after, row) && !push(v, n, cap, row))
		return 0;
	free(row->parts);
	return -ENOMEM;
}

static int add_rules(const struct wd_counters *before, const struct wd_counters *after,
		     const struct wd_traced *t, size_t nt, const struct wd_recon_opts *o,
		     struct wd_recon_row **v, size_t *n, size_t *cap)
{
	for (size_t i = 0; i < N_RULES; i++) {
		struct wd_recon_row row = { 0 };

		for (size_t j = 0; j < after->n; j++) {
			if (strcmp(after->v[j].name, rules[i].counter) ||
			    !moved(before, &after->v[j], &row.delta))
				continue;
			row.name = after->v[j].name;
			fill_rule_row(&row, &rules[i], t, nt, o);
			if (push_row(before, after, v, n, cap, &row))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Does the match list name a reason -r leaves out? */
static bool pairs_filtered(char (*m)[NAME_LEN], size_t np, const char *list)
{
	char reason[NAME_LEN];

	for (size_t i = 0; i < np; i++) {
		match_reason(m[i], reason, sizeof(reason));
		if (!in_list(list, reason))
			return true;
	}
	return false;
}

/* "A,B": the reasons of the matches, each once. */
static void pair_reasons(char (*m)[NAME_LEN], size_t np, char *buf, size_t len)
{
	const char *list[MAX_PAIRS + 1];

	for (size_t i = 0; i < np; i++)
		list[i] = m[i];
	list[np] = NULL;
	wd_recon_reasons(&(struct wd_recon_rule){ .match = list }, buf, len);
}

/*
 * A counter the catalogue pairs with reasons: explained when the traced
 * drops of those reasons (at those places) are exactly its delta. Not a
 * one-to-one rule, so any other outcome stays context, never flagged.
 */
static void pair_row(struct wd_recon_row *row, const struct wd_traced *t, size_t nt,
		     const struct wd_recon_opts *o)
{
	char m[MAX_PAIRS][NAME_LEN];
	size_t np = paired_with(row->name, m);
	const char *list[MAX_PAIRS + 1];
	struct wd_recon_rule r = { .counter = row->name, .match = list,
				   .global = !strncmp(row->name, "softnet:", 8) };
	bool by_reason = false;
	uint64_t sum;

	if (!np || !o->traced || o->no_compare || (r.global && o->netns_scoped) ||
	    (o->reasons && pairs_filtered(m, np, o->reasons)))
		return;
	for (size_t i = 0; i < np; i++)
		list[i] = m[i];
	list[np] = NULL;
	sum = 0;
	for (size_t i = 0; i < nt; i++)		/* of this counter's family only */
		if (wd_diag_family_ok(row->name, t[i].function))
			sum += traced_for(&r, &t[i], 1, &by_reason);
	if (sum != row->delta)
		return;
	pair_reasons(m, np, row->paired, sizeof(row->paired));
	row->compared = true;
	row->traced = sum;
	row->unexplained = 0;
}

static int add_context(const struct wd_counters *before, const struct wd_counters *after,
		       const struct wd_traced *t, size_t nt, const struct wd_recon_opts *o,
		       struct wd_recon_row **v, size_t *n, size_t *cap)
{
	size_t first = *n;

	for (size_t j = 0; j < after->n; j++) {
		struct wd_recon_row row = { .name = after->v[j].name };
		bool known;

		if (rule_find(row.name) || is_part(row.name) ||
		    !moved(before, &after->v[j], &row.delta))
			continue;
		row.note = context_note(row.name, &known);
		if (!known)
			continue;
		pair_row(&row, t, nt, o);
		if (push_row(before, after, v, n, cap, &row))
			return -ENOMEM;
	}
	if (*n > first)
		qsort(*v + first, *n - first, sizeof(**v), cmp_context);
	return 0;
}

int wd_reconcile(const struct wd_counters *before, const struct wd_counters *after,
		 const struct wd_traced *t, size_t nt, const struct wd_recon_opts *o,
		 struct wd_recon_row **out, size_t *n)
{
	struct wd_recon_row *v = NULL;
	size_t cnt = 0, cap = 0;
	int err;

	err = add_rules(before, after, t, nt, o, &v, &cnt, &cap);
	if (!err)
		err = add_context(before, after, t, nt, o, &v, &cnt, &cap);
	if (err) {
		wd_recon_free(v, cnt);
		return err;
	}
	*out = v;
	*n = cnt;
	return 0;
}

void wd_recon_free(struct wd_recon_row *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		free(r[i].parts);
	free(r);
}

static const struct wd_recon_row *compared_row(const struct wd_recon_row *r, size_t n,
					       const char *counter)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].compared && !strcmp(r[i].name, counter))
			return &r[i];
	return NULL;
}

uint64_t wd_recon_untraced(const struct wd_recon_row *r, size_t n)
{
	const struct wd_recon_row *outer;
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t u = r[i].compared ? r[i].unexplained : 0;

		outer = r[i].rule && r[i].rule->within ?
			compared_row(r, n, r[i].rule->within) : NULL;
		if (outer)
			u = u > outer->unexplained ? u - outer->unexplained : 0;
		sum += u;
	}
	return sum;
}

/* Does an earlier match of the list name the same reason? */
static bool listed_before(const char *const *first, const char *const *m)
{
	size_t n = strcspn(*m, "@");

	for (; first < m; first++)
		if (strcspn(*first, "@") == n && !strncmp(*first, *m, n))
			return true;
	return false;
}

void wd_recon_reasons(const struct wd_recon_rule *rule, char *buf, size_t len)
{
	char reason[NAME_LEN];
	size_t off = 0;

	buf[0] = '\0';
	for (const char *const *m = rule ? rule->match : NULL; m && *m && off < len; m++) {
		if (listed_before(rule->match, m))
			continue;	/* same reason in several functions */
		match_reason(*m, reason, sizeof(reason));
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "", reason);
	}
}

bool wd_recon_explained(const struct wd_recon_row *r)
{
	return r->compared && !r->unexplained;
}

#define PARTS_SAID	3	/* devices named in a message, the largest */

/* " on eth0 (tbf 8001:)", " on a (tbf 1:) +5, b (fq 0:) +2": the devices of
 * a row, the largest PARTS_SAID; "" when it has none. */
static void where(const struct wd_recon_row *r, char *buf, size_t len)
{
	size_t off = 0, i;

	buf[0] = '\0';
	for (i = 0; i < r->n_parts && i < PARTS_SAID && off < len; i++) {
		const struct wd_counter_part *p = &r->parts[i];

		off += (size_t)snprintf(buf + off, len - off, "%s%s (%s %s)", i ? ", " : " on ",
					p->device, p->kind, p->handle);
		if (r->n_parts > 1 && off < len)
			off += (size_t)snprintf(buf + off, len - off, " +%llu",
						(unsigned long long)p->delta);
	}
	if (i < r->n_parts && off < len)
		snprintf(buf + off, len - off, " and %zu more", r->n_parts - i);
}

void wd_recon_message(const struct wd_recon_row *r, char *buf, size_t len)
{
	const char *why = r->rule && r->rule->unseen ? r->rule->unseen : "not traced";
	unsigned long long delta = r->delta;
	char at[256];

	where(r, at, sizeof(at));
	if (!r->compared || !r->unexplained) {
		snprintf(buf, len, "%s +%llu%s", r->name, delta, at);
		return;
	}
	if (!r->traced) {
		snprintf(buf, len, "%s +%llu%s, %s", r->name, delta, at, why);
		return;
	}
	snprintf(buf, len, "%s +%llu%s, %llu traced, %llu %s", r->name, delta, at,
		 (unsigned long long)r->traced, (unsigned long long)r->unexplained, why);
}
