// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tests/system/tcp_events.sh's driver of src/core/tcp_events.c: attach,
 * take records until SIGINT/SIGTERM (or -d SECONDS), then print one JSON
 * document: the reset counts, the flows, the statistics, the records taken
 * by type and the programs' bpf_stats, with names from this kernel.
 *
 *   tcp_events_driver [--netns PATH] [--rate N] [--max-flows N]
 *                     [--max-rst-keys N] [--raw-tp] [-d SECONDS] [--records] [-v]
 *
 * "attached (FLAVOUR)" on stderr says it is ready; --records also prints
 * each record as a JSON line on stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "json.h"
#include "runtime.h"
#include "tcp_events.h"
#include "tcp_names.h"

struct args {
	struct wd_tcp_opts o;
	const char *netns;
	double duration;
	bool records, verbose;
};

struct taken {
	uint64_t by_type[4];
	uint64_t segs;
	const struct wd_tcp_names *names;
	bool print;
};

static const char *const stat_names[WD_TCP_STAT_MAX] = {
	[WD_TCP_STAT_RST_SENT] = "rst_sent",
	[WD_TCP_STAT_RST_RECEIVED] = "rst_received",
	[WD_TCP_STAT_RETRANS_CALLS] = "retrans_calls",
	[WD_TCP_STAT_RETRANS_SEGS] = "retrans_segs",
	[WD_TCP_STAT_RETRANS_FAILED] = "retrans_failed",
	[WD_TCP_STAT_RETRANS_SKIPPED] = "retrans_skipped",
	[WD_TCP_STAT_RETRANS_UNSURE] = "retrans_unsure",
	[WD_TCP_STAT_SYNACK] = "synack",
	[WD_TCP_STAT_RETRANS_CAUGHT_UP] = "retrans_caught_up",
	[WD_TCP_STAT_EMITTED] = "emitted",
	[WD_TCP_STAT_RATE_LIMITED] = "rate_limited",
	[WD_TCP_STAT_RING_FULL] = "ring_full",
	[WD_TCP_STAT_RST_OVERFLOW] = "rst_overflow",
	[WD_TCP_STAT_FLOW_OVERFLOW] = "flow_overflow",
};

static const char *const type_names[] = { "rst_sent", "rst_received", "retrans", "synack" };

static int usage(void)
{
	fputs("usage: tcp_events_driver [--netns PATH] [--rate N] [--max-flows N] "
	      "[--max-rst-keys N] [--raw-tp] [-d SECONDS] [--records] [-v]\n", stderr);
	return 2;
}

static int parse(int argc, char **argv, struct args *a)
{
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--raw-tp")) {
			a->o.raw_tp = true;
			continue;
		}
		if (!strcmp(argv[i], "--records")) {
			a->records = true;
			continue;
		}
		if (!strcmp(argv[i], "-v")) {
			a->verbose = true;
			continue;
		}
		if (!v)
			return usage();
		if (!strcmp(argv[i], "--netns"))
			a->netns = v;
		else if (!strcmp(argv[i], "--rate"))
			a->o.rate = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--max-flows"))
			a->o.max_flows = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "--max-rst-keys"))
			a->o.max_rst_keys = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(argv[i], "-d"))
			a->duration = strtod(v, NULL);
		else
			return usage();
		i++;
	}
	return 0;
}

static void addr_str(const struct wd_tcp_flow *f, const uint8_t *a, char *buf, size_t len)
{
	if (!inet_ntop(f->family == AF_INET6 ? AF_INET6 : AF_INET, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

static void json_flow(struct wd_json *j, const struct wd_tcp_flow *f)
{
	char buf[64];

	wd_json_uint(j, "netns_cookie", f->netns_cookie);
	wd_json_uint(j, "netns", f->netns_ino);
	if (!f->family)
		return;
	wd_json_str(j, "family", f->family == AF_INET6 ? "ipv6" : "ipv4");
	addr_str(f, f->saddr, buf, sizeof(buf));
	wd_json_str(j, "src", buf);
	wd_json_uint(j, "sport", f->sport);
	addr_str(f, f->daddr, buf, sizeof(buf));
	wd_json_str(j, "dst", buf);
	wd_json_uint(j, "dport", f->dport);
}

static int take(const struct wd_tcp_event *ev, void *arg)
{
	struct taken *tk = arg;
	struct wd_json j;
	char buf[64];

	if (ev->type < 4)
		tk->by_type[ev->type]++;
	tk->segs += ev->segs;
	if (!tk->print)
		return 0;
	wd_json_init(&j, stderr);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "type", ev->type < 4 ? type_names[ev->type] : "?");
	if (ev->type == WD_TCP_EV_RST_SENT)
		wd_json_str(&j, "reason", wd_tcp_rst_name(tk->names, ev->reason, buf, sizeof(buf)));
	wd_json_str(&j, "state", wd_tcp_state_name(tk->names, ev->state));
	json_flow(&j, &ev->flow);
	wd_json_int(&j, "err", ev->err);
	wd_json_uint(&j, "segs", ev->segs);
	wd_json_uint(&j, "flags", ev->flags);
	wd_json_close(&j, '}');
	fputc('\n', stderr);
	return 0;
}

static void json_resets(struct wd_json *j, struct wd_tcp *t, const struct wd_tcp_names *nm)
{
	struct wd_tcp_rst_count *c = NULL;
	size_t n = 0;
	char buf[64];

	wd_json_open(j, "resets", '[');
	if (wd_tcp_read_resets(t, &c, &n))
		n = 0;
	for (size_t i = 0; i < n; i++) {
		wd_json_open(j, NULL, '{');
		wd_json_str(j, "direction", c[i].key.dir == WD_TCP_SENT ? "sent" : "received");
		if (c[i].key.dir == WD_TCP_SENT)
			wd_json_str(j, "reason",
				    wd_tcp_rst_name(nm, c[i].key.reason, buf, sizeof(buf)));
		wd_json_uint(j, "code", c[i].key.reason);
		wd_json_str(j, "state", wd_tcp_state_name(nm, c[i].key.state));
		wd_json_uint(j, "netns_cookie", c[i].key.netns_cookie);
		wd_json_uint(j, "netns", c[i].key.netns_ino);
		wd_json_bool(j, "overflow", c[i].overflow);
		wd_json_uint(j, "count", c[i].count);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
	free(c);
}

static void json_flows(struct wd_json *j, struct wd_tcp *t)
{
	struct wd_tcp_flow_count *c = NULL;
	uint64_t overflow = 0;
	size_t n = 0;

	if (wd_tcp_read_flows(t, &c, &n, &overflow))
		n = 0;
	wd_json_open(j, "flows", '[');
	for (size_t i = 0; i < n; i++) {
		wd_json_open(j, NULL, '{');
		json_flow(j, &c[i].flow);
		wd_json_uint(j, "retransmits", c[i].segs);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
	wd_json_uint(j, "flows_overflow", overflow);
	free(c);
}

static void json_stats(struct wd_json *j, struct wd_tcp *t, const struct taken *tk)
{
	struct wd_tcp_prog_stats ps[8];
	struct wd_tcp_stats st;
	int n;

	wd_json_open(j, "stats", '{');
	if (!wd_tcp_read_stats(t, &st))
		for (int i = 0; i < WD_TCP_STAT_MAX; i++)
			wd_json_uint(j, stat_names[i], st.v[i]);
	wd_json_close(j, '}');
	wd_json_open(j, "records", '{');
	for (int i = 0; i < 4; i++)
		wd_json_uint(j, type_names[i], tk->by_type[i]);
	wd_json_uint(j, "segs", tk->segs);
	wd_json_close(j, '}');
	n = wd_tcp_prog_stats(t, ps, 8);
	wd_json_open(j, "programs", '[');
	for (int i = 0; i < n; i++) {
		wd_json_open(j, NULL, '{');
		wd_json_str(j, "name", ps[i].name);
		wd_json_uint(j, "run_cnt", ps[i].run_cnt);
		wd_json_uint(j, "run_time_ns", ps[i].run_time_ns);
		wd_json_uint(j, "recursion_misses", ps[i].recursion_misses);
		wd_json_close(j, '}');
	}
	wd_json_close(j, ']');
}

static void report(struct wd_tcp *t, const struct wd_tcp_names *nm, const struct taken *tk)
{
	const struct wd_tcp_caps *caps = wd_tcp_caps(t);
	struct wd_json j;

	wd_json_init(&j, stdout);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "attach", caps->attach);
	wd_json_bool(&j, "rst_reason", caps->rst_reason);
	wd_json_bool(&j, "retrans_err", caps->retrans_err);
	wd_json_str(&j, "names", nm->source == WD_SRC_BTF ? "btf" :
		    nm->source == WD_SRC_TRACEFS ? "tracefs" : "none");
	wd_json_bool(&j, "states_from_btf", nm->states_from_btf);
	json_resets(&j, t, nm);
	json_flows(&j, t);
	json_stats(&j, t, tk);
	wd_json_close(&j, '}');
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct wd_tcp_names nm;
	struct taken tk = { 0 };
	struct wd_tcp *t;
	char err[512];
	uint32_t ino;
	double end;
	int ret;

	if (parse(argc, argv, &a))
		return 2;
	ret = a.netns ? wd_tcp_netns_cookie(a.netns, &a.o.netns_cookie, &ino) : 0;
	if (ret) {
		fprintf(stderr, "tcp_events_driver: %s: cannot tell its cookie: %s\n", a.netns,
			strerror(-ret));
		return 1;
	}
	if (wd_tcp_names_load(&nm, err, sizeof(err))) {
		fprintf(stderr, "tcp_events_driver: %s\n", err);
		return 1;
	}
	wd_libbpf_log_init(a.verbose);
	wd_install_signals();
	t = wd_tcp_open(&a.o, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "tcp_events_driver: %s\n%s", err, wd_libbpf_log());
		wd_tcp_names_free(&nm);
		return 1;
	}
	fprintf(stderr, "tcp_events_driver: attached (%s)\n", wd_tcp_caps(t)->attach);
	tk.names = &nm;
	tk.print = a.records;
	end = a.duration > 0 ? wd_now() + a.duration : 0;
	while (!wd_stop && (!end || wd_now() < end))
		wd_tcp_poll(t, 100, take, &tk);
	wd_tcp_poll(t, 0, take, &tk);
	report(t, &nm, &tk);
	wd_tcp_close(t);
	wd_tcp_names_free(&nm);
	return 0;
}
