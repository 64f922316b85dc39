// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "commands.h"
#include "options.h"
#include "output.h"
#include "noise_opts.h"
#include "groups.h"
#include "report.h"
#include "rules_report.h"
#include "tcp_report.h"

#define TOP_ROWS 25
#define TOP_STACKS 5		/* stacks shown live with --stacks */
#define TOP_TCP 5		/* reset rows and flows shown live with --tcp */
#define TOP_FRAMES 8		/* frames shown of each */

struct top {
	struct wd_total *prev;
	size_t n_prev;
	double t_prev;
	FILE *term;	/* the live tables: stderr with --json, so stdout is one document */
	FILE *out;	/* where a frame is drawn: term, or frame when lines are cut */
	bool tty;
	int width;	/* of the terminal in columns; 0: not one, nothing is cut */
	FILE *frame;	/* the frame being drawn, when cut to width */
	char *frame_buf;
	size_t frame_len;
	int out_err;	/* errno of the first write to term that failed */
	struct wd_noise *noise;
};

static bool hidden(struct top *t, const char *reason, const char *function)
{
	return t->noise && wd_noise_hide(t->noise, reason, function, 0);
}

/* --stacks: the most frequent stacks that are not hidden. */
static void draw_stacks(struct top *t, struct wd_session *s, const struct wd_snapshot *snap)
{
	char reason[160], subsys[160], function[160], location[160];
	const struct wd_stack_total *st = snap->stacks;
	struct wd_count_row row;
	size_t n = snap->n_stacks, shown = 0;

	fprintf(t->out, "Top stacks (innermost frame first):\n");
	for (size_t i = 0; i < n && shown < TOP_STACKS; i++) {
		struct wd_total tot = { st[i].reason, st[i].location, st[i].count };
		struct wd_stack frames;

		wd_session_row(s, &tot, &row, reason, subsys, function, location, 160);
		if (hidden(t, row.reason, function) || wd_session_stack(s, st[i].stack_id, &frames))
			continue;
		shown++;
		fprintf(t->out, "%10" PRIu64 "  %s %s\n", st[i].count, row.reason ? row.reason : "-",
			location);
		for (size_t k = 0; k < frames.n && k < TOP_FRAMES; k++)
			fprintf(t->out, "%12s%s\n", "", frames.frames[k]);
		if (frames.n > TOP_FRAMES)
			fprintf(t->out, "%12s... %zu more frames\n", "", frames.n - TOP_FRAMES);
		wd_stack_free(&frames);
	}
}

static uint64_t previous(const struct top *t, const struct wd_total *cur)
{
	for (size_t i = 0; i < t->n_prev; i++)
		if (t->prev[i].reason == cur->reason && t->prev[i].location == cur->location)
			return t->prev[i].count;
	return 0;
}

/*
 * The terminal's width: its window size, else $COLUMNS, else 80. Not a
 * terminal (a pipe, a file): 0, nothing is cut.
 */
static int term_width(FILE *f)
{
	struct winsize ws;
	unsigned long cols;
	const char *env;

	if (!isatty(fileno(f)))
		return 0;
	if (!ioctl(fileno(f), TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	env = getenv("COLUMNS");
	if (env && !wd_parse_ulong(env, 1, INT_MAX, &cols))
		return (int)cols;
	return 80;
}

/* Start a frame: on a terminal, the screen cleared and the frame drawn aside. */
static void begin_frame(struct top *t)
{
	t->out = t->term;
	if (!t->tty)
		return;
	fputs("\033[H\033[2J", t->term);
	t->width = term_width(t->term);
	t->frame = open_memstream(&t->frame_buf, &t->frame_len);
	if (t->frame)
		t->out = t->frame;
}

/*
 * One line of at most width columns (UTF-8 characters): what does not fit
 * is cut, so the end of a row goes first (its hint, then its location).
 */
static void put_cut(FILE *f, const char *line, size_t len, int width)
{
	size_t end = 0;
	int cols = 0;

	for (; end < len; end++) {
		if (((unsigned char)line[end] & 0xc0) == 0x80)
			continue;	/* a character's continuation byte */
		if (cols == width)
			break;
		cols++;
	}
	fwrite(line, 1, end, f);
	fputc('\n', f);
}

static void flush_frame(struct top *t)
{
	const char *p, *end;

	if (!t->frame)
		return;
	fclose(t->frame);
	t->frame = NULL;
	t->out = t->term;
	p = t->frame_buf;
	end = p ? p + t->frame_len : p;
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		put_cut(t->term, p, n, t->width);
		p += n + 1;
	}
	free(t->frame_buf);
	t->frame_buf = NULL;
}

/* drop_monitor: what its queue could not hold, live (never hidden). */
static void draw_source_losses(struct top *t, const struct wd_count_source *l)
{
	if (!l->name || (!l->queue_dropped && !l->hw_queue_dropped && !l->overruns &&
			 !l->truncated && !l->summary_full))
		return;
	fprintf(t->out, "drop_monitor lost %" PRIu64 " %s in its per-CPU queue, its socket "
		"overflowed %" PRIu64 " %s%s: counts are lower bounds\n",
		l->queue_dropped + l->hw_queue_dropped,
		wd_plural(l->queue_dropped + l->hw_queue_dropped, "drop", "drops"), l->overruns,
		wd_plural(l->overruns, "time", "times"),
		l->summary_full ? ", summaries were full" : "");
}

/* --rules: NETFILTER_DROP by rule so far, as count prints it (rules_report.h). */
static void draw_rules(struct top *t, struct wd_session *s, const struct wd_snapshot *snap)
{
	struct wd_rules_parts *p = NULL;
	struct wd_rules_doc d;

	if (!wd_rules_report_build(s, snap, true, &d, &p))
		wd_print_rules_text(t->out, &d);
	wd_rules_report_free(p);
}

static void draw(struct top *t, struct wd_session *s, const struct wd_snapshot *snap,
		 const struct wd_diag_ctx *x, struct wd_total *cur, size_t n, double now)
{
	struct wd_diagnosis d;
	double dt = now - t->t_prev;
	char reason[160], subsys[160], function[160], location[160], ts[16];
	struct wd_count_row row;
	uint64_t total = 0, hid = 0;
	size_t shown = 0;
	time_t wall = time(NULL);

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
	for (size_t i = 0; i < n; i++)
		total += cur[i].count;
	fprintf(t->out, "whydrop %s  kernel %s  %" PRIu64 " %s since start  (Ctrl-C to stop)\n",
		ts, s->kernel, total, wd_plural(total, "drop", "drops"));
	fprintf(t->out, "%10s %9s  %-26s %-34s %s\n", "COUNT", "RATE/s", "REASON", "LOCATION",
		"WHAT IT MEANS");
	for (size_t i = 0; i < n; i++) {
		uint64_t delta = cur[i].count - previous(t, &cur[i]);
		const char *hint;

		wd_session_row(s, &cur[i], &row, reason, subsys, function, location, 160);
		if (hidden(t, row.reason, function)) {
			hid += cur[i].count;
			continue;
		}
		if (++shown > TOP_ROWS)
			continue;
		/* the counters of the second before tell causes apart */
		hint = wd_hint_cause(x, row.reason, function, cur[i].count, &d);
		fprintf(t->out, "%10" PRIu64 " %9.1f  %-26s %-34s %s\n", cur[i].count,
			dt > 0 ? delta / dt : 0.0, row.reason ? row.reason : "-", location,
			hint ? hint : "");
	}
	if (shown > TOP_ROWS)
		fprintf(t->out, "... %zu more\n", shown - TOP_ROWS);
	if (t->noise)
		fprintf(t->out, "%" PRIu64 " %s hidden as expected%s\n", hid,
			wd_plural(hid, "drop", "drops"),
			hid ? " (the summary says which; --show-all shows them)" : "");
	draw_source_losses(t, &snap->source);
	if (snap->has_stacks)
		draw_stacks(t, s, snap);
	if (snap->rules)
		draw_rules(t, s, snap);
}

/*
 * After each refresh: a blank line between blocks when not a terminal. A
 * refresh that could not be written ends the run (`whydrop top | head -1`).
 */
static void end_frame(struct top *t)
{
	flush_frame(t);
	if (!t->tty)
		fputc('\n', t->out);
	t->out_err = wd_output_errno(t->out);
	if (t->out_err)
		wd_stop = 1;
}

/* The summary, or why there is none: the output is gone. */
static int finish(struct top *t, struct wd_session *s, struct wd_groups *g,
		  const struct wd_opts *o, struct wd_counter_sampler *cs, double duration)
{
	if (t->out_err) {
		wd_output_report("top", t->term, t->out_err);
		return 1;
	}
	if (!o->json)
		printf("\nSummary:\n");
	return wd_report_counts(s, g, o, duration, cs, stdout);
}

/* --counters-only: every second, the counters that moved since the start. */
static int top_counters_only(struct top *t, const struct wd_opts *o)
{
	struct wd_counter_sampler cs;
	double t0 = wd_now(), next = t0 + 1;
	int status;

	status = wd_counter_sampler_begin(&cs, o);
	if (status)
		goto out;
	while (!wd_stop && !wd_over(t0, o->duration)) {
		wd_sleep_ms(wd_wait_ms(t0, o->duration, 100));
		if (wd_now() < next)
			continue;
		next += 1;
		begin_frame(t);
		fprintf(t->out, "whydrop --counters-only  %.0f s  (nothing traced; Ctrl-C to stop)\n",
			wd_now() - t0);
		wd_counter_sampler_print_live(&cs, o, NULL, NULL, t->out);
		end_frame(t);
	}
	wd_counter_sampler_take(&cs);
	status = finish(t, NULL, NULL, o, &cs, wd_now() - t0);
out:
	wd_counter_sampler_end(&cs);
	return status;
}

/* --tcp: the resets and the worst flows, from the same snapshot. */
static void draw_tcp(struct top *t, struct wd_session *s, const struct wd_snapshot *snap)
{
	struct wd_tcp_parts p;

	if (!wd_tcp_parts_build(s, snap, &p) && p.doc.attach) {
		fputc('\n', t->out);
		wd_print_tcp_live(t->out, &p.doc, TOP_TCP);
	}
	wd_tcp_parts_free(&p);
}

/* One refresh: one snapshot, every table of the frame drawn from it. */
static void refresh(struct top *t, struct wd_session *s, struct wd_groups *g,
		    const struct wd_opts *o, struct wd_counter_sampler *cs, double now)
{
	struct wd_snapshot snap;
	struct wd_diag_ctx x;
	struct wd_total *cur;
	bool have;
	size_t n;

	if (wd_session_snapshot(s, &snap))
		return;
	if (wd_snapshot_totals(&snap, &cur, &n)) {
		wd_snapshot_free(&snap);
		return;
	}
	/* the evidence: the counters' comparison of the refresh before (drawn below) */
	have = wd_counter_sampler_diag_ctx(cs, &x) && x.traced;
	begin_frame(t);
	draw(t, s, &snap, have ? &x : NULL, cur, n, now);
	if (g->by)
		wd_groups_print_live(g, &snap, t->out);
	if (cs->ok)
		wd_counter_sampler_print_live(cs, o, s, &snap, t->out);
	if (snap.tcp)
		draw_tcp(t, s, &snap);
	end_frame(t);
	/* after the tables: what a swap moves is in the next snapshot, once */
	wd_report_maintain(s, g);
	wd_snapshot_free(&snap);
	free(t->prev);
	t->prev = cur;
	t->n_prev = n;
	t->t_prev = now;
}

int cmd_top(int argc, char **argv)
{
	struct top t = { 0 };
	struct wd_counter_sampler cs;
	struct wd_groups g;
	struct wd_session s;
	struct wd_cli cli;
	struct wd_opts *o = &cli.o;
	double t0, next;
	int status;

	struct wd_noise nz = { 0 };

	if (wd_cli_parse(WD_CMD_TOP, argc, argv, &cli, &status))
		return status;
	status = wd_noise_setup(&nz, o);
	if (status)
		goto out;
	if (!nz.off) {
		o->noise = &nz;
		t.noise = &nz;
	}
	t.out = t.term = o->json ? stderr : stdout;
	t.tty = isatty(fileno(t.term));
	wd_install_signals();
	if (o->counters_only) {
		status = top_counters_only(&t, o);
		goto out;
	}
	status = wd_report_start(&s, o, &cs, &g);
	if (status)
		goto out;
	t0 = t.t_prev = s.t_attached;
	next = t0 + 1;
	while (wd_session_poll(&s, wd_wait_ms(t0, o->duration, 100))) {
		double now = wd_now();

		if (wd_over(t0, o->duration))
			break;
		if (now < next)
			continue;
		next += 1;
		refresh(&t, &s, &g, o, &cs, now);
	}
	free(t.prev);
	wd_report_detach(&s, &cs);
	status = finish(&t, &s, &g, o, &cs, wd_now() - t0);
	wd_report_end(&s, &cs, &g);
out:
	wd_noise_free(&nz);
	wd_cli_free(&cli);
	return status;
}
