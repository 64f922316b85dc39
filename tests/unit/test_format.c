// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JSON and text output against documents written by hand from DESIGN.md. */
#include "unit.h"
#include "drop_view.h"
#include "format.h"
#include "json.h"

static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
	struct unit_stream s;

	fn(unit_stream_open(&s), arg);
	return unit_stream_text(&s);
}

static void drop_json(FILE *f, const void *d) { wd_print_drop_json(f, d); }
static void drop_text(FILE *f, const void *d) { wd_print_drop_text(f, d); }
static void count_json(FILE *f, const void *d) { wd_print_count_json(f, d); }
static void count_table(FILE *f, const void *d) { wd_print_count_table(f, d); }

/* 2026-12-03T06:42:05.123456Z */
#define TS_NS (1796280125ULL * 1000000000ULL + 123456000ULL)

static void design_drop(struct wd_drop_view *d)
{
	unit_no_socket_view(d, TS_NS);
	d->flow.family = 4;
	d->flow.has_l4 = true;
	d->flow.l4 = IPPROTO_TCP;
	strcpy(d->flow.src, "10.0.0.1");
	strcpy(d->flow.dst, "10.0.0.2");
	d->flow.has_ports = true;
	d->flow.sport = 40000;
	d->flow.dport = 80;
	d->flow.has_tcp_flags = true;
	strcpy(d->flow.tcp_flags, "S");
	d->flow.ip_len = 60;	/* a SYN with options: its IP length */
	d->skb_len = 20;	/* what tcp_v4_rcv had left: the TCP header */
	d->ifindex = 2;
	d->ifname = "veth0";
	d->netns = 4026531840u;
	d->cpu = 1;
}

static void test_watch_json(void)
{
	struct wd_drop_view d;
	char *out;

	design_drop(&d);
	out = capture(drop_json, &d);
	CHECK_STR(out,
		"{\"ts\": \"2026-12-03T06:42:05.123456Z\", \"reason\": \"NO_SOCKET\", \"code\": 3, "
		"\"function\": \"tcp_v4_rcv\", \"location\": \"tcp_v4_rcv+0x99\", \"family\": \"ipv4\", "
		"\"l4\": \"tcp\", \"src\": \"10.0.0.1\", \"sport\": 40000, \"dst\": \"10.0.0.2\", "
		"\"dport\": 80, \"tcp_flags\": \"S\", \"len\": 60, \"skb_len\": 20, \"ifindex\": 2, "
		"\"ifname\": \"veth0\", \"netns\": 4026531840, \"cpu\": 1}\n");
	free(out);

	/* the namespace's cookie, where known, beside its inode */
	d.netns_cookie = 183;
	out = capture(drop_json, &d);
	CHECK(strstr(out, "\"netns\": 4026531840, \"netns_cookie\": 183, \"cpu\": 1}\n") != NULL);
	free(out);
	d.netns_cookie = 0;

	/* Unknown fields are left out, never invented. */
	d.reason = NULL;
	d.ifname = NULL;
	d.ifindex = 0;
	d.netns = 0;
	d.l3proto = 0x88b5;
	memset(&d.flow, 0, sizeof(d.flow));
	out = capture(drop_json, &d);
	CHECK_STR(out,
		"{\"ts\": \"2026-12-03T06:42:05.123456Z\", \"function\": \"tcp_v4_rcv\", "
		"\"location\": \"tcp_v4_rcv+0x99\", \"family\": \"0x88b5\", \"skb_len\": 20, "
		"\"cpu\": 1}\n");
	free(out);
}

static void test_watch_text(void)
{
	struct wd_drop_view d;
	char *out;

	design_drop(&d);
	d.flow.family = 6;
	strcpy(d.flow.src, "2001:db8::1");
	strcpy(d.flow.dst, "2001:db8::2");
	out = capture(drop_text, &d);
	CHECK_STR(out, "06:42:05.123456Z NO_SOCKET tcp_v4_rcv+0x99 ipv6 tcp [2001:db8::1]:40000 > "
		       "[2001:db8::2]:80 [S] len 60 dev veth0 netns 4026531840 cpu 1\n");
	free(out);

	/* No IP length (not IP, a GSO packet): what was left of the skb, named so. */
	design_drop(&d);
	d.l3proto = 0x0806;
	memset(&d.flow, 0, sizeof(d.flow));
	out = capture(drop_text, &d);
	CHECK_STR(out, "06:42:05.123456Z NO_SOCKET tcp_v4_rcv+0x99 arp skb_len 20 dev veth0 "
		       "netns 4026531840 cpu 1\n");
	free(out);
}

/* Who: the socket on the text line, as in JSON: both ports and the state. */
static void test_sock_text(void)
{
	struct wd_drop_view d;
	char *out;

	design_drop(&d);
	d.reason = "NETFILTER_DROP";
	d.location = "nf_hook_slow+0x44";
	d.ifname = NULL;
	d.ifindex = 0;
	d.netns_name = "/proc/4242/ns/net";
	d.sock = (struct wd_sock_view){
		.kind = WD_SOCK_SEEN, .full = true, .ino = 42569, .lport = 40123, .rport = 9,
		.state = 2, .pid = 20898, .comm = "python3", .cgroup = "/who.slice/rcv.scope",
		.workload = "rcv.scope",
	};
	out = capture(drop_text, &d);
	CHECK_STR(out, "06:42:05.123456Z NETFILTER_DROP nf_hook_slow+0x44 ipv4 tcp 10.0.0.1:40000 > "
		       "10.0.0.2:80 [S] len 60 netns /proc/4242/ns/net sock 42569 port 40123 "
		       "rport 9 SYN_SENT pid 20898 python3 cgroup /who.slice/rcv.scope (rcv.scope) "
		       "cpu 1\n");
	free(out);
	out = capture(drop_json, &d);
	CHECK(strstr(out, "\"socket\": {\"ino\": 42569, \"lport\": 40123, \"rport\": 9, "
			  "\"state\": \"SYN_SENT\", \"uid\": 0, \"cgroup\": "
			  "\"/who.slice/rcv.scope\", \"workload\": \"rcv.scope\", "
			  "\"pid\": 20898, \"comm\": \"python3\"}") != NULL);
	free(out);

	/* no peer (an unbound receiver): no rport; a timewait socket: no inode */
	d.sock = (struct wd_sock_view){ .kind = WD_SOCK_SEEN, .lport = 9999, .state = 7 };
	out = capture(drop_text, &d);
	CHECK(strstr(out, " netns /proc/4242/ns/net sock port 9999 CLOSE cpu 1\n") != NULL);
	free(out);
	d.sock = (struct wd_sock_view){ .kind = WD_SOCK_SEEN, .lport = 80, .rport = 40000,
					.state = 6 };
	out = capture(drop_text, &d);
	CHECK(strstr(out, " sock port 80 rport 40000 TIME_WAIT cpu 1\n") != NULL);
	free(out);
	d.sock = (struct wd_sock_view){ .kind = WD_SOCK_UNKNOWN };
	out = capture(drop_text, &d);
	CHECK(strstr(out, " netns /proc/4242/ns/net sock unknown cpu 1\n") != NULL);
	free(out);
}

static void test_count_json(void)
{
	struct wd_diagnosis cause = {
		.text = "no listener or connection on this TCP port (RST sent)",
		.remedy = "`ss -ltn`", .confidence = WD_CONF_HIGH,
		.evidence = "TcpOutRsts +7, the same as these drops",
	};
	struct wd_count_row rows[] = {
		{ 3, "NO_SOCKET", "core", "tcp_v4_rcv", "tcp_v4_rcv+0x99", NULL, 7, false, &cause, NULL, 0 },
		{ 0x20001, "OPENVSWITCH:OVS_DROP_LAST_ACTION", "openvswitch", "ovs_dp \"x\"",
		  "ovs_dp+0x1", NULL, 5, false, NULL, NULL, 0 },
	};
	struct wd_count_doc doc = {
		.kernel = "6.18.44", .duration_s = 5.0, .total = 12, .lost_events = 0,
		.rows = rows, .n_rows = 2,
	};
	char *out = capture(count_json, &doc);

	CHECK_STR(out,
		"{\"kernel\": \"6.18.44\", \"duration_s\": 5.0, \"total\": 12, \"lost_events\": 0, "
		"\"drops\": [{\"reason\": \"NO_SOCKET\", \"code\": 3, \"subsystem\": \"core\", "
		"\"function\": \"tcp_v4_rcv\", \"location\": \"tcp_v4_rcv+0x99\", \"count\": 7, "
		"\"cause\": {\"text\": \"no listener or connection on this TCP port (RST sent)\", "
		"\"confidence\": \"high\", \"evidence\": \"TcpOutRsts +7, the same as these drops\", "
		"\"remedy\": \"`ss -ltn`\"}}, "
		"{\"reason\": \"OPENVSWITCH:OVS_DROP_LAST_ACTION\", \"code\": 131073, "
		"\"subsystem\": \"openvswitch\", \"function\": \"ovs_dp \\\"x\\\"\", "
		"\"location\": \"ovs_dp+0x1\", \"count\": 5}]}\n");
	free(out);
}

/* --group-by netns: each row names its namespace by inode and cookie; (other) by neither. */
static void test_groups_json(void)
{
	struct wd_group_out g[] = {
		{ "netns 4026532238 (cookie 7)", "NO_SOCKET", 3, 2, 4026532238u, 7 },
		{ "netns 4026532238 (cookie 9)", "NO_SOCKET", 3, 1, 4026532238u, 9 },
		{ "(other)", "NO_SOCKET", 3, 5, 0, 0 },
	};
	struct wd_count_doc doc = { .kernel = "6.18", .duration_s = 1, .total = 8,
				    .group_by = "netns", .groups = g, .n_groups = 3 };
	char *out = capture(count_json, &doc);

	CHECK(strstr(out, "\"groups\": [{\"group\": \"netns 4026532238 (cookie 7)\", "
			  "\"reason\": \"NO_SOCKET\", \"code\": 3, \"count\": 2, "
			  "\"netns\": 4026532238, \"netns_cookie\": 7}, ") != NULL);
	CHECK(strstr(out, "\"count\": 1, \"netns\": 4026532238, \"netns_cookie\": 9}, ") != NULL);
	CHECK(strstr(out, "{\"group\": \"(other)\", \"reason\": \"NO_SOCKET\", \"code\": 3, "
			  "\"count\": 5}]") != NULL);
	free(out);
}

static void escape_ctl(FILE *f, const void *s) { wd_json_escape(f, s); }

static void test_escape(void)
{
	char *out = capture(escape_ctl, "a\"b\\c\n\x01");

	CHECK_STR(out, "\"a\\\"b\\\\c\\n\\u0001\"");
	free(out);
}

/* Any bytes in, valid UTF-8 JSON out: kept where well-formed, U+FFFD where not. */
static void test_escape_utf8(void)
{
	static const struct { const char *in, *want; } cases[] = {
		{ "v\xc3\xa9th0", "\"v\xc3\xa9th0\"" },		/* é kept */
		{ "\xf0\x9f\x90\xa7", "\"\xf0\x9f\x90\xa7\"" },	/* 4 bytes kept */
		{ "a\xff" "b", "\"a\xef\xbf\xbd" "b\"" },		/* stray byte */
		{ "\xc3", "\"\xef\xbf\xbd\"" },			/* cut short */
		{ "\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },	/* overlong '/' */
		{ "\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" }, /* surrogate */
		{ "\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "x\x7f", "\"x\\u007f\"" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = capture(escape_ctl, cases[i].in);

		CHECK_STR(out, cases[i].want);
		free(out);
	}
}

/* What test_plural's count table says with every number 1 ([0]) or 2 ([1]). */
static const char *const plural_forms[][2] = {
	{ "\n1 drop in 1.0 s\n", "\n2 drops in 1.0 s\n" },
	{ "\n1 drop hidden as expected", "\n2 drops hidden as expected" },
	{ "; 1 drop lost in its per-CPU queue; our socket overflowed 1 time ",
	  "; 2 drops lost in its per-CPU queue; our socket overflowed 2 times " },
	{ "; 1 summary full", "; 2 summaries full" },
	{ "; 1 packet truncated\n", "; 2 packets truncated\n" },
	{ "Stacks lost: 1 bucket collision, ", "Stacks lost: 2 bucket collisions, " },
	{ "\n1 drop not grouped: the by-socket map was full (it is in the",
	  "\n2 drops not grouped: the by-socket map was full (they are in the" },
};

/* One check: the count table of @doc has every form @plural of plural_forms. */
static void table_has_forms(const struct wd_count_doc *doc, int plural)
{
	const size_t n = sizeof(plural_forms) / sizeof(plural_forms[0]);
	char *out = capture(count_table, doc);
	size_t i = 0;

	while (i < n && strstr(out, plural_forms[i][plural]))
		i++;
	UNIT_RECORD(i == n, "%s: lacks \"%s\": %s", plural ? "plural" : "singular",
		    i < n ? plural_forms[i][plural] : "", out);
	free(out);
}

/* Unknown fields are left out: a NULL string, a 0, a false flag; the reason
 * and its code together, the code alone left out when unknown. */
static void opt_fields(FILE *f, const void *unused)
{
	struct wd_json j;

	(void)unused;
	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str_opt(&j, "a", NULL);
	wd_json_str_opt(&j, "b", "");
	wd_json_uint_opt(&j, "c", 0);
	wd_json_uint_opt(&j, "d", 4294967296ULL);
	wd_json_flag(&j, "e", false);
	wd_json_flag(&j, "f", true);
	wd_json_reason(&j, NULL, 2, false);
	wd_json_open(&j, "g", '[');
	wd_json_open(&j, NULL, '{');
	wd_json_reason(&j, "NO_SOCKET", 2, false);
	wd_json_close(&j, '}');
	wd_json_open(&j, NULL, '{');
	wd_json_reason(&j, "X", 0, true);
	wd_json_close(&j, '}');
	wd_json_close(&j, ']');
	wd_json_close(&j, '}');
}

static void test_opt_fields(void)
{
	char *out = capture(opt_fields, NULL);

	CHECK_STR(out, "{\"b\": \"\", \"d\": 4294967296, \"f\": true, \"g\": "
		  "[{\"reason\": \"NO_SOCKET\", \"code\": 2}, {\"reason\": \"X\"}]}");
	free(out);
}

/* "1 drop", "2 drops": singular and plural in the text of a count. */
static void test_plural(void)
{
	struct wd_count_row row = { .code = 3, .reason = "NO_SOCKET", .subsystem = "core",
				    .function = "udp_rcv", .location = "udp_rcv+0x1", .count = 1 };
	struct wd_hidden_rule rule = { "NOT_SPECIFIED@ip6_mc_input", "built-in list", "", 1 };
	struct wd_count_source src = { .name = "dropmon", .mode = "packet", .queue_dropped = 1,
				       .overruns = 1, .truncated = 1, .summary_full = 1 };
	struct wd_count_doc doc = { .kernel = "6.18", .duration_s = 1, .total = 1, .rows = &row,
				    .n_rows = 1, .noise = true, .hidden_total = 1, .hidden = &rule,
				    .n_hidden = 1, .has_stacks = true, .stack_collisions = 1,
				    .group_by = "netns", .groups_lost = 1, .source = &src };

	CHECK_STR(wd_plural(0, "drop", "drops"), "drops");
	CHECK_STR(wd_plural(1, "drop", "drops"), "drop");
	CHECK_STR(wd_plural(2, "drop", "drops"), "drops");
	table_has_forms(&doc, 0);
	row.count = doc.total = doc.hidden_total = rule.count = 2;
	src.queue_dropped = src.overruns = src.truncated = src.summary_full = 2;
	doc.stack_collisions = doc.groups_lost = 2;
	table_has_forms(&doc, 1);
}

UNIT_MAIN(test_plural, test_watch_json, test_watch_text, test_sock_text, test_count_json,
	  test_groups_json, test_escape, test_escape_utf8, test_opt_fields)
