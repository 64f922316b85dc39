// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "format.h"
#include "options.h"
#include "output.h"
#include "hints.h"
#include "source_tcp.h"
#include "tcp_watch.h"

struct watch {
	struct wd_session *s;
	const struct wd_opts *o;
	uint64_t shown;
	bool out_failed;
	int out_errno;
	struct wd_tcp_watch tw;	/* --tcp */
};

/* A write that failed ends the run: `whydrop watch | head -1`, ENOSPC. */
static bool output_failed(struct watch *w)
{
	w->out_errno = wd_output_errno(stdout);
	if (!w->out_errno)
		return false;
	w->out_failed = true;
	wd_stop = 1;
	return true;
}

/* --tcp: a reset or a retransmission, after the drops shown before it. */
static void on_tcp(void *ctx, const struct wd_tcp_event *ev)
{
	struct watch *w = ctx;

	if (w->out_failed)
		return;
	wd_tcp_watch_print(&w->tw, w->s, ev, w->o->json, stdout);
	output_failed(w);
}

static void on_event(void *ctx, const struct wd_event *ev)
{
	struct watch *w = ctx;
	char reason[160], function[160], location[160];
	struct wd_drop_view v;

	if (w->out_failed)
		return;
	wd_session_view(w->s, ev, &v, reason, function, location, sizeof(reason));
	if (w->o->json) {
		wd_print_drop_json(stdout, &v);
	} else {
		v.hint = v.reason ? wd_hint_at(v.reason, v.function) : NULL;
		wd_print_drop_text(stdout, &v);
	}
	if (output_failed(w))
		return;
	w->shown++;
	if (w->o->tcp)
		wd_tcp_watch_drop(&w->tw, &v);
}

/* --tcp: its records, as the drops' line says them. */
static void tcp_summary(const struct watch *w, const struct wd_tcp_snap *t)
{
	const uint64_t *v = t->stats.v;

	fprintf(stderr, "whydrop: %" PRIu64 " TCP %s (resets, retransmissions) shown, %" PRIu64
		" over --rate, %" PRIu64 " lost: ring buffer full\n", w->tw.shown,
		wd_plural(w->tw.shown, "record", "records"), v[WD_TCP_STAT_RATE_LIMITED],
		v[WD_TCP_STAT_RING_FULL]);
}

static void summary(struct watch *w, const struct wd_stats *st)
{
	uint64_t missed, unwritten;

	/* Records delivered but not printed: the output went away. */
	unwritten = st->v[WD_STAT_EMITTED] - w->shown;
	missed = st->rate_limited + st->v[WD_STAT_RING_FULL] + unwritten;
	fprintf(stderr,
		"whydrop: %" PRIu64 " %s counted, %" PRIu64 " %s shown, %" PRIu64
		" not shown (%" PRIu64 " over --rate, %" PRIu64 " lost: ring buffer full",
		st->seen, wd_plural(st->seen, "drop", "drops"), w->shown,
		wd_plural(w->shown, "record", "records"), missed, st->rate_limited,
		st->v[WD_STAT_RING_FULL]);
	if (unwritten)
		fprintf(stderr, ", %" PRIu64 " not written: %s", unwritten,
			strerror(w->out_errno));
	fputc(')', stderr);
	wd_output_summary_end(st);
}

/* The summary line, and --explain: one snapshot after detaching, exact. */
static void end_report(struct watch *w, const struct wd_opts *o)
{
	struct wd_snapshot snap;
	struct wd_total *t = NULL;
	size_t n = 0;

	if (wd_session_snapshot(w->s, &snap))
		return;
	summary(w, &snap.stats);
	if (snap.tcp && snap.tcp->caps)
		tcp_summary(w, snap.tcp);
	if (o->explain && !w->out_failed && !wd_snapshot_totals(&snap, &t, &n))
		wd_report_explain(w->s, t, n, stdout);
	free(t);
	wd_snapshot_free(&snap);
}

int cmd_watch(int argc, char **argv)
{
	struct watch w = { 0 };
	struct wd_session s;
	struct wd_cli cli;
	struct wd_opts *o = &cli.o;
	double t0;
	int status;

	if (wd_cli_parse(WD_CMD_WATCH, argc, argv, &cli, &status))
		return status;
	wd_install_signals();
	w.s = &s;
	w.o = o;
	status = o->tcp && wd_tcp_watch_init(&w.tw) ? 1 : 0;
	if (!status)
		status = wd_session_open(&s, o, true, on_event, &w);
	if (status)
		goto out;
	s.on_tcp = on_tcp;
	/* Interface names come from sockets opened in each namespace at start. */
	status = 1;
	if (wd_session_drop_privileges(&s))
		goto close;
	t0 = s.t_attached;
	while (wd_session_poll(&s, wd_wait_ms(t0, o->duration, 100)))
		if (wd_over(t0, o->duration))
			break;
	wd_session_detach(&s);
	end_report(&w, o);
	status = 0;
	if (w.out_failed) {
		wd_output_report("watch", stdout, w.out_errno);
		status = 1;
	}
close:
	wd_session_close(&s);
out:
	wd_tcp_watch_free(&w.tw);
	wd_cli_free(&cli);
	return status;
}
