// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pcapng writer and reader: exact bytes of a small file (assembled by hand
 * from the pcapng draft), a round trip, the other byte order, and hostile
 * inputs: every truncation, bogus lengths, wrong magic, bad options, byte
 * flips. The reader must end every file in a bounded number of calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "unit.h"
#include "pcapng.h"

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

/* ---- helpers ---- */

static FILE *mem_file(const uint8_t *buf, size_t len)
{
	FILE *f = tmpfile();

	if (f && len)
		fwrite(buf, 1, len, f);
	if (f)
		rewind(f);
	return f;
}

/* Contents of a file descriptor written by the writer. */
static uint8_t *fd_bytes(int fd, size_t *len)
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
static struct tally read_to_end(const uint8_t *buf, size_t len, struct wd_pcapng_reader *keep)
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

static void udp4_view(struct wd_drop_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ts_realtime_ns = TS_NS;
	v->reason = "NO_SOCKET";
	v->code = 3;
	v->function = "tcp_v4_rcv";
	v->location = "tcp_v4_rcv+0x99";
	v->l3proto = WD_ETH_P_IP;
	wd_decode(udp4, sizeof(udp4), WD_ETH_P_IP, &v->flow);
	v->len = 9;		/* skb->len after the IP header was pulled */
	v->ifindex = 2;
	v->ifname = "veth0";
	v->netns = 4026531840u;
}

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

/* ---- drops: lengths and comments ---- */

static void test_drop_lengths(void)
{
	struct wd_drop_view v;
	uint32_t cap, orig;

	udp4_view(&v);
	/* 46 bytes copied, the IP packet is 29: the padding is not written */
	wd_pcapng_drop_lengths(&v, udp4, sizeof(udp4), 128, &cap, &orig);
	CHECK_INT(cap, 29);
	CHECK_INT(orig, 29);
	wd_pcapng_drop_lengths(&v, udp4, sizeof(udp4), 20, &cap, &orig);
	CHECK_INT(cap, 20);
	CHECK_INT(orig, 29);
	/* no header bytes: nothing captured, the original length stays */
	wd_pcapng_drop_lengths(&v, udp4, 0, 128, &cap, &orig);
	CHECK_INT(cap, 0);
	CHECK_INT(orig, 29);

	/* IPv6: 40 + payload length */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IPV6;
	wd_decode(udp6, sizeof(udp6), WD_ETH_P_IPV6, &v.flow);
	v.len = 10;
	wd_pcapng_drop_lengths(&v, udp6, sizeof(udp6), 128, &cap, &orig);
	CHECK_INT(cap, 50);
	CHECK_INT(orig, 50);

	/* GSO-sized IPv4 (tot_len 0): the IP length is not believed */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IP;
	v.flow.family = 4;
	v.flow.ip_len = 0;
	v.len = 65000;
	wd_pcapng_drop_lengths(&v, udp4, 29, 128, &cap, &orig);
	CHECK_INT(cap, 29);
	CHECK_INT(orig, 65000);

	/* ARP: LINKTYPE_RAW cannot hold it; the drop is kept, without bytes */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_ARP;
	v.len = 28;
	wd_pcapng_drop_lengths(&v, udp4, 28, 128, &cap, &orig);
	CHECK_INT(cap, 0);
	CHECK_INT(orig, 28);

	/* says IPv4, bytes are not: not written as IP */
	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IP;
	v.len = 40;
	wd_pcapng_drop_lengths(&v, udp6, sizeof(udp6), 128, &cap, &orig);
	CHECK_INT(cap, 0);
	CHECK_INT(orig, 40);
}

/* record -s beyond 128: the whole packet, -s, or what was linear. */
static void test_drop_lengths_long(void)
{
	uint8_t pkt[3028] = { 0x45, 0x00, 0x0b, 0xd4, [9] = 17 };	/* tot_len 3028 */
	struct wd_drop_view v;
	uint32_t cap, orig;

	memset(&v, 0, sizeof(v));
	v.l3proto = WD_ETH_P_IP;
	wd_decode(pkt, sizeof(pkt), WD_ETH_P_IP, &v.flow);
	v.len = 3008;
	wd_pcapng_drop_lengths(&v, pkt, sizeof(pkt), 262144, &cap, &orig);
	CHECK_INT(cap, 3028);
	CHECK_INT(orig, 3028);
	wd_pcapng_drop_lengths(&v, pkt, sizeof(pkt), 300, &cap, &orig);
	CHECK_INT(cap, 300);
	CHECK_INT(orig, 3028);
	/* only the headers were linear (TCP's paged payload) */
	wd_pcapng_drop_lengths(&v, pkt, 52, 262144, &cap, &orig);
	CHECK_INT(cap, 52);
	CHECK_INT(orig, 3028);
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

static void test_drop_comment(void)
{
	struct wd_drop_view v;
	char buf[256], tiny[12];

	udp4_view(&v);
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
		       "netns=4026531840 code=3");

	/* location-only kernels (before 5.17), interface known by index only */
	v.reason = NULL;
	v.ifname = NULL;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "location=tcp_v4_rcv+0x99 ifindex=2 netns=4026531840");

	/* nothing known but the location; a non-IP drop names its protocol */
	memset(&v, 0, sizeof(v));
	v.reason = "OPENVSWITCH:OVS_DROP_LAST_ACTION";
	v.code = 0x30001;
	v.location = "ovs_dp_process_packet+0x1a";
	v.l3proto = WD_ETH_P_ARP;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=OPENVSWITCH:OVS_DROP_LAST_ACTION "
		       "location=ovs_dp_process_packet+0x1a code=196609 l3=arp");

	/* a short buffer is cut, terminated */
	udp4_view(&v);
	wd_pcapng_drop_comment(&v, tiny, sizeof(tiny));
	CHECK_STR(tiny, "reason=NO_S");
}

/* Who: the words a drop's owner adds, and back, with spaces and '%' escaped. */
static void test_who_comment(void)
{
	struct wd_pcapng_meta m;
	struct wd_drop_view v;
	char buf[1024];

	udp4_view(&v);
	v.netns_name = "blue";
	v.sock = (struct wd_sock_view){
		.kind = WD_SOCK_SEEN, .full = true, .ino = 42569, .lport = 9999, .rport = 0,
		.state = 7, .pid = 20898, .comm = "wd rcvr%",
		.cgroup = "/who.slice/docker-abc.scope", .workload = "docker:abc",
	};
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
		       "netns=4026531840 code=3 netns_name=blue sock=42569 lport=9999 "
		       "rport=0 state=CLOSE pid=20898 comm=wd%20rcvr%25 "
		       "cgroup=/who.slice/docker-abc.scope workload=docker:abc");
	CHECK(wd_pcapng_parse_comment(buf, &m));
	CHECK(m.has_netns_name && m.has_sock && m.has_lport && m.has_pid && m.has_comm);
	CHECK(m.has_rport && m.has_state);
	CHECK_STR(m.netns_name, "blue");
	CHECK_INT(m.sock, 42569);
	CHECK_INT(m.lport, 9999);
	CHECK_INT(m.rport, 0);
	CHECK_STR(m.state, "CLOSE");
	CHECK_INT(m.pid, 20898);
	CHECK_STR(m.comm, "wd rcvr%");
	CHECK_STR(m.cgroup, "/who.slice/docker-abc.scope");
	CHECK_STR(m.workload, "docker:abc");
	CHECK(!m.sock_unknown);

	/* a connection: its peer's port and its state; a path as the netns name */
	v.netns_name = "/proc/4242/ns/net";
	v.sock = (struct wd_sock_view){ .kind = WD_SOCK_SEEN, .full = true, .ino = 7,
					.lport = 40123, .rport = 9, .state = 2 };
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, " netns_name=/proc/4242/ns/net sock=7 lport=40123 rport=9 "
			  "state=SYN_SENT") != NULL);
	CHECK(wd_pcapng_parse_comment(buf, &m));
	CHECK_STR(m.netns_name, "/proc/4242/ns/net");
	CHECK(m.has_rport && m.rport == 9 && m.has_lport && m.lport == 40123);
	CHECK_STR(m.state, "SYN_SENT");
	/* out of range or malformed: left out, the first of two kept */
	CHECK(wd_pcapng_parse_comment("location=f+0x1 rport=65536 state=syn_sent", &m));
	CHECK(!m.has_rport && !m.has_state);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 rport=x state=S%41 lport=1", &m));
	CHECK(!m.has_rport && !m.has_state && m.has_lport);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 state=LISTEN state=CLOSE rport=1 rport=2",
				      &m));
	CHECK_STR(m.state, "LISTEN");
	CHECK_INT(m.rport, 1);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 state=? state=LISTEN", &m));
	CHECK_STR(m.state, "?");
	CHECK(wd_pcapng_parse_comment("location=f+0x1 state=AVERYLONGSTATENAMEX", &m));
	CHECK(!m.has_state);

	/* a kernel without rx_sk says so; a socket-less drop says nothing */
	v.netns_name = NULL;
	v.sock = (struct wd_sock_view){ .kind = WD_SOCK_UNKNOWN };
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, " sock=unknown") != NULL);
	CHECK(wd_pcapng_parse_comment(buf, &m) && m.sock_unknown && !m.has_sock);
	v.sock.kind = WD_SOCK_NONE;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, "sock") == NULL);

	/* bad escapes and a NUL byte are refused, not half-decoded */
	CHECK(wd_pcapng_parse_comment("location=f+0x1 comm=a%2 pid=7", &m));
	CHECK(!m.has_comm && m.has_pid);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 comm=a%00b cgroup=%zz", &m));
	CHECK(!m.has_comm && !m.has_cgroup);
}

static void test_parse_comment(void)
{
	struct wd_pcapng_meta m;
	char big[400];

	CHECK(wd_pcapng_parse_comment("reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
				      "netns=4026531840 code=3", &m));
	CHECK_STR(m.reason, "NO_SOCKET");
	CHECK_STR(m.location, "tcp_v4_rcv+0x99");
	CHECK_STR(m.function, "tcp_v4_rcv");
	CHECK_STR(m.ifname, "veth0");
	CHECK(m.has_netns && m.netns == 4026531840u);
	CHECK(m.has_code && m.code == 3);

	/* location only; unknown words ignored; first value wins */
	CHECK(wd_pcapng_parse_comment("location=0xffffffff81000000 foo=bar x location=b+0x1", &m));
	CHECK(!m.has_reason && !m.has_code && !m.has_netns && !m.has_ifname);
	CHECK_STR(m.location, "0xffffffff81000000");
	CHECK_STR(m.function, "0xffffffff81000000");

	/* a second comment (added in Wireshark) on its own line */
	CHECK(wd_pcapng_parse_comment("reason=TCP_CSUM location=tcp_v4_rcv+0x1\nchecked by Bob",
				      &m));
	CHECK_STR(m.reason, "TCP_CSUM");

	/* not whydrop's */
	CHECK(!wd_pcapng_parse_comment("reason=NO_SOCKET", &m));
	CHECK(!wd_pcapng_parse_comment("", &m));
	CHECK(!wd_pcapng_parse_comment(NULL, &m));
	CHECK(!wd_pcapng_parse_comment("location=", &m));
	CHECK(!wd_pcapng_parse_comment("location=caf\xc3\xa9+0x1", &m));

	/* bad numbers and names too long to keep whole are dropped, not cut */
	CHECK(wd_pcapng_parse_comment("location=f+0x1 netns=-1 code=99999999999 ifname="
				      "abcdefghijklmnopqrstuvwxyz0123456789", &m));
	CHECK(!m.has_netns && !m.has_code && !m.has_ifname);
	memset(big, 'a', sizeof(big));
	memcpy(big, "location=", 9);
	big[sizeof(big) - 1] = '\0';
	CHECK(!wd_pcapng_parse_comment(big, &m));
}

/* ---- round trip ---- */

static void write_recording(int fd, uint64_t *n_written)
{
	struct wd_pcapng_header h = {
		.os = "Linux 6.18.44", .hardware = "x86_64", .userappl = "whydrop 0.1.0",
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
	CHECK_INT(wd_pcapng_write_drop(&w, &v, udp4, sizeof(udp4), 128), 0);
	memset(&v, 0, sizeof(v));
	v.ts_realtime_ns = TS_NS + 1;
	v.reason = "NO_SOCKET";
	v.code = 3;
	v.location = "__udp6_lib_rcv+0xe1";
	v.l3proto = WD_ETH_P_IPV6;
	v.ifname = "lo";
	wd_decode(udp6, sizeof(udp6), WD_ETH_P_IPV6, &v.flow);
	CHECK_INT(wd_pcapng_write_drop(&w, &v, udp6, sizeof(udp6), 128), 0);
	memset(&v, 0, sizeof(v));
	v.ts_realtime_ns = TS_NS + 3000000000ULL;
	v.reason = "NOT_SPECIFIED";
	v.code = 2;
	v.location = "arp_rcv+0x10";
	v.l3proto = WD_ETH_P_ARP;
	v.len = 28;
	CHECK_INT(wd_pcapng_write_drop(&w, &v, NULL, 0, 128), 0);
	CHECK_INT(wd_pcapng_write_stats(&w, &st), 0);
	CHECK_INT(wd_pcapng_flush(&w), 0);
	*n_written = w.written;
	wd_pcapng_writer_free(&w);
}

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

/* ---- the other byte order, other resolutions ---- */

struct be {
	uint8_t b[1024];
	size_t n;
};

static void be32(struct be *o, uint32_t v)
{
	o->b[o->n++] = (uint8_t)(v >> 24);
	o->b[o->n++] = (uint8_t)(v >> 16);
	o->b[o->n++] = (uint8_t)(v >> 8);
	o->b[o->n++] = (uint8_t)v;
}

static void be16x2(struct be *o, uint16_t a, uint16_t b)
{
	be32(o, (uint32_t)a << 16 | b);
}

/* Big-endian SHB, IDB with if_tsresol resol (none if 0), one EPB at ts. */
static size_t big_endian_file(struct be *o, uint8_t resol, uint64_t ts)
{
	o->n = 0;
	be32(o, WD_PCAPNG_SHB); be32(o, 28); be32(o, WD_PCAPNG_BOM);
	be16x2(o, 1, 0); be32(o, 0xffffffff); be32(o, 0xffffffff); be32(o, 28);
	be32(o, WD_PCAPNG_IDB); be32(o, resol ? 32 : 20);
	be16x2(o, 101, 0); be32(o, 0);
	if (resol) {
		be16x2(o, 9, 1);
		be32(o, (uint32_t)resol << 24);
		be32(o, 0);
	}
	be32(o, resol ? 32 : 20);
	be32(o, WD_PCAPNG_EPB); be32(o, 48); be32(o, 0);
	be32(o, (uint32_t)(ts >> 32)); be32(o, (uint32_t)ts);
	be32(o, 4); be32(o, 4); be32(o, 0x45000004);
	be16x2(o, 1, 4); be32(o, 0x6c6f636e);	/* "locn" */
	be32(o, 0); be32(o, 48);
	return o->n;
}

static void check_ts(uint8_t resol, uint64_t ts, bool has, uint64_t want)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	struct be o;
	FILE *f = mem_file(o.b, big_endian_file(&o, resol, ts));

	wd_pcapng_reader_init(&r, f);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK(r.swap == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__));
	CHECK_INT(rec.has_ts, has);
	if (has)
		CHECK_INT(rec.ts_ns, want);
	CHECK_INT(rec.caplen, 4);
	CHECK(rec.data && rec.data[0] == 0x45);
	CHECK_STR(rec.comment, "locn");
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	wd_pcapng_reader_free(&r);
	fclose(f);
}

static void test_other_byte_order(void)
{
	check_ts(0, 1500000, true, 1500000000ULL);		/* default: µs */
	check_ts(9, 42, true, 42);				/* ns */
	check_ts(3, 7, true, 7000000ULL);			/* ms */
	check_ts(12, 5000, true, 5);				/* ps */
	check_ts(0x80 | 10, 1024 * 3, true, 3000000000ULL);	/* 2^-10 s */
	check_ts(0x80 | 127, UINT64_MAX, true, 0);		/* absurd, no crash */
	check_ts(127, UINT64_MAX, true, 0);
	check_ts(0, UINT64_MAX, false, 0);			/* overflows ns */
}

/* ---- hostile inputs ---- */

static uint8_t *valid_file(size_t *len)
{
	FILE *f = tmpfile();
	uint64_t written;
	uint8_t *buf;

	write_recording(fileno(f), &written);
	buf = fd_bytes(fileno(f), len);
	fclose(f);
	return buf;
}

/* Every prefix ends cleanly: at a block boundary END, else ERROR. */
static void test_truncation(void)
{
	size_t len, bounds[8], nb = 0, off = 0;
	uint8_t *buf = valid_file(&len);
	int bad = 0;

	while (off + 8 <= len && nb < 8) {
		uint32_t l;

		memcpy(&l, buf + off + 4, 4);
		off += l;
		bounds[nb++] = off;
	}
	CHECK_INT(nb, 6);	/* SHB IDB EPB EPB EPB ISB */
	for (size_t cut = 0; cut <= len; cut++) {
		struct tally t = read_to_end(buf, cut, NULL);
		bool at_bound = false;

		for (size_t i = 0; i < nb; i++)
			at_bound |= bounds[i] == cut;
		if (t.last != (at_bound ? WD_PCAPNG_END : WD_PCAPNG_ERROR) || t.calls > 8)
			bad++;
	}
	CHECK_INT(bad, 0);
	free(buf);
}

static enum wd_pcapng_rec_type first_error(const uint8_t *buf, size_t len, char *err,
					   size_t errlen)
{
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	enum wd_pcapng_rec_type t;
	FILE *f = mem_file(buf, len);
	int calls = 0;

	wd_pcapng_reader_init(&r, f);
	do
		t = wd_pcapng_next(&r, &rec);
	while (t > 0 && ++calls < 100);
	snprintf(err, errlen, "%s", r.err);
	wd_pcapng_reader_free(&r);
	fclose(f);
	return t;
}

static void set32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void test_bogus_lengths(void)
{
	static const uint32_t lens[] = { 0, 4, 8, 13, 26, 0xfffffffc, 0xffffffff,
					 WD_PCAPNG_MAX_BLOCK + 4 };
	size_t len;
	uint8_t *buf = valid_file(&len), *copy = malloc(len);
	char err[200];

	uint32_t shb, idb;

	memcpy(&shb, buf + 4, 4);
	memcpy(&idb, buf + shb + 4, 4);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		/* in the SHB, then in the first EPB (after SHB and IDB) */
		memcpy(copy, buf, len);
		set32(copy + 4, lens[i]);
		CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
		memcpy(copy, buf, len);
		set32(copy + shb + idb + 4, lens[i]);
		CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	}
	/* trailing length differs from the leading one */
	memcpy(copy, buf, len);
	set32(copy + shb - 4, shb + 4);
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "at its end") != NULL);
	/* a huge block announced in a small file: truncated, not allocated forever */
	memcpy(copy, buf, len);
	set32(copy + 4, WD_PCAPNG_MAX_BLOCK);
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "truncated") != NULL);
	free(copy);
	free(buf);
}

static void test_bad_magic(void)
{
	static const uint8_t pcap[24] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0 };
	static const uint8_t text[] = "hello, this is not a capture file at all\n";
	size_t len;
	uint8_t *buf = valid_file(&len), *copy = malloc(len);
	char err[200];

	memcpy(copy, buf, len);
	set32(copy + 8, 0x1a2b3c4e);		/* byte-order magic off by one */
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "byte-order magic") != NULL);
	memcpy(copy, buf, len);
	set32(copy + 12, 2);			/* version 2.0 */
	CHECK_INT(first_error(copy, len, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "version") != NULL);
	CHECK_INT(first_error(pcap, sizeof(pcap), err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "classic pcap") != NULL);
	CHECK_INT(first_error(text, sizeof(text), err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "not a pcapng") != NULL);
	CHECK_INT(first_error(text, 0, err, sizeof(err)), WD_PCAPNG_ERROR);
	CHECK(strstr(err, "empty") != NULL);
	free(copy);
	free(buf);
}

/* Well-framed blocks with bad insides: skipped or read in part, never fatal. */
static void test_bad_contents(void)
{
	static const uint8_t head[] = {
		0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a,
		1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 28, 0, 0, 0,
		1, 0, 0, 0, 20, 0, 0, 0, 101, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0,
	};
	static const uint8_t blocks[] = {
		/* EPB, caplen 200 in a 36-byte block */
		6, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		200, 0, 0, 0, 4, 0, 0, 0, 1, 2, 3, 4, 36, 0, 0, 0,
		/* EPB on interface 7, which nobody described */
		6, 0, 0, 0, 32, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0,
		/* EPB with a zero-length comment, then an option of 0xffff bytes */
		6, 0, 0, 0, 44, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0xff, 0xff, 0, 0, 0, 0,
		44, 0, 0, 0,
		/* unknown block type 0x0bad */
		0xad, 0x0b, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0,
		/* EPB too short for its fields */
		6, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0,
		/* ISB on interface 3: counters kept, times unknown */
		5, 0, 0, 0, 48, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 8, 0, 9, 0, 0, 0, 0, 0, 0, 0,
		48, 0, 0, 0,
		/* SPB, original length 1000, 4 bytes present */
		3, 0, 0, 0, 20, 0, 0, 0, 0xe8, 3, 0, 0, 0x45, 0, 0, 0, 20, 0, 0, 0,
	};
	uint8_t buf[sizeof(head) + sizeof(blocks)];
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	FILE *f;

	memcpy(buf, head, sizeof(head));
	memcpy(buf + sizeof(head), blocks, sizeof(blocks));
	f = mem_file(buf, sizeof(buf));
	wd_pcapng_reader_init(&r, f);
	/* the first two EPBs are skipped; the third is read without its options */
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.caplen, 0);
	CHECK(rec.comment == NULL);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_STATS);
	CHECK(!rec.stats.has_start);
	CHECK(rec.stats.has_ifrecv && rec.stats.ifrecv == 9);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK_INT(rec.origlen, 1000);
	CHECK_INT(rec.caplen, 4);
	CHECK(!rec.has_ts);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	CHECK_INT(r.n_skipped, 1);
	CHECK_INT(r.n_malformed, 4);
	CHECK(strstr(r.malformed, "offset 48") && strstr(r.malformed, "captured length 200"));
	wd_pcapng_reader_free(&r);
	fclose(f);
}

/* Many comments: joined, cut at the buffer, never overrun. */
static void test_many_comments(void)
{
	static uint8_t buf[48 + 28 + 20000];
	struct wd_pcapng_reader r;
	struct wd_pcapng_rec rec;
	size_t n = 48, start;
	FILE *f;

	memcpy(buf, "\x0a\x0d\x0d\x0a\x1c\0\0\0\x4d\x3c\x2b\x1a\1\0\0\0"
		    "\xff\xff\xff\xff\xff\xff\xff\xff\x1c\0\0\0"
		    "\1\0\0\0\x14\0\0\0\x65\0\0\0\0\0\0\0\x14\0\0\0", 48);
	start = n;
	set32(buf + n, WD_PCAPNG_EPB);
	n += 28;
	memset(buf + start + 8, 0, 20);
	for (int i = 0; i < 300; i++) {	/* 300 comments of 40 bytes */
		set32(buf + n, 1 | 40u << 16);
		memset(buf + n + 4, 'a' + i % 26, 40);
		n += 44;
	}
	n += 4;
	set32(buf + start + 4, (uint32_t)(n - start));
	set32(buf + n - 4, (uint32_t)(n - start));
	f = mem_file(buf, n);
	wd_pcapng_reader_init(&r, f);
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_PACKET);
	CHECK(rec.comment && strlen(rec.comment) == sizeof(r.comment) - 1);
	CHECK(rec.comment && rec.comment[40] == '\n' && rec.comment[41] == 'b');
	CHECK_INT(wd_pcapng_next(&r, &rec), WD_PCAPNG_END);
	wd_pcapng_reader_free(&r);
	fclose(f);
}

/* Byte flips everywhere: each read ends, in at most one call per block. */
static void test_byte_flips(void)
{
	static const uint8_t vals[] = { 0x00, 0xff, 0x80, 0x01, 0x7f };
	size_t len;
	uint8_t *buf = valid_file(&len), *copy = malloc(len);
	int runaway = 0, runs = 0;

	for (size_t i = 0; i < len; i++) {
		for (size_t v = 0; v < sizeof(vals); v++) {
			struct tally t;

			memcpy(copy, buf, len);
			copy[i] = vals[v];
			t = read_to_end(copy, len, NULL);
			runaway += t.calls > 8;
			runs++;
		}
	}
	CHECK_INT(runaway, 0);
	CHECK(runs > 1000);
	free(copy);
	free(buf);
}

UNIT_MAIN(test_exact_bytes, test_drop_lengths, test_drop_comment, test_who_comment,
	  test_parse_comment,
	  test_round_trip, test_write_errors, test_other_byte_order, test_truncation,
	  test_bogus_lengths, test_bad_magic, test_bad_contents, test_many_comments,
	  test_byte_flips, test_drop_lengths_long, test_file_names, test_file_size)
