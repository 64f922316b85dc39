// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A count document (count, read, top's summary) as JSON and as tables: the
 * drop rows with their causes, the counters beside them, sources, hidden
 * drops, stacks, groups, --fail-on, and the sections --rules and --tcp add.
 * A single drop's line is format.c's.
 */
#include <inttypes.h>
#include <string.h>
#include <linux/types.h>

#include "check.h"
#include "format.h"
#include "json.h"
#include "rules_format.h"
#include "tcp_format.h"
#include "whydrop.h"
/* "A,B" as a JSON array of strings. */
static void json_list(struct wd_json *j, const char *key, const char *csv)
{
	char item[128];

	wd_json_open(j, key, '[');
	while (*csv) {
		size_t n = strcspn(csv, ",");

		snprintf(item, sizeof(item), "%.*s", (int)n, csv);
		wd_json_str(j, NULL, item);
		csv += n;
		if (*csv)
			csv++;
	}
	wd_json_close(j, ']');
}

/* "devices": the qdiscs whose drops moved a sum, the largest first. */
static void json_parts(struct wd_json *j, const struct wd_counter_row *c)
{
	wd_json_open(j, "devices", '[');
	for (size_t i = 0; i < c->n_parts; i++) {
		wd_json_open(j, NULL, '{');
		wd_json_str(j, "device", c->parts[i].device);
		wd_json_str(j, "qdisc", c->parts[i].kind);
		wd_json_str(j, "handle", c->parts[i].handle);
		wd_json_uint(j, "delta", c->parts[i].delta);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

static void print_counters_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	wd_json_open(j, "counters", '[');
	for (size_t i = 0; i < doc->n_counters; i++) {
		const struct wd_counter_row *c = &doc->counters[i];

		wd_json_open(j, NULL, '{');
		wd_json_str(j, "name", c->name);
		wd_json_uint(j, "delta", c->delta);
		wd_json_bool(j, "reconciled", c->compared);
		if (c->reasons)
			json_list(j, "reasons", c->reasons);
		if (c->compared) {
			wd_json_uint(j, "traced", c->traced);
			wd_json_uint(j, "unexplained", c->unexplained);
		}
		wd_json_flag(j, "explained", c->explained);
		if (c->compared && c->unexplained && c->explanation)
			wd_json_str(j, "explanation", c->explanation);
		wd_json_str_opt(j, "note", c->note);
		if (c->n_parts)
			json_parts(j, c);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

/* "cause": what the diagnosis made of a row (diagnose.h). */
static void print_cause_json(struct wd_json *j, const struct wd_diagnosis *d)
{
	wd_json_open(j, "cause", '{');
	wd_json_str(j, "text", d->text);
	wd_json_str(j, "confidence", wd_confidence_name(d->confidence));
	if (d->evidence[0])
		wd_json_str(j, "evidence", d->evidence);
	wd_json_str_opt(j, "remedy", d->remedy);
	wd_json_close(j, '}');
}

/* One entry of a row; --rules: @part names the rule of @count of its drops. */
static void print_entry_json(struct wd_json *j, const struct wd_count_row *r, uint64_t count,
			     const struct wd_row_rule *part)
{
	wd_json_open(j, NULL, '{');
	wd_json_reason(j, r->reason, r->code, r->no_code);
	if (r->reason)
		wd_json_str(j, "subsystem", r->subsystem);
	wd_json_str(j, "function", r->function);
	wd_json_str(j, "location", r->location);
	wd_json_uint(j, "count", count);
	if (part)
		wd_print_row_rule_json(j, part);
	if (r->cause && r->cause->text)
		print_cause_json(j, r->cause);
	wd_json_close(j, '}');
}

static void print_row_json(struct wd_json *j, const struct wd_count_row *r)
{
	if (!r->n_rules) {
		print_entry_json(j, r, r->count, NULL);
		return;
	}
	for (size_t i = 0; i < r->n_rules; i++)
		print_entry_json(j, r, r->rules[i].count, &r->rules[i]);
}

static void print_rows_json(struct wd_json *j, const char *key, const struct wd_count_row *rows,
			    size_t n)
{
	wd_json_open(j, key, '[');
	for (size_t i = 0; i < n; i++)
		print_row_json(j, &rows[i]);
	wd_json_close(j, ']');
}

/* "check": count --fail-on, each threshold and the reasons it measured. */
static void print_check_json(struct wd_json *j, const struct wd_check_result *r)
{
	wd_json_open(j, "check", '{');
	wd_json_str(j, "fail_on", r->check->spec);
	wd_json_bool(j, "crossed", r->crossed);
	wd_json_uint(j, "exit_status", r->crossed ? WD_EXIT_CHECK : 0);
	wd_json_open(j, "thresholds", '[');
	for (size_t i = 0; i < r->n; i++) {
		const struct wd_check_outcome *o = &r->o[i];

		wd_json_open(j, NULL, '{');
		wd_json_str(j, "threshold", o->term->text);
		wd_json_bool(j, "crossed", o->crossed);
		wd_json_uint(j, "count", o->count);
		wd_json_double(j, "rate", o->rate, 3);
		wd_json_open(j, "reasons", '[');
		for (size_t k = 0; k < o->n_reasons; k++) {
			const struct wd_check_reason *x = &o->reasons[k];

			wd_json_open(j, NULL, '{');
			wd_json_str_opt(j, "reason", x->reason);
			wd_json_uint(j, "count", x->count);
			wd_json_double(j, "rate", x->rate, 3);
			wd_json_bool(j, "crossed", o->term->what == WD_CHECK_UNEXPECTED ?
				     x->crossed : o->crossed);
			wd_json_open(j, "drops", '[');
			for (size_t n = 0; n < x->n_rows; n++)
				print_row_json(j, x->rows[n]);
			wd_json_close(j, ']');
			wd_json_close(j, '}');
		}
		wd_json_close(j, ']');
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
	wd_json_close(j, '}');
}

static void print_source_json(struct wd_json *j, const struct wd_count_source *src)
{
	wd_json_str(j, "source", src->name);
	wd_json_open(j, src->name, '{');
	wd_json_str(j, "mode", src->mode);
	wd_json_uint(j, "queue_dropped", src->queue_dropped);
	wd_json_uint(j, "hw_queue_dropped", src->hw_queue_dropped);
	wd_json_uint(j, "socket_overruns", src->overruns);
	wd_json_uint(j, "truncated", src->truncated);
	wd_json_uint(j, "summary_full", src->summary_full);
	wd_json_bool(j, "counts_lower_bound", src->lower_bound);
	wd_json_bool(j, "netns_known", false);
	wd_json_close(j, '}');
}

static void print_drops_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	print_rows_json(j, "drops", doc->rows, doc->n_rows);
}

static void print_hidden_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	wd_json_open(j, "hidden", '{');
	wd_json_uint(j, "total", doc->hidden_total);
	wd_json_open(j, "rules", '[');
	for (size_t i = 0; i < doc->n_hidden; i++) {
		const struct wd_hidden_rule *h = &doc->hidden[i];

		wd_json_open(j, NULL, '{');
		wd_json_str(j, "rule", h->rule);
		wd_json_str(j, "source", h->source);
		if (h->why[0])
			wd_json_str(j, "why", h->why);
		wd_json_uint(j, "count", h->count);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
	print_rows_json(j, "drops", doc->hidden_rows, doc->n_hidden_rows);
	wd_json_close(j, '}');
}

static void print_stacks_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	wd_json_open(j, "stacks", '[');
	for (size_t i = 0; i < doc->n_stacks; i++) {
		const struct wd_stack_row *r = &doc->stacks[i];

		wd_json_open(j, NULL, '{');
		wd_json_reason(j, r->reason, r->code, false);
		wd_json_str(j, "function", r->function);
		wd_json_str(j, "location", r->location);
		wd_json_uint(j, "count", r->count);
		wd_json_flag(j, "hidden", r->hidden);
		wd_json_strn(j, "stack", r->frames, r->n_frames);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
	wd_json_open(j, "stacks_lost", '{');
	wd_json_uint(j, "collisions", doc->stack_collisions);
	wd_json_uint(j, "not_stored", doc->stack_errors);
	wd_json_uint(j, "counts_full", doc->stack_overflow);
	wd_json_close(j, '}');
}

static void print_groups_json(struct wd_json *j, const struct wd_count_doc *doc)
{
	wd_json_str(j, "group_by", doc->group_by);
	wd_json_uint_opt(j, "groups_lost", doc->groups_lost);
	wd_json_open(j, "groups", '[');
	for (size_t i = 0; i < doc->n_groups; i++) {
		const struct wd_group_out *g = &doc->groups[i];

		wd_json_open(j, NULL, '{');
		wd_json_str(j, "group", g->group);
		wd_json_reason(j, g->reason, g->code, false);
		wd_json_uint(j, "count", g->count);
		wd_json_uint_opt(j, "netns", g->netns);
		wd_json_uint_opt(j, "netns_cookie", g->netns_cookie);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

void wd_print_count_json(FILE *f, const struct wd_count_doc *doc)
{
	struct wd_json j;

	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "kernel", doc->kernel);
	wd_json_double(&j, "duration_s", doc->duration_s, 1);
	if (doc->counters_only) {
		wd_json_bool(&j, "counters_only", true);
	} else {
		wd_json_uint(&j, "total", doc->total);
		wd_json_uint(&j, "lost_events", doc->lost_events);
		if (doc->has_filter)
			wd_json_uint(&j, "filter_paged_unmatched", doc->filter_paged);
		wd_json_flag(&j, "location_only", doc->location_only);
		if (doc->source)
			print_source_json(&j, doc->source);
		print_drops_json(&j, doc);
		if (doc->noise)
			print_hidden_json(&j, doc);
		if (doc->has_stacks)
			print_stacks_json(&j, doc);
		if (doc->rules)
			wd_print_rules_json(&j, doc->rules);
	}
	if (doc->group_by)
		print_groups_json(&j, doc);
	if (doc->has_counters && !doc->counters_only)
		wd_json_uint(&j, "counters_untraced", doc->counters_untraced);
	if (doc->has_counters)
		print_counters_json(&j, doc);
	else if (doc->counters_error)
		wd_json_str(&j, "counters_error", doc->counters_error);
	if (doc->check)
		print_check_json(&j, doc->check);
	if (doc->tcp)
		wd_print_tcp_json(&j, doc->tcp);
	wd_json_close(&j, '}');
	fputc('\n', f);
}

static void print_counter_line(FILE *f, const struct wd_counter_row *c)
{
	char traced[24] = "-", unexp[24] = "-";

	if (c->compared) {
		snprintf(traced, sizeof(traced), "%" PRIu64, c->traced);
		snprintf(unexp, sizeof(unexp), "%" PRIu64, c->unexplained);
	}
	fprintf(f, "%10" PRIu64 "  %-26s %8s %12s  %s%s", c->delta, c->name, traced, unexp,
		c->reasons ? c->reasons : "(context)", c->explained ? " (explained)" : "");
	if (c->note)
		fprintf(f, "  [%s]", c->note);
	fputc('\n', f);
	for (size_t i = 0; i < c->n_parts; i++)
		fprintf(f, "%10" PRIu64 "    on %s (%s %s)\n", c->parts[i].delta,
			c->parts[i].device, c->parts[i].kind, c->parts[i].handle);
}

void wd_print_counters_table(FILE *f, const struct wd_count_doc *doc)
{
	bool any = false;

	fprintf(f, "\nKernel counters, same interval%s%s:\n",
		doc->counters_scope ? ", " : "", doc->counters_scope ? doc->counters_scope : "");
	if (!doc->n_counters) {
		fprintf(f, "  no drop counter moved\n");
		return;
	}
	fprintf(f, "%10s  %-26s %8s %12s  %s\n", "DELTA", "COUNTER", "TRACED", "UNEXPLAINED",
		"MATCHING REASONS");
	for (size_t i = 0; i < doc->n_counters; i++)
		print_counter_line(f, &doc->counters[i]);
	for (size_t i = 0; i < doc->n_counters; i++) {
		const struct wd_counter_row *c = &doc->counters[i];

		if (!c->compared || !c->unexplained)
			continue;
		if (!any)
			fprintf(f, "Drops with no traced reason:\n");
		any = true;
		fprintf(f, "  %s\n", c->message ? c->message : c->name);
	}
}

static void print_source_text(FILE *f, const struct wd_count_source *src)
{
	fprintf(f, "Source: drop_monitor (%s mode); network namespaces unknown", src->mode);
	if (src->queue_dropped || src->hw_queue_dropped)
		fprintf(f, "; %" PRIu64 " %s lost in its per-CPU queue", src->queue_dropped +
			src->hw_queue_dropped, wd_plural(src->queue_dropped + src->hw_queue_dropped,
							 "drop", "drops"));
	if (src->overruns)
		fprintf(f, "; our socket overflowed %" PRIu64 " %s (drops lost, number unknown)",
			src->overruns, wd_plural(src->overruns, "time", "times"));
	if (src->summary_full)
		fprintf(f, "; %" PRIu64 " %s full (drops at further locations lost)",
			src->summary_full, wd_plural(src->summary_full, "summary", "summaries"));
	if (src->truncated)
		fprintf(f, "; %" PRIu64 " %s truncated", src->truncated,
			wd_plural(src->truncated, "packet", "packets"));
	fputc('\n', f);
	if (src->lower_bound)
		fprintf(f, "Counts are lower bounds: drop_monitor lost some drops.\n");
}

/* The footer that says what was hidden as expected, and why. */
static void print_hidden_text(FILE *f, const struct wd_count_doc *doc)
{
	if (!doc->hidden_total) {
		fprintf(f, "0 drops hidden as expected\n");
		return;
	}
	fprintf(f, "%" PRIu64 " %s hidden as expected (--show-all shows them):\n",
		doc->hidden_total, wd_plural(doc->hidden_total, "drop", "drops"));
	for (size_t i = 0; i < doc->n_hidden; i++) {
		const struct wd_hidden_rule *h = &doc->hidden[i];

		if (!h->count)
			continue;
		fprintf(f, "%10" PRIu64 "  %s  (%s%s%s)\n", h->count, h->rule, h->source,
			h->why[0] ? ": " : "", h->why);
	}
}

void wd_print_stacks_text(FILE *f, const struct wd_count_doc *doc)
{
	fprintf(f, "\nStacks by reason and location, innermost frame first:\n");
	for (size_t i = 0; i < doc->n_stacks; i++) {
		const struct wd_stack_row *r = &doc->stacks[i];

		if (r->hidden)
			continue;
		fprintf(f, "%10" PRIu64 "  %-26s %s\n", r->count, r->reason ? r->reason : "-",
			r->location);
		for (size_t k = 0; k < r->n_frames; k++)
			fprintf(f, "%12s%s\n", "", r->frames[k]);
	}
	fprintf(f, "Stacks lost: %" PRIu64 " bucket %s, %" PRIu64 " not stored, %" PRIu64
		" over --map-size (counted above by reason and location)\n",
		doc->stack_collisions, wd_plural(doc->stack_collisions, "collision", "collisions"),
		doc->stack_errors, doc->stack_overflow);
}

static bool flow_groups(const char *by)
{
	return by && (!strcmp(by, "flow") || !strcmp(by, "src") || !strcmp(by, "dst"));
}

void wd_print_groups_table(FILE *f, const struct wd_count_doc *doc)
{
	if (!doc->group_by)
		return;
	fprintf(f, "\nBy %s:\n%10s  %-40s %s\n", doc->group_by, "COUNT",
		!strcmp(doc->group_by, "interface") ? "INTERFACE@NETNS" : "GROUP", "REASON");
	for (size_t i = 0; i < doc->n_groups; i++) {
		const struct wd_group_out *g = &doc->groups[i];

		fprintf(f, "%10" PRIu64 "  %-40s %s\n", g->count, g->group,
			g->reason ? g->reason : "-");
	}
	if (doc->groups_lost)
		fprintf(f, "%" PRIu64 " %s not grouped: the %s map was full "
			"(%s in the totals above)\n", doc->groups_lost,
			wd_plural(doc->groups_lost, "drop", "drops"), flow_groups(doc->group_by) ?
			"per-flow" : "by-socket",
			wd_plural(doc->groups_lost, "it is", "they are"));
}

/* The rows of a reason that a threshold measured, each with its cause. */
static void print_check_reason(FILE *f, const struct wd_check_reason *x)
{
	for (size_t n = 0; n < x->n_rows; n++) {
		const struct wd_count_row *r = x->rows[n];
		const struct wd_diagnosis *d = r->cause;

		fprintf(f, "%12" PRIu64 "  %-26s %-34s %s\n", r->count, r->reason ? r->reason : "-",
			r->location, r->hint ? r->hint : "");
		if (d && d->text)
			fprintf(f, "%14s%s: %s\n", "", wd_confidence_name(d->confidence),
				d->evidence);
		if (d && d->remedy)
			fprintf(f, "%14sdo: %s\n", "", d->remedy);
	}
}

/* count --fail-on: each threshold, and the causes of what crossed. */
static void print_check_text(FILE *f, const struct wd_check_result *r)
{
	fprintf(f, "\nCheck --fail-on %s: %s\n", r->check->spec,
		r->crossed ? "crossed (exit status 3)" : "passed");
	for (size_t i = 0; i < r->n; i++) {
		const struct wd_check_outcome *o = &r->o[i];
		bool each = o->term->what == WD_CHECK_UNEXPECTED;

		fprintf(f, "  %s: %s, %s%" PRIu64 " %s, %.1f/s\n", o->term->text,
			o->crossed ? "crossed" : "not crossed", each ? "largest reason " : "",
			o->count, wd_plural(o->count, "drop", "drops"), o->rate);
		for (size_t k = 0; o->crossed && k < o->n_reasons; k++)
			if (!each || o->reasons[k].crossed)
				print_check_reason(f, &o->reasons[k]);
	}
}

void wd_print_count_table(FILE *f, const struct wd_count_doc *doc)
{
	if (doc->counters_only) {
		fprintf(f, "Counters only (nothing traced) over %.1f s\n", doc->duration_s);
		wd_print_counters_table(f, doc);
		return;
	}
	fprintf(f, "%10s  %-26s %-34s %s\n", "COUNT", "REASON", "LOCATION", "WHAT IT MEANS");
	for (size_t i = 0; i < doc->n_rows; i++) {
		const struct wd_count_row *r = &doc->rows[i];

		fprintf(f, "%10" PRIu64 "  %-26s %-34s %s\n", r->count,
			r->reason ? r->reason : "-", r->location, r->hint ? r->hint : "");
	}
	/* what the counters found that no event said counts in the headline too */
	if (doc->has_counters && doc->counters_untraced)
		fprintf(f, "%" PRIu64 " traced %s in %.1f s, %" PRIu64 " more found by the "
			"kernel's counters (never traced: see below)", doc->total,
			wd_plural(doc->total, "drop", "drops"), doc->duration_s,
			doc->counters_untraced);
	else
		fprintf(f, "%" PRIu64 " %s in %.1f s", doc->total,
			wd_plural(doc->total, "drop", "drops"), doc->duration_s);
	if (doc->lost_events)
		fprintf(f, ", %" PRIu64 " not counted (see lost_events)", doc->lost_events);
	if (doc->filter_paged)
		fprintf(f, ", %" PRIu64 " left out unmatched: the filter needed bytes in paged "
			"data, which whydrop cannot read", doc->filter_paged);
	fputc('\n', f);
	if (doc->source)
		print_source_text(f, doc->source);
	if (doc->noise)
		print_hidden_text(f, doc);
	if (doc->has_stacks)
		wd_print_stacks_text(f, doc);
	if (doc->rules)
		wd_print_rules_text(f, doc->rules);
	wd_print_groups_table(f, doc);
	if (doc->has_counters)
		wd_print_counters_table(f, doc);
	else if (doc->counters_error)
		fprintf(f, "\nKernel counters: not read (%s)\n", doc->counters_error);
	if (doc->tcp)
		wd_print_tcp_table(f, doc->tcp);
	if (doc->check)
		print_check_text(f, doc->check);
}
