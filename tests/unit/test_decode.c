// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Header decoding of hand-built packets. */
#include "unit.h"
#include "decode.h"

/* 192.0.2.1:40000 > 192.0.2.2:80, TCP SYN. */
static const uint8_t v4_syn[] = {
	0x45, 0x00, 0x00, 0x28, 0x00, 0x01, 0x40, 0x00, 0x40, 0x06, 0x00, 0x00,
	192, 0, 2, 1, 192, 0, 2, 2,
	0x9c, 0x40, 0x00, 0x50, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0xff, 0xff,
	0, 0, 0, 0,
};

static void test_ipv4_tcp(void)
{
	struct wd_flow f;
	uint8_t pkt[sizeof(v4_syn)];

	CHECK_INT(wd_decode(v4_syn, sizeof(v4_syn), WD_ETH_P_IP, &f), 0);
	CHECK_INT(f.family, 4);
	CHECK(f.has_l4 && f.l4 == IPPROTO_TCP);
	CHECK_STR(f.src, "192.0.2.1");
	CHECK_STR(f.dst, "192.0.2.2");
	CHECK(f.has_ports);
	CHECK_INT(f.sport, 40000);
	CHECK_INT(f.dport, 80);
	CHECK_STR(f.tcp_flags, "S");
	CHECK_INT(f.ip_len, 40);

	memcpy(pkt, v4_syn, sizeof(pkt));
	pkt[33] = 0x12;		/* SYN+ACK */
	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &f);
	CHECK_STR(f.tcp_flags, "S.");
	pkt[33] = 0x19;		/* FIN+PSH+ACK */
	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &f);
	CHECK_STR(f.tcp_flags, "FP.");
	pkt[33] = 0;
	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &f);
	CHECK_STR(f.tcp_flags, "none");
}

static void test_ipv4_icmp_and_fragments(void)
{
	uint8_t pkt[28] = {
		0x45, 0, 0, 28, 0, 2, 0, 0, 64, IPPROTO_ICMP, 0, 0,
		198, 51, 100, 7, 203, 0, 113, 9,
		8, 0, 0, 0, 0, 1, 0, 1,
	};
	struct wd_flow f;

	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &f);
	CHECK(f.has_icmp && f.icmp_type == 8 && f.icmp_code == 0);
	CHECK(!f.has_ports);
	CHECK_STR(f.src, "198.51.100.7");
	/* A later fragment has no L4 header to decode. */
	pkt[6] = 0x00;
	pkt[7] = 0x10;
	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &f);
	CHECK(f.fragment && !f.has_icmp);
	/* Truncated to the IP header: addresses, protocol, nothing more. */
	wd_decode(v4_syn, 20, WD_ETH_P_IP, &f);
	CHECK(f.has_l4 && !f.has_ports && !f.has_tcp_flags);
	/* IHL below five words: addresses only. */
	pkt[0] = 0x44;
	pkt[6] = pkt[7] = 0;
	CHECK_INT(wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &f), 0);
	CHECK(!f.has_icmp);
	CHECK_INT(wd_decode(pkt, 19, WD_ETH_P_IP, &f), -1);
	CHECK_INT(wd_decode(pkt, sizeof(pkt), WD_ETH_P_ARP, &f), -1);
	CHECK_INT(f.family, 0);
}

/* 2001:db8::1 > 2001:db8::2, hop-by-hop options, then UDP 1234 > 5678. */
static const uint8_t v6_hbh_udp[] = {
	0x60, 0, 0, 0, 0x00, 0x10, 0x00, 0x40,
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
	IPPROTO_UDP, 0, 1, 4, 0, 0, 0, 0,
	0x04, 0xd2, 0x16, 0x2e, 0x00, 0x08, 0x00, 0x00,
};

static void test_ipv6_exthdr(void)
{
	struct wd_flow f;

	CHECK_INT(wd_decode(v6_hbh_udp, sizeof(v6_hbh_udp), WD_ETH_P_IPV6, &f), 0);
	CHECK_INT(f.family, 6);
	CHECK_STR(f.src, "2001:db8::1");
	CHECK_STR(f.dst, "2001:db8::2");
	CHECK(f.has_l4 && f.l4 == IPPROTO_UDP);
	CHECK(f.has_ports && f.sport == 1234 && f.dport == 5678);
	CHECK(!f.has_tcp_flags);
	CHECK_INT(f.ip_len, 56);
}

static void test_ipv6_hostile(void)
{
	uint8_t pkt[40 + 9 * 8];
	struct wd_flow f;
	size_t i;

	/* Nine chained destination-options headers: the walk gives up. */
	memcpy(pkt, v6_hbh_udp, 40);
	pkt[6] = IPPROTO_DSTOPTS;
	for (i = 0; i < 9; i++) {
		memset(pkt + 40 + i * 8, 0, 8);
		pkt[40 + i * 8] = IPPROTO_DSTOPTS;
	}
	CHECK_INT(wd_decode(pkt, sizeof(pkt), WD_ETH_P_IPV6, &f), 0);
	CHECK(!f.has_l4 && !f.has_ports);
	/* An extension header claiming 2 KB: L4 known, ports not read. */
	memcpy(pkt, v6_hbh_udp, sizeof(v6_hbh_udp));
	pkt[41] = 255;
	wd_decode(pkt, sizeof(v6_hbh_udp), WD_ETH_P_IPV6, &f);
	CHECK(f.has_l4 && f.l4 == IPPROTO_UDP && !f.has_ports);
	/* Cut inside the extension header. */
	wd_decode(v6_hbh_udp, 44, WD_ETH_P_IPV6, &f);
	CHECK(f.family == 6 && !f.has_l4);
	CHECK_INT(wd_decode(v6_hbh_udp, 39, WD_ETH_P_IPV6, &f), -1);
	/* A later fragment: protocol known, no ports. */
	memcpy(pkt, v6_hbh_udp, sizeof(v6_hbh_udp));
	pkt[6] = IPPROTO_FRAGMENT;
	pkt[40] = IPPROTO_UDP;
	pkt[42] = 0x01;
	wd_decode(pkt, sizeof(v6_hbh_udp), WD_ETH_P_IPV6, &f);
	CHECK(f.fragment && f.has_l4 && !f.has_ports);
}

static void test_names(void)
{
	char buf[16];

	CHECK_STR(wd_l4_name(IPPROTO_TCP, buf, sizeof(buf)), "tcp");
	CHECK_STR(wd_l4_name(IPPROTO_ICMPV6, buf, sizeof(buf)), "icmpv6");
	CHECK_STR(wd_l4_name(253, buf, sizeof(buf)), "253");
	CHECK_STR(wd_l3_name(WD_ETH_P_IPV6, buf, sizeof(buf)), "ipv6");
	CHECK_STR(wd_l3_name(0x88b5, buf, sizeof(buf)), "0x88b5");
}

/*
 * BIG TCP: an IPv4 total length of 0, an IPv6 payload length of 0. The header
 * cannot say; the skb's bytes from the network header on can, when known.
 */
static void test_big_tcp(void)
{
	uint8_t v4[sizeof(v4_syn)], v6[60] = { 0x60, 0, 0, 0, 0, 0, IPPROTO_TCP, 64 };
	struct wd_flow f;

	memcpy(v4, v4_syn, sizeof(v4));
	v4[2] = v4[3] = 0;
	CHECK_INT(wd_decode(v4, sizeof(v4), WD_ETH_P_IP, &f), 0);
	CHECK_INT(f.ip_len, 0);
	wd_flow_wire_len(&f, v4, sizeof(v4), 0);
	CHECK_INT(f.ip_len, 0);		/* not known: still unknown */
	wd_flow_wire_len(&f, v4, sizeof(v4), 185000);
	CHECK_INT(f.ip_len, 185000);
	/* a length the header says is kept, whatever the skb holds (padding) */
	CHECK_INT(wd_decode(v4_syn, sizeof(v4_syn), WD_ETH_P_IP, &f), 0);
	wd_flow_wire_len(&f, v4_syn, sizeof(v4_syn), 46);
	CHECK_INT(f.ip_len, 40);

	CHECK_INT(wd_decode(v6, sizeof(v6), WD_ETH_P_IPV6, &f), 0);
	CHECK_INT(f.ip_len, 40);
	wd_flow_wire_len(&f, v6, sizeof(v6), 185020);
	CHECK_INT(f.ip_len, 185020);
	v6[5] = 20;
	CHECK_INT(wd_decode(v6, sizeof(v6), WD_ETH_P_IPV6, &f), 0);
	wd_flow_wire_len(&f, v6, sizeof(v6), 185020);
	CHECK_INT(f.ip_len, 60);
	/* not IP, or too short to tell: nothing changes */
	wd_decode(v6, 3, WD_ETH_P_IPV6, &f);
	wd_flow_wire_len(&f, v6, 3, 100);
	CHECK_INT(f.ip_len, 0);
}

UNIT_MAIN(test_ipv4_tcp, test_ipv4_icmp_and_fragments, test_ipv6_exthdr, test_ipv6_hostile,
	  test_names, test_big_tcp)
