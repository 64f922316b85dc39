// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>
#include <time.h>

#include "commands.h"
#include "privileges.h"
#include "report.h"

static const char usage[] =
"Usage: whydrop count [-d SECONDS] [--json] [-r REASON,...] [--netns NS] [-i IFNAME] [EXPRESSION]\n"
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
"      --explain        print the explanation of each reason seen\n"
"      --counters-only  no BPF: only the kernel's counters (works without root)\n"
"  -v, --verbose        libbpf diagnostics\n"
"  EXPRESSION           a pcap-filter expression (as for tcpdump) on the packet,\n"
"                       from its IP header; applied in the kernel before counting\n"
"\n"
"Examples:\n"
"  sudo whydrop count -d 10\n"
"  sudo whydrop count -d 5 --json --netns blue -r NO_SOCKET,TCP_CSUM\n"
"  sudo whydrop count -d 10 'tcp port 443 and host 192.0.2.7'\n"
"  whydrop count --counters-only -d 10\n";

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
	struct wd_session s;
	struct wd_opts o;
	double t0;
	int status;

	if (wd_parse_opts(argc, argv, &o, usage, &status))
		return status;
	wd_install_signals();
	if (o.counters_only) {
		status = count_counters_only(&o);
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
	t0 = s.t_attached;
	while (wd_session_poll(&s, 100))
		if (o.duration && wd_now() - t0 >= o.duration)
			break;
	wd_watch_sample(&w);	/* before detaching: nothing counted goes untraced */
	wd_session_detach(&s);
	status = wd_report_counts_watch(&s, &o, wd_now() - t0, &w, stdout);
close:
	wd_session_close(&s);
	wd_watch_end(&w);
out:
	wd_opts_free(&o);
	return status;
}
