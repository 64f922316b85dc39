/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --rules in count --json: each NETFILTER_DROP row (reason, location) split
 * into one entry per rule or chain policy, and the part no rule can be
 * named for ("rule unknown", with why). The parts of a row add up to its
 * count. See docs/firewall.md.
 */
#ifndef WD_RULES_ROWS_H
#define WD_RULES_ROWS_H

#include "format.h"
#include "rules_format.h"
#include "session.h"

struct wd_rules_rows {
	struct wd_row_rule *v;
	size_t n, cap;
	char (*why)[200];	/* the whys made per row */
};

/*
 * Split rows[i] (the totals @t, @n of them) of @snap by rule with the doc
 * @d of wd_rules_report_build: rows[i].rules. 0 or -ENOMEM.
 */
int wd_rules_rows_split(struct wd_session *s, const struct wd_snapshot *snap,
			const struct wd_rules_doc *d, const struct wd_total *t,
			struct wd_count_row *rows, size_t n, struct wd_rules_rows *out);
void wd_rules_rows_free(struct wd_rules_rows *r);

#endif /* WD_RULES_ROWS_H */
