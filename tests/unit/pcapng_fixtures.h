/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the pcapng suites share (test_pcapng.c, test_pcapng_read.c,
 * test_drop_comment.c): two packets, a drop's view of one, a small
 * recording written by the writer, and a reader run to the end.
 */
#ifndef WD_PCAPNG_FIXTURES_H
#define WD_PCAPNG_FIXTURES_H

#include <unistd.h>

#include "unit.h"
#include "drop_view.h"
#include "drop_comment.h"
#include "pcapng_read.h"
#include "pcapng_write.h"

/* 2026-12-03T06:42:05.123456789Z */
#define TS_NS (1796280125ULL * 1000000000ULL + 123456789ULL)

/* IPv4 UDP 192.0.2.1:40000 > 198.51.100.2:9, one byte of payload ("x"). */
static const uint8_t udp4[] = {
	0x45, 0x00, 0x00, 0x1d, 0x12, 0x34, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00,
	192, 0, 2, 1, 198, 51, 100, 2,
	0x9c, 0x40, 0x00, 0x09, 0x00, 0x09, 0x00, 0x00, 'x',
	/* Ethernet padding after the IP packet: not part of it */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* IPv6 UDP 2001:db8::1 > 2001:db8::2 port 7, payload "xy" (50 bytes). */
static const uint8_t udp6[] = {
	0x60, 0, 0, 0, 0x00, 0x0a, 17, 64,
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
	0x9c, 0x41, 0x00, 0x07, 0x00, 0x0a, 0x00, 0x00, 'x', 'y',
};


static inline FILE *mem_file(const uint8_t *buf, size_t len)
{
	FILE *f = tmpfile();

	if (f && len)
		fwrite(buf, 1, len, f);
	if (f)
		rewind(f);
	return f;
}

/* Contents of a file descriptor written by the writer. */
static inline uint8_t *fd_bytes(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *buf = malloc(end > 0 ? (size_t)end : 1);

	*len = 0;
	if (!buf || end < 0 || pread(fd, buf, (size_t)end, 0) != end)
		return buf;
	*len = (size_t)end;
	return buf;
}

struct tally {
	int packets, stats, calls;
	enum wd_pcapng_rec_type last;
};

/* Read to the end; each call must consume a block or stop for good. */
static inline struct tally read_to_end(const uint8_t *buf, size_t len, struct wd_pcapng_reader *keep)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	struct tally t = { 0 };
	FILE *f = mem_file(buf, len);

	wd_pcapng_reader_init(&r, f);
	do {
		t.last = wd_pcapng_next(&r, &rec);
		t.packets += t.last == WD_PCAPNG_PACKET;
		t.stats += t.last == WD_PCAPNG_STATS;
		t.calls++;
	} while (t.last > 0 && (size_t)t.calls <= len / 12 + 2);
	/* errors and the end are sticky */
	if (t.last == WD_PCAPNG_ERROR)
		t.calls += wd_pcapng_next(&r, &rec) == WD_PCAPNG_ERROR ? 0 : 1000;
	if (keep)
		*keep = r;
	else
		wd_pcapng_reader_free(&r);
	fclose(f);
	return t;
}

static inline void udp4_view(struct wd_drop_view *v)
{
	unit_no_socket_view(v, TS_NS);
	wd_decode(udp4, sizeof(udp4), WD_ETH_P_IP, &v->flow);
	v->skb_len = 9;		/* skb->len after the IP header was pulled */
	v->ifindex = 2;
	v->ifname = "veth0";
	v->netns = 4026531840u;
}

/* A drop as record writes it: its packet (lengths, comment) in one block. */
static inline int write_drop(struct wd_pcapng_writer *w, const struct wd_drop_view *v,
		      const uint8_t *hdr, size_t hdr_len, uint32_t snaplen)
{
	struct wd_pcapng_packet p;
	char comment[4096];

	wd_pcapng_drop_packet(v, hdr, hdr_len, snaplen, comment, sizeof(comment), &p);
	return wd_pcapng_write_packet(w, &p);
}

static inline void write_recording(int fd, uint64_t *n_written)
{
	struct wd_pcapng_header h = {
		.os = "Linux 6.18.44", .hardware = "x86_64", .userappl = "whydrop 0.1.0",
		.comment = "whydrop: host=web1",
		.if_name = "whydrop", .if_description = "whydrop: kernel drops (skb:kfree_skb)",
		.linktype = WD_PCAPNG_LINKTYPE_RAW, .snaplen = 128,
	};
	struct wd_pcapng_stats st = {
		.has_start = true, .start_ns = TS_NS - 1000000000ULL,
		.has_end = true, .end_ns = TS_NS + 4000000000ULL,
		.has_ifrecv = true, .ifrecv = 5, .has_osdrop = true, .osdrop = 2,
		.has_usrdeliv = true, .usrdeliv = 3,
		.comment = "whydrop: counted=5 written=3 rate_limited=2 lost_events=1",
	};
	struct wd_pcapng_writer w;
	struct wd_drop_view v;

	CHECK_INT(wd_pcapng_writer_init(&w, fd, false), 0);
	CHECK_INT(wd_pcapng_write_header(&w, &h), 0);
	udp4_view(&v);
	CHECK_INT(write_drop(&w, &v, udp4, sizeof(udp4), 128), 0);
	memset(&v, 0, sizeof(v));
	v.ts_realtime_ns = TS_NS + 1;
	v.reason = "NO_SOCKET";
	v.code = 3;
	v.location = "__udp6_lib_rcv+0xe1";
	v.l3proto = WD_ETH_P_IPV6;
	v.ifname = "lo";
	wd_decode(udp6, sizeof(udp6), WD_ETH_P_IPV6, &v.flow);
	CHECK_INT(write_drop(&w, &v, udp6, sizeof(udp6), 128), 0);
	memset(&v, 0, sizeof(v));
	v.ts_realtime_ns = TS_NS + 3000000000ULL;
	v.reason = "NOT_SPECIFIED";
	v.code = 2;
	v.location = "arp_rcv+0x10";
	v.l3proto = WD_ETH_P_ARP;
	v.skb_len = 28;
	CHECK_INT(write_drop(&w, &v, NULL, 0, 128), 0);
	CHECK_INT(wd_pcapng_write_stats(&w, &st), 0);
	CHECK_INT(wd_pcapng_flush(&w), 0);
	*n_written = w.written;
	wd_pcapng_writer_free(&w);
}

#endif /* WD_PCAPNG_FIXTURES_H */
