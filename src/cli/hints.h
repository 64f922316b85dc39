/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the rows of a table mean: each row's cause at its place (diagnose.h),
 * told apart by the counters' evidence when there is some, and with
 * --explain the catalogue entry of every reason with the causes found.
 */
#ifndef WD_HINTS_H
#define WD_HINTS_H

#include <stdio.h>

#include "diagnose.h"
#include "format.h"
#include "session.h"

/* What reason means at function, by place alone (diagnose.h); NULL: nothing known. */
const char *wd_hint_at(const char *reason, const char *function);
/*
 * The cause of a row with the evidence of x (NULL: by place alone), into d.
 * Returns d->text.
 */
const char *wd_hint_cause(const struct wd_diag_ctx *x, const char *reason,
			  const char *function, uint64_t count, struct wd_diagnosis *d);
/*
 * Every row's cause with the evidence of x (NULL: by place alone): rows[i].hint
 * and rows[i].cause point into *out, which the caller frees. 0 or -ENOMEM.
 */
int wd_hints_diagnose(struct wd_count_row *rows, size_t n, const struct wd_diag_ctx *x,
		      struct wd_diagnosis **out);
/* --explain: the catalogue entry of every reason of rows, and each row's cause. */
void wd_hints_explain(const struct wd_count_row *rows, size_t n, FILE *f);
/* The same for totals, by place alone (watch: no counters). */
void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f);

#endif /* WD_HINTS_H */
