/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The end-of-run report shared by count, top and watch. */
#ifndef WD_REPORT_H
#define WD_REPORT_H

#include <stdio.h>

#include "session.h"

/* Exact totals as a table or the `count --json` document. */
int wd_report_counts(struct wd_session *s, const struct wd_opts *o, double duration, FILE *f);
/* One-line hint for a reason name, NULL if the catalogue has none. */
const char *wd_hint(const char *reason);
/* --explain: the catalogue entry of every reason in the totals. */
void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f);

#endif /* WD_REPORT_H */
