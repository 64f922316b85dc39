// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Counter <-> reason reconciliation: the rule table against the catalogue,
 * the arithmetic, the socket-table parser and the counters JSON. */
#include <stdlib.h>
#include <string.h>

#include "catalogue.h"
#include "format.h"
#include "netstats.h"
#include "unit.h"

/* The rule table is private to reconcile.c: compiled in here to be checked. */
#include "reconcile.c"

static bool is_context(const char *counter)
{
	bool known;

	if (rule_find(counter))
		return false;
	context_note(counter, &known);
	return known;
}

static void test_rules_name_catalogue_reasons(void)
{
	char reason[128];

	CHECK(N_RULES > 10);
	for (size_t i = 0; i < N_RULES; i++) {
		const struct wd_recon_rule *r = &rules[i];

		CHECK(r->counter && r->match && r->unseen);
		CHECK(rule_find(r->counter) == r);	/* no duplicates */
		for (const char *const *m = r->match; *m; m++) {
			const struct wd_cat_entry *e;

			match_reason(*m, reason, sizeof(reason));
			e = wd_catalogue_find(reason);
			UNIT_RECORD(e != NULL, "%s: reason %s is not in the catalogue",
				    r->counter, reason);
			/* current names only, not an alias */
			UNIT_RECORD(e && !strcmp(e->name, reason), "%s: %s is not a current name",
				    r->counter, reason);
		}
	}
	CHECK(rule_find("TcpOutRsts") == NULL);	/* not a drop count */
	CHECK(is_context("TcpOutRsts"));
	CHECK(is_context("TcpExtListenDrops"));
	CHECK(!is_context("TcpExtListenOverflows"));	/* a rule */
	CHECK(!is_context("IpExtInOctets"));
}

static int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void set(struct wd_counters *c, const char *name, uint64_t v)
{
	CHECK_INT(wd_counters_set(c, name, v), 0);
}

/* @name read @from in the first sample @a, @to in the second @b. */
static void read_twice(struct wd_counters *a, struct wd_counters *b, const char *name,
		  uint64_t from, uint64_t to)
{
	set(a, name, from);
	set(b, name, to);
}

static const struct wd_recon_row *row(const struct wd_recon_row *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].name, name))
			return &r[i];
	return NULL;
}

struct sample {
	struct wd_counters before, after;
};

/* A counter read @from in the first sample, @to in the second. */
struct moved {
	const char *name;
	uint64_t from, to;
};

/* Two samples that read the counters of @m (up to its NULL name). */
static void sample_read(struct sample *s, const struct moved *m)
{
	wd_counters_init(&s->before);
	wd_counters_init(&s->after);
	for (; m->name; m++)
		read_twice(&s->before, &s->after, m->name, m->from, m->to);
}

static void sample_init(struct sample *s)
{
	sample_read(s, (const struct moved[]){
		{ "TcpExtListenOverflows", 100, 137 },
		{ "UdpNoPorts", 5, 15 },
		{ "UdpRcvbufErrors", 0, 199 },
		{ "TcpOutRsts", 1, 9 },
		{ "TcpExtListenDrops", 100, 140 },
		{ "softnet:dropped", 3, 4 },
		{ "netdev:tx_dropped", 50, 20 },		/* a device went away */
		{ "IpExtInOctets", 1, 1000 },		/* neither rule nor context */
		{ "TcpExtTCPZeroWindowDrop", 7, 7 },	/* did not move */
		{ NULL },
	});
	set(&s->after, "Udp6NoPorts", 3);		/* not in the first sample */
}

static void sample_free(struct sample *s)
{
	wd_counters_free(&s->before);
	wd_counters_free(&s->after);
}

static const struct wd_traced traced[] = {
	{ "TCP_LISTEN_OVERFLOW", "tcp_v4_rcv", 2, false },
	{ "NO_SOCKET", "__udp4_lib_rcv", 10, false },
	{ "NO_SOCKET", "tcp_v4_rcv", 40, false },		/* TCP: not UdpNoPorts */
	{ "SOCKET_RCVBUFF", "udp_queue_rcv_one_skb.isra.0", 150, false },
	{ "SOCKET_RCVBUFF", "udp_queue_rcv_one_skb", 49, false },
	{ "SOCKET_RCVBUFF", "udp_queue_rcv_one_skb_other", 1000, false },	/* other function */
	{ "SOCKET_RCVBUFF", "raw_rcv_skb", 5, false },		/* raw socket: not UDP */
	{ "CPU_BACKLOG", NULL, 1, false },
	/* in another namespace: only global counters (softnet) take them */
	{ "NO_SOCKET", "__udp4_lib_rcv", 500, true },
	{ "CPU_BACKLOG", "enqueue_to_backlog", 2, true },
};

#define N_TRACED (sizeof(traced) / sizeof(traced[0]))

static void test_reconcile_traced(void)
{
	struct wd_recon_opts o = { .traced = true };
	const struct wd_recon_row *r;
	struct wd_recon_row *v = NULL;
	struct sample s;
	char msg[512];
	size_t n = 0;

	sample_init(&s);
	CHECK_INT(wd_reconcile(&s.before, &s.after, traced, N_TRACED, &o, &v, &n), 0);
	/* rules first, in table order; then context by delta */
	CHECK_STR(v[0].name, "TcpExtListenOverflows");
	r = row(v, n, "TcpExtListenOverflows");
	CHECK(r && r->compared && r->rule);
	CHECK_INT(r ? r->delta : 0, 37);
	CHECK_INT(r ? r->traced : 0, 2);
	CHECK_INT(r ? r->unexplained : 0, 35);
	wd_recon_message(r, msg, sizeof(msg));
	CHECK(starts_with(msg, "TcpExtListenOverflows +37, 2 traced, 35 no kfree_skb event: "
			  "the accept queue"));
	CHECK(strstr(msg, "ss -lnt") != NULL);
	r = row(v, n, "UdpNoPorts");
	CHECK_INT(r ? r->traced : 0, 10);
	CHECK_INT(r ? r->unexplained : 1, 0);
	r = row(v, n, "UdpRcvbufErrors");
	CHECK_INT(r ? r->traced : 0, 199);		/* ".isra.0" matched, others not */
	CHECK_INT(r ? r->unexplained : 1, 0);
	r = row(v, n, "softnet:dropped");		/* 1 here + 2 elsewhere */
	CHECK(r && r->compared && r->traced == 3 && r->unexplained == 0);
	CHECK(row(v, n, "TcpExtTCPZeroWindowDrop") == NULL);	/* did not move */
	CHECK(row(v, n, "netdev:tx_dropped") == NULL);		/* went backwards */
	CHECK(row(v, n, "IpExtInOctets") == NULL);		/* not drop-related */
	CHECK(row(v, n, "Udp6NoPorts") == NULL);		/* no first sample */
	r = row(v, n, "TcpExtListenDrops");
	CHECK(r && !r->rule && !r->compared && r->delta == 40);
	r = row(v, n, "TcpOutRsts");
	CHECK(r && !r->compared && r->note && strstr(r->note, "not a drop"));
	/* context sorted by delta: ListenDrops (40) before TcpOutRsts (8) */
	CHECK(row(v, n, "TcpExtListenDrops") < row(v, n, "TcpOutRsts"));
	CHECK_INT(n, 6);
	free(v);
	sample_free(&s);
}

static void test_reconcile_limits(void)
{
	struct wd_recon_opts o = { .traced = true, .netns_scoped = true,
				   .reasons = "skb_drop_reason_no_socket,TCP_LISTEN_OVERFLOW" };
	const struct wd_recon_row *r;
	struct wd_recon_row *v = NULL;
	struct sample s;
	size_t n = 0;

	sample_init(&s);
	CHECK_INT(wd_reconcile(&s.before, &s.after, traced, N_TRACED, &o, &v, &n), 0);
	r = row(v, n, "softnet:dropped");
	CHECK(r && !r->compared && r->note && strstr(r->note, "every namespace"));
	r = row(v, n, "UdpRcvbufErrors");		/* -r leaves SOCKET_RCVBUFF out */
	CHECK(r && !r->compared && r->note && strstr(r->note, "-r"));
	r = row(v, n, "UdpNoPorts");			/* -r spelling with prefix, any case */
	CHECK(r && r->compared && r->traced == 10);
	free(v);

	o = (struct wd_recon_opts){ .traced = true, .no_compare = "-i" };
	CHECK_INT(wd_reconcile(&s.before, &s.after, traced, N_TRACED, &o, &v, &n), 0);
	for (size_t i = 0; i < n; i++)
		CHECK(!v[i].compared);
	free(v);

	o = (struct wd_recon_opts){ .traced = false };	/* --counters-only */
	CHECK_INT(wd_reconcile(&s.before, &s.after, NULL, 0, &o, &v, &n), 0);
	r = row(v, n, "TcpExtListenOverflows");
	CHECK(r && r->rule && !r->compared && r->delta == 37 && r->unexplained == 0);
	free(v);

	/* nothing moved: no rows, no allocation needed */
	CHECK_INT(wd_reconcile(&s.before, &s.before, NULL, 0, &o, &v, &n), 0);
	CHECK_INT(n, 0);
	free(v);
	sample_free(&s);
}

static void test_invisible_rule(void)
{
	struct wd_recon_opts o = { .traced = true };
	struct sample s;
	struct wd_recon_row *v = NULL;
	char reasons[64], msg[512];
	size_t n = 0;

	sample_read(&s, (const struct moved[]){
		{ "TcpExtTCPReqQFullDrop", 0, 12 },
		{ NULL },
	});
	CHECK_INT(wd_reconcile(&s.before, &s.after, traced, N_TRACED, &o, &v, &n), 0);
	CHECK_INT(n, 1);
	CHECK(n == 1 && v[0].compared && v[0].traced == 0 && v[0].unexplained == 12);
	wd_recon_reasons(v[0].rule, reasons, sizeof(reasons));
	CHECK_STR(reasons, "");
	wd_recon_message(&v[0], msg, sizeof(msg));
	CHECK(starts_with(msg, "TcpExtTCPReqQFullDrop +12, no kfree_skb event: the SYN queue"));
	free(v);
	wd_recon_reasons(rule_find("IpInHdrErrors"), reasons, sizeof(reasons));
	CHECK_STR(reasons, "IP_INHDR,IP_CSUM,NOT_SPECIFIED");	/* each reason once */
	sample_free(&s);
}

/*
 * Without CAP_SYSLOG /proc/kallsyms shows zeros: traced drops have a
 * reason but no function. A rule "NO_SOCKET@__udp4_lib_rcv" must then
 * take them by reason, not flag them all as never traced.
 */
static void test_no_function_names(void)
{
	struct wd_recon_opts o = { .traced = true };
	struct wd_traced t[] = {
		{ "NO_SOCKET", NULL, 10, false },	/* location known, no symbol */
		{ "TCP_CSUM", NULL, 3, false },
		{ "NO_SOCKET", NULL, 4, true },		/* another namespace */
	};
	struct wd_recon_row *r = NULL;
	const struct wd_recon_row *x;
	struct sample s;
	size_t n = 0;

	sample_read(&s, (const struct moved[]){
		{ "UdpNoPorts", 0, 10 },
		{ "TcpInCsumErrors", 0, 3 },
		{ "IcmpInCsumErrors", 0, 2 },
		{ NULL },
	});
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 3, &o, &r, &n), 0);
	x = row(r, n, "UdpNoPorts");
	CHECK(x && x->compared);
	if (x) {
		CHECK_INT(x->traced, 10);
		CHECK_INT(x->unexplained, 0);
		CHECK_STR(x->note, WD_RECON_BY_REASON);
	}
	x = row(r, n, "TcpInCsumErrors");	/* a rule by reason alone: no note */
	CHECK(x && x->compared && x->unexplained == 0 && !x->note);
	x = row(r, n, "IcmpInCsumErrors");	/* no ICMP_CSUM traced: still flagged */
	CHECK(x && x->compared && x->unexplained == 2 && x->traced == 0);
	free(r);
	sample_free(&s);
}

static void test_sock_drops(void)
{
	static const char udp[] =
		"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
		"   uid  timeout inode ref pointer drops            \n"
		"  123: 0100007F:270F 00000000:0000 07 00000000:00000000 00:00000000 00000000"
		"     0        0 43210 2 0000000000000000 199       \n"
		"  124: 00000000:0044 00000000:0000 07 00000000:00000000 00:00000000 00000000"
		"     0        0 43211 2 0000000000000000 0\n"
		"  125: 00000000:0045 00000000:0000 07 00000000:00000000 00:00000000 00000000"
		"     0        0 43212 2 0000000000000000 7";
	uint64_t sum = 1;

	CHECK_INT(wd_sock_drops_parse(udp, &sum), 0);
	CHECK_INT(sum, 206);
	CHECK_INT(wd_sock_drops_parse("header only\n", &sum), 0);
	CHECK_INT(sum, 0);
	CHECK_INT(wd_sock_drops_parse("", &sum), 0);
	CHECK_INT(sum, 0);
}

/* A sum's parts: the qdiscs that moved qdisc:drops, named in its row. */
static void test_qdisc_devices(void)
{
	struct wd_recon_opts o = { .traced = true };
	struct wd_traced t[] = { { "QDISC_DROP", "__dev_queue_xmit", 4, false } };
	struct wd_counter_part p;
	struct sample s;
	struct wd_recon_row *v = NULL;
	char msg[512];
	size_t n = 0;

	sample_read(&s, (const struct moved[]){
		{ "qdisc:drops", 10, 27 },
		{ "qdisc:drops@eth0 fq_codel 0:", 10, 12 },
		{ "qdisc:drops@wdq1a tbf 8001:", 0, 15 },
		{ "qdisc:drops@lo noqueue 0:", 0, 0 },	/* did not move */
		{ NULL },
	});
	set(&s.after, "qdisc:drops@new0 tbf 1:", 3);		/* not in the first sample */
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 1, &o, &v, &n), 0);
	CHECK_INT(n, 1);	/* the parts are no rows of their own */
	CHECK(n == 1 && v[0].n_parts == 2);
	if (n == 1 && v[0].n_parts == 2) {
		CHECK_STR(v[0].parts[0].device, "wdq1a");	/* the largest first */
		CHECK_STR(v[0].parts[0].kind, "tbf");
		CHECK_STR(v[0].parts[0].handle, "8001:");
		CHECK_INT(v[0].parts[0].delta, 15);
		CHECK_STR(v[0].parts[1].device, "eth0");
		CHECK_INT(v[0].parts[1].delta, 2);
		wd_recon_message(&v[0], msg, sizeof(msg));
		CHECK(starts_with(msg, "qdisc:drops +17 on wdq1a (tbf 8001:) +15, eth0 (fq_codel "
				  "0:) +2, 4 traced, 13 not traced as a qdisc reason"));
		CHECK_INT(wd_recon_untraced(v, n), 13);
	}
	wd_recon_free(v, n);
	CHECK_INT(wd_counter_part_parse("veth0 tbf 8001:", &p), 0);
	CHECK_STR(p.device, "veth0");
	CHECK_INT(wd_counter_part_parse("veth0 tbf", &p), -EINVAL);
	CHECK_INT(wd_counter_part_parse("veth0 tbf 1: extra", &p), -EINVAL);
	CHECK_INT(wd_counter_part_parse("a-name-longer-than-ifnamsiz tbf 1:", &p), -EINVAL);
	sample_free(&s);
}

/* What the counters found beyond the tracepoint, each drop once. */
static void test_untraced(void)
{
	struct wd_recon_opts o = { .traced = true };
	struct wd_traced t[] = { { "TCP_LISTEN_OVERFLOW", "tcp_v4_rcv", 2, false } };
	struct sample s;
	struct wd_recon_row *v = NULL;
	size_t n = 0;

	sample_read(&s, (const struct moved[]){
		{ "TcpExtListenOverflows", 0, 20 },	/* 18 never traced */
		{ "IpInHdrErrors", 0, 5 },		/* 5 bad checksums, untraced */
		{ "IpExtInCsumErrors", 0, 5 },		/* the same 5: within IpInHdrErrors */
		{ "TcpOutRsts", 0, 100 },		/* context: never counted */
		{ NULL },
	});
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 1, &o, &v, &n), 0);
	CHECK_INT(wd_recon_untraced(v, n), 18 + 5);
	wd_recon_free(v, n);
	set(&s.after, "IpExtInCsumErrors", 8);		/* 3 more than the outer one says */
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 1, &o, &v, &n), 0);
	CHECK_INT(wd_recon_untraced(v, n), 18 + 5 + 3);
	wd_recon_free(v, n);
	o.no_compare = "-i";				/* nothing compared: nothing claimed */
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 1, &o, &v, &n), 0);
	CHECK_INT(wd_recon_untraced(v, n), 0);
	wd_recon_free(v, n);
	sample_free(&s);
}

static char *capture_json(const struct wd_count_doc *doc)
{
	struct unit_stream s;

	wd_print_count_json(unit_stream_open(&s), doc);
	return unit_stream_text(&s);
}

static void test_counters_json(void)
{
	static const struct wd_counter_part dev[] = { { "wdq1a", "tbf", "8001:", 5 } };
	struct wd_counter_row c[] = {
		{ .name = "TcpExtListenOverflows", .delta = 37, .reasons = "TCP_LISTEN_OVERFLOW",
		  .compared = true, .traced = 2, .unexplained = 35, .explanation = "no event" },
		{ .name = "qdisc:drops", .delta = 5, .reasons = "QDISC_DROP,QDISC_OVERLIMIT",
		  .compared = true, .traced = 5, .parts = dev, .n_parts = 1 },
		{ .name = "TcpOutRsts", .delta = 8, .note = "not a drop" },
	};
	struct wd_count_doc doc = {
		.kernel = "6.18.44", .duration_s = 5.0, .total = 7,
		.has_counters = true, .counters = c, .n_counters = 3, .counters_untraced = 35,
	};
	char *out = capture_json(&doc);

	CHECK_STR(out,
		"{\"kernel\": \"6.18.44\", \"duration_s\": 5.0, \"total\": 7, \"lost_events\": 0, "
		"\"drops\": [], \"counters_untraced\": 35, "
		"\"counters\": [{\"name\": \"TcpExtListenOverflows\", \"delta\": 37, "
		"\"reconciled\": true, \"reasons\": [\"TCP_LISTEN_OVERFLOW\"], \"traced\": 2, "
		"\"unexplained\": 35, \"explanation\": \"no event\"}, "
		"{\"name\": \"qdisc:drops\", \"delta\": 5, \"reconciled\": true, "
		"\"reasons\": [\"QDISC_DROP\", \"QDISC_OVERLIMIT\"], \"traced\": 5, "
		"\"unexplained\": 0, \"devices\": [{\"device\": \"wdq1a\", \"qdisc\": \"tbf\", "
		"\"handle\": \"8001:\", \"delta\": 5}]}, {\"name\": \"TcpOutRsts\", \"delta\": 8, "
		"\"reconciled\": false, \"note\": \"not a drop\"}]}\n");
	free(out);

	doc = (struct wd_count_doc){ .kernel = "6.18.44", .duration_s = 1.0,
				     .counters_only = true, .has_counters = true };
	out = capture_json(&doc);
	CHECK_STR(out, "{\"kernel\": \"6.18.44\", \"duration_s\": 1.0, \"counters_only\": true, "
		       "\"counters\": []}\n");
	free(out);
}

/*
 * Counters the catalogue pairs with reasons (a reason's, a cause's, a call
 * site's) but that are no one-to-one rule: explained when they moved by
 * exactly their reasons' drops, else context; never flagged, never counted
 * in the untraced total. The same for IPv4 and IPv6.
 */
static void test_paired(void)
{
	struct wd_recon_opts o = { .traced = true };
	const struct wd_traced t[] = {
		{ "IP_INHDR", "ip6_forward", 6, false },	/* Ip6InHdrErrors, a cause's */
		{ "TCP_MINTTL", "tcp_v4_rcv", 3, false },	/* TcpExtTCPMinTTLDrop */
		{ "UDP_CSUM", "__udp6_lib_rcv", 2, false },	/* Udp6InCsumErrors */
		{ "UDP_CSUM", "__udp4_lib_rcv", 2, false },	/* UdpInCsumErrors */
		{ "NOT_SPECIFIED", "inet6_csk_xmit", 4, false },	/* a call site's */
		{ "TCP_MINTTL", "tcp_v4_rcv", 50, true },	/* elsewhere: not these counters' */
	};
	struct sample s;
	struct wd_recon_row *r = NULL;
	const struct wd_recon_row *x;
	size_t n = 0;

	sample_read(&s, (const struct moved[]){
		{ "Ip6InHdrErrors", 10, 16 },
		{ "TcpExtTCPMinTTLDrop", 0, 3 },
		{ "UdpInCsumErrors", 0, 2 },
		{ "Udp6InCsumErrors", 0, 2 },
		{ "Ip6OutNoRoutes", 0, 4 },
		{ "Ip6InDiscards", 0, 5 },	/* paired, no such drop traced */
		{ NULL },
	});
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 6, &o, &r, &n), 0);
	x = row(r, n, "Ip6InHdrErrors");
	CHECK(x && !x->rule && x->compared && x->traced == 6 && !x->unexplained);
	CHECK(x && wd_recon_explained(x) && strstr(x->paired, "IP_INHDR"));
	x = row(r, n, "TcpExtTCPMinTTLDrop");		/* its context note stays */
	CHECK(x && x->compared && x->traced == 3 && !strcmp(x->paired, "TCP_MINTTL"));
	x = row(r, n, "UdpInCsumErrors");
	CHECK(x && wd_recon_explained(x));
	x = row(r, n, "Udp6InCsumErrors");		/* the same wording for IPv6 */
	CHECK(x && wd_recon_explained(x));
	x = row(r, n, "Ip6OutNoRoutes");
	CHECK(x && wd_recon_explained(x) && !strcmp(x->paired, "IP_OUTNOROUTES,NOT_SPECIFIED"));
	x = row(r, n, "UdpInErrors");			/* not read: no row */
	CHECK(x == NULL);
	x = row(r, n, "Ip6InDiscards");			/* 5, none traced: context, not flagged */
	CHECK(x && !x->compared && !x->paired[0] && !wd_recon_explained(x));
	CHECK_INT(wd_recon_untraced(r, n), 0);
	wd_recon_free(r, n);

	/* moved by more than their drops: context, never unexplained */
	set(&s.after, "Ip6InHdrErrors", 17);
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 6, &o, &r, &n), 0);
	x = row(r, n, "Ip6InHdrErrors");
	CHECK(x && !x->compared && !x->unexplained && !x->paired[0]);
	CHECK_INT(wd_recon_untraced(r, n), 0);
	wd_recon_free(r, n);

	/* -i, or -r leaving one of the reasons out: not compared */
	o = (struct wd_recon_opts){ .traced = true, .no_compare = "-i" };
	set(&s.after, "Ip6InHdrErrors", 16);
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 6, &o, &r, &n), 0);
	x = row(r, n, "Ip6InHdrErrors");
	CHECK(x && !x->compared);
	wd_recon_free(r, n);
	o = (struct wd_recon_opts){ .traced = true, .reasons = "TCP_MINTTL" };
	CHECK_INT(wd_reconcile(&s.before, &s.after, t, 6, &o, &r, &n), 0);
	CHECK((x = row(r, n, "TcpExtTCPMinTTLDrop")) && x->compared);
	CHECK((x = row(r, n, "Ip6InHdrErrors")) && !x->compared);
	wd_recon_free(r, n);
	sample_free(&s);
}

UNIT_MAIN(test_rules_name_catalogue_reasons, test_reconcile_traced, test_reconcile_limits,
	  test_invisible_rule, test_no_function_names, test_sock_drops, test_qdisc_devices,
	  test_untraced, test_counters_json, test_paired)
