// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "callsites.h"
#include "catalogue.h"
#include "groups.h"
#include "netstats.h"
#include "output.h"
#include "source_dropmon.h"
#include "noise.h"
#include "stack.h"
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

/* ------------------------------------------------------------ counters */

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
	ret = wd_netstats_open(&w->src, ns_fd, err, sizeof(err));
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

void wd_watch_end(struct wd_counter_watch *w)
{
	wd_counters_free(&w->start);
	wd_counters_free(&w->now);
	wd_netstats_close(&w->src);
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
	err = wd_output_errno(f);
	if (err)
		fprintf(stderr, "whydrop: cannot write the report: %s\n", strerror(err));
out:
	counter_rows_free(&c);
	return err ? 1 : 0;
}

/* drop_monitor's losses: lost_events are the drops its queue could not hold. */
static const struct wd_count_source *dropmon_source(struct wd_session *s,
						    struct wd_count_source *src, uint64_t *lost)
{
	struct wd_dm_losses l;

	wd_dm_source_losses(s, &l);
	*src = (struct wd_count_source){
		.name = "dropmon", .mode = l.packet_mode ? "packet" : "summary",
		.queue_dropped = l.queue_dropped, .hw_queue_dropped = l.hw_queue_dropped,
		.overruns = l.overruns, .truncated = l.truncated, .summary_full = l.summary_full,
		.lower_bound = l.queue_dropped || l.hw_queue_dropped || l.overruns || l.summary_full,
	};
	*lost = l.queue_dropped + l.hw_queue_dropped;
	return src;
}

int wd_report_counts(struct wd_session *s, const struct wd_opts *o, double duration, FILE *f)
{
	return wd_report_counts_watch(s, o, duration, NULL, f);
}

/* What the noise list hid: rows moved out of doc->rows, a line per rule. */
struct hidden_parts {
	struct wd_count_row *shown, *hidden;
	struct wd_hidden_rule *rules;
	char (*spec)[256];
};

static void hidden_free(struct hidden_parts *h)
{
	free(h->shown);
	free(h->hidden);
	free(h->rules);
	free(h->spec);
}

static int apply_noise(struct wd_noise *nz, struct wd_count_doc *doc, struct hidden_parts *h)
{
	size_t n = doc->n_rows, ns = 0, nh = 0, nr = 0;

	h->shown = calloc(n ? n : 1, sizeof(*h->shown));
	h->hidden = calloc(n ? n : 1, sizeof(*h->hidden));
	h->rules = calloc(nz->n ? nz->n : 1, sizeof(*h->rules));
	h->spec = calloc(nz->n ? nz->n : 1, sizeof(*h->spec));
	if (!h->shown || !h->hidden || !h->rules || !h->spec)
		return -ENOMEM;
	wd_noise_reset_counts(nz);
	for (size_t i = 0; i < n; i++) {
		const struct wd_count_row *r = &doc->rows[i];

		if (wd_noise_hide(nz, r->reason, r->function, r->count)) {
			h->hidden[nh++] = *r;
			doc->hidden_total += r->count;
		} else {
			h->shown[ns++] = *r;
		}
	}
	for (size_t i = 0; i < nz->n; i++) {
		const struct wd_noise_rule *r = &nz->v[i];

		if (!r->hidden)
			continue;
		snprintf(h->spec[nr], sizeof(h->spec[nr]), "%s%s%s", r->reason,
			 r->function[0] ? "@" : "", r->function);
		h->rules[nr] = (struct wd_hidden_rule){ h->spec[nr], r->source, r->why, r->hidden };
		nr++;
	}
	doc->noise = true;
	doc->rows = h->shown;
	doc->n_rows = ns;
	doc->hidden_rows = h->hidden;
	doc->n_hidden_rows = nh;
	doc->hidden = h->rules;
	doc->n_hidden = nr;
	return 0;
}

/* --stacks: rows with their frames. */
struct stack_parts {
	struct wd_stack_row *rows;
	struct wd_stack *stacks;
	struct row_names *names;
	size_t n;
};

static void stack_parts_free(struct stack_parts *p)
{
	for (size_t i = 0; p->stacks && i < p->n; i++)
		wd_stack_free(&p->stacks[i]);
	free(p->rows);
	free(p->stacks);
	free(p->names);
	memset(p, 0, sizeof(*p));
}

static int build_stacks(struct wd_session *s, const struct wd_opts *o, const struct wd_stats *st,
			struct wd_count_doc *doc, struct stack_parts *p)
{
	struct wd_stack_total *t = NULL;
	struct wd_count_row row;
	size_t n = 0;
	int err = wd_session_stack_totals(s, &t, &n);

	if (err)
		return err;
	p->rows = calloc(n ? n : 1, sizeof(*p->rows));
	p->stacks = calloc(n ? n : 1, sizeof(*p->stacks));
	p->names = calloc(n ? n : 1, sizeof(*p->names));
	if (!p->rows || !p->stacks || !p->names) {
		free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; !err && i < n; i++) {
		struct wd_total tot = { t[i].reason, t[i].location, t[i].count };
		struct row_names *nm = &p->names[i];

		wd_session_row(s, &tot, &row, nm->reason, nm->subsys, nm->function,
			       nm->location, NAME_LEN);
		err = wd_session_stack(s, t[i].stack_id, &p->stacks[i]);
		p->n = i + 1;
		p->rows[i] = (struct wd_stack_row){
			.reason = row.reason, .code = row.code, .function = row.function,
			.location = row.location, .count = t[i].count,
			.frames = (const char *const *)p->stacks[i].frames,
			.n_frames = p->stacks[i].n,
			.hidden = o->noise && wd_noise_hide(o->noise, row.reason, row.function, 0),
		};
	}
	free(t);
	doc->has_stacks = true;
	doc->stacks = p->rows;
	doc->n_stacks = p->n;
	doc->stack_collisions = st->v[WD_STAT_STACK_COLLISION];
	doc->stack_errors = st->v[WD_STAT_STACK_ERROR];
	doc->stack_overflow = st->v[WD_STAT_STACK_OVERFLOW];
	return err;
}

/* count --stacks --folded: flame-graph lines only, the reason as root frame. */
static int print_folded(const struct wd_count_doc *doc, FILE *f)
{
	struct wd_folded fo = { 0 };
	int err = 0;

	for (size_t i = 0; !err && i < doc->n_stacks; i++) {
		const struct wd_stack_row *r = &doc->stacks[i];
		struct wd_stack st = { (char **)r->frames, NULL, r->n_frames };
		char **fn = calloc(r->n_frames ? r->n_frames : 1, sizeof(*fn));

		if (!fn) {
			err = -ENOMEM;
			break;
		}
		/* Folded lines name functions: offsets would split one function. */
		for (size_t k = 0; k < r->n_frames; k++)
			fn[k] = strndup(r->frames[k], strcspn(r->frames[k], "+ "));
		st.functions = fn;
		if (!r->hidden)
			err = wd_folded_add(&fo, r->reason ? r->reason : "-", &st, r->count);
		for (size_t k = 0; k < r->n_frames; k++)
			free(fn[k]);
		free(fn);
	}
	if (!err)
		wd_folded_write(f, &fo);
	wd_folded_free(&fo);
	if (doc->noise && doc->hidden_total)
		fprintf(stderr, "whydrop: %" PRIu64 " drops hidden as expected, not in the folded "
			"lines (--show-all shows them)\n", doc->hidden_total);
	if (doc->stack_collisions + doc->stack_errors + doc->stack_overflow)
		fprintf(stderr, "whydrop: stacks lost: %" PRIu64 " bucket collisions, %" PRIu64
			" not stored, %" PRIu64 " over --map-size (in the folded lines as "
			"[stack lost: ...] frames)\n", doc->stack_collisions, doc->stack_errors,
			doc->stack_overflow);
	return err;
}

int wd_report_counts_watch(struct wd_session *s, const struct wd_opts *o, double duration,
			   struct wd_counter_watch *w, FILE *f)
{
	struct wd_count_doc doc = { .duration_s = duration };
	struct wd_count_source src;
	struct wd_groups_doc gd = { 0 };
	struct counter_rows c = { 0 };
	struct wd_count_row *rows = NULL;
	struct row_names *names = NULL;
	struct hidden_parts hp = { 0 };
	struct stack_parts sp = { 0 };
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
		rows[i].hint = wd_hint_at(names[i].reason, names[i].function);
		doc.total += rows[i].count;
	}
	doc.rows = rows;
	doc.n_rows = n;
	doc.lost_events = st.recursion_misses;
	doc.has_filter = s->filter_len > 0;
	doc.filter_paged = st.filter_nonlinear;
	doc.location_only = !s->reasons.has_reason;
	if (s->dm)
		doc.source = dropmon_source(s, &src, &doc.lost_events);
	if (o->noise && !o->noise->off && (err = apply_noise(o->noise, &doc, &hp)))
		goto out;
	if (s->stacks && (err = build_stacks(s, o, &st, &doc, &sp)))
		goto out;
	if (o->folded) {
		err = print_folded(&doc, f);
		goto flush;
	}
	if (w && w->have_now && !(err = build_counters(s, o, w, &c))) {
		doc.has_counters = true;
		doc.counters_scope = w->scope;
		doc.counters = c.rows;
		doc.n_counters = c.n;
	} else if (w) {
		/* Never a part missing without a word: say why in the document too. */
		if (!w->error[0])
			snprintf(w->error, sizeof(w->error), "cannot compare the counters: %s",
				 strerror(err ? -err : EIO));
		doc.counters_error = w->error;
		err = 0;
	}
	if (s->groups && wd_groups_doc(s->groups, s, &doc, &gd))
		fprintf(stderr, "whydrop: cannot group the counts by %s\n",
			wd_group_by_name(s->groups->by));
	if (o->json)
		wd_print_count_json(f, &doc);
	else
		wd_print_count_table(f, &doc);
	if (o->explain)
		wd_report_explain(s, t, n, f);
flush:
	if (!err)
		err = wd_output_errno(f);
	if (err > 0)
		fprintf(stderr, "whydrop: cannot write the report: %s (%" PRIu64 " drops were counted)\n",
			strerror(err), doc.total);
out:
	if (err == -ENOMEM)
		fprintf(stderr, "whydrop: out of memory writing the report\n");
	wd_groups_doc_free(&gd);
	counter_rows_free(&c);
	hidden_free(&hp);
	stack_parts_free(&sp);
	free(rows);
	free(names);
	free(t);
	return err ? 1 : 0;
}
