// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* What the catalogue says of the reasons in a table; see hints.h. */
#include "callsites.h"
#include "catalogue.h"
#include "hints.h"

#define NAME_LEN 160

const char *wd_hint(const char *reason)
{
	const struct wd_cat_entry *e = reason ? wd_catalogue_find(reason) : NULL;

	return e ? e->summary : NULL;
}

const char *wd_hint_at(const char *reason, const char *function)
{
	const struct wd_callsite *c = wd_callsite_for(reason, function);

	return c ? c->summary : wd_hint(reason);
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
