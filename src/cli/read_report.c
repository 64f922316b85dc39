// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop read: the summary of what the files held, as count prints it
 * (table or JSON), with --stacks' folded lines and flame graph, --group-by
 * and record --tcp's events.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "format.h"
#include "groups.h"
#include "output.h"
#include "read.h"
#include "reasons.h"
#include "report.h"

/* As `count`: "core", or the subsystem of a subsystem reason in lower case. */
static void set_subsys(struct read_row *r)
{
	const char *colon = strchr(r->m.reason, ':');
	bool sub = r->m.has_code ? (r->m.code & WD_SUBSYS_MASK) != 0 : colon != NULL;
	size_t i, n = colon ? (size_t)(colon - r->m.reason) : 0;

	if (!sub) {
		snprintf(r->subsys, sizeof(r->subsys), "core");
		return;
	}
	if (!colon || n >= sizeof(r->subsys)) {
		snprintf(r->subsys, sizeof(r->subsys), "unknown");
		return;
	}
	for (i = 0; i < n; i++)
		r->subsys[i] = (char)tolower((unsigned char)r->m.reason[i]);
	r->subsys[i] = '\0';
}

static int cmp_row(const void *a, const void *b)
{
	const struct read_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->m.code != y->m.code)
		return x->m.code < y->m.code ? -1 : 1;
	if (strcmp(x->m.reason, y->m.reason))
		return strcmp(x->m.reason, y->m.reason);
	return strcmp(x->m.location, y->m.location);
}

static double duration(const struct read_summary *s)
{
	return s->any_window ? (double)(s->end_ns - s->start_ns) / 1e9 : 0;
}

/* The count rows, largest first; *out freed by the caller. */
static int doc_rows(struct read_summary *s, struct wd_count_doc *doc, struct wd_count_row **out)
{
	struct read_row *src = (struct read_row *)s->drops.rows;
	size_t n = s->drops.n;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	if (n)
		qsort(src, n, sizeof(*src), cmp_row);	/* the index is not used again */
	for (size_t i = 0; i < n; i++) {
		set_subsys(&src[i]);
		(*out)[i] = (struct wd_count_row){
			.code = src[i].m.code,
			.reason = src[i].m.has_reason ? src[i].m.reason : NULL,
			.subsystem = src[i].subsys,
			.function = src[i].m.function,
			.location = src[i].m.location,
			/* by place: a recording has no counters to tell causes apart */
			.hint = src[i].m.has_reason ?
				wd_hint_at(src[i].m.reason, src[i].m.function) : NULL,
			.count = src[i].count,
			.no_code = src[i].m.has_reason && !src[i].m.has_code,
		};
		doc->total += src[i].count;
	}
	doc->rows = *out;
	doc->n_rows = n;
	return 0;
}

/* --stacks of files recorded without: said, WD_EXIT_USAGE; else 0. */
static int no_stacks(const struct read_summary *s)
{
	if (!s->ro->stacks || s->stacks.with_stack || !s->stacks.without)
		return 0;
	fprintf(stderr, "whydrop read: --stacks: the %" PRIu64 " %s read %s no kernel stack "
		"(recorded without --stacks): record with `whydrop record --stacks -w FILE`, "
		"or read without --stacks\n", s->stacks.without,
		wd_plural(s->stacks.without, "drop", "drops"),
		wd_plural(s->stacks.without, "has", "have"));
	return WD_EXIT_USAGE;
}

/* --stacks: the flame graph, then the folded lines instead of the report. */
static int print_stacks(struct read_summary *s, struct wd_count_doc *doc, bool *done)
{
	int status = 0;

	*done = false;
	if (!s->ro->stacks)
		return 0;
	if (wd_read_stacks_doc(&s->stacks, doc)) {
		fprintf(stderr, "whydrop read: out of memory\n");
		return 1;
	}
	if (s->flame)
		status = wd_report_write_flame(s->flame, doc);
	if (!s->ro->folded)
		return status;
	*done = true;
	if (wd_report_print_folded(doc, stdout)) {
		fprintf(stderr, "whydrop read: out of memory\n");
		return 1;
	}
	return wd_output_check(stdout, "read") || status;
}

int wd_read_print_summary(struct read_summary *s)
{
	struct wd_count_doc doc = {
		.kernel = s->kernels,
		.duration_s = duration(s),
		.lost_events = s->lost_events,
		.location_only = s->drops.n && !s->any_reason,
	};
	struct wd_count_row *rows = NULL;
	struct wd_groups_doc gd = { 0 };
	int status = no_stacks(s), flame_failed;
	bool done;

	if (status)
		return status;
	status = 1;
	if (s->tcp.any) {
		if (wd_read_tcp_doc(&s->tcp)) {
			fprintf(stderr, "whydrop read: out of memory\n");
			goto out;
		}
		doc.tcp = &s->tcp.doc;
	}
	if (doc_rows(s, &doc, &rows) || (s->ro->group_by &&
	     wd_groups_doc_make(&s->groups, s->ro->group_by, s->ro->max_groups, &doc, &gd))) {
		fprintf(stderr, "whydrop read: out of memory\n");
		goto out;
	}
	flame_failed = print_stacks(s, &doc, &done);
	if (done) {
		status = flame_failed;
		goto out;
	}
	if (s->ro->json)
		wd_print_count_json(stdout, &doc);
	else
		wd_print_count_table(stdout, &doc);
	/* A full disk or a closed pipe: said here, whatever the file held. */
	status = wd_output_check(stdout, "read") || flame_failed;
out:
	free(rows);
	wd_groups_doc_free(&gd);
	return status;
}
