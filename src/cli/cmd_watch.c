// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <errno.h>
#include <string.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "options.h"
#include "output.h"
#include "report.h"

static const char usage[] =
"Usage: whydrop watch [--json] [-r REASON,...] [--netns NS] [-i IFNAME] [--rate N] [-d T]\n"
"                     [--stacks] [EXPRESSION]\n"
"One line per dropped packet: time, reason, location, flow, length, device.\n"
"Counting stays exact; only the per-packet lines are rate-limited, and the\n"
"number not shown is reported on exit.\n"
"\n"
"      --json           JSON Lines, one object per packet\n"
"  -r, --reason LIST    only these reasons\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface\n"
"  -p, --processes      name the process of each drop's socket (as ss -p); keeps\n"
"                       CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH to read /proc/PID/fd\n"
"      --rate N         at most N packet records per second (10000; 0 = no limit)\n"
"  -d, --duration T     stop after T (5, 500ms, 1m)\n"
"      --explain        on exit, explain each reason seen\n"
"      --stacks         the kernel stack of each drop, indented under its line\n"
"                       (--json: \"stack\": [frames], innermost first)\n"
"  EXPRESSION           pcap-filter expression (tcpdump syntax), applied in the kernel\n"
WD_USAGE_SOURCE
"\n"
"Examples:\n"
"  sudo whydrop watch\n"
"  sudo whydrop watch --json -r TCP_CSUM,UDP_CSUM | jq .src\n"
"  sudo whydrop watch 'tcp port 443 and host 192.0.2.7'\n";

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

static void summary(struct watch *w)
{
	struct wd_stats st;
	uint64_t missed, unwritten;

	if (wd_session_stats(w->s, &st))
		return;
	/* Records delivered but not printed: the output went away. */
	unwritten = st.v[WD_STAT_EMITTED] - w->shown;
	missed = st.v[WD_STAT_RATE_LIMITED] + st.v[WD_STAT_RING_FULL] + unwritten;
	fprintf(stderr,
		"whydrop: %" PRIu64 " drops counted, %" PRIu64 " records shown, %" PRIu64
		" not shown (%" PRIu64 " over --rate, %" PRIu64 " lost: ring buffer full",
		st.seen, w->shown, missed, st.v[WD_STAT_RATE_LIMITED],
		st.v[WD_STAT_RING_FULL]);
	if (unwritten)
		fprintf(stderr, ", %" PRIu64 " not written: %s", unwritten,
			strerror(w->out_errno));
	fputc(')', stderr);
	if (st.recursion_misses)
		fprintf(stderr, ", %" PRIu64 " drops not traced (nested)", st.recursion_misses);
	if (st.filter_nonlinear)
		fprintf(stderr, ", %" PRIu64 " left out unmatched: the filter needed bytes in "
			"paged data", st.filter_nonlinear);
	fputc('\n', stderr);
}

int cmd_watch(int argc, char **argv)
{
	struct watch w = { 0 };
	struct wd_session s;
	struct wd_opts o;
	double t0;
	int status;

	if (wd_parse_opts(argc, argv, &o, usage, &status))
		return status;
	wd_install_signals();
	w.s = &s;
	w.o = &o;
	status = wd_session_open(&s, &o, true, on_event, &w);
	if (status)
		goto out;
	/* Interface names come from sockets opened in each namespace at start. */
	status = 1;
	if (wd_session_drop_privileges(&s))
		goto close;
	t0 = s.t_attached;
	while (wd_session_poll(&s, 100))
		if (o.duration && wd_now() - t0 >= o.duration)
			break;
	wd_session_detach(&s);
	summary(&w);
	if (o.explain && !w.out_failed) {
		struct wd_total *t = NULL;
		size_t n = 0;

		if (!wd_session_totals(&s, &t, &n))
			wd_report_explain(&s, t, n, stdout);
		free(t);
	}
	status = 0;
	if (w.out_failed) {
		wd_output_report("watch", stdout, w.out_errno);
		status = 1;
	}
close:
	wd_session_close(&s);
out:
	wd_opts_free(&o);
	return status;
}
