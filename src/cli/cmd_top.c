// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "privileges.h"
#include "report.h"

static const char usage[] =
"Usage: whydrop [top] [-r REASON,...] [--netns NS] [-i IFNAME] [-d T] [EXPRESSION]\n"
"       whydrop top --counters-only [--netns NS] [-d T]\n"
"Live table of drops by reason and location, refreshed every second:\n"
"total count, rate per second, reason, location; below it, the kernel's own drop\n"
"counters that moved since the start, next to the traced reasons, with the drops\n"
"no traced reason accounts for. Ctrl-C prints a summary.\n"
"\n"
"  -r, --reason LIST    only these reasons\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface\n"
"  -d, --duration T     stop after T (5, 500ms, 1m)\n"
"      --json           summary on exit as the `count --json` document on stdout\n"
"                       (the live tables then go to stderr)\n"
"      --explain        on exit, explain each reason seen\n"
"      --counters-only  no BPF: only the kernel's counters (works without root)\n"
"  EXPRESSION           pcap-filter expression (tcpdump syntax), applied in the kernel\n"
"\n"
"Examples:\n"
"  sudo whydrop\n"
"  sudo whydrop top --netns blue -i veth0\n"
"  whydrop top --counters-only\n";

#define TOP_ROWS 25

struct top {
	struct wd_total *prev;
	size_t n_prev;
	double t_prev;
	FILE *out;	/* the live tables: stderr with --json, so stdout is one document */
	bool tty;
};

static uint64_t previous(const struct top *t, const struct wd_total *cur)
{
	for (size_t i = 0; i < t->n_prev; i++)
		if (t->prev[i].reason == cur->reason && t->prev[i].location == cur->location)
			return t->prev[i].count;
	return 0;
}

static void clear_screen(const struct top *t)
{
	if (t->tty)
		fputs("\033[H\033[2J", t->out);
}

static void draw(struct top *t, struct wd_session *s, struct wd_total *cur, size_t n, double now)
{
	double dt = now - t->t_prev;
	char reason[160], subsys[160], function[160], location[160], ts[16];
	struct wd_count_row row;
	uint64_t total = 0;
	time_t wall = time(NULL);

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&wall));
	clear_screen(t);
	for (size_t i = 0; i < n; i++)
		total += cur[i].count;
	fprintf(t->out, "whydrop %s  kernel %s  %" PRIu64 " drops since start  (Ctrl-C to stop)\n",
		ts, s->kernel, total);
	fprintf(t->out, "%10s %9s  %-26s %-34s %s\n", "COUNT", "RATE/s", "REASON", "LOCATION",
		"WHAT IT MEANS");
	for (size_t i = 0; i < n && i < TOP_ROWS; i++) {
		uint64_t delta = cur[i].count - previous(t, &cur[i]);
		const char *hint;

		wd_session_row(s, &cur[i], &row, reason, subsys, function, location, 160);
		hint = wd_hint(reason);
		fprintf(t->out, "%10" PRIu64 " %9.1f  %-26s %-34s %s\n", cur[i].count,
			dt > 0 ? delta / dt : 0.0, row.reason ? row.reason : "-", location,
			hint ? hint : "");
	}
	if (n > TOP_ROWS)
		fprintf(t->out, "... %zu more\n", n - TOP_ROWS);
}

/* After each refresh: a blank line between blocks when not a terminal. */
static void end_frame(const struct top *t)
{
	if (!t->tty)
		fputc('\n', t->out);
	fflush(t->out);
}

/* --counters-only: every second, the counters that moved since the start. */
static int top_counters_only(struct top *t, const struct wd_opts *o)
{
	struct timespec tick = { 0, 100 * 1000000L };
	struct wd_counter_watch w;
	double t0 = wd_now(), next = t0 + 1;
	int status;

	status = wd_watch_begin(&w, o);
	if (status)
		goto out;
	while (!wd_stop && (!o->duration || wd_now() - t0 < o->duration)) {
		nanosleep(&tick, NULL);
		if (wd_now() < next)
			continue;
		next += 1;
		clear_screen(t);
		fprintf(t->out, "whydrop --counters-only  %.0f s  (nothing traced; Ctrl-C to stop)\n",
			wd_now() - t0);
		wd_report_counters_live(NULL, o, &w, t->out);
		end_frame(t);
	}
	wd_watch_sample(&w);
	if (!o->json)
		printf("\nSummary:\n");
	status = wd_report_counts_watch(NULL, o, wd_now() - t0, &w, stdout);
out:
	wd_watch_end(&w);
	return status;
}

int cmd_top(int argc, char **argv)
{
	struct top t = { 0 };
	struct wd_counter_watch w;
	struct wd_session s;
	struct wd_opts o;
	double t0, next;
	int status;

	if (wd_parse_opts(argc, argv, &o, usage, &status))
		return status;
	t.out = o.json ? stderr : stdout;
	t.tty = isatty(fileno(t.out));
	wd_install_signals();
	if (o.counters_only) {
		status = top_counters_only(&t, &o);
		goto out;
	}
	status = wd_session_open(&s, &o, false, NULL, NULL);
	if (status)
		goto out;
	if (wd_watch_begin(&w, &o))
		fprintf(stderr, "whydrop: going on without the kernel's counters\n");
	/* From here on only --netns needs a privilege: setns() to read its counters. */
	if (wd_session_drop_privileges(&s, o.netns ? WD_CAP(WD_CAP_SYS_ADMIN) : 0)) {
		status = 1;
		goto close;
	}
	t0 = t.t_prev = s.t_attached;
	next = t0 + 1;
	while (wd_session_poll(&s, 100)) {
		double now = wd_now();
		struct wd_total *cur;
		size_t n;

		if (o.duration && now - t0 >= o.duration)
			break;
		if (now < next)
			continue;
		next += 1;
		if (wd_session_totals(&s, &cur, &n))
			continue;
		draw(&t, &s, cur, n, now);
		if (w.ok)
			wd_report_counters_live(&s, &o, &w, t.out);
		end_frame(&t);
		free(t.prev);
		t.prev = cur;
		t.n_prev = n;
		t.t_prev = now;
	}
	free(t.prev);
	wd_watch_sample(&w);	/* before detaching: nothing counted goes untraced */
	wd_session_detach(&s);
	if (!o.json)
		printf("\nSummary:\n");
	status = wd_report_counts_watch(&s, &o, wd_now() - t0, &w, stdout);
close:
	wd_session_close(&s);
	wd_watch_end(&w);
out:
	wd_opts_free(&o);
	return status;
}
