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

struct watch {
	struct wd_session *s;
	const struct wd_opts *o;
	uint64_t shown;
	bool out_failed;
	int out_errno;
};

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
	w->out_errno = wd_output_errno(stdout);
	if (w->out_errno) {
		/* EPIPE: `whydrop watch | head -1`, the reader is gone; ENOSPC... */
		w->out_failed = true;
		wd_stop = 1;
		return;
	}
	w->shown++;
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
	status = wd_session_open(&s, o, true, on_event, &w);
	if (status)
		goto out;
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
	wd_cli_free(&cli);
	return status;
}
