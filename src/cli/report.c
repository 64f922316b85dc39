// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "catalogue.h"
#include "netstats.h"
#include "reconcile.h"
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

/* ------------------------------------------------------------ counters */

int wd_watch_begin(struct wd_counter_watch *w, const struct wd_opts *o)
{
	char err[512];
	uint32_t ino;

	memset(w, 0, sizeof(*w));
	wd_counters_init(&w->start);
	wd_counters_init(&w->now);
	snprintf(w->scope, sizeof(w->scope), "whydrop's network namespace");
	if (o->netns) {
		if (wd_netns_resolve(o->netns, w->netns_path, sizeof(w->netns_path), &ino,
				     err, sizeof(err))) {
			fprintf(stderr, "whydrop: %s\n", err);
			return WD_EXIT_USAGE;
		}
		snprintf(w->scope, sizeof(w->scope), "network namespace %s", o->netns);
	}
	if (wd_netstats_sample(&w->start, w->netns_path[0] ? w->netns_path : NULL,
			       err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return 1;
	}
	w->ok = true;
	return 0;
}

int wd_watch_sample(struct wd_counter_watch *w)
{
	char err[512];

	if (!w->ok)
		return -1;
	wd_counters_free(&w->now);
	w->have_now = false;
	if (wd_netstats_sample(&w->now, w->netns_path[0] ? w->netns_path : NULL,
			       err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		return -1;
	}
	w->have_now = true;
	return 0;
}

void wd_watch_end(struct wd_counter_watch *w)
{
	wd_counters_free(&w->start);
	wd_counters_free(&w->now);
	w->ok = false;
}

struct traced_set {
	struct wd_traced *v;
	char (*reason)[NAME_LEN];
	size_t n, cap;
};

static void traced_free(struct traced_set *t)
{
	free(t->v);
	free(t->reason);
	memset(t, 0, sizeof(*t));
}

static int traced_add(struct traced_set *t, struct wd_session *s,
		      const struct wd_key_total *kt, bool elsewhere)
{
	const struct wd_ksym *k;
	uint64_t off;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct wd_traced *v = realloc(t->v, cap * sizeof(*v));
		char (*r)[NAME_LEN];

		if (!v)
			return -ENOMEM;
		t->v = v;
		r = realloc(t->reason, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		t->reason = r;
		t->cap = cap;
	}
	k = kt->key.location ? wd_ksym_find(&s->ksyms, kt->key.location, &off) : NULL;
	wd_reason_name(&s->reasons, kt->key.reason, t->reason[t->n], NAME_LEN);
	t->v[t->n] = (struct wd_traced){ NULL, k ? k->name : NULL, kt->count, elsewhere };
	t->n++;
	return 0;
}

/*
 * Traced totals by reason and function. Without --netns the program counts
 * every namespace while most counters are whydrop's own namespace's: drops
 * of another namespace than ns (0: any) are marked elsewhere, and only the
 * global counters take them. A drop of unknown namespace (0) counts here.
 */
static int read_traced(struct wd_session *s, uint32_t ns, struct traced_set *t)
{
	struct wd_key_total *k;
	size_t n;
	int err = wd_session_keys(s, &k, &n);

	if (err)
		return err;
	for (size_t i = 0; !err && i < n; i++)
		err = traced_add(t, s, &k[i], ns && k[i].key.netns && k[i].key.netns != ns);
	free(k);
	for (size_t i = 0; !err && i < t->n; i++)
		t->v[i].reason = t->reason[i];
	return err;
}

static void recon_opts(struct wd_session *s, const struct wd_opts *o, struct wd_recon_opts *ro)
{
	memset(ro, 0, sizeof(*ro));
	ro->traced = s != NULL;
	ro->netns_scoped = o->netns != NULL;
	ro->reasons = o->reasons;
	if (s && !s->reasons.has_reason)
		ro->no_compare = "this kernel traces no drop reasons";
	else if (o->ifname)
		ro->no_compare = "-i traces one interface, the counter counts all";
	else if (o->filter)
		ro->no_compare = "a filter expression limits what is traced";
}

struct counter_text {
	char reasons[256];
	char message[768];
};

struct counter_rows {
	struct wd_counter_row *rows;
	struct counter_text *text;
	size_t n;
};

static void counter_rows_free(struct counter_rows *c)
{
	free(c->rows);
	free(c->text);
	memset(c, 0, sizeof(*c));
}

static int to_rows(const struct wd_recon_row *r, size_t n, struct counter_rows *c)
{
	c->rows = calloc(n ? n : 1, sizeof(*c->rows));
	c->text = calloc(n ? n : 1, sizeof(*c->text));
	if (!c->rows || !c->text)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct wd_counter_row *row = &c->rows[i];

		row->name = r[i].name;
		row->delta = r[i].delta;
		row->compared = r[i].compared;
		row->traced = r[i].traced;
		row->unexplained = r[i].unexplained;
		row->note = r[i].note;
		if (r[i].rule) {
			wd_recon_reasons(r[i].rule, c->text[i].reasons, sizeof(c->text[i].reasons));
			row->reasons = c->text[i].reasons;
			row->explanation = r[i].rule->unseen;
		}
		wd_recon_message(&r[i], c->text[i].message, sizeof(c->text[i].message));
		row->message = c->text[i].message;
	}
	c->n = n;
	return 0;
}

/* Reconcile the watch's two samples with what s traced into rows for doc. */
static int build_counters(struct wd_session *s, const struct wd_opts *o,
			  struct wd_counter_watch *w, struct counter_rows *c)
{
	struct traced_set t = { 0 };
	struct wd_recon_row *r = NULL;
	struct wd_recon_opts ro;
	size_t n = 0;
	int err = 0;

	recon_opts(s, o, &ro);
	if (s)
		err = read_traced(s, o->netns ? 0 : wd_netns_self(), &t);
	if (!err)
		err = wd_reconcile(&w->start, &w->now, t.v, t.n, &ro, &r, &n);
	if (!err)
		err = to_rows(r, n, c);
	free(r);
	traced_free(&t);
	return err;
}

void wd_report_counters_live(struct wd_session *s, const struct wd_opts *o,
			     struct wd_counter_watch *w, FILE *f)
{
	struct wd_count_doc doc = { .has_counters = true, .counters_scope = w->scope };
	struct counter_rows c = { 0 };

	if (wd_watch_sample(w) || build_counters(s, o, w, &c))
		goto out;
	doc.counters = c.rows;
	doc.n_counters = c.n;
	wd_print_counters_table(f, &doc);
out:
	counter_rows_free(&c);
}

/* --counters-only: the document without anything traced. */
static int report_counters_only(const struct wd_opts *o, double duration,
				struct wd_counter_watch *w, FILE *f)
{
	struct wd_count_doc doc = { .duration_s = duration, .counters_only = true,
				    .has_counters = true, .counters_scope = w->scope };
	struct counter_rows c = { 0 };
	struct utsname u;
	int err;

	if (!uname(&u))
		doc.kernel = u.release;
	err = w->have_now ? build_counters(NULL, o, w, &c) : -EIO;
	if (err) {
		fprintf(stderr, "whydrop: cannot compare the counters: %s\n", strerror(-err));
		goto out;
	}
	doc.counters = c.rows;
	doc.n_counters = c.n;
	if (o->json)
		wd_print_count_json(f, &doc);
	else
		wd_print_count_table(f, &doc);
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "whydrop: cannot write the report: %s\n", strerror(errno));
		err = -EIO;
	}
out:
	counter_rows_free(&c);
	return err ? 1 : 0;
}

int wd_report_counts(struct wd_session *s, const struct wd_opts *o, double duration, FILE *f)
{
	return wd_report_counts_watch(s, o, duration, NULL, f);
}

int wd_report_counts_watch(struct wd_session *s, const struct wd_opts *o, double duration,
			   struct wd_counter_watch *w, FILE *f)
{
	struct wd_count_doc doc = { .duration_s = duration };
	struct counter_rows c = { 0 };
	struct wd_count_row *rows = NULL;
	struct row_names *names = NULL;
	struct wd_total *t = NULL;
	struct wd_stats st;
	size_t n = 0;
	int err;

	if (!s)
		return report_counters_only(o, duration, w, f);
	doc.kernel = s->kernel;
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
	if (w && w->have_now && !build_counters(s, o, w, &c)) {
		doc.has_counters = true;
		doc.counters_scope = w->scope;
		doc.counters = c.rows;
		doc.n_counters = c.n;
	}
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
	counter_rows_free(&c);
	free(rows);
	free(names);
	free(t);
	return err ? 1 : 0;
}
