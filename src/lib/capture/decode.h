/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Packet bytes starting at the network header to a flow description. */
#ifndef WD_DECODE_H
#define WD_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#define WD_ETH_P_IP	0x0800
#define WD_ETH_P_IPV6	0x86DD
#define WD_ETH_P_ARP	0x0806

struct wd_flow {
	int family;		/* 4, 6, or 0 when not IP */
	bool has_l4;
	uint8_t l4;		/* IPPROTO_* after IPv6 extension headers */
	char src[INET6_ADDRSTRLEN];
	char dst[INET6_ADDRSTRLEN];
	bool has_ports;
	uint16_t sport, dport;
	bool has_icmp;
	uint8_t icmp_type, icmp_code;
	bool has_tcp_flags;
	char tcp_flags[12];	/* tcpdump letters: "S", "S.", "FP." */
	bool fragment;		/* not the first fragment: no L4 header */
	uint32_t ip_len;	/* length from the IP header (see wd_flow_wire_len) */
};

/*
 * Decode len bytes of a packet whose network header is at data. l3proto
 * (ETH_P_*) says what it is. Fields not present in the bytes stay unset.
 * Returns 0 if an IP header was decoded, -1 otherwise.
 */
int wd_decode(const uint8_t *data, size_t len, uint16_t l3proto, struct wd_flow *f);
/*
 * An IPv4 total length or IPv6 payload length of 0 cannot say how long the
 * packet is (BIG TCP over IPv4, an IPv6 jumbogram; or no IPv6 payload at
 * all): there, ip_len becomes wire_len, the packet's bytes from its network
 * header to its end as the kernel held them, when known (not 0).
 */
void wd_flow_wire_len(struct wd_flow *f, const uint8_t *data, size_t len, uint32_t wire_len);
/* "tcp", "udp", "icmp", "icmpv6", ... or the number in buf. */
const char *wd_l4_name(uint8_t proto, char *buf, size_t len);
/* "ipv4", "ipv6", "arp", or "0x88b5". */
const char *wd_l3_name(uint16_t l3proto, char *buf, size_t len);

#endif /* WD_DECODE_H */
