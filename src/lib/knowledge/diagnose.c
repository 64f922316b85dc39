// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The diagnosis of a row of drops; see diagnose.h. The candidates of a
 * row are the causes at its function, then the causes of its reason found
 * anywhere by their counters ("*"), then the call site's entry; the
 * reason's catalogue entry is the fallback. With counters:
 *   1. a candidate one of whose counters moved by exactly these drops
 *      (or by the drops of every row it goes with): high;
 *   2. else the cause of this place that has no counter to show: medium;
 *   3. else a candidate whose counters moved, not by as many: medium;
 *   4. else this place's first cause, its counters still: low;
 *   5. no entry at this place: the reason's meaning, low.
 * Without counters: this place's cause, medium when it is the only one,
 * low when the counters would have to tell several apart.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diagnose.h"

#define MAX_CANDS	16
#define SAID_LEN	160

/* What a candidate's counters say. */
enum ev {
	EV_NONE,	/* it has none, or none was read */
	EV_STILL,	/* read, none moved */
	EV_MOVED,	/* one moved, not by these drops' number */
	EV_EXACT,	/* one moved by exactly as many */
};

struct cand {
	const char *text, *remedy;
	const char *const *counters;
	const char *const *sysctls;
	const struct wd_cause *cause;
	const struct wd_callsite *site;
	const struct wd_cat_entry *entry;
	bool place;		/* an entry for this function (not "*", not the reason's) */
	bool contradicted;	/* a sysctl it needs has another value */
	bool shared;		/* exact for the drops of every row it goes with */
	enum ev ev;
	char said[SAID_LEN];	/* "IpInHdrErrors +6", what showed it */
};

struct cands {
	struct cand v[MAX_CANDS];
	size_t n, n_place;
};

const char *wd_confidence_name(enum wd_confidence c)
{
	switch (c) {
	case WD_CONF_HIGH:
		return "high";
	case WD_CONF_MEDIUM:
		return "medium";
	default:
		return "low";
	}
}

static const char *bare(const char *reason)
{
	return strncasecmp(reason, "SKB_DROP_REASON_", 16) ? reason : reason + 16;
}

static bool same_reason(const char *a, const char *b)
{
	return a && b && !strcasecmp(bare(a), bare(b));
}

/* "tcp_v4_rcv.isra.0" and "tcp_v4_rcv" are one function; NULL is NULL only. */
static bool same_function(const char *a, const char *b)
{
	size_t n;

	if (!a || !b)
		return a == b;
	n = strcspn(a, ".");
	return n == strcspn(b, ".") && !strncmp(a, b, n);
}

/* 4, 6, or 0 for both: from the nstat prefix of a counter. */
static int counter_family(const char *c)
{
	static const char *const v6[] = { "Ip6", "Udp6", "UdpLite6", "Icmp6" };
	static const char *const v4[] = { "Ip", "Udp", "UdpLite", "Icmp" };

	for (size_t i = 0; i < sizeof(v6) / sizeof(v6[0]); i++)
		if (!strncmp(c, v6[i], strlen(v6[i])))
			return 6;
	for (size_t i = 0; i < sizeof(v4) / sizeof(v4[0]); i++)
		if (!strncmp(c, v4[i], strlen(v4[i])) && c[strlen(v4[i])] != '6')
			return 4;
	return 0;
}

/* 4, 6, or 0 when the name does not say (kernel naming: ip6_, tcp_v4_, icmp_). */
static int function_family(const char *f)
{
	static const char *const v4[] = { "ip_", "__ip_", "icmp_", "igmp", "arp_", "raw_" };

	if (!f)
		return 0;
	if (strchr(f, '6'))
		return 6;
	if (strchr(f, '4'))
		return 4;
	for (size_t i = 0; i < sizeof(v4) / sizeof(v4[0]); i++)
		if (!strncmp(f, v4[i], strlen(v4[i])))
			return 4;
	return 0;
}

bool wd_diag_family_ok(const char *counter, const char *function)
{
	int c = counter_family(counter), f = function_family(function);

	return !c || !f || c == f;
}

/* ------------------------------------------------------------ candidates */

static void add(struct cands *c, const struct cand *x)
{
	if (c->n < MAX_CANDS)
		c->v[c->n++] = *x;
}

static void add_cause(struct cands *c, const struct wd_cause *e, bool place)
{
	struct cand x = {
		.text = e->text, .remedy = e->remedy, .counters = e->counters,
		.sysctls = e->sysctls, .cause = e, .place = place,
	};

	add(c, &x);
	if (place)
		c->n_place++;
}

/* This place's causes, then the reason's causes found by counters, then the call site. */
static void gather(const char *reason, const char *function, struct cands *c)
{
	const struct wd_callsite *site = wd_callsite_for(reason, function);

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; function && i < wd_cause_count(); i++) {
		const struct wd_cause *e = wd_cause_at(i);

		if (same_reason(e->reason, reason) && wd_cause_function_is(e->function, function))
			add_cause(c, e, true);
	}
	for (size_t i = 0; i < wd_cause_count(); i++) {
		const struct wd_cause *e = wd_cause_at(i);

		if (same_reason(e->reason, reason) && !strcmp(e->function, "*"))
			add_cause(c, e, false);
	}
	if (site) {
		struct cand x = { .text = site->summary, .remedy = site->check,
				  .counters = site->counters, .site = site, .place = true };

		add(c, &x);
		c->n_place++;
	}
}

/* The reason's own entry, the fallback. */
static void fallback(const char *reason, struct cand *x)
{
	const struct wd_cat_entry *e = reason ? wd_catalogue_find(reason) : NULL;

	memset(x, 0, sizeof(*x));
	if (!e)
		return;
	*x = (struct cand){ .text = e->summary, .remedy = e->action, .counters = e->counters,
			    .sysctls = e->sysctls, .entry = e };
}

/* -------------------------------------------------------------- counters */

/* The parts of SUM of one qdisc kind ("qdisc:drops@tbf"); false if none was read. */
static bool part_delta(const struct wd_diag_ctx *x, const char *spec, uint64_t *delta,
		       char *where, size_t len)
{
	const char *at = strchr(spec, WD_COUNTER_PART);
	size_t n = (size_t)(at - spec);
	uint64_t best = 0, old;
	bool found = false;

	*delta = 0;
	for (size_t i = 0; i < x->after->n; i++) {
		const struct wd_counter *c = &x->after->v[i];
		struct wd_counter_part p;

		if (strncmp(c->name, spec, n) || c->name[n] != WD_COUNTER_PART ||
		    wd_counter_part_parse(c->name + n + 1, &p) || strcmp(p.kind, at + 1) ||
		    !wd_counters_get(x->before, c->name, &old))
			continue;
		found = true;
		if (c->value <= old)
			continue;
		*delta += c->value - old;
		if (c->value - old > best) {
			best = c->value - old;
			snprintf(where, len, " on %s (%s %s)", p.device, p.kind, p.handle);
		}
	}
	return found;
}

/* A counter's move over the interval; false if it was not read both times. */
static bool delta_of(const struct wd_diag_ctx *x, const char *spec, uint64_t *delta,
		     char *where, size_t len)
{
	uint64_t a, b;

	where[0] = '\0';
	if (strchr(spec, WD_COUNTER_PART))
		return part_delta(x, spec, delta, where, len);
	if (!wd_counters_get(x->after, spec, &a) || !wd_counters_get(x->before, spec, &b))
		return false;
	*delta = a > b ? a - b : 0;
	return true;
}

static bool global_counter(const char *spec)
{
	return !strncmp(spec, "softnet:", 8);
}

static bool lists(const char *const *v, const char *name)
{
	for (; v && *v; v++)
		if (!strcmp(*v, name))
			return true;
	return false;
}

/* Does any candidate at (reason, function), or the reason's entry, list counter? */
static bool goes_with(const char *reason, const char *function, const char *counter)
{
	struct cands c;
	struct cand fb;

	if (!wd_diag_family_ok(counter, function))
		return false;
	gather(reason, function, &c);
	for (size_t i = 0; i < c.n; i++)
		if (lists(c.v[i].counters, counter))
			return true;
	fallback(reason, &fb);
	return lists(fb.counters, counter);
}

/*
 * Drops traced in the counters' namespace: of this row (function NULL:
 * every row of the reason goes), or of every row a counter goes with.
 */
static uint64_t traced_sum(const struct wd_diag_ctx *x, const struct wd_diag_row *r,
			   const char *counter)
{
	bool global = counter && global_counter(counter);
	uint64_t sum = 0;

	if (!x->traced)
		return r->count;
	for (size_t i = 0; i < x->n_traced; i++) {
		const struct wd_traced *t = &x->traced[i];

		if (t->elsewhere && !global)
			continue;
		if (counter ? goes_with(t->reason, t->function, counter) :
		    same_reason(t->reason, r->reason) && same_function(t->function, r->function))
			sum += t->count;
	}
	return sum;
}

/* What cand's counters say about n drops here. */
static void weigh(const struct wd_diag_ctx *x, const struct wd_diag_row *r, uint64_t n,
		  struct cand *c)
{
	char where[96];
	uint64_t d;

	c->ev = EV_NONE;
	for (const char *const *s = c->counters; s && *s; s++) {
		uint64_t want = global_counter(*s) ? r->count : n;
		enum ev ev;

		if (!wd_diag_family_ok(*s, r->function) ||
		    !delta_of(x, *s, &d, where, sizeof(where)))
			continue;
		ev = !d ? EV_STILL : d == want || d == traced_sum(x, r, *s) ? EV_EXACT : EV_MOVED;
		if (ev <= c->ev)
			continue;
		c->ev = ev;
		c->shared = ev == EV_EXACT && d != want;
		if (ev == EV_STILL)
			snprintf(c->said, sizeof(c->said), "%s did not move", *s);
		else
			snprintf(c->said, sizeof(c->said), "%.*s%s +%" PRIu64,
				 (int)strcspn(*s, "@"), *s, where, d);
	}
}

/* ---------------------------------------------------------------- sysctls */

static bool sysctl_value(const struct wd_diag_ctx *x, const char *name, size_t n, uint64_t *v)
{
	char key[160];

	snprintf(key, sizeof(key), WD_SYSCTL_PREFIX "%.*s", (int)n, name);
	return x && x->after && wd_counters_get(x->after, key, v);
}

/* A cause that needs "NAME=V" while NAME has another value here. */
static bool contradicted(const struct wd_diag_ctx *x, const struct cand *c)
{
	for (const char *const *s = c->sysctls; s && *s; s++) {
		const char *eq = strchr(*s, '=');
		uint64_t v;

		if (eq && sysctl_value(x, *s, (size_t)(eq - *s), &v) &&
		    v != strtoull(eq + 1, NULL, 10))
			return true;
	}
	return false;
}

/* "; net.ipv4.ip_forward=1 here": the values read of the chosen entry's sysctls. */
static void say_sysctls(const struct wd_diag_ctx *x, struct wd_diagnosis *d)
{
	const char *const *s = d->cause ? d->cause->sysctls : d->entry ? d->entry->sysctls : NULL;
	size_t len = sizeof(d->evidence), off = strlen(d->evidence);
	char *buf = d->evidence;

	for (; s && *s && off < len; s++) {
		size_t n = strcspn(*s, "=");
		uint64_t v;

		if (sysctl_value(x, *s, n, &v))
			off += (size_t)snprintf(buf + off, len - off, "; %.*s=%" PRIu64 " here",
						(int)n, *s, v);
	}
}

/* ------------------------------------------------------------- the choice */

static void take(struct wd_diagnosis *d, const struct cand *c, enum wd_confidence conf)
{
	d->text = c->text;
	d->remedy = c->remedy;
	d->cause = c->cause;
	d->site = c->site;
	d->entry = c->entry;
	d->confidence = conf;
}

static const struct cand *first(const struct cands *c, enum ev ev, bool place_only)
{
	for (size_t i = 0; i < c->n; i++)
		if (!c->v[i].contradicted && c->v[i].ev == ev && (!place_only || c->v[i].place))
			return &c->v[i];
	return NULL;
}

static const char *fn_of(const struct wd_diag_row *r)
{
	return r->function ? r->function : "an unknown function";
}

/* "IpInHdrErrors +6, the same as these drops" (or as every row it goes with). */
static void say_exact(const struct cand *p, uint64_t n, struct wd_diagnosis *d)
{
	if (p->shared)
		snprintf(d->evidence, sizeof(d->evidence), "%s, the same as the drops of every "
			 "place it goes with (%" PRIu64 " here)", p->said, n);
	else
		snprintf(d->evidence, sizeof(d->evidence), "%s, the same as these drops",
			 p->said);
}

/* "TTL expired ...: one of 2 causes here" without counters. */
static void by_place(const struct wd_diag_row *r, const struct cands *c, const char *why,
		     struct wd_diagnosis *d)
{
	const struct cand *p = NULL;

	for (size_t i = 0; i < c->n && !p; i++)
		if (c->v[i].place && !c->v[i].contradicted)
			p = &c->v[i];
	if (!p)
		p = &c->v[0];
	take(d, p, c->n_place == 1 ? WD_CONF_MEDIUM : WD_CONF_LOW);
	if (c->n_place > 1)
		snprintf(d->evidence, sizeof(d->evidence), "one of %zu causes of %s at %s%s%s: "
			 "the counters over the interval tell them apart", c->n_place, r->reason,
			 fn_of(r), why ? "; " : "", why ? why : "");
	else
		snprintf(d->evidence, sizeof(d->evidence), "by place: %s at %s%s%s", r->reason,
			 fn_of(r), why ? "; " : "", why ? why : "");
}

/* Steps 1-4 of the file's comment: this place has candidates, counters were read. */
static void by_counters(const struct wd_diag_row *r, struct cands *c, uint64_t n,
			struct wd_diagnosis *d)
{
	const struct cand *p, *other = NULL;

	if ((p = first(c, EV_EXACT, false))) {
		take(d, p, WD_CONF_HIGH);
		say_exact(p, n, d);
		return;
	}
	for (size_t i = 0; i < c->n && !other; i++)
		if (c->v[i].ev >= EV_STILL)
			other = &c->v[i];
	if ((p = first(c, EV_NONE, true))) {
		take(d, p, WD_CONF_MEDIUM);
		snprintf(d->evidence, sizeof(d->evidence), "by place: %s at %s%s%s", r->reason,
			 fn_of(r), other ? "; " : "", other ? other->said : "");
		return;
	}
	if ((p = first(c, EV_MOVED, false))) {
		take(d, p, WD_CONF_MEDIUM);
		snprintf(d->evidence, sizeof(d->evidence), "%s for %" PRIu64 " %s here: other "
			 "drops move it too, or some were not traced", p->said, n,
			 n == 1 ? "drop" : "drops");
		return;
	}
	by_place(r, c, other ? other->said : NULL, d);
	d->confidence = WD_CONF_LOW;
}

/* No entry for this place: the reason's meaning, confirmed by its counters or not. */
static void by_reason(const struct wd_diag_row *r, const struct wd_diag_ctx *x, uint64_t n,
		      struct wd_diagnosis *d)
{
	struct cand fb;

	fallback(r->reason, &fb);
	if (!fb.text) {
		const struct wd_callsite *site = wd_callsite_find(r->function);

		if (!r->reason && site) {	/* no reasons on this kernel: the place alone */
			d->text = site->summary;
			d->remedy = site->check;
			d->site = site;
			snprintf(d->evidence, sizeof(d->evidence), "no reason on this kernel: what "
				 "drops at %s usually are", r->function);
		}
		return;
	}
	take(d, &fb, WD_CONF_LOW);
	if (x && n)
		weigh(x, r, n, &fb);
	if (fb.ev == EV_EXACT) {
		d->confidence = WD_CONF_HIGH;
		say_exact(&fb, n, d);
		return;
	}
	snprintf(d->evidence, sizeof(d->evidence), "the reason's general meaning: no entry for "
		 "%s at %s", r->reason, fn_of(r));
}

void wd_diagnose(const struct wd_diag_row *r, const struct wd_diag_ctx *x,
		 struct wd_diagnosis *d)
{
	struct cands c;
	uint64_t n = 0;

	memset(d, 0, sizeof(*d));
	if (!r->reason) {	/* a kernel without reasons: the place alone */
		by_reason(r, NULL, 0, d);
		return;
	}
	gather(r->reason, r->function, &c);
	if (x && x->before && x->after)
		n = traced_sum(x, r, NULL);
	else
		x = NULL;
	for (size_t i = 0; i < c.n; i++) {
		c.v[i].contradicted = contradicted(x, &c.v[i]);
		if (x && n)
			weigh(x, r, n, &c.v[i]);
	}
	if (!c.n_place && !first(&c, EV_EXACT, false) && !first(&c, EV_MOVED, false))
		by_reason(r, x, n, d);
	else if (!x)
		by_place(r, &c, NULL, d);
	else if (!n)
		by_place(r, &c, "the counters read are another namespace's", d);
	else
		by_counters(r, &c, n, d);
	say_sysctls(x, d);
}

/* ---------------------------------------------------------- the sampler */

#define MAX_SYSCTLS	64

const char *const *wd_diag_sysctls(void)
{
	static char names[MAX_SYSCTLS][96];
	static const char *list[MAX_SYSCTLS + 1];
	static size_t n;

	if (list[0] || n)
		return list;
	for (size_t i = 0; i < wd_cause_count() && n < MAX_SYSCTLS; i++) {
		for (const char *const *s = wd_cause_at(i)->sysctls; s && *s; s++) {
			size_t len = strcspn(*s, "=");
			bool seen = false;

			if (memchr(*s, '*', len) || len >= sizeof(names[0]))
				continue;
			for (size_t k = 0; k < n && !seen; k++)
				seen = strlen(names[k]) == len && !strncmp(names[k], *s, len);
			if (seen || n == MAX_SYSCTLS)
				continue;
			snprintf(names[n], sizeof(names[n]), "%.*s", (int)len, *s);
			list[n] = names[n];
			n++;
		}
	}
	return list;
}
