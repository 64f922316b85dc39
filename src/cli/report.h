/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The end-of-run report shared by count, top and watch. */
#ifndef WD_REPORT_H
#define WD_REPORT_H

#include <stdio.h>

#include "counters.h"
#include "diagnose.h"
#include "netstats.h"
#include "reconcile.h"
#include "session.h"

struct wd_groups;
struct wd_check;

/* What reason means at function, by place alone (diagnose.h); NULL: nothing known. */
const char *wd_hint_at(const char *reason, const char *function);
/* --explain: the catalogue entry of every reason in the totals, and each row's cause. */
void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f);

/* Traced totals by reason and function, as reconciliation and diagnosis take them. */
struct wd_traced_set {
	struct wd_traced *v;
	char (*reason)[160];
	size_t n, cap;
};

/*
 * The kernel's own counters over the same interval as the traced counts:
 * sampled after attaching and again before detaching (inside --netns when
 * given), then reconciled with the traced reasons (reconcile.h).
 */
struct wd_counter_watch {
	struct wd_counters start, now;
	char netns_path[300];		/* "": whydrop's own namespace */
	struct wd_netstats_src src;	/* opened there while privileged */
	struct wd_traced_set last;	/* what was traced at the last comparison */
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
 * Exact totals as a table or the `count --json` document, and the counters
 * that moved between the two samples of w (NULL: none) next to the traced
 * reasons; s NULL: --counters-only.
 */
int wd_report_counts_watch(struct wd_session *s, const struct wd_opts *o, double duration,
			   struct wd_counter_watch *w, FILE *f);
/*
 * The same, then the check of count --fail-on (check.h; NULL: none): 0, 1
 * after a runtime failure, or WD_EXIT_CHECK when a threshold was crossed.
 */
int wd_report_counts_check(struct wd_session *s, const struct wd_opts *o,
			   const struct wd_check *check, double duration,
			   struct wd_counter_watch *w, FILE *f);
/*
 * The cause of a row with the evidence of w's last comparison (top: the
 * second before), by place alone when there is none. Returns d->text.
 */
const char *wd_report_hint(const struct wd_counter_watch *w, const char *reason,
			   const char *function, uint64_t count, struct wd_diagnosis *d);
/* top: sample now and print only the counters part. */
void wd_report_counters_live(struct wd_session *s, const struct wd_opts *o,
			     struct wd_counter_watch *w, FILE *f);

/*
 * count and top: open the session, take the first sample of the kernel's
 * counters (going on without them if it fails), give up privileges, group
 * the counts if asked. 0, or an exit status after a message (nothing left
 * open then).
 */
int wd_report_start(struct wd_session *s, struct wd_opts *o, struct wd_counter_watch *w,
		    struct wd_groups *g);
/* Detach, with the last sample of the kernel's counters just before (nothing untraced). */
void wd_report_detach(struct wd_session *s, struct wd_counter_watch *w);
/* After the report: what wd_report_start opened, closed. */
void wd_report_end(struct wd_session *s, struct wd_counter_watch *w, struct wd_groups *g);

/* Between report.c and report_counters.c: the counters' rows of a document. */
struct wd_counter_text {
	char reasons[256];
	char message[768];
};

/* The evidence of w's last comparison; false when there is none. */
bool wd_report_diag_ctx(const struct wd_counter_watch *w, struct wd_diag_ctx *x);

struct wd_counter_rows {
	struct wd_counter_row *rows;
	struct wd_counter_text *text;
	size_t n;
	struct wd_recon_row *recon;	/* what the rows point into (their devices) */
	uint64_t untraced;		/* drops the counters found beyond the tracepoint */
};

/* Reconcile the watch's two samples with what s traced (NULL: nothing) into rows;
 * what was traced stays in w->last. */
int wd_counters_build(struct wd_session *s, const struct wd_opts *o,
		      struct wd_counter_watch *w, struct wd_counter_rows *c);
void wd_counter_rows_free(struct wd_counter_rows *c);
/* --counters-only: the document without anything traced. 0, or 1 after a message. */
int wd_report_counters_only(const struct wd_opts *o, double duration,
			    struct wd_counter_watch *w, FILE *f);

#endif /* WD_REPORT_H */
