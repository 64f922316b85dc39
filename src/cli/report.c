// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A counting run of count and top, and its report from one snapshot: the
 * exact totals named and explained, what the noise list hid, the stacks,
 * the groups, and the kernel's counters beside them (counter_sampler.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "flame_output.h"
#include "noise.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "source_tcp.h"
#include "rules_report.h"
#include "rules_rows.h"
#include "stack.h"
#include "tcp_report.h"

#define NAME_LEN 160

struct row_names {
	char reason[NAME_LEN], subsys[NAME_LEN], function[NAME_LEN], location[NAME_LEN];
};

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

static int build_stacks(struct wd_session *s, const struct wd_opts *o,
			const struct wd_snapshot *snap, struct wd_count_doc *doc,
			struct stack_parts *p)
{
	const struct wd_stack_total *t = snap->stacks;
	const struct wd_stats *st = &snap->stats;
	struct wd_count_row row;
	size_t n = snap->n_stacks;
	int err = 0;

	p->rows = calloc(n ? n : 1, sizeof(*p->rows));
	p->stacks = calloc(n ? n : 1, sizeof(*p->stacks));
	p->names = calloc(n ? n : 1, sizeof(*p->names));
	if (!p->rows || !p->stacks || !p->names)
		return -ENOMEM;
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
	doc->has_stacks = true;
	doc->stacks = p->rows;
	doc->n_stacks = p->n;
	doc->stack_collisions = st->v[WD_STAT_STACK_COLLISION];
	doc->stack_errors = st->v[WD_STAT_STACK_ERROR];
	doc->stack_overflow = st->v[WD_STAT_STACK_OVERFLOW];
	return err;
}

/* The folded lines of the stacks not hidden, the reason as root frame. */
static int folded_lines(const struct wd_count_doc *doc, struct wd_folded *fo)
{
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
			err = wd_folded_add(fo, r->reason ? r->reason : "-", &st, r->count);
		for (size_t k = 0; k < r->n_frames; k++)
			free(fn[k]);
		free(fn);
	}
	return err;
}

/* --stacks --folded: flame-graph lines only, the reason as root frame. */
int wd_report_print_folded(const struct wd_count_doc *doc, FILE *f)
{
	struct wd_folded fo = { 0 };
	int err = folded_lines(doc, &fo);

	if (!err)
		wd_folded_write(f, &fo);
	wd_folded_free(&fo);
	if (doc->noise && doc->hidden_total)
		fprintf(stderr, "whydrop: %" PRIu64 " %s hidden as expected, not in the folded "
			"lines (--show-all shows them)\n", doc->hidden_total,
			wd_plural(doc->hidden_total, "drop", "drops"));
	if (doc->stack_collisions + doc->stack_errors + doc->stack_overflow)
		fprintf(stderr, "whydrop: stacks lost: %" PRIu64 " bucket %s, %" PRIu64
			" not stored, %" PRIu64 " over --map-size (in the folded lines as "
			"[stack lost: ...] frames)\n", doc->stack_collisions,
			wd_plural(doc->stack_collisions, "collision", "collisions"),
			doc->stack_errors, doc->stack_overflow);
	return err;
}

int wd_report_write_flame(struct wd_flame_out *out, const struct wd_count_doc *doc)
{
	struct wd_folded fo = { 0 };
	int err = folded_lines(doc, &fo);

	if (err)
		fprintf(stderr, "whydrop %s: cannot make the flame graph: %s\n", out->cmd,
			strerror(-err));
	else
		err = wd_flame_out_write(out, &fo, doc);
	wd_folded_free(&fo);
	return err ? 1 : 0;
}

/*
 * The kernel's counters beside the totals, from the same snapshot (before
 * the rows are diagnosed: their evidence). Never a part missing without a
 * word: a failure is said in the document too.
 */
static void add_counters(struct wd_session *s, const struct wd_opts *o,
			 const struct wd_snapshot *snap, struct wd_counter_sampler *cs,
			 struct wd_count_doc *doc, struct wd_counter_rows *c)
{
	int err = -EIO;

	if (cs->have_now && !(err = wd_counter_rows_build(cs, o, s, snap, c))) {
		doc->has_counters = true;
		doc->counters_scope = cs->scope;
		doc->counters = c->rows;
		doc->n_counters = c->n;
		doc->counters_untraced = c->untraced;
		return;
	}
	if (!cs->error[0])
		snprintf(cs->error, sizeof(cs->error), "cannot compare the counters: %s",
			 strerror(-err));
	doc->counters_error = cs->error;
}

/* The totals as rows, named; names[] holds their strings. */
static int build_rows(struct wd_session *s, const struct wd_total *t, size_t n,
		      struct wd_count_doc *doc, struct wd_count_row **rows,
		      struct row_names **names)
{
	*rows = calloc(n ? n : 1, sizeof(**rows));
	*names = calloc(n ? n : 1, sizeof(**names));
	if (!*rows || !*names)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct row_names *nm = &(*names)[i];

		wd_session_row(s, &t[i], &(*rows)[i], nm->reason, nm->subsys, nm->function,
			       nm->location, NAME_LEN);
		doc->total += (*rows)[i].count;
	}
	doc->rows = *rows;
	doc->n_rows = n;
	return 0;
}

/* Every row's cause, with the evidence of the counters when doc has them. */
static int diagnose_rows(struct wd_count_row *rows, size_t n, const struct wd_count_doc *doc,
			 const struct wd_counter_sampler *cs, struct wd_diagnosis **d)
{
	struct wd_diag_ctx x;
	bool have = doc->has_counters && wd_counter_sampler_diag_ctx(cs, &x);

	return wd_hints_diagnose(rows, n, have ? &x : NULL, d);
}

/* count --fail-on: which thresholds the document crossed, said on stderr too. */
static bool check_doc(const struct wd_check *check, struct wd_count_doc *doc,
		      struct wd_check_result *r)
{
	if (!check)
		return false;
	wd_check_eval(check, doc, r);
	doc->check = r;
	for (size_t i = 0; i < r->n; i++)
		if (r->o[i].crossed)
			fprintf(stderr, "whydrop count: --fail-on %s crossed: %" PRIu64 " %s, "
				"%.1f/s\n", r->o[i].term->text, r->o[i].count,
				wd_plural(r->o[i].count, "drop", "drops"), r->o[i].rate);
	return r->crossed;
}

int wd_report_counts_check(struct wd_session *s, struct wd_groups *g, const struct wd_opts *o,
			   const struct wd_check *check, double duration,
			   struct wd_counter_sampler *cs, FILE *f)
{
	struct wd_count_doc doc = { .duration_s = duration };
	struct wd_groups_doc gd = { 0 };
	struct wd_counter_rows c = { 0 };
	struct wd_count_row *rows = NULL;
	struct wd_diagnosis *diag = NULL;
	struct wd_check_result *cr = NULL;
	struct row_names *names = NULL;
	struct hidden_parts hp = { 0 };
	struct stack_parts sp = { 0 };
	struct wd_rules_parts *rp = NULL;
	struct wd_rules_doc rd;
	struct wd_rules_rows rr = { 0 };
	struct wd_tcp_parts tp = { 0 };
	struct wd_snapshot snap;
	struct wd_total *t = NULL;
	int err, flame_failed = 0;
	bool crossed = false;
	size_t n = 0;

	if (!s)
		return wd_counter_report_only(o, duration, cs, f);
	doc.kernel = s->kernel;
	err = wd_session_snapshot(s, &snap);
	if (err) {
		fprintf(stderr, "whydrop: cannot read the counts: %s\n", strerror(-err));
		return 1;
	}
	err = wd_snapshot_totals(&snap, &t, &n);
	if (!err)
		err = build_rows(s, t, n, &doc, &rows, &names);
	if (err)
		goto out;
	/* the counters first: the rows' causes take their evidence */
	if (cs && !o->folded)
		add_counters(s, o, &snap, cs, &doc, &c);
	err = diagnose_rows(rows, n, &doc, cs, &diag);
	cr = check ? calloc(1, sizeof(*cr)) : NULL;
	if (!err && check && !cr)
		err = -ENOMEM;
	if (err)
		goto out;
	doc.lost_events = snap.lost_events;
	doc.has_filter = s->filter_len > 0;
	doc.filter_paged = snap.stats.filter_nonlinear;
	doc.location_only = !s->reasons.has_reason;
	doc.source = snap.source.name ? &snap.source : NULL;
	if (snap.rules && (err = wd_rules_report_build(s, &snap, true, &rd, &rp)))
		goto out;
	/* before the noise list moves rows: the hidden ones keep their split */
	if (snap.rules && o->json && (err = wd_rules_rows_split(s, &snap, &rd, t, rows, n, &rr)))
		goto out;
	if (o->noise && !o->noise->off && (err = apply_noise(o->noise, &doc, &hp)))
		goto out;
	if (snap.has_stacks && (err = build_stacks(s, o, &snap, &doc, &sp)))
		goto out;
	doc.rules = snap.rules ? &rd : NULL;
	/* said, and the exit status; the report goes on */
	if (o->flame && snap.has_stacks) {
		flame_failed = wd_report_write_flame(o->flame, &doc);
	} else if (o->flame) {
		fprintf(stderr, "whydrop count: no flame graph written: %s gives no "
			"kernel stacks (--source bpf takes them)\n", wd_session_source(s)->what);
		flame_failed = 1;
	}
	if (o->folded) {
		err = wd_report_print_folded(&doc, f);
		goto flush;
	}
	if (g && g->by && wd_groups_doc(g, &snap, &doc, &gd))
		fprintf(stderr, "whydrop: cannot group the counts by %s\n",
			wd_group_by_name(g->by));
	if (snap.tcp && (err = wd_tcp_parts_build(s, &snap, &tp)))
		goto out;
	/* --tcp: the TCP source's caps; --group-by flow alone fills only the drops */
	doc.tcp = snap.tcp && snap.tcp->caps ? &tp.doc : NULL;
	crossed = check_doc(check, &doc, cr);
	if (o->json)
		wd_print_count_json(f, &doc);
	else
		wd_print_count_table(f, &doc);
	if (o->explain)
		wd_hints_explain(rows, n, f);
flush:
	if (!err)
		err = wd_output_errno(f);
	if (err > 0)
		fprintf(stderr, "whydrop: cannot write the report: %s (%" PRIu64 " %s counted)\n",
			strerror(err), doc.total, wd_plural(doc.total, "drop was", "drops were"));
out:
	if (err == -ENOMEM)
		fprintf(stderr, "whydrop: out of memory writing the report\n");
	wd_groups_doc_free(&gd);
	wd_counter_rows_free(&c);
	hidden_free(&hp);
	stack_parts_free(&sp);
	wd_rules_report_free(rp);
	wd_rules_rows_free(&rr);
	wd_tcp_parts_free(&tp);
	free(cr);
	free(diag);
	free(rows);
	free(names);
	free(t);
	wd_snapshot_free(&snap);
	if (err || flame_failed)
		return 1;
	return crossed ? WD_EXIT_CHECK : 0;
}

int wd_report_counts(struct wd_session *s, struct wd_groups *g, const struct wd_opts *o,
		     double duration, struct wd_counter_sampler *cs, FILE *f)
{
	return wd_report_counts_check(s, g, o, NULL, duration, cs, f);
}

int wd_report_start(struct wd_session *s, struct wd_opts *o, struct wd_counter_sampler *cs,
		    struct wd_groups *g)
{
	int status = wd_session_open(s, o, false, NULL, NULL);

	if (status)
		return status;
	if (wd_counter_sampler_begin(cs, o))
		fprintf(stderr, "whydrop: going on without the kernel's counters\n");
	/* The counters' files and sockets were opened in the namespace already. */
	if (wd_session_drop_privileges(s)) {
		wd_session_close(s);
		wd_counter_sampler_end(cs);
		return 1;
	}
	wd_groups_init(g, o, s);
	return 0;
}

void wd_report_maintain(struct wd_session *s, struct wd_groups *g)
{
	wd_groups_maintain(g, s);
}

void wd_report_detach(struct wd_session *s, struct wd_counter_sampler *cs)
{
	wd_counter_sampler_take(cs);	/* before detaching: nothing counted goes untraced */
	wd_session_detach(s);
}

void wd_report_end(struct wd_session *s, struct wd_counter_sampler *cs, struct wd_groups *g)
{
	wd_groups_free(g);
	wd_session_close(s);
	wd_counter_sampler_end(cs);
}
