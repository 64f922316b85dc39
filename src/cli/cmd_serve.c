// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop serve: the exact drop counts as Prometheus metrics over HTTP
 * (libmicrohttpd). Order matters for least privilege: bind the socket,
 * attach the BPF program, open what later needs privileges, then give up
 * root and every capability before the first byte is read from the network.
 * Scrapes read the kernel's counting map through file descriptors already
 * open, which needs no privilege.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <microhttpd.h>

#include "catalogue.h"
#include "commands.h"
#include "http.h"
#include "groups.h"
#include "privileges.h"
#include "prom.h"
#include "session.h"
#include "source_dropmon.h"
#include "whydrop.skel.h"

#define DEFAULT_LISTEN		"127.0.0.1:9464"
#define DEFAULT_MAX_SERIES	500
#define DEFAULT_USER		"nobody"
#define NAME_LEN		128

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
"      --source S       bpf, dropmon (drop_monitor, no BPF; docs/dropmon.md),\n"
"                       or auto: BPF, else drop_monitor (default)\n"
"      --dropmon-mode M packet (reasons, packets) or summary (by location only)\n"
"      --dropmon-queue N  drop_monitor's per-CPU queue, in packets (1000)\n"
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

struct serve_opts {
	const char *listen;
	uint32_t max_series;
	bool per_if, per_netns;
	const char *user;
	bool netns_names, per_cgroup;
};

struct serve {
	struct serve_opts so;
	struct wd_session s;
	pthread_mutex_t lock;
	struct wd_prom_cap cap_drops, cap_if, cap_ns, cap_cg;
	struct wd_groups groups;	/* --per-cgroup: counts by the socket's cgroup */
	bool keep_cap_bpf;
	bool verbose;
	uint64_t scrapes;
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
	char *end;

	switch (c) {
	case OPT_LISTEN:
		so->listen = arg;
		return 0;
	case OPT_MAX_SERIES:
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (end == arg || *end || errno || arg[0] == '-' || v < 1 || v > 1000000)
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

/* ---- the listening socket ---- */

/* "127.0.0.1:9464", "[::1]:9464", ":9464", "localhost:9464" to an address. */
static int parse_listen(const char *arg, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE };
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2];
	const char *colon = strrchr(arg, ':'), *port, *h = arg;
	struct addrinfo *ai = NULL;
	size_t hlen;

	if (!colon || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1))
		return -1;
	port = colon + 1;
	hlen = (size_t)(colon - arg);
	if (hlen >= 2 && arg[0] == '[' && arg[hlen - 1] == ']') {
		h = arg + 1;
		hlen -= 2;
	} else if (memchr(arg, ':', hlen)) {
		return -1;	/* IPv6 without brackets */
	}
	if (hlen >= sizeof(host) || strtoul(port, NULL, 10) > 65535)
		return -1;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	if (getaddrinfo(hlen ? host : "::", port, &hints, &ai) || !ai)
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static void format_addr(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char host[INET6_ADDRSTRLEN + IF_NAMESIZE + 2] = "?";
	char port[8] = "?";

	getnameinfo((const struct sockaddr *)ss, sizeof(*ss), host, sizeof(host), port,
		    sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(buf, len, ss->ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

static const char *bind_hint(int err)
{
	switch (err) {
	case EADDRINUSE:
		return " (another program listens there: choose another port with --listen)";
	case EADDRNOTAVAIL:
		return " (no interface of this machine has that address)";
	case EACCES:
		return " (ports below 1024 need root or CAP_NET_BIND_SERVICE)";
	}
	return "";
}

/* The any address (0.0.0.0, ::, ::ffff:0.0.0.0): every interface of the machine. */
static bool is_wildcard(const struct sockaddr_storage *ss)
{
	const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;

	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_addr.s_addr == htonl(INADDR_ANY);
	return IN6_IS_ADDR_UNSPECIFIED(a6) ||
	       (IN6_IS_ADDR_V4MAPPED(a6) && !memcmp(&a6->s6_addr[12], "\0\0\0\0", 4));
}

/* Bound and listening socket, or -1 after one message. */
static int open_listener(const char *arg, bool *v6)
{
	struct sockaddr_storage ss = {};
	socklen_t len = 0;
	int fd, one = 1, zero = 0, err;

	fd = parse_listen(arg, &ss, &len);
	if (fd)
		return -2;
	*v6 = ss.ss_family == AF_INET6;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* ":PORT" (the any address) serves IPv4 too; a given IPv6 address only IPv6. */
	if (*v6 && IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&ss)->sin6_addr))
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	else if (*v6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64))
		goto fail;
	if (is_wildcard(&ss))
		fprintf(stderr, "whydrop serve: warning: --listen %s listens on every address of "
			"this machine: whoever can reach it reads the metrics (kernel version, "
			"drop reasons, network namespaces, interfaces, cgroups); give 127.0.0.1 "
			"or [::1], or filter the port\n", arg);
	return fd;
fail:
	err = errno;
	fprintf(stderr, "whydrop serve: cannot listen on %s: %s%s\n", arg, strerror(err),
		bind_hint(err));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* ---- least privilege ---- */

/* After the bind and the attach: another user, and no capability at all. */
static int drop_privileges(struct serve *sv, uid_t uid, gid_t gid)
{
	if (wd_privileges_seal()) {
		fprintf(stderr, "whydrop serve: cannot empty the capability bounding set: %s\n",
			strerror(errno));
		return -1;
	}
	if (geteuid() == 0 && wd_privileges_switch_user("whydrop serve", uid, gid))
		return -1;
	/* drop_monitor: its STOP on exit needs CAP_NET_ADMIN, kept alone. */
	if (wd_privileges_reduce("whydrop serve", sv->s.dm ? WD_CAP(WD_CAP_NET_ADMIN) : 0,
				 sv->s.dm ? -1 : sv->s.stats_fd, &sv->keep_cap_bpf))
		return -1;
	if (sv->keep_cap_bpf)
		fprintf(stderr, "whydrop serve: this kernel needs CAP_BPF to read BPF maps "
				"(kernel.unprivileged_bpf_disabled): keeping CAP_BPF alone\n");
	return 0;
}

/* "veth0"; "if7" where the namespace is out of reach; "none" without a device. */
static void interface_name(struct serve *sv, uint32_t netns, uint32_t ifindex, char *buf,
			   size_t len)
{
	const char *name = wd_ifname(&sv->s.ifnames, netns, ifindex);

	if (!ifindex)
		snprintf(buf, len, "none");
	else if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "if%u", ifindex);
}

/* ---- metrics ---- */

struct scrape {
	struct wd_prom_family drops, by_if, by_ns, by_cg;
	struct wd_key_total *keys;	/* this scrape's read of the counts */
	size_t n_keys;
	uint64_t cg_lost;	/* --per-cgroup: drops the by-socket map had no room for */
};

struct row_names {
	char reason[NAME_LEN], subsys[NAME_LEN], function[NAME_LEN], location[NAME_LEN];
	char netns[16], ifname[IFNAMSIZ + 8], netns_name[64];
	const char *layer;
};

static void resolve(struct serve *sv, const struct wd_key_total *kt, struct row_names *n,
		    bool want_if)
{
	struct wd_total t = { kt->key.reason, kt->key.location, kt->count };
	const struct wd_cat_entry *e;
	struct wd_count_row row;

	wd_session_row(&sv->s, &t, &row, n->reason, n->subsys, n->function, n->location,
		       NAME_LEN);
	if (!row.reason)
		snprintf(n->reason, NAME_LEN, "unknown");
	e = row.reason ? wd_catalogue_find(row.reason) : NULL;
	n->layer = e && e->layer ? e->layer : "unknown";
	if (!kt->key.location) {	/* overflow bucket: only the reason is known */
		snprintf(n->netns, sizeof(n->netns), "unknown");
		snprintf(n->ifname, sizeof(n->ifname), "unknown");
		snprintf(n->netns_name, sizeof(n->netns_name), "unknown");
		return;
	}
	snprintf(n->netns, sizeof(n->netns), "%u", kt->key.netns);
	if (sv->so.netns_names) {
		const char *name = wd_netns_name(&sv->s.who.owners, kt->key.netns);

		snprintf(n->netns_name, sizeof(n->netns_name), "%s", name ? name : "unknown");
	}
	if (want_if)
		interface_name(sv, kt->key.netns, kt->key.ifindex, n->ifname, sizeof(n->ifname));
}

static int add_key(struct serve *sv, struct scrape *sc, const struct wd_key_total *kt)
{
	struct row_names n;
	const char *d[] = { n.reason, NULL, n.function };
	const char *i[] = { n.netns, n.ifname, n.reason, n.netns_name };
	const char *ns[] = { n.netns, n.reason, n.netns_name };
	int err;

	resolve(sv, kt, &n, sv->so.per_if);
	d[1] = n.layer;
	err = wd_prom_add(&sc->drops, d, kt->count);
	if (!err && sv->so.per_if)
		err = wd_prom_add(&sc->by_if, i, kt->count);
	if (!err && sv->so.per_netns)
		err = wd_prom_add(&sc->by_ns, ns, kt->count);
	return err;
}

/* --per-cgroup: the by-socket counts, by the cgroup's label. */
static int fill_cgroups(struct serve *sv, struct scrape *sc)
{
	struct wd_group_row *rows;
	char reason[NAME_LEN];
	struct wd_stats st;
	size_t n;
	int err = wd_groups_rows(&sv->groups, &sv->s, &rows, &n);

	if (err)
		return err;
	for (size_t i = 0; !err && i < n; i++) {
		const char *v[] = { !strcmp(rows[i].group, "(no socket)") ? "none" : rows[i].group,
				    reason };

		if (!wd_reason_name(&sv->s.reasons, rows[i].reason, reason, sizeof(reason)))
			snprintf(reason, sizeof(reason), "unknown");
		err = wd_prom_add(&sc->by_cg, v, rows[i].count);
	}
	free(rows);
	/* what these rows miss: drops of sockets the kernel had no room for */
	if (!err && !wd_session_stats_of(&sv->s, &st, sc->keys, sc->n_keys))
		sc->cg_lost = st.v[WD_STAT_SOCK_OVERFLOW];
	wd_prom_merge(&sc->by_cg);
	return err ? err : wd_prom_cap_apply(&sv->cap_cg, &sc->by_cg);
}

/* --per-cgroup: what whydrop_cgroup_drops_total misses, said next to it. */
static void render_cgroup_lost(struct wd_prom_buf *b, const struct scrape *sc)
{
	wd_prom_render_value(b, "whydrop_cgroup_drops_lost_total", "counter",
			     "Drops missing from whydrop_cgroup_drops_total because the kernel's "
			     "by-socket map (4096 sockets, never emptied) was full; still in "
			     "whydrop_drops_total.", sc->cg_lost);
}

static int fill(struct serve *sv, struct scrape *sc)
{
	int err;

	/* One read per scrape: render_info sums the same keys. */
	err = wd_session_keys(&sv->s, &sc->keys, &sc->n_keys);
	for (size_t i = 0; !err && i < sc->n_keys; i++)
		err = add_key(sv, sc, &sc->keys[i]);
	if (err)
		return err;
	wd_prom_merge(&sc->drops);
	wd_prom_merge(&sc->by_if);
	wd_prom_merge(&sc->by_ns);
	err = wd_prom_cap_apply(&sv->cap_drops, &sc->drops);
	if (!err && sv->so.per_if)
		err = wd_prom_cap_apply(&sv->cap_if, &sc->by_if);
	if (!err && sv->so.per_netns)
		err = wd_prom_cap_apply(&sv->cap_ns, &sc->by_ns);
	if (!err && sv->so.per_cgroup)
		err = fill_cgroups(sv, sc);
	return err;
}

static void render_folded(struct serve *sv, struct wd_prom_buf *b, const struct scrape *sc)
{
	wd_prom_render_header(b, "whydrop_series_folded", "gauge",
			      "Label sets summed into the series whose labels are all \"other\", "
			      "because of --max-series.");
	wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
		       sc->drops.name, sv->cap_drops.folded);
	if (sv->so.per_if)
		wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
			       sc->by_if.name, sv->cap_if.folded);
	if (sv->so.per_netns)
		wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
			       sc->by_ns.name, sv->cap_ns.folded);
	if (sv->so.per_cgroup)
		wd_prom_printf(b, "whydrop_series_folded{metric=\"%s\"} %" PRIu64 "\n",
			       sc->by_cg.name, sv->cap_cg.folded);
}

/* --source dropmon: what drop_monitor could not deliver, read at this scrape. */
static void render_dropmon_losses(struct wd_prom_buf *b, const struct wd_dm_losses *l)
{
	wd_prom_render_header(b, "whydrop_dropmon_queue_dropped_total", "counter",
			      "Drops drop_monitor saw but could not deliver, its per-CPU queue "
			      "(--dropmon-queue) being full: in whydrop_lost_events_total, not in "
			      "whydrop_drops_total.");
	wd_prom_printf(b, "whydrop_dropmon_queue_dropped_total{origin=\"software\"} %" PRIu64
		       "\nwhydrop_dropmon_queue_dropped_total{origin=\"hardware\"} %" PRIu64 "\n",
		       l->queue_dropped, l->hw_queue_dropped);
	wd_prom_render_value(b, "whydrop_dropmon_socket_overruns_total", "counter",
			     "Times whydrop's drop_monitor socket overflowed (ENOBUFS): drops "
			     "lost, how many unknown, not in whydrop_drops_total.", l->overruns);
	wd_prom_render_value(b, "whydrop_dropmon_truncated_total", "counter",
			     "Drops whose packet drop_monitor cut to the bytes whydrop keeps: "
			     "counted, their packets incomplete.", l->truncated);
	wd_prom_render_value(b, "whydrop_dropmon_summary_full_total", "counter",
			     "Summary alerts (--dropmon-mode summary) at the kernel's limit of 64 "
			     "locations: drops at further locations not counted.", l->summary_full);
}

static void render_info(struct serve *sv, struct wd_prom_buf *b, const struct scrape *sc)
{
	struct wd_dm_losses l = { 0 };
	struct wd_stats st;

	if (wd_session_stats_of(&sv->s, &st, sc->keys, sc->n_keys))
		memset(&st, 0, sizeof(st));
	if (sv->s.dm)
		wd_dm_source_losses(&sv->s, &l);
	wd_prom_render_value(b, "whydrop_lost_events_total", "counter",
			     "Drops not in whydrop_drops_total: the kernel could not run "
			     "whydrop's program for them (recursion misses), or, with drop_monitor, "
			     "its per-CPU queue could not hold them (whydrop_dropmon_*_total).",
			     st.recursion_misses + l.queue_dropped + l.hw_queue_dropped);
	if (sv->s.dm)
		render_dropmon_losses(b, &l);
	wd_prom_render_value(b, "whydrop_scrapes_total", "counter",
			     "Pages of /metrics rendered (GET), this one included; HEAD "
			     "requests read nothing and are not counted.", sv->scrapes);
	wd_prom_render_value(b, "whydrop_overflow_drops_total", "counter",
			     "Drops counted in the overflow bucket because the counting map was "
			     "full (--map-size): in whydrop_drops_total with function=\"(overflow)\".",
			     st.v[WD_STAT_OVERFLOW]);
	wd_prom_render_header(b, "whydrop_build_info", "gauge",
			      "whydrop's version, the running kernel and the attach mode; always 1.");
	wd_prom_printf(b, "whydrop_build_info{version=\"");
	wd_prom_escape(b, WHYDROP_VERSION);
	wd_prom_printf(b, "\",kernel=\"");
	wd_prom_escape(b, sv->s.kernel);
	wd_prom_printf(b, "\",attach=\"%s\"} 1\n", sv->s.attach_mode);
}

static void scrape_init(struct scrape *sc, bool netns_names)
{
	static const struct wd_prom_family drops = {
		.name = "whydrop_drops_total", .type = "counter",
		.help = "Packets the kernel dropped (skb:kfree_skb), by drop reason, layer and "
			"dropping function; exact. reason=\"other\": folded by --max-series.",
		.labels = { "reason", "layer", "function" }, .nlabels = 3,
	};
	static const struct wd_prom_family by_if = {
		.name = "whydrop_interface_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by network namespace (inode), interface "
			"and drop reason; exact.",
		.labels = { "netns", "interface", "reason" }, .nlabels = 3,
	};
	static const struct wd_prom_family by_ns = {
		.name = "whydrop_netns_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by network namespace (inode) and drop "
			"reason; exact.",
		.labels = { "netns", "reason" }, .nlabels = 2,
	};

	static const struct wd_prom_family by_cg = {
		.name = "whydrop_cgroup_drops_total", .type = "counter",
		.help = "Packets the kernel dropped, by the cgroup of their socket (the systemd "
			"unit, container or pod it names; none: no socket) and drop reason; exact.",
		.labels = { "cgroup", "reason" }, .nlabels = 2,
	};

	sc->drops = drops;
	sc->by_if = by_if;
	sc->by_ns = by_ns;
	sc->by_cg = by_cg;
	/* --netns-names: one more label, last */
	if (netns_names) {
		sc->by_if.labels[sc->by_if.nlabels++] = "netns_name";
		sc->by_ns.labels[sc->by_ns.nlabels++] = "netns_name";
	}
}

/* The whole /metrics page in b; 0 or a negative errno. */
static int render_metrics(struct serve *sv, struct wd_prom_buf *b)
{
	struct scrape sc = {};
	int err;

	scrape_init(&sc, sv->so.netns_names);
	pthread_mutex_lock(&sv->lock);
	err = fill(sv, &sc);
	if (!err) {
		sv->scrapes++;	/* before render_info: the page counts itself */
		wd_prom_render_family(b, &sc.drops);
		if (sv->so.per_if)
			wd_prom_render_family(b, &sc.by_if);
		if (sv->so.per_netns)
			wd_prom_render_family(b, &sc.by_ns);
		if (sv->so.per_cgroup) {
			wd_prom_render_family(b, &sc.by_cg);
			render_cgroup_lost(b, &sc);
		}
		render_folded(sv, b, &sc);
		render_info(sv, b, &sc);
	}
	pthread_mutex_unlock(&sv->lock);
	free(sc.keys);
	wd_prom_family_clear(&sc.drops);
	wd_prom_family_clear(&sc.by_if);
	wd_prom_family_clear(&sc.by_ns);
	wd_prom_family_clear(&sc.by_cg);
	if (!err && b->failed)
		err = -ENOMEM;
	return err;
}

/* The exporter's HTTP layer (src/cli/http.c) asks for the page here. */
static int render_page(void *ctx, struct wd_prom_buf *b)
{
	return render_metrics(ctx, b);
}

/* ---- the command ---- */

static int listen_and_attach(struct serve *sv, struct wd_opts *o, int *fd, bool *v6)
{
	int status;

	*fd = open_listener(sv->so.listen, v6);
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

static void announce(struct serve *sv, int fd)
{
	struct sockaddr_storage ss = {};
	socklen_t len = sizeof(ss);
	char addr[INET6_ADDRSTRLEN + IF_NAMESIZE + 16] = "?";

	if (!getsockname(fd, (struct sockaddr *)&ss, &len))
		format_addr(&ss, addr, sizeof(addr));
	fprintf(stderr, "whydrop serve: listening on http://%s/metrics (uid %u, %s)\n", addr,
		(unsigned int)getuid(),
		sv->s.dm ? "CAP_NET_ADMIN only, to stop drop_monitor on exit" :
		sv->keep_cap_bpf ? "CAP_BPF only" : "no capabilities");
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
	if (drop_privileges(sv, uid, gid))
		goto out;
	d = wd_http_start(fd, v6, render_page, sv, sv->verbose);
	if (!d)
		goto out;
	announce(sv, fd);
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
