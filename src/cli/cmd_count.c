// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <stdio.h>

#include "commands.h"
#include "report.h"

static const char usage[] =
"Usage: whydrop count [-d SECONDS] [--json] [-r REASON,...] [--netns NS] [-i IFNAME] [EXPRESSION]\n"
"Count every dropped packet (exactly, in the kernel) for a while, then print the\n"
"totals by reason and location. Without -d, counts until Ctrl-C.\n"
"\n"
"  -d, --duration T     how long: 5, 2.5, 500ms, 1m\n"
"      --json           one JSON document (see DESIGN.md for its fields)\n"
"  -r, --reason LIST    only these reasons (names as `whydrop reasons` prints)\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface (in --netns, if given)\n"
"      --map-size N     distinct keys counted before the overflow bucket (10240)\n"
"      --explain        print the explanation of each reason seen\n"
"  -v, --verbose        libbpf diagnostics\n"
"  EXPRESSION           a pcap-filter expression (as for tcpdump) on the packet,\n"
"                       from its IP header; applied in the kernel before counting\n"
"\n"
"Examples:\n"
"  sudo whydrop count -d 10\n"
"  sudo whydrop count -d 5 --json --netns blue -r NO_SOCKET,TCP_CSUM\n"
"  sudo whydrop count -d 10 'tcp port 443 and host 192.0.2.7'\n";

int cmd_count(int argc, char **argv)
{
	struct wd_session s;
	struct wd_opts o;
	double t0;
	int status;

	if (wd_parse_opts(argc, argv, &o, usage, &status))
		return status;
	wd_install_signals();
	status = wd_session_open(&s, &o, false, NULL, NULL);
	if (status)
		return status;
	t0 = s.t_attached;
	while (wd_session_poll(&s, 100))
		if (o.duration && wd_now() - t0 >= o.duration)
			break;
	wd_session_detach(&s);
	status = wd_report_counts(&s, &o, wd_now() - t0, stdout);
	wd_session_close(&s);
	return status;
}
