// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel's own counters beside the traced reasons: sampled after
 * attaching and before detaching (inside --netns when given), and
 * reconciled with what was traced (src/lib/reconcile.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "output.h"
#include "reconcile.h"
#include "report.h"

#define NAME_LEN 160

int wd_watch_begin(struct wd_counter_watch *w, const struct wd_opts *o)
{
	char err[512];
	uint32_t ino;
	int ns_fd = -1, ret;

	memset(w, 0, sizeof(*w));
	wd_netstats_init(&w->src);
	wd_counters_init(&w->start);
	wd_counters_init(&w->now);
	snprintf(w->scope, sizeof(w->scope), "whydrop's network namespace");
	if (o->netns) {
		if (wd_netns_resolve(o->netns, w->netns_path, sizeof(w->netns_path), &ino,
				     err, sizeof(err))) {
			fprintf(stderr, "whydrop: %s\n", err);
			snprintf(w->error, sizeof(w->error), "%s", err);
			return WD_EXIT_USAGE;
		}
		snprintf(w->scope, sizeof(w->scope), "network namespace %s", o->netns);
		ns_fd = open(w->netns_path, O_RDONLY | O_CLOEXEC);
		if (ns_fd < 0) {
			snprintf(err, sizeof(err), "cannot open the network namespace %s: %s",
				 w->netns_path, strerror(errno));
			goto fail;
		}
	}
	/* Now, while privileged: the samples after it need no capability. */
	ret = wd_netstats_open(&w->src, ns_fd, wd_diag_sysctls(), err, sizeof(err));
	if (ns_fd >= 0)
		close(ns_fd);
	if (ret || wd_netstats_sample(&w->start, &w->src, err, sizeof(err)))
		goto fail;
	w->ok = true;
	return 0;
fail:
	fprintf(stderr, "whydrop: %s\n", err);
	snprintf(w->error, sizeof(w->error), "%s", err);
	return 1;
}

int wd_watch_sample(struct wd_counter_watch *w)
{
	char err[512];

	if (!w->ok)
		return -1;
	wd_counters_free(&w->now);
	w->have_now = false;
	if (wd_netstats_sample(&w->now, &w->src, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		snprintf(w->error, sizeof(w->error), "%s", err);
		return -1;
	}
	w->have_now = true;
	return 0;
}

static void traced_free(struct wd_traced_set *t);

void wd_watch_end(struct wd_counter_watch *w)
{
	traced_free(&w->last);
	wd_counters_free(&w->start);
	wd_counters_free(&w->now);
	wd_netstats_close(&w->src);
	w->ok = false;
}

static void traced_free(struct wd_traced_set *t)
{
	free(t->v);
	free(t->reason);
	memset(t, 0, sizeof(*t));
}

static int traced_add(struct wd_traced_set *t, struct wd_session *s,
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
 * of another namespace than ns (NULL: any) are marked elsewhere, and only
 * the global counters take them. A drop of unknown namespace counts here.
 */
static int read_traced(struct wd_session *s, const struct wd_netns_id *ns,
		       struct wd_traced_set *t)
{
	struct wd_key_total *k;
	size_t n;
	int err = wd_session_keys(s, &k, &n);

	if (err)
		return err;
	for (size_t i = 0; !err && i < n; i++) {
		struct wd_netns_id kn = { k[i].key.netns_cookie, k[i].key.netns };
		bool known = kn.cookie || kn.inode;

		err = traced_add(t, s, &k[i], ns && known && !wd_netns_same(&kn, ns));
	}
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

void wd_counter_rows_free(struct wd_counter_rows *c)
{
	wd_recon_free(c->recon, c->n);
	free(c->rows);
	free(c->text);
	memset(c, 0, sizeof(*c));
}

static int to_rows(const struct wd_recon_row *r, size_t n, struct wd_counter_rows *c)
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
		row->explained = wd_recon_explained(&r[i]);
		row->traced = r[i].traced;
		row->unexplained = r[i].unexplained;
		row->note = r[i].note;
		row->parts = r[i].parts;
		row->n_parts = r[i].n_parts;
		if (r[i].rule) {
			wd_recon_reasons(r[i].rule, c->text[i].reasons, sizeof(c->text[i].reasons));
			row->reasons = c->text[i].reasons;
			row->explanation = r[i].rule->unseen;
		} else if (r[i].paired[0]) {
			row->reasons = r[i].paired;
		}
		wd_recon_message(&r[i], c->text[i].message, sizeof(c->text[i].message));
		row->message = c->text[i].message;
	}
	c->n = n;
	return 0;
}

int wd_counters_build(struct wd_session *s, const struct wd_opts *o,
			  struct wd_counter_watch *w, struct wd_counter_rows *c)
{
	struct wd_netns_id self = wd_netns_self();
	struct wd_traced_set *t = &w->last;
	struct wd_recon_row *r = NULL;
	struct wd_recon_opts ro;
	size_t n = 0;
	int err = 0;

	recon_opts(s, o, &ro);
	traced_free(t);
	if (s)
		err = read_traced(s, o->netns ? NULL : &self, t);
	if (!err)
		err = wd_reconcile(&w->start, &w->now, t->v, t->n, &ro, &r, &n);
	if (!err)
		err = to_rows(r, n, c);
	/* the rows point into r: kept with them, freed with them */
	c->recon = r;
	c->n = n;
	c->untraced = wd_recon_untraced(r, n);
	if (err)
		traced_free(t);
	return err;
}

bool wd_report_diag_ctx(const struct wd_counter_watch *w, struct wd_diag_ctx *x)
{
	memset(x, 0, sizeof(*x));
	if (!w || !w->ok || !w->have_now)
		return false;
	*x = (struct wd_diag_ctx){ &w->start, &w->now, w->last.v, w->last.n };
	return true;
}

const char *wd_report_hint(const struct wd_counter_watch *w, const char *reason,
			   const char *function, uint64_t count, struct wd_diagnosis *d)
{
	struct wd_diag_row row = { reason, function, count };
	struct wd_diag_ctx x;

	wd_diagnose(&row, wd_report_diag_ctx(w, &x) && w->last.v ? &x : NULL, d);
	return d->text;
}

void wd_report_counters_live(struct wd_session *s, const struct wd_opts *o,
			     struct wd_counter_watch *w, FILE *f)
{
	struct wd_count_doc doc = { .has_counters = true, .counters_scope = w->scope };
	struct wd_counter_rows c = { 0 };

	if (wd_watch_sample(w) || wd_counters_build(s, o, w, &c))
		goto out;
	doc.counters = c.rows;
	doc.n_counters = c.n;
	wd_print_counters_table(f, &doc);
out:
	wd_counter_rows_free(&c);
}

int wd_report_counters_only(const struct wd_opts *o, double duration,
				struct wd_counter_watch *w, FILE *f)
{
	struct wd_count_doc doc = { .duration_s = duration, .counters_only = true,
				    .has_counters = true, .counters_scope = w->scope };
	struct wd_counter_rows c = { 0 };
	struct utsname u;
	int err;

	if (!uname(&u))
		doc.kernel = u.release;
	err = w->have_now ? wd_counters_build(NULL, o, w, &c) : -EIO;
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
	err = wd_output_errno(f);
	if (err)
		fprintf(stderr, "whydrop: cannot write the report: %s\n", strerror(err));
out:
	wd_counter_rows_free(&c);
	return err ? 1 : 0;
}
