/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel's own drop counters beside the traced drops (count, top):
 * sampled after attaching and again before detaching, inside --netns when
 * given, then reconciled with the traced counts of a snapshot
 * (src/lib/knowledge/reconcile.c) into the rows of a count document; the last
 * comparison is the evidence that tells causes apart (diagnose.h).
 */
#ifndef WD_COUNTER_SAMPLER_H
#define WD_COUNTER_SAMPLER_H

#include <stdio.h>

#include "counters.h"
#include "diagnose.h"
#include "format.h"
#include "netstats.h"
#include "opts.h"
#include "reconcile.h"

struct wd_session;
struct wd_snapshot;

/* Traced totals by reason and function, as reconciliation and diagnosis take them. */
struct wd_traced_set {
	struct wd_traced *v;
	char (*reason)[160];
	size_t n, cap;
};

struct wd_counter_sampler {
	struct wd_counters start, now;
	char netns_path[300];		/* "": whydrop's own namespace */
	struct wd_netstats_src src;	/* opened there while privileged */
	struct wd_traced_set last;	/* what was traced at the last comparison */
	char scope[400];
	char error[512];		/* why there are no counters, "" if there are */
	bool ok;			/* start sample taken */
	bool have_now;			/* "now" sample taken */
};

/* The first sample, while privileged; 0, or an exit status after a message. */
int wd_counter_sampler_begin(struct wd_counter_sampler *cs, const struct wd_opts *o);
/* Sample "now" (before wd_session_detach: nothing counted goes untraced); 0 or -1. */
int wd_counter_sampler_take(struct wd_counter_sampler *cs);
void wd_counter_sampler_end(struct wd_counter_sampler *cs);

/* The counters' rows of a count document, and what they point into. */
struct wd_counter_text {
	char reasons[256];
	char message[768];
};

struct wd_counter_rows {
	struct wd_counter_row *rows;
	struct wd_counter_text *text;
	size_t n;
	struct wd_recon_row *recon;	/* what the rows point into (their devices) */
	uint64_t untraced;		/* drops the counters found beyond the tracepoint */
};

/*
 * The two samples reconciled with what the session traced, as snap holds
 * it (s and snap NULL: nothing traced, --counters-only); what was traced
 * stays in cs->last. 0 or -errno.
 */
int wd_counter_rows_build(struct wd_counter_sampler *cs, const struct wd_opts *o,
			  struct wd_session *s, const struct wd_snapshot *snap,
			  struct wd_counter_rows *c);
void wd_counter_rows_free(struct wd_counter_rows *c);
/*
 * The evidence of the last comparison (top: the second before, as the
 * snapshot of that refresh had it); false when there is none.
 */
bool wd_counter_sampler_diag_ctx(const struct wd_counter_sampler *cs, struct wd_diag_ctx *x);
/* top: sample now and print the counters part against snap (NULL: nothing traced). */
void wd_counter_sampler_print_live(struct wd_counter_sampler *cs, const struct wd_opts *o,
				   struct wd_session *s, const struct wd_snapshot *snap, FILE *f);
/* --counters-only: the document without anything traced. 0, or 1 after a message. */
int wd_counter_report_only(const struct wd_opts *o, double duration,
			   struct wd_counter_sampler *cs, FILE *f);

#endif /* WD_COUNTER_SAMPLER_H */
