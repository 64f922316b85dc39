/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What the catalogue says of the reasons in a table: a one-line hint, the whole entry. */
#ifndef WD_HINTS_H
#define WD_HINTS_H

#include <stdio.h>

#include "session.h"

/* One-line hint for a reason name, NULL if the catalogue has none. */
const char *wd_hint(const char *reason);
/* The call site's summary when it covers reason there, else wd_hint(reason). */
const char *wd_hint_at(const char *reason, const char *function);
/* --explain: the catalogue entry of every reason in the totals. */
void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f);

#endif /* WD_HINTS_H */
