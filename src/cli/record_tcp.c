// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * record --tcp: each reset and retransmission of the TCP events source as
 * a packet of the file's second interface ("whydrop-tcp"), synthesized
 * from the event: the flow's IPv4/IPv6 header and a TCP header of 20
 * bytes (RST for resets, SYN|ACK for a SYN-ACK retransmitted, else ACK;
 * sequence and acknowledgment numbers 0: the event has none; no payload).
 * Its comment starts with event= and has no location=, so whydrop's read
 * (this one and older ones) never counts it as a drop (docs/pcapng.md).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "drop_comment.h"
#include "record.h"
#include "source_tcp.h"
#include "tcp_watch.h"

#define TCP_FIN	0x01
#define TCP_SYN	0x02
#define TCP_RST	0x04
#define TCP_ACK	0x10

static const char *const event_name[] = { "tcp_reset_sent", "tcp_reset_received",
					   "tcp_retransmit", "tcp_synack_retransmit" };

static uint32_t sum16(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* An IPv4-mapped IPv6 socket's packets are IPv4 on the wire. */
static bool mapped(const struct wd_tcp_flow *f)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return f->family == AF_INET6 && !memcmp(f->saddr, pfx, 12) && !memcmp(f->daddr, pfx, 12);
}

static uint8_t tcp_flags(const struct wd_tcp_event *ev)
{
	if (ev->type <= WD_TCP_EV_RST_RECEIVED)
		return TCP_RST;
	return ev->type == WD_TCP_EV_SYNACK ? TCP_SYN | TCP_ACK : TCP_ACK;
}

/*
 * The packet of an event into buf (60 bytes at least): a reset received
 * goes from the remote end to this host's socket, anything else from it.
 * Returns its length.
 */
size_t wd_record_tcp_packet(const struct wd_tcp_event *ev, uint8_t *buf)
{
	const struct wd_tcp_flow *f = &ev->flow;
	bool in = ev->type == WD_TCP_EV_RST_RECEIVED, v4 = f->family != AF_INET6 || mapped(f);
	const uint8_t *src = in ? f->daddr : f->saddr, *dst = in ? f->saddr : f->daddr;
	size_t ip_len = v4 ? 20 : 40, alen = v4 ? 4 : 16, off = v4 && mapped(f) ? 12 : 0;
	uint8_t *tcp = buf + ip_len;
	uint32_t sum;

	memset(buf, 0, ip_len + 20);
	if (v4) {
		buf[0] = 0x45;
		put_be16(buf + 2, (uint16_t)(ip_len + 20));
		buf[6] = 0x40;		/* DF */
		buf[8] = 64;
		buf[9] = IPPROTO_TCP;
		memcpy(buf + 12, src + off, 4);
		memcpy(buf + 16, dst + off, 4);
		put_be16(buf + 10, fold(sum16(0, buf, 20)));
	} else {
		buf[0] = 0x60;
		put_be16(buf + 4, 20);
		buf[6] = IPPROTO_TCP;
		buf[7] = 64;
		memcpy(buf + 8, src, 16);
		memcpy(buf + 24, dst, 16);
	}
	put_be16(tcp, in ? f->dport : f->sport);
	put_be16(tcp + 2, in ? f->sport : f->dport);
	tcp[12] = 5 << 4;
	tcp[13] = tcp_flags(ev);
	/* the pseudo-header: addresses, protocol, TCP length */
	sum = sum16(0, buf + (v4 ? 12 : 8), 2 * alen) + IPPROTO_TCP + 20;
	put_be16(tcp + 16, fold(sum16(sum, tcp, 20)));
	return ip_len + 20;
}

/* " netns_name=blue" as a drop's comment has it: read --netns blue keeps both. */
static void netns_name_word(struct record *r, const struct wd_tcp_event *ev, char *buf,
			    size_t len)
{
	struct wd_netns_id ns = { .inode = ev->flow.netns_ino, .cookie = ev->flow.netns_cookie };
	const char *name = wd_netns_name(&r->s->who.owners, &ns);
	size_t n = strnlen(buf, len);

	if (!name || n >= len)
		return;
	snprintf(buf + n, len - n, " netns_name=");
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		n = strnlen(buf, len);
		if (*c > 0x20 && *c < 0x7f && *c != '%')
			snprintf(buf + n, len - n, "%c", *c);
		else
			snprintf(buf + n, len - n, "%%%02X", *c);
	}
}

/* "event=tcp_reset_sent reason=R state=S netns=N netns_cookie=C netns_name=X sock=..." */
static void make_comment(struct record *r, const struct wd_tcp_event *ev, char *buf,
			 size_t len)
{
	const struct wd_tcp_names *nm = wd_source_tcp_names(r->s);
	char reason[64] = "unknown", comm[WD_COMM_LEN + 1];
	struct wd_sock_view sock;
	size_t n;

	if (nm)
		wd_tcp_rst_name(nm, ev->reason, reason, sizeof(reason));
	snprintf(buf, len, "event=%s", event_name[ev->type]);
	n = strnlen(buf, len);
	if (ev->type == WD_TCP_EV_RST_SENT)
		snprintf(buf + n, len - n, " reason=%s", reason);
	n = strnlen(buf, len);
	snprintf(buf + n, len - n, " state=%s netns=%u", nm ? wd_tcp_state_name(nm, ev->state) :
		 "?", ev->flow.netns_ino);
	n = strnlen(buf, len);
	if (ev->flow.netns_cookie)
		snprintf(buf + n, len - n, " netns_cookie=%" PRIu64, (uint64_t)ev->flow.netns_cookie);
	netns_name_word(r, ev, buf, len);
	n = strnlen(buf, len);
	if (ev->type >= WD_TCP_EV_RETRANS)
		snprintf(buf + n, len - n, " segs=%u", ev->segs);
	wd_tcp_event_who(r->s, ev, &sock, comm, sizeof(comm));
	wd_pcapng_sock_words(&sock, buf, len);
}

void wd_record_tcp_event(void *ctx, const struct wd_tcp_event *ev)
{
	struct record *r = ctx;
	uint8_t pkt[60];
	char comment[2048];
	struct wd_pcapng_packet p = { .if_id = WD_RECORD_TCP_IF, .data = pkt,
				      .comment = comment };

	r->tcp_received++;
	if (r->w.err || r->broken || r->files_done || ev->type > WD_TCP_EV_SYNACK)
		return;
	p.ts_ns = ev->ts_ns + r->s->mono_to_real_ns;
	p.caplen = p.origlen = (uint32_t)wd_record_tcp_packet(ev, pkt);
	make_comment(r, ev, comment, sizeof(comment));
	if (!wd_record_period_check(r, ev->ts_ns))
		return;
	if (!wd_record_size_check(r, wd_pcapng_packet_size(&p)))
		return;
	if (wd_pcapng_write_packet(&r->w, &p))
		wd_record_write_error(r);
}
