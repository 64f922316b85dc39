// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* What the rows of a table mean; see hints.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "hints.h"

#define NAME_LEN 160

const char *wd_hint_at(const char *reason, const char *function)
{
	struct wd_diag_row row = { reason, function, 0 };
	struct wd_diagnosis d;

	wd_diagnose(&row, NULL, &d);
	return d.text;	/* static text of the catalogue */
}

const char *wd_hint_cause(const struct wd_diag_ctx *x, const char *reason,
			  const char *function, uint64_t count, struct wd_diagnosis *d)
{
	struct wd_diag_row row = { reason, function, count };

	wd_diagnose(&row, x, d);
	return d->text;
}

int wd_hints_diagnose(struct wd_count_row *rows, size_t n, const struct wd_diag_ctx *x,
		      struct wd_diagnosis **out)
{
	struct wd_diagnosis *d = calloc(n ? n : 1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rows[i].hint = wd_hint_cause(x, rows[i].reason, rows[i].function, rows[i].count,
					     &d[i]);
		rows[i].cause = &d[i];
	}
	*out = d;
	return 0;
}

static bool seen_before(const struct wd_count_row *r, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (r[j].code == r[i].code && !r[j].reason == !r[i].reason &&
		    (!r[i].reason || !strcmp(r[j].reason, r[i].reason)))
			return true;
	return false;
}

/* "  Here: 6 at ip_forward+0x2c0: TTL expired ... (high: IpInHdrErrors +6, ...)" */
static void explain_rows(const struct wd_count_row *r, size_t n, size_t i, FILE *f)
{
	char buf[768];

	for (size_t k = i; k < n; k++) {
		const struct wd_diagnosis *d = r[k].cause;

		if (r[k].code != r[i].code || !d || !d->text)
			continue;
		snprintf(buf, sizeof(buf), "%" PRIu64 " at %s: %s (%s: %s)", r[k].count,
			 r[k].location, d->text, wd_confidence_name(d->confidence), d->evidence);
		wd_catalogue_field(f, "Here:", buf);
		if (d->remedy && d->remedy != (d->entry ? d->entry->action : NULL))
			wd_catalogue_field(f, "Do:", d->remedy);
	}
}

void wd_hints_explain(const struct wd_count_row *r, size_t n, FILE *f)
{
	for (size_t i = 0; i < n; i++) {
		const struct wd_cat_entry *e;

		if (seen_before(r, i))
			continue;
		e = r[i].reason ? wd_catalogue_find(r[i].reason) : NULL;
		fputc('\n', f);
		if (e)
			wd_catalogue_print(f, e);
		else
			fprintf(f, "%s: not in whydrop's catalogue (a newer kernel?)\n",
				r[i].reason ? r[i].reason : r[i].location);
		explain_rows(r, n, i, f);
	}
}

struct row_names {
	char reason[NAME_LEN], subsys[NAME_LEN], function[NAME_LEN], location[NAME_LEN];
};

void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f)
{
	struct wd_count_row *rows = calloc(n ? n : 1, sizeof(*rows));
	struct row_names *names = calloc(n ? n : 1, sizeof(*names));
	struct wd_diagnosis *d = NULL;

	if (!rows || !names)
		goto out;
	for (size_t i = 0; i < n; i++)
		wd_session_row(s, &t[i], &rows[i], names[i].reason, names[i].subsys,
			       names[i].function, names[i].location, NAME_LEN);
	if (!wd_hints_diagnose(rows, n, NULL, &d))
		wd_hints_explain(rows, n, f);
out:
	free(d);
	free(rows);
	free(names);
}
