/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The diagnosis between counts and words: for one row of drops (a reason
 * at a function), the cause from the catalogue's entries for that reason
 * at that place (callsites.h: causes and call sites), refined by the
 * kernel counters that moved over the same interval and the sysctls read
 * in the namespace, with how sure it is and why. Without such an entry,
 * the reason's own catalogue summary. Plain structs in and out, no I/O:
 * the caller samples the counters (netstats.h) and hands the traced
 * totals in (reconcile.h).
 *
 *   IP_INHDR at ip_forward, 6 drops, IpInHdrErrors +6
 *     -> "TTL expired while forwarding (a loop, or traceroute)", high,
 *        "IpInHdrErrors +6, the same as these drops"
 */
#ifndef WD_DIAGNOSE_H
#define WD_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callsites.h"
#include "catalogue.h"
#include "counters.h"
#include "reconcile.h"

enum wd_confidence {
	WD_CONF_LOW,		/* the reason's general meaning, or counters against it */
	WD_CONF_MEDIUM,		/* the one cause known at this place, not confirmed */
	WD_CONF_HIGH,		/* a counter moved by exactly these drops */
};

/* One row: a reason (no prefix; NULL on kernels without reasons) at a function. */
struct wd_diag_row {
	const char *reason;
	const char *function;	/* NULL: unknown (overflow bucket, no kallsyms) */
	uint64_t count;		/* the row's drops, every namespace */
};

/*
 * What the interval says. before/after: the counters' two samples (NULL:
 * none read); after also holds the sysctls as "sysctl:NAME" (their first
 * number). traced: every (reason, function) traced over the same interval,
 * those of another namespace than the counters' marked elsewhere; NULL:
 * the row's count is taken as the counters' namespace's.
 */
struct wd_diag_ctx {
	const struct wd_counters *before, *after;
	const struct wd_traced *traced;
	size_t n_traced;
};

#define WD_DIAG_EVIDENCE	320

struct wd_diagnosis {
	const char *text;		/* the hint; NULL: nothing known */
	const char *remedy;		/* what to do; NULL: nothing known */
	enum wd_confidence confidence;
	char evidence[WD_DIAG_EVIDENCE];	/* why this cause */
	const struct wd_cause *cause;	/* the entry chosen, or NULL */
	const struct wd_callsite *site;	/* ... or this call site's */
	const struct wd_cat_entry *entry;	/* ... or the reason's */
};

/* Diagnose row; ctx NULL: by place alone (watch, explain, recordings). */
void wd_diagnose(const struct wd_diag_row *row, const struct wd_diag_ctx *ctx,
		 struct wd_diagnosis *d);
const char *wd_confidence_name(enum wd_confidence c);	/* "low", "medium", "high" */

/*
 * The sysctls the causes name, without '*' and without a required value
 * ("net.ipv4.ip_forward"), each once: what a sample reads in the namespace
 * (netstats.h). NULL-terminated, static.
 */
const char *const *wd_diag_sysctls(void);

/*
 * May a counter go with drops at this function? Not when both name a family
 * and they differ: UdpNoPorts (IPv4) is no evidence for drops in
 * __udp6_lib_rcv. Counters of both families (TcpExt*, softnet:, netdev:)
 * and functions of either (__dev_queue_xmit) go with anything.
 */
bool wd_diag_family_ok(const char *counter, const char *function);

/* The sysctl counter's name: "sysctl:" NAME. */
#define WD_SYSCTL_PREFIX	"sysctl:"

#endif /* WD_DIAGNOSE_H */
