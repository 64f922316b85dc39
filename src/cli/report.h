/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A counting run of count and top, and its report: the exact totals of one
 * snapshot named and explained, what the noise list hid, the stacks, the
 * groups, and the kernel's counters beside them (counter_sampler.h).
 */
#ifndef WD_REPORT_H
#define WD_REPORT_H

#include <stdio.h>

#include "counter_sampler.h"
#include "groups.h"
#include "hints.h"
#include "session.h"

struct wd_check;
struct wd_flame_out;

/*
 * count and top: open the session, take the first sample of the kernel's
 * counters (going on without them if it fails), give up privileges, set
 * up the groups (by none without --group-by). 0, or an exit status after
 * a message (nothing left open then).
 */
int wd_report_start(struct wd_session *s, struct wd_opts *o, struct wd_counter_sampler *cs,
		    struct wd_groups *g);
/*
 * After a snapshot of a live loop and everything drawn from it: the sources
 * keep their tables bounded, the swapped-out counts by socket going to
 * their process's group (--group-by process).
 */
void wd_report_maintain(struct wd_session *s, struct wd_groups *g);
/* Detach, with the last sample of the kernel's counters just before (nothing untraced). */
void wd_report_detach(struct wd_session *s, struct wd_counter_sampler *cs);
/* After the report: what wd_report_start opened, closed. */
void wd_report_end(struct wd_session *s, struct wd_counter_sampler *cs, struct wd_groups *g);

/*
 * The report of one snapshot taken now: exact totals as a table or the
 * `count --json` document, each row with its cause (the counters'
 * evidence of the same snapshot), the groups of g, and the counters that
 * moved between the two samples of cs (NULL: none) next to the traced
 * reasons. s NULL: --counters-only. 0, or 1 after a message.
 */
int wd_report_counts(struct wd_session *s, struct wd_groups *g, const struct wd_opts *o,
		     double duration, struct wd_counter_sampler *cs, FILE *f);
/*
 * The same, then the check of count --fail-on (check.h; NULL: none): 0, 1
 * after a runtime failure, or WD_EXIT_CHECK when a threshold was crossed.
 */
int wd_report_counts_check(struct wd_session *s, struct wd_groups *g, const struct wd_opts *o,
			   const struct wd_check *check, double duration,
			   struct wd_counter_sampler *cs, FILE *f);

/*
 * --stacks --folded: the folded lines of doc's stacks not hidden, the
 * reason as root frame, on f (what was left out said on stderr). 0 or -ENOMEM.
 */
int wd_report_print_folded(const struct wd_count_doc *doc, FILE *f);
/* --svg: the same lines as --folded, as a flame graph. 0, or 1 after a message. */
int wd_report_write_flame(struct wd_flame_out *out, const struct wd_count_doc *doc);

#endif /* WD_REPORT_H */
