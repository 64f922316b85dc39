/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reconciliation of traced drops with the kernel's own counters over the
 * same interval. Some counters move one-to-one with a drop reason on the
 * paths that count them (UdpNoPorts with NO_SOCKET in __udp4_lib_rcv): when
 * such a counter moved more than its reasons were traced, the rest are
 * drops the tracepoint did not see with that reason (a full accept queue
 * refuses SYNs with no kfree_skb event at all). Other counters that moved
 * are shown as context (TcpOutRsts, InErrors aggregates), unless the
 * catalogue pairs them with reasons (a reason's counters, a cause's or a
 * call site's: callsites.h) and they moved by exactly as many drops as
 * those reasons had: then they are explained (compared, nothing
 * unexplained), never flagged when they are not.
 *
 * Pure logic, no I/O: the caller samples the counters (netstats.h) and
 * hands the traced totals in by reason and function.
 */
#ifndef WD_RECONCILE_H
#define WD_RECONCILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"

/*
 * A counter that moves with drops of known reasons. Each match is
 * "REASON" (anywhere) or "REASON@function" (only drops located in that
 * function; a ".isra.0"-style suffix of the traced name is ignored). An
 * empty list means no kfree_skb event ever goes with the counter.
 */
struct wd_recon_rule {
	const char *counter;		/* nstat spelling, or "qdisc:drops" ... */
	const char *const *match;	/* NULL-terminated */
	bool global;			/* not per network namespace (softnet) */
	const char *unseen;		/* why increments can lack an event */
	const char *within;		/* counted in that rule's counter too */
};

/*
 * Traced drops: reason name (no prefix) and function, NULL when unknown.
 * elsewhere: traced in another namespace than the one whose counters were
 * read, so only global counters (softnet) can account for them.
 */
struct wd_traced {
	const char *reason;
	const char *function;
	uint64_t count;
	bool elsewhere;
};

struct wd_recon_opts {
	bool traced;		/* false: --counters-only, nothing to compare with */
	bool netns_scoped;	/* counters of one namespace: global ones can't match */
	const char *no_compare;	/* set: compare nothing, say why (-i, expression) */
	const char *reasons;	/* -r list: rules outside it are not compared */
};

/* Note of a row whose drops had no function name: traced is an upper bound. */
#define WD_RECON_BY_REASON "some drops have no function name (no CAP_SYSLOG?): " \
	"matched by reason alone"

#define WD_RECON_PAIRED	192

struct wd_recon_row {
	const char *name;			/* points into the "after" sample */
	uint64_t delta;
	const struct wd_recon_rule *rule;	/* NULL: context only, or paired */
	char paired[WD_RECON_PAIRED];		/* no rule: the reasons it goes with, "A,B" */
	bool compared;				/* traced and unexplained are valid */
	uint64_t traced;
	uint64_t unexplained;			/* delta - traced, 0 if below */
	const char *note;			/* why not compared, or a remark */
	struct wd_counter_part *parts;		/* the devices that moved it, malloc'd */
	size_t n_parts;
};

/*
 * Counters that moved between two samples, rules first (table order), then
 * context by delta. Counters that went backwards (device or socket gone)
 * are left out. A sum's parts that moved (counters.h) are in its row, the
 * largest first. *out is malloc'd (may be NULL when *n is 0): free it with
 * wd_recon_free().
 */
int wd_reconcile(const struct wd_counters *before, const struct wd_counters *after,
		 const struct wd_traced *t, size_t nt, const struct wd_recon_opts *o,
		 struct wd_recon_row **out, size_t *n);
void wd_recon_free(struct wd_recon_row *r, size_t n);

/*
 * Drops the kernel's counters found beyond the tracepoint: the unexplained
 * drops of the compared rows, each drop once (a rule within another adds
 * only what goes beyond that one's).
 */
uint64_t wd_recon_untraced(const struct wd_recon_row *r, size_t n);

/* "TcpExtListenOverflows +37, no kfree_skb event: ..." for a row with
 * unexplained drops; "qdisc:drops +17 on eth0 (tbf 8001:), ..." with parts. */
void wd_recon_message(const struct wd_recon_row *r, char *buf, size_t len);
/* The rule's reasons, comma-separated ("TCP_LISTEN_OVERFLOW"); "" if none. */
void wd_recon_reasons(const struct wd_recon_rule *rule, char *buf, size_t len);
/* A row whose delta the traced drops account for: compared, nothing unexplained. */
bool wd_recon_explained(const struct wd_recon_row *r);

#endif /* WD_RECONCILE_H */
