// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The pcapng writer: exact bytes of a small file (assembled by hand from
 * the pcapng draft), a drop's lengths, rotated recordings' names and
 * sizes, a round trip through the reader, write errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "pcapng_fixtures.h"

/* ---- exact bytes ---- */

static void test_exact_bytes(void)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint8_t want[] = {
		/* SHB, 28 bytes, no options */
		0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a,
		1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 28, 0, 0, 0,
		/* IDB, 32 bytes: LINKTYPE_RAW, snaplen 128, if_tsresol 9 */
		1, 0, 0, 0, 32, 0, 0, 0, 101, 0, 0, 0, 128, 0, 0, 0,
		9, 0, 1, 0, 9, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0,
		/* EPB, 48 bytes: if 0, ts, caplen 3 (padded), origlen 5, comment "ab" */
		6, 0, 0, 0, 48, 0, 0, 0, 0, 0, 0, 0,
		0x18, 0xed, 0x9b, 0x0b, 0x15, 0xcd, 0x5b, 0x07,
		3, 0, 0, 0, 5, 0, 0, 0, 0xde, 0xad, 0xbe, 0,
		1, 0, 2, 0, 'a', 'b', 0, 0, 0, 0, 0, 0, 48, 0, 0, 0,
	};
	struct wd_pcapng_header h = { .linktype = 101, .snaplen = 128 };
	static const uint8_t data[] = { 0xde, 0xad, 0xbe };
	/* 0x0b9bed18_075bcd15 ns */
	struct wd_pcapng_packet p = {
		.ts_ns = 0x0b9bed18075bcd15ULL, .data = data, .caplen = 3, .origlen = 5,
		.comment = "ab",
	};
	struct wd_pcapng_writer w;
	FILE *f = tmpfile();
	uint8_t *got;
	size_t len;

	CHECK_INT(wd_pcapng_writer_init(&w, fileno(f), false), 0);
	CHECK_INT(wd_pcapng_write_header(&w, &h), 0);
	CHECK_INT(wd_pcapng_packet_size(&p), 48);
	CHECK_INT(wd_pcapng_write_packet(&w, &p), 0);
	CHECK_INT(w.bytes, sizeof(want));	/* what record -C counts */
	CHECK_INT(w.written, 0);	/* still buffered */
	CHECK_INT(wd_pcapng_flush(&w), 0);
	CHECK_INT(w.written, 1);
	wd_pcapng_writer_free(&w);
	got = fd_bytes(fileno(f), &len);
	CHECK_INT(len, sizeof(want));
	CHECK(len == sizeof(want) && !memcmp(got, want, len));
	free(got);
	fclose(f);
#endif
}

/* ---- drops: lengths ---- */

/* The lengths a drop of @v with @len bytes of @pkt is written with, -s @snap. */
#define lengths_are(v, pkt, len, snap, want_cap, want_orig) do {		\
	uint32_t _cap, _orig;							\
										\
	wd_pcapng_drop_lengths(v, pkt, len, snap, &_cap, &_orig);		\
	CHECK_INT(_cap, want_cap);						\
	CHECK_INT(_orig, want_orig);						\
} while (0)

static void test_drop_lengths(void)
{
	struct wd_drop_view v;

	udp4_view(&v);
	/* 46 bytes copied, the IP packet is 29: the padding is not written */
	lengths_are(&v, udp4, sizeof(udp4), 128, 29, 29);
	lengths_are(&v, udp4, sizeof(udp4), 20, 20, 29);
	/* no header bytes: nothing captured, the original length stays */
	lengths_are(&v, udp4, 0, 128, 0, 29);

	/* IPv6: 40 + payload length */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IPV6;
	wd_decode(udp6, sizeof(udp6), WD_ETH_P_IPV6, &v.flow);
	v.skb_len = 10;
	lengths_are(&v, udp6, sizeof(udp6), 128, 50, 50);

	/* GSO-sized IPv4 (tot_len 0): the IP length is not believed */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IP;
	v.flow.family = 4;
	v.flow.ip_len = 0;
	v.skb_len = 65000;
	lengths_are(&v, udp4, 29, 128, 29, 65000);

	/* ARP: LINKTYPE_RAW cannot hold it; the drop is kept, without bytes */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_ARP;
	v.skb_len = 28;
	lengths_are(&v, udp4, 28, 128, 0, 28);

	/* says IPv4, bytes are not: not written as IP */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IP;
	v.skb_len = 40;
	lengths_are(&v, udp6, sizeof(udp6), 128, 0, 40);
}

/* record -s beyond 128: the whole packet, -s, or what was linear. */
static void test_drop_lengths_long(void)
{
	uint8_t pkt[3028] = { 0x45, 0x00, 0x0b, 0xd4, [9] = 17 };	/* tot_len 3028 */
	struct wd_drop_view v;

	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IP;
	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &v.flow);
	v.skb_len = 3008;
	lengths_are(&v, pkt, sizeof(pkt), 262144, 3028, 3028);
	lengths_are(&v, pkt, sizeof(pkt), 300, 300, 3028);
	/* only the headers were linear (TCP's paged payload) */
	lengths_are(&v, pkt, 52, 262144, 52, 3028);
}

/* ---- rotated recordings: names as tcpdump makes them, -C sizes ---- */

static void test_file_names(void)
{
	struct tm tm = { .tm_year = 126, .tm_mon = 11, .tm_mday = 3, .tm_hour = 6,
			 .tm_min = 42, .tm_sec = 5 };
	char buf[64], small[8];

	/* -C: FILE, FILE1, FILE2, ... */
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d.pcapng", NULL, 0, 0), 0);
	CHECK_STR(buf, "d.pcapng");
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d.pcapng", NULL, 1, 0), 0);
	CHECK_STR(buf, "d.pcapng1");
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d.pcapng", NULL, 12, 0), 0);
	CHECK_STR(buf, "d.pcapng12");
	/* -C -W N: the digits of N - 1, from 0 */
	CHECK_INT(wd_pcapng_count_width(1), 0);
	CHECK_INT(wd_pcapng_count_width(2), 1);
	CHECK_INT(wd_pcapng_count_width(10), 1);
	CHECK_INT(wd_pcapng_count_width(11), 2);
	CHECK_INT(wd_pcapng_count_width(100), 2);
	CHECK_INT(wd_pcapng_count_width(101), 3);
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d", NULL, 0, 1), 0);
	CHECK_STR(buf, "d0");
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d", NULL, 7, 2), 0);
	CHECK_STR(buf, "d07");
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d", NULL, 0, wd_pcapng_count_width(1)), 0);
	CHECK_STR(buf, "d");	/* -W 1: one name, rewritten */
	/* -G: strftime(3), and -C's number after it */
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "d-%Y%m%d-%H%M%S.pcapng", &tm, 0, 0), 0);
	CHECK_STR(buf, "d-20261203-064205.pcapng");
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "%H%%.p", &tm, 3, 2), 0);
	CHECK_STR(buf, "06%.p03");
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "no%conversion", NULL, 0, 0), 0);
	CHECK_STR(buf, "no%conversion");	/* without -G, % is a character */
	/* too long for the buffer, with or without conversions; an empty name */
	CHECK_INT(wd_pcapng_file_name(small, sizeof(small), "12345678", NULL, 0, 0),
		  -ENAMETOOLONG);
	CHECK_INT(wd_pcapng_file_name(small, sizeof(small), "1234567", NULL, 1, 0),
		  -ENAMETOOLONG);
	CHECK_INT(wd_pcapng_file_name(small, sizeof(small), "123456", NULL, 1, 0), 0);
	CHECK_STR(small, "1234561");
	CHECK_INT(wd_pcapng_file_name(small, sizeof(small), "%Y%m%d", &tm, 0, 0),
		  -ENAMETOOLONG);
	CHECK_INT(wd_pcapng_file_name(buf, sizeof(buf), "", NULL, 0, 0), -EINVAL);
}

static void test_file_size(void)
{
	uint64_t b = 7;

	CHECK_INT(wd_pcapng_parse_file_size("1", &b), 0);
	CHECK_INT(b, 1000000);
	CHECK_INT(wd_pcapng_parse_file_size("250", &b), 0);
	CHECK_INT(b, 250000000);
	CHECK_INT(wd_pcapng_parse_file_size("64k", &b), 0);
	CHECK_INT(b, 65536);
	CHECK_INT(wd_pcapng_parse_file_size("3M", &b), 0);
	CHECK_INT(b, 3 << 20);
	CHECK_INT(wd_pcapng_parse_file_size("2g", &b), 0);
	CHECK_INT(b, 2ULL << 30);
	b = 7;
	CHECK_INT(wd_pcapng_parse_file_size("0", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("0k", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("-1", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("+1", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size(" 1", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("1.5", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("1kb", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("1t", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("18446744073710", &b), -1);	/* x 10^6 > 2^64 */
	CHECK_INT(wd_pcapng_parse_file_size("99999999999999999999", &b), -1);
	CHECK_INT(wd_pcapng_parse_file_size("17179869184g", &b), -1);	/* 2^64 */
	CHECK_INT(b, 7);	/* untouched on error */
}

/* ---- round trip ---- */

static void check_packet(struct wd_pcapng_reader *r, uint64_t ts, uint32_t cap, uint32_t orig,
			 const uint8_t *data, const char *comment)
{
	struct wd_pcapng_rec rec;

	CHECK_INT(wd_pcapng_next(r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.if_id, 0);
	CHECK(rec.has_ts && rec.ts_ns == ts);
	CHECK_INT(rec.caplen, cap);
	CHECK_INT(rec.origlen, orig);
	CHECK(rec.caplen == cap && (!cap || !memcmp(rec.data, data, cap)));
	CHECK_STR(rec.comment, comment);
}

static void test_round_trip(void)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	FILE *f = tmpfile();
	uint64_t written = 0;

	write_recording(fileno(f), &written);
	CHECK_INT(written, 3);
	rewind(f);
	wd_pcapng_reader_init(&r, f);
	check_packet(&r, TS_NS, 29, 29, udp4,
		     "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 netns=4026531840 code=3");
	CHECK_STR(r.os, "Linux 6.18.44");
	CHECK_STR(r.userappl, "whydrop 0.1.0");
	CHECK_STR(r.shb_comment, "whydrop: host=web1");
	CHECK_INT(r.n_ifs, 1);
	CHECK_INT(r.ifs[0].linktype, 101);
	CHECK_INT(r.ifs[0].snaplen, 128);
	CHECK_INT(r.ifs[0].tsresol, 9);
	check_packet(&r, TS_NS + 1, 50, 50, udp6,
		     "reason=NO_SOCKET location=__udp6_lib_rcv+0xe1 ifname=lo code=3");
	check_packet(&r, TS_NS + 3000000000ULL, 0, 28, NULL,
		     "reason=NOT_SPECIFIED location=arp_rcv+0x10 code=2 l3=arp");
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_STATS);
	CHECK(rec.stats.has_start && rec.stats.start_ns == TS_NS - 1000000000ULL);
	CHECK(rec.stats.has_end && rec.stats.end_ns == TS_NS + 4000000000ULL);
	CHECK(rec.stats.has_ifrecv && rec.stats.ifrecv == 5);
	CHECK(rec.stats.has_osdrop && rec.stats.osdrop == 2);
	CHECK(rec.stats.has_usrdeliv && rec.stats.usrdeliv == 3);
	CHECK_STR(rec.stats.comment, "whydrop: counted=5 written=3 rate_limited=2 lost_events=1");
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	CHECK_INT(r.n_malformed, 0);
	CHECK_INT(r.n_skipped, 0);
	wd_pcapng_reader_free(&r);
	fclose(f);
}

/* ---- a second interface (record --tcp): its packets counted apart ---- */

static void test_second_interface(void)
{
	struct wd_pcapng_header h = { .linktype = 101, .snaplen = 128, .if2_name = "whydrop-tcp",
				      .if2_description = "tcp", .if2_snaplen = 60 };
	struct wd_pcapng_packet p = { .data = udp4, .caplen = 29, .origlen = 29,
				      .comment = "location=x+0x1" };
	struct wd_pcapng_packet q = { .data = udp4, .caplen = 20, .origlen = 20,
				      .comment = "event=tcp_reset_sent", .if_id = 1 };
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	struct wd_pcapng_writer w;
	FILE *f = tmpfile();

	CHECK_INT(wd_pcapng_writer_init(&w, fileno(f), false), 0);
	CHECK_INT(wd_pcapng_write_header(&w, &h), 0);
	CHECK_INT(wd_pcapng_write_packet(&w, &p), 0);
	CHECK_INT(wd_pcapng_write_packet(&w, &q), 0);
	CHECK_INT(wd_pcapng_write_packet(&w, &q), 0);
	CHECK_INT(wd_pcapng_flush(&w), 0);
	CHECK_INT(w.packets, 1);
	CHECK_INT(w.written, 1);
	CHECK_INT(w.other_packets, 2);
	CHECK_INT(w.other_written, 2);
	wd_pcapng_writer_free(&w);
	rewind(f);
	wd_pcapng_reader_init(&r, f);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.if_id, 0);
	CHECK_INT(r.n_ifs, 2);
	CHECK_INT(r.ifs[1].linktype, 101);
	CHECK_INT(r.ifs[1].snaplen, 60);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.if_id, 1);
	CHECK_STR(rec.comment, "event=tcp_reset_sent");
	wd_pcapng_reader_free(&r);
	fclose(f);
}

/* ---- write errors: the count of packets really written stays exact ---- */

static void test_write_errors(void)
{
	struct wd_pcapng_header h = { .linktype = 101, .snaplen = 128 };
	struct wd_pcapng_packet p = { .data = udp4, .caplen = 29, .origlen = 29,
				      .comment = "location=x+0x1" };
	struct wd_pcapng_writer w;
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC), pfd[2];
	uint8_t buf[8192];
	struct tally t;
	ssize_t n;

	signal(SIGPIPE, SIG_IGN);

	/* a full disk */
	if (fd >= 0) {
		CHECK_INT(wd_pcapng_writer_init(&w, fd, false), 0);
		CHECK_INT(wd_pcapng_write_header(&w, &h), 0);
		CHECK_INT(wd_pcapng_write_packet(&w, &p), 0);
		CHECK_INT(wd_pcapng_flush(&w), -ENOSPC);
		CHECK_INT(w.err, ENOSPC);
		CHECK_INT(wd_pcapng_write_packet(&w, &p), -ENOSPC);	/* sticky */
		CHECK_INT(w.packets, 1);
		CHECK_INT(w.written, 0);
		wd_pcapng_writer_free(&w);
		close(fd);
	}

	/*
	 * A pipe that takes 4096 bytes, then EAGAIN: SHB 28 + IDB 32, then EPBs
	 * of 32 + 32 + 20 (comment) + 4 = 88 bytes: (4096 - 60) / 88 = 45 whole.
	 */
	CHECK_INT(pipe2(pfd, O_CLOEXEC | O_NONBLOCK), 0);
	fcntl(pfd[1], F_SETPIPE_SZ, 4096);
	CHECK_INT(wd_pcapng_writer_init(&w, pfd[1], false), 0);
	CHECK_INT(wd_pcapng_write_header(&w, &h), 0);
	for (int i = 0; i < 100; i++)
		wd_pcapng_write_packet(&w, &p);
	CHECK_INT(wd_pcapng_flush(&w), -EAGAIN);
	CHECK_INT(w.packets, 100);
	CHECK_INT(w.written, 45);
	wd_pcapng_writer_free(&w);
	n = read(pfd[0], buf, sizeof(buf));
	CHECK_INT(n, 4096);
	/* what reached the reader: exactly those 45 packets, then a cut block */
	t = read_to_end(buf, n > 0 ? (size_t)n : 0, NULL);
	CHECK_INT(t.packets, 45);
	CHECK_INT(t.last, WD_PCAPNG_ERROR);
	close(pfd[0]);

	/* the reader went away: EPIPE, not a signal */
	close(pfd[1]);
	CHECK_INT(pipe2(pfd, O_CLOEXEC), 0);
	close(pfd[0]);
	CHECK_INT(wd_pcapng_writer_init(&w, pfd[1], true), 0);
	CHECK_INT(wd_pcapng_write_header(&w, &h), -EPIPE);
	CHECK_INT(wd_pcapng_write_packet(&w, &p), -EPIPE);
	CHECK_INT(w.written, 0);
	wd_pcapng_writer_free(&w);
	close(pfd[1]);
}

UNIT_MAIN(test_exact_bytes, test_drop_lengths, test_round_trip, test_second_interface,
	  test_write_errors,
	  test_drop_lengths_long, test_file_names, test_file_size)
