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

UNIT_MAIN(test_hw_packet, test_sw_packet_vlan_truncated, test_summaries, test_stats,
	  test_captured, test_malformed, test_l3_offset)
