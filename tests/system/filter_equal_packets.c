// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * filter_equal's random packets: IPv4 and IPv6 with options, extension
 * headers, fragments, TCP/UDP/ICMP/SCTP/other L4, odd lengths, and a few
 * random bytes; from a seed, so that a run repeats.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "filter_equal.h"
#include "filter_equal_packets.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static __u64 rng = 1;

__u64 fe_rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

__u32 fe_below(__u32 n)
{
	return n ? (__u32)(fe_rnd() % n) : 0;
}

static bool chance(unsigned int percent)
{
	return fe_below(100) < percent;
}

void fe_put16(__u8 *p, __u32 v)
{
	p[0] = (__u8)(v >> 8);
	p[1] = (__u8)v;
}

static void fill(__u8 *p, size_t n)
{
	while (n--)
		*p++ = (__u8)fe_rnd();
}

static __u16 pick_port(void)
{
	static const __u16 common[] = { 22, 53, 80, 443, 999, 1000, 1500, 2000, 2001 };

	return chance(55) ? common[fe_below(ARRAY_SIZE(common))] : (__u16)fe_below(65536);
}

static void pick_v4(__u8 *a)
{
	static const __u8 fixed[][4] = {
		{ 192, 0, 2, 7 }, { 10, 1, 2, 3 }, { 192, 0, 2, 0 }, { 198, 51, 100, 0 },
	};

	fill(a, 4);
	if (chance(60))
		memcpy(a, fixed[fe_below(ARRAY_SIZE(fixed))], chance(50) ? 4 : 3);
}

static void pick_v6(__u8 *a)
{
	static const __u8 db8[] = { 0x20, 0x01, 0x0d, 0xb8 }, fe80[] = { 0xfe, 0x80, 0, 0 };

	fill(a, 16);
	if (chance(45))
		memcpy(a, db8, sizeof(db8));
	else if (chance(20))
		memcpy(a, fe80, sizeof(fe80));
}

/* Total length: mostly up to 300, sometimes up to 1500 (loads past buf[]). */
static __u32 pick_len(__u32 hdrs)
{
	__u32 max = chance(20) ? 1500 : 300;

	if (max < hdrs)
		max = hdrs;
	if (chance(3) && hdrs > 1)
		return 1 + fe_below(hdrs);	/* shorter than its headers */
	return hdrs + fe_below(max - hdrs + 1);
}

static __u8 pick_proto(bool v6)
{
	static const __u8 v4[] = { 6, 6, 6, 17, 17, 17, 1, 1, 47, 50, 132 };
	static const __u8 six[] = { 6, 6, 6, 17, 17, 17, 58, 58, 1, 50 };

	if (chance(8))
		return (__u8)fe_below(256);
	return v6 ? six[fe_below(ARRAY_SIZE(six))] : v4[fe_below(ARRAY_SIZE(v4))];
}

static __u32 l4_hdr_len(__u8 proto, __u8 *doff)
{
	*doff = chance(30) ? (__u8)(6 + fe_below(10)) : 5;
	switch (proto) {
	case 6:
		return *doff * 4u;
	case 17:
	case 1:
	case 58:
		return 8;
	}
	return 0;
}

/* The layer-4 header at l4 (the packet holds at least its header). */
static void make_l4(struct packet *pk, __u32 l4, __u8 proto, __u8 doff)
{
	__u8 *p = pk->data + l4;
	__u32 room = pk->len > l4 ? pk->len - l4 : 0;

	if (proto == 6 && room >= 20) {
		fe_put16(p, pick_port());
		fe_put16(p + 2, pick_port());
		p[12] = (__u8)(doff << 4 | fe_below(16));
		p[13] = chance(30) ? 0x02 : (__u8)fe_rnd();	/* SYN alone, or any */
		if (chance(20) && room >= doff * 4u + 4)
			memcpy(p + doff * 4, "GET ", 4);
	} else if (proto == 17 && room >= 8) {
		fe_put16(p, pick_port());
		fe_put16(p + 2, pick_port());
		fe_put16(p + 4, room);
		if (chance(20) && room >= 12)
			memset(p + 8, 0, 4);
		if (chance(30) && room >= 152)
			memcpy(p + 150, "AB", 2);
	} else if ((proto == 1 || proto == 58) && room >= 8) {
		static const __u8 types[] = { 0, 3, 8, 11, 128, 129, 135, 136 };

		p[0] = chance(80) ? types[fe_below(ARRAY_SIZE(types))] : (__u8)fe_rnd();
	}
}

static void make_v4(struct packet *pk)
{
	__u8 ihl = chance(25) ? (__u8)(6 + fe_below(10)) : 5, proto = pick_proto(false), doff;
	__u8 *p = pk->data;

	pk->len = pick_len(ihl * 4u + l4_hdr_len(proto, &doff));
	fill(p, pk->len);
	p[0] = 0x40 | ihl;
	if (pk->len >= 20) {
		fe_put16(p + 2, chance(90) ? pk->len : (__u16)fe_rnd());
		fe_put16(p + 6, chance(60) ? (chance(50) ? 0x4000 : 0) : (__u16)fe_rnd());
		p[8] = chance(10) ? 0 : p[8];	/* a TTL of 0: a divisor of 0 */
		p[9] = proto;
		pick_v4(p + 12);
		pick_v4(p + 16);
	}
	make_l4(pk, ihl * 4u, proto, doff);
	if (pk->len > 200 && chance(20))
		p[200] = 0x7a;
}

/* IPv6, with extension headers (hop-by-hop, routing, fragment, destination) now and then. */
static void make_v6(struct packet *pk)
{
	static const __u8 kinds[] = { 0, 43, 60, 44 };
	__u32 i, n = chance(30) ? 1 + fe_below(3) : 0, off = 40;
	__u8 proto = pick_proto(true), doff, kind[3], hlen[3];
	__u8 *p = pk->data;

	for (i = 0; i < n; i++) {
		kind[i] = kinds[fe_below(ARRAY_SIZE(kinds))];
		hlen[i] = kind[i] == 44 ? 0 : (__u8)fe_below(3);
		off += (hlen[i] + 1) * 8u;
	}
	pk->len = pick_len(off + l4_hdr_len(proto, &doff));
	fill(p, pk->len);
	p[0] = 0x60 | (__u8)fe_below(16);
	if (pk->len < 40)
		return;
	fe_put16(p + 4, pk->len - 40);
	p[6] = n ? kind[0] : proto;
	pick_v6(p + 8);
	pick_v6(p + 24);
	for (i = 0, off = 40; i < n; i++) {
		if (off + 2 <= pk->len) {
			p[off] = i + 1 < n ? kind[i + 1] : proto;
			p[off + 1] = hlen[i];
		}
		off += (hlen[i] + 1) * 8u;
	}
	make_l4(pk, off, proto, doff);
}

void fe_make_packet(struct packet *pk)
{
	if (chance(5)) {	/* a few random bytes */
		pk->len = 1 + fe_below(60);
		fill(pk->data, pk->len);
		if (chance(60))
			pk->data[0] = (chance(50) ? 0x40 : 0x60) | (pk->data[0] & 0xf);
		return;
	}
	if (chance(50))
		make_v4(pk);
	else
		make_v6(pk);
}

void fe_hexdump(const __u8 *p, __u32 len)
{
	__u32 i;

	for (i = 0; i < len; i++)
		printf("%s%02x", i % 32 ? " " : i ? "\n        " : "        ", p[i]);
	putchar('\n');
}

void fe_seed(__u64 seed)
{
	rng = seed ? seed : 1;
}
