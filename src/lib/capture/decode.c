// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"

#define MAX_EXT_HEADERS	8	/* bound the walk: a loop of headers ends here */

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void tcp_flags(uint8_t fl, char *out)
{
	static const struct { uint8_t bit; char c; } order[] = {
		{ 0x01, 'F' }, { 0x02, 'S' }, { 0x04, 'R' }, { 0x08, 'P' },
		{ 0x20, 'U' }, { 0x40, 'E' }, { 0x80, 'W' }, { 0x10, '.' },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (fl & order[i].bit)
			out[n++] = order[i].c;
	out[n] = '\0';
	if (!n)
		strcpy(out, "none");
}

static void decode_l4(const uint8_t *p, size_t len, struct wd_flow *f)
{
	switch (f->l4) {
	case IPPROTO_TCP:
		if (len >= 14) {
			f->has_tcp_flags = true;
			tcp_flags(p[13], f->tcp_flags);
		}
		/* fall through */
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		if (len >= 4) {
			f->has_ports = true;
			f->sport = get16(p);
			f->dport = get16(p + 2);
		}
		break;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		if (len >= 2) {
			f->has_icmp = true;
			f->icmp_type = p[0];
			f->icmp_code = p[1];
		}
		break;
	}
}

/* Where an IP header of each version has what both decoders read first. */
struct ip_layout {
	int version, af;
	size_t hdr_len, saddr, addr_len;	/* the fixed header; source, then destination */
};

static const struct ip_layout ipv4 = { 4, AF_INET, 20, 12, 4 };
static const struct ip_layout ipv6 = { 6, AF_INET6, 40, 8, 16 };

/* The version and addresses into f: false when p is no such header. */
static bool ip_addrs(const uint8_t *p, size_t len, const struct ip_layout *l, struct wd_flow *f)
{
	if (len < l->hdr_len || p[0] >> 4 != l->version)
		return false;
	f->family = l->version;
	inet_ntop(l->af, p + l->saddr, f->src, sizeof(f->src));
	inet_ntop(l->af, p + l->saddr + l->addr_len, f->dst, sizeof(f->dst));
	return true;
}

static int decode_ipv4(const uint8_t *p, size_t len, struct wd_flow *f)
{
	size_t ihl;

	if (!ip_addrs(p, len, &ipv4, f))
		return -1;
	f->ip_len = get16(p + 2);
	f->has_l4 = true;
	f->l4 = p[9];
	ihl = (size_t)(p[0] & 0x0f) * 4;
	if (ihl < 20 || ihl > len)
		return 0;	/* bad header length: addresses only */
	if (get16(p + 6) & 0x1fff) {
		f->fragment = true;
		return 0;
	}
	decode_l4(p + ihl, len - ihl, f);
	return 0;
}

static bool is_ext_header(uint8_t nh)
{
	return nh == IPPROTO_HOPOPTS || nh == IPPROTO_ROUTING ||
	       nh == IPPROTO_FRAGMENT || nh == IPPROTO_DSTOPTS ||
	       nh == IPPROTO_AH;
}

static int decode_ipv6(const uint8_t *p, size_t len, struct wd_flow *f)
{
	size_t off = 40;
	uint8_t nh;
	int i;

	if (!ip_addrs(p, len, &ipv6, f))
		return -1;
	f->ip_len = get16(p + 4) + 40u;
	nh = p[6];
	for (i = 0; i < MAX_EXT_HEADERS && is_ext_header(nh); i++) {
		size_t hlen;

		if (off + 8 > len)
			return 0;	/* truncated: L4 unknown */
		if (nh == IPPROTO_FRAGMENT) {
			hlen = 8;
			if (get16(p + off + 2) & 0xfff8)
				f->fragment = true;
		} else if (nh == IPPROTO_AH) {
			hlen = ((size_t)p[off + 1] + 2) * 4;
		} else {
			hlen = ((size_t)p[off + 1] + 1) * 8;
		}
		nh = p[off];
		off += hlen;
	}
	if (is_ext_header(nh))
		return 0;	/* too many extension headers */
	f->has_l4 = true;
	f->l4 = nh;
	if (f->fragment || off > len)
		return 0;
	decode_l4(p + off, len - off, f);
	return 0;
}

int wd_decode(const uint8_t *data, size_t len, uint16_t l3proto, struct wd_flow *f)
{
	memset(f, 0, sizeof(*f));
	if (!data)
		return -1;
	if (l3proto == WD_ETH_P_IP)
		return decode_ipv4(data, len, f);
	if (l3proto == WD_ETH_P_IPV6)
		return decode_ipv6(data, len, f);
	return -1;
}

void wd_flow_wire_len(struct wd_flow *f, const uint8_t *data, size_t len, uint32_t wire_len)
{
	if (!wire_len || !f->family)
		return;
	if (f->family == 4 && len >= 4 && !get16(data + 2))
		f->ip_len = wire_len;
	else if (f->family == 6 && len >= 6 && !get16(data + 4))
		f->ip_len = wire_len;
}

const char *wd_l4_name(uint8_t proto, char *buf, size_t len)
{
	switch (proto) {
	case IPPROTO_TCP: return "tcp";
	case IPPROTO_UDP: return "udp";
	case IPPROTO_ICMP: return "icmp";
	case IPPROTO_ICMPV6: return "icmpv6";
	case IPPROTO_SCTP: return "sctp";
	case IPPROTO_GRE: return "gre";
	case IPPROTO_ESP: return "esp";
	case IPPROTO_AH: return "ah";
	case IPPROTO_UDPLITE: return "udplite";
	case IPPROTO_IGMP: return "igmp";
	}
	snprintf(buf, len, "%u", proto);
	return buf;
}

const char *wd_l3_name(uint16_t l3proto, char *buf, size_t len)
{
	switch (l3proto) {
	case WD_ETH_P_IP: return "ipv4";
	case WD_ETH_P_IPV6: return "ipv6";
	case WD_ETH_P_ARP: return "arp";
	}
	snprintf(buf, len, "0x%04x", l3proto);
	return buf;
}
