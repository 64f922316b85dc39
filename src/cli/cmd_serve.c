// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the exact drop counts as Prometheus metrics over HTTP
 * (libmicrohttpd). Order matters for least privilege: bind the socket,
 * attach the BPF program, open what later needs privileges, then give up
 * root and every capability before the first byte is read from the network
 * (serve_listen.c). Scrapes read the kernel's counting map through file
 * descriptors already open, which needs no privilege (serve_metrics.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>

#include "commands.h"
#include "http.h"
#include "options.h"
#include "privileges.h"
#include "serve.h"

#define DEFAULT_LISTEN		"127.0.0.1:9464"
#define DEFAULT_MAX_SERIES	500
#define DEFAULT_USER		"nobody"

static const char usage[] =
"Usage: whydrop serve [--listen ADDR:PORT] [--max-series N] [--per-interface] [--per-netns]\n"
"                     [--netns-names] [--per-cgroup] [-r REASON,...] [--netns NS]\n"
"                     [-i IFNAME]\n"
"Serve the exact drop counts as Prometheus metrics on http://ADDR:PORT/metrics.\n"
"Counts are read from the kernel at each scrape. Once the BPF program is attached\n"
"and the socket bound, whydrop gives up root (switching to --user) and every\n"
"capability. Only GET and HEAD are answered.\n"
"\n"
"      --listen A:P     address and port (127.0.0.1:9464); [::1]:9464 for IPv6,\n"
"                       :9464 for every address (IPv4 and IPv6: said with a warning,\n"
"                       the metrics are then open to the network); port 0 picks one\n"
"      --max-series N   series per metric, the reason=\"other\" fold included (500)\n"
"      --per-interface  also whydrop_interface_drops_total{netns,interface,reason}\n"
"      --per-netns      also whydrop_netns_drops_total{netns,reason}\n"
"      --netns-names    a netns_name label beside netns on the two above: --netns as\n"
"                       given, else the ip netns name, \"host\", the container or pod\n"
"                       in it, or COMM[PID] of a process in it\n"
"      --per-cgroup     also whydrop_cgroup_drops_total{cgroup,reason}: the socket's\n"
"                       unit, container or pod (\"none\": no socket); costs a lookup\n"
"                       per drop; at most --max-series series; the kernel counts at\n"
"                       most 4096 sockets: the drops of more are in\n"
"                       whydrop_cgroup_drops_lost_total\n"
"      --user NAME      user to switch to when started as root (nobody)\n"
"  -d, --duration T     stop after T (5, 2.5, 500ms, 1m); default: until SIGINT/SIGTERM\n"
"  -r, --reason LIST    only these reasons (names as `whydrop reasons` prints)\n"
"      --netns NS       only drops in this network namespace (ip netns name or path)\n"
"  -i, --interface IF   only drops on this interface (in --netns, if given)\n"
"      --map-size N     distinct keys counted before the overflow bucket (10240)\n"
WD_USAGE_SOURCE
"                       drop_monitor's losses, read at each scrape: in\n"
"                       whydrop_lost_events_total (drops its queue could not hold),\n"
"                       whydrop_dropmon_{queue_dropped,socket_overruns,truncated,\n"
"                       summary_full}_total (docs/dropmon.md)\n"
"  -v, --verbose        libbpf and HTTP diagnostics\n"
"\n"
"Metrics: whydrop_drops_total{reason,layer,function}, whydrop_series_folded{metric},\n"
"whydrop_lost_events_total, whydrop_overflow_drops_total, whydrop_scrapes_total,\n"
"whydrop_build_info{version,kernel,attach}; opt-in (see above):\n"
"whydrop_interface_drops_total, whydrop_netns_drops_total (netns_name with\n"
"--netns-names), whydrop_cgroup_drops_total{cgroup,reason} and\n"
"whydrop_cgroup_drops_lost_total (--per-cgroup) (docs/serve.md).\n"
"\n"
"Examples:\n"
"  sudo whydrop serve\n"
"  curl -s http://127.0.0.1:9464/metrics | grep whydrop_drops_total\n"
"  sudo whydrop serve --listen [::1]:9464 --max-series 100 --per-interface\n"
"  sudo whydrop serve --listen 127.0.0.1:9500 --netns blue -r NO_SOCKET,TCP_CSUM\n";

enum {
	OPT_LISTEN = WD_OPT_EXTRA,
	OPT_MAX_SERIES,
	OPT_PER_IF,
	OPT_PER_NETNS,
	OPT_NETNS_NAMES,
	OPT_PER_CGROUP,
	OPT_USER,
};

static const struct option serve_longopts[] = {
	{ "listen",		required_argument, NULL, OPT_LISTEN },
	{ "max-series",		required_argument, NULL, OPT_MAX_SERIES },
	{ "per-interface",	no_argument,	   NULL, OPT_PER_IF },
	{ "per-netns",		no_argument,	   NULL, OPT_PER_NETNS },
	{ "netns-names",	no_argument,	   NULL, OPT_NETNS_NAMES },
	{ "per-cgroup",		no_argument,	   NULL, OPT_PER_CGROUP },
	{ "user",		required_argument, NULL, OPT_USER },
	{ NULL, 0, NULL, 0 },
};

static int bad_arg(const char *what, const char *arg, const char *hint)
{
	fprintf(stderr, "whydrop serve: bad %s '%s': %s\n(`whydrop serve -h` for help)\n",
		what, arg, hint);
	return -1;
}

static int handle_opt(int c, const char *arg, void *ctx)
{
	struct serve_opts *so = ctx;
	unsigned long v;

	switch (c) {
	case OPT_LISTEN:
		so->listen = arg;
		return 0;
	case OPT_MAX_SERIES:
		if (wd_parse_ulong(arg, 1, 1000000, &v))
			return bad_arg("--max-series", arg, "1 to 1000000 series");
		so->max_series = (uint32_t)v;
		return 0;
	case OPT_PER_IF:
		so->per_if = true;
		return 0;
	case OPT_PER_NETNS:
		so->per_netns = true;
		return 0;
	case OPT_NETNS_NAMES:
		so->netns_names = true;
		return 0;
	case OPT_PER_CGROUP:
		so->per_cgroup = true;
		return 0;
	case OPT_USER:
		so->user = arg;
		return 0;
	}
	return -1;
}

static int listen_and_attach(struct serve *sv, struct wd_opts *o, int *fd, bool *v6)
{
	int status;

	*fd = wd_serve_listen(sv->so.listen, v6);
	if (*fd == -2) {
		bad_arg("--listen", sv->so.listen,
			"give ADDRESS:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464");
		return WD_EXIT_USAGE;
	}
	if (*fd < 0)
		return 1;
	status = wd_session_open(&sv->s, o, false, NULL, NULL);
	if (status) {
		close(*fd);
		*fd = -1;
	}
	return status;
}

static int serve(struct serve *sv, struct wd_opts *o, uid_t uid, gid_t gid)
{
	struct MHD_Daemon *d = NULL;
	int fd = -1, status;
	bool v6 = false;
	double t0;

	status = listen_and_attach(sv, o, &fd, &v6);
	if (status)
		return status;
	if (sv->so.per_if)	/* while namespaces can still be entered */
		wd_ifnames_open(&sv->s.ifnames, sv->s.netns_ino ? sv->s.netns_path : NULL);
	status = 1;
	if (wd_serve_drop_privileges(sv, uid, gid))
		goto out;
	d = wd_http_start(fd, v6, wd_serve_render, sv, sv->verbose);
	if (!d)
		goto out;
	wd_serve_announce(sv, fd);
	fd = -1;	/* libmicrohttpd closes it */
	t0 = wd_now();
	while (wd_session_poll(&sv->s, 1000))
		if (o->duration && wd_now() - t0 >= o->duration)
			break;
	status = 0;
out:
	if (d)
		MHD_stop_daemon(d);
	if (fd >= 0)
		close(fd);
	wd_session_close(&sv->s);
	if (!status)
		fprintf(stderr, "whydrop serve: stopped after %" PRIu64 " scrapes; detached\n",
			sv->scrapes);
	return status;
}

int cmd_serve(int argc, char **argv)
{
	struct serve sv = {
		.so = { DEFAULT_LISTEN, DEFAULT_MAX_SERIES, false, false, DEFAULT_USER },
	};
	struct wd_extra_opts extra = { "", serve_longopts, handle_opt, &sv.so };
	uid_t uid = 0;
	gid_t gid = 0;
	struct wd_opts o;
	int status;

	if (wd_parse_opts_extra(argc, argv, &o, usage, &extra, &status))
		return status;
	sv.verbose = o.verbose;
	sv.cap_drops.max = sv.cap_if.max = sv.cap_ns.max = sv.cap_cg.max = sv.so.max_series;
	/* the kernel counts by socket; every cgroup is kept, the cap folds */
	if (sv.so.per_cgroup)
		o.group_by = WD_GROUP_CGROUP;
	o.netns_names = sv.so.netns_names;
	wd_groups_init(&sv.groups, &o);
	sv.groups.max_groups = UINT32_MAX;
	if (geteuid() == 0 && wd_privileges_user("whydrop serve", sv.so.user, &uid, &gid)) {
		wd_opts_free(&o);
		return WD_EXIT_USAGE;
	}
	pthread_mutex_init(&sv.lock, NULL);
	wd_install_signals();
	status = serve(&sv, &o, uid, gid);
	wd_prom_cap_free(&sv.cap_drops);
	wd_prom_cap_free(&sv.cap_if);
	wd_prom_cap_free(&sv.cap_ns);
	wd_prom_cap_free(&sv.cap_cg);
	wd_groups_free(&sv.groups);
	pthread_mutex_destroy(&sv.lock);
	wd_opts_free(&o);
	return status;
}
