// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "report.h"

#define NAME_LEN 160

struct row_names {
	char reason[NAME_LEN], subsys[NAME_LEN], function[NAME_LEN], location[NAME_LEN];
};

const char *wd_hint(const char *reason)
{
	const struct wd_cat_entry *e = reason ? wd_catalogue_find(reason) : NULL;

	return e ? e->summary : NULL;
}

static bool seen_before(const struct wd_total *t, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (t[j].reason == t[i].reason)
			return true;
	return false;
}

void wd_report_explain(struct wd_session *s, const struct wd_total *t, size_t n, FILE *f)
{
	char name[NAME_LEN];

	for (size_t i = 0; i < n; i++) {
		const struct wd_cat_entry *e;

		if (seen_before(t, i))
			continue;
		e = wd_catalogue_find(wd_reason_name(&s->reasons, t[i].reason, name, sizeof(name)));
		fputc('\n', f);
		if (e)
			wd_catalogue_print(f, e);
		else
			fprintf(f, "%s: not in whydrop's catalogue (a newer kernel?)\n", name);
	}
}

int wd_report_counts(struct wd_session *s, const struct wd_opts *o, double duration, FILE *f)
{
	struct wd_count_doc doc = { .kernel = s->kernel, .duration_s = duration };
	struct wd_count_row *rows = NULL;
	struct row_names *names = NULL;
	struct wd_total *t = NULL;
	struct wd_stats st;
	size_t n = 0;
	int err;

	err = wd_session_totals(s, &t, &n);
	if (!err)
		err = wd_session_stats(s, &st);
	if (err) {
		fprintf(stderr, "whydrop: cannot read the counts: %s\n", strerror(-err));
		goto out;
	}
	rows = calloc(n ? n : 1, sizeof(*rows));
	names = calloc(n ? n : 1, sizeof(*names));
	if (!rows || !names) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		wd_session_row(s, &t[i], &rows[i], names[i].reason, names[i].subsys,
			       names[i].function, names[i].location, NAME_LEN);
		rows[i].hint = wd_hint(names[i].reason);
		doc.total += rows[i].count;
	}
	doc.rows = rows;
	doc.n_rows = n;
	doc.lost_events = st.recursion_misses;
	doc.location_only = !s->reasons.has_reason;
	if (o->json)
		wd_print_count_json(f, &doc);
	else
		wd_print_count_table(f, &doc);
	if (o->explain)
		wd_report_explain(s, t, n, f);
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "whydrop: cannot write the report: %s (%" PRIu64 " drops were counted)\n",
			strerror(errno), doc.total);
		err = -EIO;
	}
out:
	free(rows);
	free(names);
	free(t);
	return err ? 1 : 0;
}
