// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * drop_monitor message parsing: spec-based fixtures (hardware drops, built
 * per the UAPI by fixtures/dropmon/make_spec.py) and packet alerts captured
 * from Debian's 6.1 and 6.12 kernels in the VM test (*.captured.hex).
 */
#include <ctype.h>
#include <linux/net_dropmon.h>

#include "unit.h"
#include "decode.h"
#include "dropmon.h"
#include "dropmon_events.h"
#include "format.h"
#include "drop_comment.h"
#include "reasons.h"

#define FIX "tests/unit/fixtures/dropmon/"

/* Line n (from 0) of a hex fixture into buf; its length, or -1. */
static ssize_t hex_line(const char *path, int n, uint8_t *buf, size_t cap)
{
	char *text = unit_slurp(path), *p;
	ssize_t len = 0;

	if (!text)
		return -1;
	for (p = text; n > 0 && p; n--) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p || !*p) {
		free(text);
		return -1;
	}
	for (; isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	       (size_t)len < cap; p += 2) {
		unsigned int b;

		sscanf(p, "%2x", &b);
		buf[len++] = (uint8_t)b;
	}
	free(text);
	return len;
}

static struct wd_dm_msg m;
static uint8_t buf[65536];

static ssize_t parse_fixture(const char *name, int line)
{
	ssize_t n = hex_line(name, line, buf, sizeof(buf));

	if (n < 0)
		return n;
	CHECK_INT(wd_dm_parse(buf, (size_t)n, &m), 0);
	return n;
}

static void test_hw_packet(void)
{
	const struct wd_dm_packet *p = &m.packet;
	struct wd_flow f;
	int l3;

	CHECK(parse_fixture(FIX "hw_packet.spec.hex", 0) > 0);
	CHECK_INT(m.kind, WD_DM_PACKET);
	CHECK(p->has_origin && p->origin == NET_DM_ORIGIN_HW);
	CHECK(!p->has_pc);
	CHECK_STR(p->hw_group, "l2_drops");
	CHECK_STR(p->hw_trap, "ingress_vlan_filter");
	CHECK(p->has_ifindex && p->ifindex == 7);
	CHECK_STR(p->ifname, "swp1");
	CHECK(p->has_ts && p->ts_ns == 1764806525123456789ULL);
	CHECK(p->has_proto && p->proto == 0x0800);
	CHECK_INT(p->orig_len, 42);
	CHECK_INT(p->payload_len, 42);
	CHECK_INT(p->cookie_len, 8);
	CHECK(p->cookie && p->cookie[0] == 1 && p->cookie[7] == 8);
	CHECK_STR(p->reason, "");
	l3 = wd_dm_l3_offset(p->payload, p->payload_len, p->proto);
	CHECK_INT(l3, 14);
	CHECK_INT(wd_decode(p->payload + l3, p->payload_len - (size_t)l3, p->proto, &f), 0);
	CHECK_STR(f.src, "192.0.2.1");
	CHECK_STR(f.dst, "192.0.2.2");
	CHECK(f.has_ports && f.sport == 40000 && f.dport == 9);
}

static void test_sw_packet_vlan_truncated(void)
{
	const struct wd_dm_packet *p = &m.packet;
	struct wd_flow f;
	int l3;

	CHECK(parse_fixture(FIX "sw_packet.spec.hex", 0) > 0);
	CHECK(p->has_origin && p->origin == NET_DM_ORIGIN_SW);
	CHECK(p->has_pc && p->pc == 0xffffffff81a2b3c4ULL);
	CHECK_STR(p->symbol, "udpv6_rcv+0x1c/0x30");
	CHECK_STR(p->reason, "NO_SOCKET");
	CHECK(p->has_ifindex && p->ifindex == 3);
	CHECK_STR(p->ifname, "");
	CHECK_INT(p->orig_len, 1500);
	CHECK(p->orig_len > p->payload_len);	/* a truncation the source counts */
	l3 = wd_dm_l3_offset(p->payload, p->payload_len, p->proto);
	CHECK_INT(l3, 18);
	CHECK_INT(wd_decode(p->payload + l3, p->payload_len - (size_t)l3, p->proto, &f), 0);
	CHECK_STR(f.src, "2001:db8::1");
	CHECK(f.has_l4 && f.l4 == IPPROTO_UDP);
}

static void test_summaries(void)
{
	CHECK(parse_fixture(FIX "hw_summary.spec.hex", 0) > 0);
	CHECK_INT(m.kind, WD_DM_SUMMARY);
	CHECK_INT(m.summary.n_points, 0);
	CHECK_INT(m.summary.n_hw, 2);
	CHECK_STR(m.summary.hw[0].trap, "source_mac_is_multicast");
	CHECK_INT(m.summary.hw[0].count, 5);
	CHECK_STR(m.summary.hw[1].trap, "ttl_value_is_too_small");
	CHECK_INT(m.summary.hw[1].count, 2);

	CHECK(parse_fixture(FIX "sw_summary.spec.hex", 0) > 0);
	CHECK_INT(m.summary.entries, 2);
	CHECK_INT(m.summary.n_points, 2);
	CHECK(m.summary.points[0].pc == 0xffffffff81a2b3c4ULL);
	CHECK_INT(m.summary.points[0].count, 3);
	CHECK(m.summary.points[1].pc == 0xffffffff81000010ULL);
	CHECK_INT(m.summary.points[1].count, 1);
}

static void test_stats(void)
{
	CHECK(parse_fixture(FIX "stats.spec.hex", 0) > 0);
	CHECK_INT(m.kind, WD_DM_STATS);
	CHECK(m.stats.has_sw && m.stats.sw_dropped == 42);
	CHECK(m.stats.has_hw && m.stats.hw_dropped == 0);
}

/*
 * Real kernels' alerts for the VM test's traffic (every alert, before the
 * filter): three TCP SYNs 192.0.2.1:40013 > 192.0.2.2:9 dropped NO_SOCKET in
 * tcp_v4_rcv, the three RSTs they draw dropped the same way back in the
 * sender's namespace, two UDP datagrams [2001:db8::1]:40014 > [2001:db8::2]:9
 * dropped NO_SOCKET in __udp6_lib_rcv; 6.1 also drops the ICMPv6 errors they
 * draw (NOT_SPECIFIED in icmpv6_rcv), 6.12 does not.
 */
static void check_captured(const char *path, int want_icmp6)
{
	int syn = 0, rst = 0, udp6 = 0, icmp6 = 0, other = 0, n = 0;

	for (int line = 0; line < 64; line++) {
		const struct wd_dm_packet *p = &m.packet;
		struct wd_flow f;
		int l3;

		if (hex_line(path, line, buf, sizeof(buf)) < 0)
			break;
		parse_fixture(path, line);
		n++;
		CHECK_INT(m.kind, WD_DM_PACKET);
		CHECK(p->has_pc && p->pc && p->has_origin && p->origin == NET_DM_ORIGIN_SW);
		CHECK(p->has_ts && p->has_orig_len && p->has_ifindex && !p->ifname[0]);
		l3 = wd_dm_l3_offset(p->payload, p->payload_len, p->proto);
		CHECK_INT(l3, 14);	/* from the veth's Ethernet header */
		if (l3 < 0 || wd_decode(p->payload + l3, p->payload_len - (size_t)l3, p->proto, &f))
			continue;
		if (!strcmp(p->reason, "NO_SOCKET") && !strncmp(p->symbol, "tcp_v4_rcv+", 11) &&
		    f.sport == 40013 && !strcmp(f.tcp_flags, "S"))
			syn++;
		else if (!strcmp(p->reason, "NO_SOCKET") && !strncmp(p->symbol, "tcp_v4_rcv+", 11) &&
			 f.dport == 40013 && !strcmp(f.src, "192.0.2.2"))
			rst++;
		else if (!strcmp(p->reason, "NO_SOCKET") && !strncmp(p->symbol, "__udp6_lib_rcv+", 15) &&
			 f.family == 6 && f.l4 == IPPROTO_UDP && f.sport == 40014 && f.dport == 9)
			udp6++;
		else if (!strcmp(p->reason, "NOT_SPECIFIED") && !strncmp(p->symbol, "icmpv6_rcv+", 11) &&
			 f.l4 == IPPROTO_ICMPV6)
			icmp6++;
		else
			other++;
	}
	UNIT_RECORD(syn == 3 && rst == 3 && udp6 == 2 && icmp6 == want_icmp6 && !other,
		    "%s: %d messages: %d SYN, %d RST, %d UDP6, %d ICMPv6, %d other", path, n,
		    syn, rst, udp6, icmp6, other);
}

static void test_captured(void)
{
	check_captured(FIX "6.1.0-57-cloud-amd64.captured.hex", 2);
	check_captured(FIX "6.12.118+deb12-cloud-amd64.captured.hex", 0);
}

/* Every prefix and a corrupted length of every fixture: rejected or parsed, in bounds. */
static void test_malformed(void)
{
	static const char *const files[] = {
		FIX "hw_packet.spec.hex", FIX "sw_packet.spec.hex", FIX "hw_summary.spec.hex",
		FIX "sw_summary.spec.hex", FIX "stats.spec.hex",
	};
	int rejected = 0;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ssize_t n = hex_line(files[i], 0, buf, sizeof(buf));
		uint8_t *copy;

		CHECK(n > 0);
		for (ssize_t k = 0; k < n; k++) {
			copy = malloc((size_t)(k ? k : 1));	/* ASan: exactly k bytes */
			memcpy(copy, buf, (size_t)k);
			rejected += wd_dm_parse(copy, (size_t)k, &m) != 0;
			free(copy);
		}
		buf[0] = 0xff;	/* nlmsg_len beyond the buffer */
		CHECK(wd_dm_parse(buf, (size_t)n, &m) != 0);
	}
	CHECK(rejected > 0);
	/*
	 * nlmsg_len 50, not a multiple of 4, in a buffer of exactly 50 bytes:
	 * libmnl walks the attributes up to the aligned end, 52 (found by
	 * fuzz_dropmon; tests/fuzz/regressions/dropmon-crash-2c228bd5...).
	 */
	{
		static const uint8_t odd[50] = {
			0x32, 0, 0, 0, 0x1d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x02, 0, 0,
			0x20, 0, 0, 0, 0x02, 0, 0, 0, 0xc4, 0xb3, 0xa2, 0x81, 0xff, 0x34, 0xff, 0xff,
			0xff, 0x03, 0, 0, 0, 0x81, 0xff, 0xff, 0xff, 0xff, 0x01, 0, 0, 0,
		};
		uint8_t *copy = malloc(sizeof(odd));

		memcpy(copy, odd, sizeof(odd));
		CHECK(wd_dm_parse(copy, sizeof(odd), &m) != 0);
		free(copy);
	}
	/* the summary's entries claim more points than the attribute holds */
	CHECK(hex_line(FIX "sw_summary.spec.hex", 0, buf, sizeof(buf)) > 0);
	buf[24] = 200;
	CHECK_INT(wd_dm_parse(buf, 52, &m), 0);
	CHECK_INT(m.summary.n_points, 2);
}

static void test_l3_offset(void)
{
	static const uint8_t ip4[] = { 0x45, 0, 0, 20 };
	static const uint8_t arp[14] = { [12] = 0x08, [13] = 0x06 };

	CHECK_INT(wd_dm_l3_offset(ip4, sizeof(ip4), 0x0800), 0);
	CHECK_INT(wd_dm_l3_offset(ip4, sizeof(ip4), 0x86dd), -1);
	CHECK_INT(wd_dm_l3_offset(arp, sizeof(arp), 0x0806), 14);
	CHECK_INT(wd_dm_l3_offset(NULL, 0, 0x0800), -1);
}

/*
 * How drops are SHOWN, hardware traps above all (no machine here can make
 * one): the fixtures go the way the live source takes each message its
 * socket reads (wd_dm_parse, wd_dm_events_msg), their records the way
 * watch and record take them (a view, then the text line, the JSON line,
 * the pcapng comment), their counts the way count does (rows by reason and
 * location, the table and the JSON document).
 */
#define MONO_TO_REAL	1000000000000000000ULL
#define LEN		160

struct shown {
	struct wd_dm_events e;
	struct wd_reasons reasons;
	int records;
	char text[512], json[1024], comment[512];
	char table[2048], doc[4096];	/* count's table and JSON document */
};

static struct shown sh;

/* What print(f, @arg) writes, into @dst of @len bytes (any printer's type). */
#define CAPTURE(dst, len, print, arg) do {					\
	FILE *_f = fmemopen(dst, len, "w");					\
										\
	CHECK(_f != NULL);							\
	if (_f) {								\
		print(_f, arg);							\
		fclose(_f);							\
	}									\
} while (0)

/* A drop's line, without its newline. */
static void capture(char *dst, size_t len, void (*print)(FILE *, const struct wd_drop_view *),
		    const struct wd_drop_view *v)
{
	CAPTURE(dst, len, print, v);
	dst[strcspn(dst, "\n")] = '\0';
}

/* The names of a drop: drop_monitor's own, else the reason's and the address. */
static void names_of(uint32_t code, uint64_t loc, char *reason, char *function, char *location)
{
	if (wd_dm_events_names(&sh.e, code, loc, reason, function, location, LEN))
		return;
	if (!wd_dm_events_subsys(&sh.e, code))
		wd_reason_name(&sh.reasons, code, reason, LEN);
	/* no kallsyms here: the address, as session.c shows a hidden one */
	snprintf(function, LEN, "0x%llx", (unsigned long long)loc);
	snprintf(location, LEN, "0x%llx", (unsigned long long)loc);
}

/* What wd_session_view (src/core/session.c) makes of a drop_monitor record. */
static void view_of(const struct wd_event *ev, struct wd_drop_view *v, char *reason,
		    char *function, char *location)
{
	wd_event_view(ev, MONO_TO_REAL, v);
	names_of(ev->reason, ev->location, reason, function, location);
	v->reason = sh.reasons.has_reason ? reason : NULL;
	v->function = function;
	v->location = location;
	v->ifname = "";		/* a drop_monitor record carries no name of its own */
	v->no_code = wd_dm_events_subsys(&sh.e, ev->reason) != NULL;
	wd_dm_events_view(&sh.e, v->code, v);
}

/* The record callback: while it runs, the alert behind it is the current one. */
static void on_record(void *ctx, const struct wd_event *ev)
{
	char reason[LEN], function[LEN], location[LEN];
	struct wd_drop_view v;

	(void)ctx;
	sh.records++;
	view_of(ev, &v, reason, function, location);
	capture(sh.text, sizeof(sh.text), wd_print_drop_text, &v);
	capture(sh.json, sizeof(sh.json), wd_print_drop_json, &v);
	wd_pcapng_drop_comment(&v, sh.comment, sizeof(sh.comment));
}

static void shown_begin(bool packet_mode)
{
	char *text = unit_slurp("tests/unit/fixtures/kfree_skb-format/"
				"6.12.118+deb12-cloud-amd64.format");

	memset(&sh, 0, sizeof(sh));
	CHECK(text != NULL);
	CHECK_INT(wd_reasons_from_format(&sh.reasons, text ? text : ""), 0);
	free(text);
	wd_dm_events_init(&sh.e);
	sh.e.packet_mode = packet_mode;
	sh.e.details = packet_mode;
	sh.e.max_keys = 10240;
	sh.e.reasons = &sh.reasons;
	sh.e.mono_to_real_ns = MONO_TO_REAL;
	sh.e.on_record = on_record;
	if (!packet_mode)
		sh.reasons.has_reason = false;	/* summary mode: by location only */
}

static void shown_end(void)
{
	wd_dm_events_free(&sh.e);
	wd_reasons_free(&sh.reasons);
}

static void feed(const char *fixture)
{
	CHECK(parse_fixture(fixture, 0) > 0);
	wd_dm_events_msg(&sh.e, &m);	/* its records point into buf while shown */
}

/* A packet-mode alert that makes one record. */
static void shown_packet(const char *fixture)
{
	shown_begin(true);
	feed(fixture);
	CHECK_INT(sh.records, 1);
}

#define MAX_ROWS	8

/*
 * The rows of count (wd_session_totals, then wd_session_row), printed as
 * count does into sh.table and sh.doc.
 */
static void count_doc(void)
{
	static char names[MAX_ROWS][4][LEN];
	struct wd_count_row rows[MAX_ROWS];
	uint64_t locs[MAX_ROWS];
	struct wd_count_doc doc = { .kernel = "test", .duration_s = 1 };
	struct wd_count_source src = { .name = "dropmon" };
	const struct wd_key_total *k;
	struct wd_keyset ks;
	size_t n, nr = 0, j;

	wd_keyset_init(&ks, sizeof(struct wd_key));
	CHECK_INT(wd_dm_events_keys(&sh.e, &ks), 0);
	k = wd_key_rows(&ks);
	n = ks.n;
	for (size_t i = 0; i < n; i++) {
		struct wd_count_row *r = &rows[nr];
		char *reason = names[nr][0], *subsys = names[nr][1];
		char *function = names[nr][2], *location = names[nr][3];

		for (j = 0; j < nr; j++)	/* one row per (reason, location) */
			if (rows[j].code == k[i].key.reason && locs[j] == k[i].key.location)
				break;
		if (j < nr) {
			rows[j].count += k[i].count;
			doc.total += k[i].count;
			continue;
		}
		if (nr == MAX_ROWS)
			break;
		memset(r, 0, sizeof(*r));
		names_of(k[i].key.reason, k[i].key.location, reason, function, location);
		locs[nr] = k[i].key.location;
		r->code = k[i].key.reason;
		r->reason = sh.reasons.has_reason ? reason : NULL;
		r->subsystem = wd_reason_subsys(&sh.reasons, r->code, subsys, LEN);
		r->function = function;
		r->location = location;
		r->count = k[i].count;
		if (wd_dm_events_subsys(&sh.e, r->code)) {
			r->subsystem = wd_dm_events_subsys(&sh.e, r->code);
			r->no_code = true;
		}
		doc.total += r->count;
		nr++;
	}
	wd_keyset_free(&ks);
	doc.rows = rows;
	doc.n_rows = nr;
	doc.location_only = !sh.reasons.has_reason;
	src.mode = sh.e.packet_mode ? "packet" : "summary";
	src.truncated = sh.e.truncated;
	doc.source = &src;
	CAPTURE(sh.table, sizeof(sh.table), wd_print_count_table, &doc);
	CAPTURE(sh.doc, sizeof(sh.doc), wd_print_count_json, &doc);
}

static void test_hw_packet_shown(void)
{
	shown_packet(FIX "hw_packet.spec.hex");
	/* the fixture's NET_DM_ATTR_TIMESTAMP is 2025-12-04T00:02:05.123456789Z */
	CHECK_STR(sh.text, "00:02:05.123456Z HW_TRAP hw:ingress_vlan_filter ipv4 udp "
		  "192.0.2.1:40000 > 192.0.2.2:9 len 28 dev swp1 hw_trap "
		  "l2_drops/ingress_vlan_filter");
	CHECK_STR(sh.json, "{\"ts\": \"2025-12-04T00:02:05.123456Z\", \"reason\": \"HW_TRAP\", "
		  "\"function\": \"(hardware)\", \"location\": \"hw:ingress_vlan_filter\", "
		  "\"family\": \"ipv4\", \"l4\": \"udp\", \"src\": \"192.0.2.1\", "
		  "\"sport\": 40000, \"dst\": \"192.0.2.2\", \"dport\": 9, \"len\": 28, "
		  "\"skb_len\": 28, "
		  "\"ifindex\": 7, \"ifname\": \"swp1\", \"hw_trap_group\": \"l2_drops\", "
		  "\"hw_trap\": \"ingress_vlan_filter\"}");
	CHECK_STR(sh.comment, "reason=HW_TRAP location=hw:ingress_vlan_filter ifname=swp1 "
		  "hw_trap=l2_drops/ingress_vlan_filter");
	count_doc();
	CHECK(strstr(sh.table, "         1  HW_TRAP                    hw:ingress_vlan_filter") != NULL);
	CHECK(strstr(sh.table, "Source: drop_monitor (packet mode); network namespaces unknown\n"));
	CHECK(strstr(sh.doc, "{\"reason\": \"HW_TRAP\", \"subsystem\": \"hardware\", \"function\": "
		     "\"(hardware)\", \"location\": \"hw:ingress_vlan_filter\", \"count\": 1}") != NULL);
	UNIT_RECORD(!strstr(sh.doc, "\"code\""), "a hardware trap has no code: %s", sh.doc);
	shown_end();
}

/* A software alert: the kernel's code for its reason name, a truncated packet counted. */
static void test_sw_packet_shown(void)
{
	shown_packet(FIX "sw_packet.spec.hex");
	/*
	 * NO_SOCKET is 3 in the 6.12 table; len: the IPv6 header's (past the VLAN
	 * tag), as pcapng's original length; skb_len: what drop_monitor said was
	 * there from the network header on.
	 */
	CHECK_STR(sh.text, "00:02:05.123456Z NO_SOCKET 0xffffffff81a2b3c4 ipv6 udp "
		  "[2001:db8::1]:40000 > [2001:db8::2]:9 len 48 ifindex 3");
	CHECK(strstr(sh.json, "\"len\": 48, \"skb_len\": 1482,") != NULL);
	CHECK(strstr(sh.json, "\"reason\": \"NO_SOCKET\", \"code\": 3,") != NULL);
	UNIT_RECORD(!strstr(sh.json, "\"cpu\"") && !strstr(sh.json, "\"netns\"") &&
		    !strstr(sh.json, "hw_trap"), "no cpu, netns or trap: %s", sh.json);
	CHECK_STR(sh.comment, "reason=NO_SOCKET location=0xffffffff81a2b3c4 ifindex=3 code=3");
	CHECK_INT(sh.e.truncated, 1);
	count_doc();
	CHECK(strstr(sh.doc, "{\"reason\": \"NO_SOCKET\", \"code\": 3, \"subsystem\": \"core\", "
		     "\"function\": \"0xffffffff81a2b3c4\", \"location\": \"0xffffffff81a2b3c4\", "
		     "\"count\": 1}") != NULL);
	CHECK(strstr(sh.table, "; 1 packet truncated\n") != NULL);
	shown_end();
}

/* Summary mode: hardware traps by name, by location only (no reason column). */
static void test_hw_summary_shown(void)
{
	shown_begin(false);
	feed(FIX "hw_summary.spec.hex");
	feed(FIX "hw_packet.spec.hex");	/* a packet alert in summary mode: ignored */
	CHECK_INT(sh.records, 0);
	CHECK_INT(sh.e.hw_points, 7);
	count_doc();
	CHECK(strstr(sh.table, "         5  -                          hw:source_mac_is_multicast") !=
	      NULL);
	CHECK(strstr(sh.table, "         2  -                          hw:ttl_value_is_too_small") !=
	      NULL);
	CHECK(strstr(sh.doc, "{\"function\": \"(hardware)\", \"location\": "
		     "\"hw:source_mac_is_multicast\", \"count\": 5}") != NULL);
	CHECK(strstr(sh.doc, "\"location_only\": true") != NULL);
	shown_end();
}

UNIT_MAIN(test_hw_packet, test_sw_packet_vlan_truncated, test_summaries, test_stats,
	  test_captured, test_malformed, test_l3_offset, test_hw_packet_shown,
	  test_sw_packet_shown, test_hw_summary_shown)
