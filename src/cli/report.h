/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The end-of-run report shared by count, top and watch. */
#ifndef WD_REPORT_H
#define WD_REPORT_H

#include <stdio.h>

#include "counters.h"
#include "netstats.h"
#include "session.h"

/* Exact totals as a table or the `count --json` document. */
int wd_report_counts(struct wd_session *s, const struct wd_opts *o, double duration, FILE *f);
/* One-line hint for a reason name, NULL if the catalogue has none. */
const char *wd_hint(const char *reason);
/* The call site's summary when it covers reason there, else wd_hint(reason). */
const char *wd_hint_at(const char *reason, const char *function);
/* --explain: the catalogue entry of every reason in the totals. */
void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f);

/*
 * The kernel's own counters over the same interval as the traced counts:
 * sampled after attaching and again before detaching (inside --netns when
 * given), then reconciled with the traced reasons (reconcile.h).
 */
struct wd_counter_watch {
	struct wd_counters start, now;
	char netns_path[300];		/* "": whydrop's own namespace */
	struct wd_netstats_src src;	/* opened there while privileged */
	char scope[400];
	char error[512];		/* why there are no counters, "" if there are */
	bool ok;			/* start sample taken */
	bool have_now;			/* "now" sample taken */
};

/* First sample; 0, or an exit status after a message. */
int wd_watch_begin(struct wd_counter_watch *w, const struct wd_opts *o);
/* Sample "now" (call before wd_session_detach); 0 or -1 after a message. */
int wd_watch_sample(struct wd_counter_watch *w);
void wd_watch_end(struct wd_counter_watch *w);

/*
 * wd_report_counts plus the counters that moved between the two samples of
 * w (NULL: none), next to the traced reasons; s NULL: --counters-only.
 */
int wd_report_counts_watch(struct wd_session *s, const struct wd_opts *o, double duration,
			   struct wd_counter_watch *w, FILE *f);
/* top: sample now and print only the counters part. */
void wd_report_counters_live(struct wd_session *s, const struct wd_opts *o,
			     struct wd_counter_watch *w, FILE *f);

#endif /* WD_REPORT_H */
