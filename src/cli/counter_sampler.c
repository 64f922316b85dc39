// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The kernel's own counters beside the traced drops; see counter_sampler.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "counter_sampler.h"
#include "output.h"
#include "session.h"

#define NAME_LEN 160

int wd_counter_sampler_begin(struct wd_counter_sampler *cs, const struct wd_opts *o)
{
	char err[512];
	uint32_t ino;
	int ns_fd = -1, ret;

	memset(cs, 0, sizeof(*cs));
	wd_netstats_init(&cs->src);
	wd_counters_init(&cs->start);
	wd_counters_init(&cs->now);
	snprintf(cs->scope, sizeof(cs->scope), "whydrop's network namespace");
	if (o->netns) {
		if (wd_netns_resolve(o->netns, cs->netns_path, sizeof(cs->netns_path), &ino,
				     err, sizeof(err))) {
			fprintf(stderr, "whydrop: %s\n", err);
			snprintf(cs->error, sizeof(cs->error), "%s", err);
			return WD_EXIT_USAGE;
		}
		snprintf(cs->scope, sizeof(cs->scope), "network namespace %s", o->netns);
		ns_fd = open(cs->netns_path, O_RDONLY | O_CLOEXEC);
		if (ns_fd < 0) {
			snprintf(err, sizeof(err), "cannot open the network namespace %s: %s",
				 cs->netns_path, strerror(errno));
			goto fail;
		}
	}
	/* Now, while privileged: the samples after it need no capability. */
	ret = wd_netstats_open(&cs->src, ns_fd, wd_diag_sysctls(), err, sizeof(err));
	if (ns_fd >= 0)
		close(ns_fd);
	if (ret || wd_netstats_sample(&cs->start, &cs->src, err, sizeof(err)))
		goto fail;
	cs->ok = true;
	return 0;
fail:
	fprintf(stderr, "whydrop: %s\n", err);
	snprintf(cs->error, sizeof(cs->error), "%s", err);
	return 1;
}

int wd_counter_sampler_take(struct wd_counter_sampler *cs)
{
	char err[512];

	if (!cs->ok)
		return -1;
	wd_counters_free(&cs->now);
	cs->have_now = false;
	if (wd_netstats_sample(&cs->now, &cs->src, err, sizeof(err))) {
		fprintf(stderr, "whydrop: %s\n", err);
		snprintf(cs->error, sizeof(cs->error), "%s", err);
		return -1;
	}
	cs->have_now = true;
	return 0;
}

static void traced_free(struct wd_traced_set *t)
{
	free(t->v);
	free(t->reason);
	memset(t, 0, sizeof(*t));
}

void wd_counter_sampler_end(struct wd_counter_sampler *cs)
{
	traced_free(&cs->last);
	wd_counters_free(&cs->start);
	wd_counters_free(&cs->now);
	wd_netstats_close(&cs->src);
	cs->ok = false;
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
static int read_traced(struct wd_session *s, const struct wd_snapshot *snap,
		       const struct wd_netns_id *ns, struct wd_traced_set *t)
{
	const struct wd_key_total *k = wd_key_rows(&snap->keys);
	int err = 0;

	for (size_t i = 0; !err && i < snap->keys.n; i++) {
		struct wd_netns_id kn = { k[i].key.netns_cookie, k[i].key.netns };
		bool known = kn.cookie || kn.inode;

		err = traced_add(t, s, &k[i], ns && known && !wd_netns_same(&kn, ns));
	}
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

int wd_counter_rows_build(struct wd_counter_sampler *cs, const struct wd_opts *o,
			  struct wd_session *s, const struct wd_snapshot *snap,
			  struct wd_counter_rows *c)
{
	struct wd_netns_id self = wd_netns_self();
	struct wd_traced_set *t = &cs->last;
	struct wd_recon_row *r = NULL;
	struct wd_recon_opts ro;
	size_t n = 0;
	int err = 0;

	recon_opts(s, o, &ro);
	traced_free(t);
	if (s && snap)
		err = read_traced(s, snap, o->netns ? NULL : &self, t);
	if (!err)
		err = wd_reconcile(&cs->start, &cs->now, t->v, t->n, &ro, &r, &n);
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

bool wd_counter_sampler_diag_ctx(const struct wd_counter_sampler *cs, struct wd_diag_ctx *x)
{
	memset(x, 0, sizeof(*x));
	if (!cs || !cs->ok || !cs->have_now)
		return false;
	*x = (struct wd_diag_ctx){ &cs->start, &cs->now, cs->last.v, cs->last.n };
	return true;
}

void wd_counter_sampler_print_live(struct wd_counter_sampler *cs, const struct wd_opts *o,
				   struct wd_session *s, const struct wd_snapshot *snap, FILE *f)
{
	struct wd_count_doc doc = { .has_counters = true, .counters_scope = cs->scope };
	struct wd_counter_rows c = { 0 };

	if (wd_counter_sampler_take(cs) || wd_counter_rows_build(cs, o, s, snap, &c))
		goto out;
	doc.counters = c.rows;
	doc.n_counters = c.n;
	wd_print_counters_table(f, &doc);
out:
	wd_counter_rows_free(&c);
}

int wd_counter_report_only(const struct wd_opts *o, double duration,
			   struct wd_counter_sampler *cs, FILE *f)
{
	struct wd_count_doc doc = { .duration_s = duration, .counters_only = true,
				    .has_counters = true, .counters_scope = cs->scope };
	struct wd_counter_rows c = { 0 };
	struct utsname u;
	int err;

	if (!uname(&u))
		doc.kernel = u.release;
	err = cs->have_now ? wd_counter_rows_build(cs, o, NULL, NULL, &c) : -EIO;
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
