// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <time.h>

#include "commands.h"
#include "noise_opts.h"
#include "groups.h"
#include "options.h"
#include "report.h"

static const char usage[] =
"Usage: whydrop count [-d SECONDS] [--json] [-r REASON,...] [--netns NS] [-i IFNAME]\n"
"                     [--stacks [--folded]] [--hide R[@F]] [--show-all] [EXPRESSION]\n"
"       whydrop count --counters-only [-d SECONDS] [--json] [--netns NS]\n"
"Count every dropped packet (exactly, in the kernel) for a while, then print the\n"
"totals by reason and location. Without -d, counts until Ctrl-C. Then the kernel's\n"
"own drop counters that moved over the same interval, next to the traced reasons:\n"
"drops a counter saw but the tracepoint did not (a full accept queue) are flagged.\n"
"\n"
"  -d, --duration T     how long: 5, 2.5, 500ms, 1m\n"
"      --json           one JSON document (see DESIGN.md for its fields)\n"
"  -r, --reason LIST    only these reasons (names as `whydrop reasons` prints)\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface (in --netns, if given)\n"
"      --map-size N     distinct keys counted before the overflow bucket (10240)\n"
"      --group-by WHO   also count by netns, interface, cgroup (the socket's unit,\n"
"                       container or pod) or process (the socket's, as ss -p)\n"
"      --max-groups N   largest groups shown, the rest as \"(other)\" (10)\n"
"      --explain        print the explanation of each reason seen\n"
"      --stacks         the kernel stack of each drop, counted per (reason, stack)\n"
"      --folded         with --stacks: only flame-graph folded lines, root frame\n"
"                       the reason (flamegraph.pl, inferno, speedscope read them)\n"
"      --stack-map-size N  distinct stacks the kernel keeps (16384); drops whose\n"
"                       stack does not fit are counted as [stack lost: ...]\n"
"      --hide R[@F]     hide drops of reason R (at function F) as expected\n"
"      --noise-file P   rules of expected drops (default " WD_NOISE_FILE ")\n"
"      --show-all       hide nothing, not even the built-in expected drops\n"
"      --counters-only  no BPF: only the kernel's counters (works without root)\n"
WD_USAGE_SOURCE
"  -v, --verbose        libbpf diagnostics\n"
"  EXPRESSION           a pcap-filter expression (as for tcpdump) on the packet,\n"
"                       from its IP header; applied in the kernel before counting\n"
"\n"
"Examples:\n"
"  sudo whydrop count -d 10\n"
"  sudo whydrop count -d 5 --json --netns blue -r NO_SOCKET,TCP_CSUM\n"
"  sudo whydrop count -d 10 'tcp port 443 and host 192.0.2.7'\n"
"  whydrop count --counters-only -d 10\n"
"  sudo whydrop count -d 10 --stacks --folded | flamegraph.pl > drops.svg\n";

/* --counters-only: no BPF, two samples of the kernel's counters. */
static int count_counters_only(const struct wd_opts *o)
{
	struct timespec tick = { 0, 100 * 1000000L };
	struct wd_counter_watch w;
	double t0 = wd_now();
	int status;

	status = wd_watch_begin(&w, o);
	if (status)
		goto out;
	fprintf(stderr, "whydrop: reading the kernel's counters only (nothing traced)\n");
	while (!wd_stop && (!o->duration || wd_now() - t0 < o->duration))
		nanosleep(&tick, NULL);
	wd_watch_sample(&w);
	status = wd_report_counts_watch(NULL, o, wd_now() - t0, &w, stdout);
out:
	wd_watch_end(&w);
	return status;
}

int cmd_count(int argc, char **argv)
{
	struct wd_counter_watch w;
	struct wd_noise nz = { 0 };
	struct wd_groups g;
	struct wd_session s;
	struct wd_opts o;
	double t0, t_refresh;
	int status;

	if (wd_parse_opts(argc, argv, &o, usage, &status))
		return status;
	status = wd_noise_setup(&nz, &o);
	if (status)
		goto out;
	o.noise = &nz;
	wd_install_signals();
	if (o.counters_only) {
		status = count_counters_only(&o);
		goto out;
	}
	status = wd_report_start(&s, &o, &w, &g);
	if (status)
		goto out;
	t0 = t_refresh = s.t_attached;
	while (wd_session_poll(&s, 100)) {
		if (o.duration && wd_now() - t0 >= o.duration)
			break;
		/* Sockets close: learn their processes while they are open. */
		if (wd_now() - t_refresh >= 1.0) {
			wd_groups_refresh(&g, &s);
			t_refresh = wd_now();
		}
	}
	wd_report_detach(&s, &w);
	status = wd_report_counts_watch(&s, &o, wd_now() - t0, &w, stdout);
	wd_report_end(&s, &w, &g);
out:
	wd_noise_free(&nz);
	wd_opts_free(&o);
	return status;
}
