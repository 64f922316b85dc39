/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The end-of-run report shared by count, top and watch. */
#ifndef WD_REPORT_H
#define WD_REPORT_H

#include <stdio.h>

#include "counter_sampler.h"
#include "session.h"

struct wd_groups;

/* One-line hint for a reason name, NULL if the catalogue has none. */
const char *wd_hint(const char *reason);
/* The call site's summary when it covers reason there, else wd_hint(reason). */
const char *wd_hint_at(const char *reason, const char *function);
/* --explain: the catalogue entry of every reason in the totals. */
void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f);

/*
 * Exact totals as a table or the `count --json` document, and the counters
 * that moved between the two samples of cs (NULL: none) next to the traced
 * reasons; s NULL: --counters-only.
 */
int wd_report_counts(struct wd_session *s, const struct wd_opts *o, double duration,
		     struct wd_counter_sampler *cs, FILE *f);

/*
 * count and top: open the session, take the first sample of the kernel's
 * counters (going on without them if it fails), give up privileges, group
 * the counts if asked. 0, or an exit status after a message (nothing left
 * open then).
 */
int wd_report_start(struct wd_session *s, struct wd_opts *o, struct wd_counter_sampler *cs,
		    struct wd_groups *g);
/* Detach, with the last sample of the kernel's counters just before (nothing untraced). */
void wd_report_detach(struct wd_session *s, struct wd_counter_sampler *cs);
/* After the report: what wd_report_start opened, closed. */
void wd_report_end(struct wd_session *s, struct wd_counter_sampler *cs, struct wd_groups *g);

#endif /* WD_REPORT_H */
