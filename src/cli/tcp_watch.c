// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * watch --tcp: a line per reset (sent: reason and state; received: state;
 * both: who, the socket's owner as drop lines name it) and per retransmission, the retransmission followed by the last drop of
 * its connection that watch showed before it. The join is by connection
 * (addresses and ports, either direction), not by sequence number: the
 * drop named is the last one of the connection, which is the one the
 * retransmission repairs when the connection lost one packet at a time and
 * every drop record was shown (none over --rate, none lost).
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "json.h"
#include "source_tcp.h"
#include "tcp_format.h"
#include "tcp_watch.h"


struct drop_seen {
	char reason[64], function[64];
	uint32_t netns;
	uint64_t ts_ns;		/* wall clock; 0: none */
};

/*
 * The last drops of a connection, a ring: records of the two sources come
 * in batches (drops first), so a retransmission's drop is the latest one
 * before it in time, not the last one shown.
 */
struct wd_tcp_watch_last {
	char conn[WD_TCP_CONN_LEN];	/* "" : free */
	struct drop_seen d[WD_TCP_WATCH_DROPS];
	unsigned int next;
};

int wd_tcp_watch_init(struct wd_tcp_watch *w)
{
	w->last = calloc(WD_TCP_WATCH_CONNS, sizeof(*w->last));
	w->shown = 0;
	return w->last ? 0 : -1;
}

void wd_tcp_watch_free(struct wd_tcp_watch *w)
{
	free(w->last);
	w->last = NULL;
}

static struct wd_tcp_watch_last *slot(struct wd_tcp_watch *w, const char *conn)
{
	uint32_t h = 2166136261u;

	for (const char *p = conn; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	return &w->last[h % WD_TCP_WATCH_CONNS];
}

void wd_tcp_watch_drop(struct wd_tcp_watch *w, const struct wd_drop_view *v)
{
	const struct wd_flow *f = &v->flow;
	struct wd_tcp_watch_last *l;
	struct drop_seen *d;
	char conn[WD_TCP_CONN_LEN];

	if (!w->last || !f->has_ports || !f->has_l4 || f->l4 != IPPROTO_TCP)
		return;
	wd_tcp_conn_key(f->src, f->sport, f->dst, f->dport, conn, sizeof(conn));
	l = slot(w, conn);
	if (strcmp(l->conn, conn)) {
		memset(l, 0, sizeof(*l));
		snprintf(l->conn, sizeof(l->conn), "%s", conn);
	}
	d = &l->d[l->next++ % WD_TCP_WATCH_DROPS];
	snprintf(d->reason, sizeof(d->reason), "%s", v->reason ? v->reason : "-");
	snprintf(d->function, sizeof(d->function), "%s", v->function ? v->function : "-");
	d->netns = v->netns;
	d->ts_ns = v->ts_realtime_ns;
}

/* The latest drop of the connection at or before ts; NULL if none is remembered. */
static const struct drop_seen *drop_before(const struct wd_tcp_watch_last *l, uint64_t ts)
{
	const struct drop_seen *best = NULL;

	for (size_t i = 0; i < WD_TCP_WATCH_DROPS; i++)
		if (l->d[i].ts_ns && l->d[i].ts_ns <= ts && (!best || l->d[i].ts_ns > best->ts_ns))
			best = &l->d[i];
	return best;
}

/* An address as the drop records show it: IPv4-mapped IPv6 as IPv4. */
static void addr_str(uint16_t family, const uint8_t *a, char *buf, size_t len)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (family == AF_INET6 && !memcmp(a, mapped, sizeof(mapped)))
		a += 12, family = AF_INET;
	if (!inet_ntop(family == AF_INET6 ? AF_INET6 : AF_INET, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

static const char *const type_name[] = { "reset_sent", "reset_received", "retransmit",
					 "synack_retransmit" };

struct line {
	char ts[40], src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN], reason[64];
	const char *type, *state;
	const struct drop_seen *cause;	/* retransmissions: NULL if none */
	double ago_ms;
	struct wd_sock_view sock;	/* resets: who; kind WD_SOCK_NONE otherwise */
	char comm[WD_COMM_LEN + 1];
};

static void print_text(const struct wd_tcp_event *ev, const struct line *l, FILE *f)
{
	fprintf(f, "%s TCP %s", l->ts + 11, l->type);
	if (ev->type == WD_TCP_EV_RST_SENT)
		fprintf(f, " %s", l->reason);
	fprintf(f, " %s:%u > %s:%u state %s netns %u", l->src, ev->flow.sport, l->dst,
		ev->flow.dport, l->state, ev->flow.netns_ino);
	if (ev->type >= WD_TCP_EV_RETRANS)
		fprintf(f, " segs %u", ev->segs);
	if (l->cause)
		fprintf(f, " after %s at %s in netns %u, %.1f ms before", l->cause->reason,
			l->cause->function, l->cause->netns, l->ago_ms);
	else if (ev->type >= WD_TCP_EV_RETRANS)
		fprintf(f, " (no drop of it shown here)");
	wd_print_sock_text(f, &l->sock);
	fputc('\n', f);
}

static void print_json(const struct wd_tcp_event *ev, const struct line *l, FILE *f)
{
	struct wd_json j;

	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "ts", l->ts);
	wd_json_str(&j, "type", l->type);
	if (ev->type == WD_TCP_EV_RST_SENT)
		wd_json_str(&j, "reason", l->reason);
	wd_json_str(&j, "state", l->state);
	wd_json_str(&j, "family", ev->flow.family == AF_INET6 ? "ipv6" : "ipv4");
	wd_json_str(&j, "src", l->src);
	wd_json_uint(&j, "sport", ev->flow.sport);
	wd_json_str(&j, "dst", l->dst);
	wd_json_uint(&j, "dport", ev->flow.dport);
	wd_json_uint(&j, "netns", ev->flow.netns_ino);
	wd_json_uint(&j, "netns_cookie", ev->flow.netns_cookie);
	if (ev->type >= WD_TCP_EV_RETRANS)
		wd_json_uint(&j, "segs", ev->segs);
	wd_print_sock_json(&j, &l->sock);
	if (l->cause) {
		wd_json_open(&j, "after_drop", '{');
		wd_json_str(&j, "reason", l->cause->reason);
		wd_json_str(&j, "function", l->cause->function);
		wd_json_uint(&j, "netns", l->cause->netns);
		wd_json_double(&j, "ms_before", l->ago_ms, 3);
		wd_json_close(&j, '}');
	}
	wd_json_close(&j, '}');
	fputc('\n', f);
}

/*
 * A reset that ran in the task holding the socket (ev->pid: close(), as
 * TCP_ABORT_ON_CLOSE and TCP_ABORT_ON_LINGER are sent, setsockopt(), its
 * backlog) names that task: the socket's process, whose descriptor a close
 * has already taken from /proc. Any other reset ran in whatever task the
 * packet or timer interrupted: its process is looked up as a drop's is.
 */
static bool by_holder(const struct wd_tcp_event *ev)
{
	return ev->type <= WD_TCP_EV_RST_RECEIVED && ev->pid;
}

void wd_tcp_event_who(struct wd_session *s, const struct wd_tcp_event *ev,
		      struct wd_sock_view *sock, char *comm, size_t len)
{
	struct wd_netns_id ns = { .inode = ev->flow.netns_ino, .cookie = ev->flow.netns_cookie };
	struct wd_sock sk = { .flags = WD_SOCK_TP_RX_SK };
	struct wd_drop_view v = {};

	*sock = v.sock;
	if (ev->type > WD_TCP_EV_RST_RECEIVED)
		return;
	if (ev->state) {
		sk.flags |= WD_SOCK_FOUND;
		sk.family = ev->flow.family;
		sk.state = ev->state;
		sk.sport = ev->flow.sport;
		sk.dport = ev->flow.dport;
	}
	if (ev->flags & WD_TCP_EVF_SOCK) {
		sk.flags |= WD_SOCK_FULL;
		sk.ino = ev->sock_ino;
		sk.cgroup_id = ev->cgroup_id;
		sk.uid = ev->uid;
	}
	wd_who_view(&s->who, &ns, &sk, &v);
	*sock = v.sock;
	if (sock->kind != WD_SOCK_SEEN || sock->pid || !by_holder(ev))
		return;
	snprintf(comm, len, "%.*s", WD_COMM_LEN, ev->comm);
	sock->pid = (int)ev->pid;
	sock->comm = comm;
}

void wd_tcp_watch_print(struct wd_tcp_watch *w, struct wd_session *s,
			const struct wd_tcp_event *ev, bool json, FILE *f)
{
	const struct wd_tcp_names *nm = wd_source_tcp_names(s);
	uint64_t now = ev->ts_ns + s->mono_to_real_ns;
	struct line l = { .type = ev->type < 4 ? type_name[ev->type] : "?" };
	char conn[WD_TCP_CONN_LEN];

	wd_format_time(now, l.ts, sizeof(l.ts));
	addr_str(ev->flow.family, ev->flow.saddr, l.src, sizeof(l.src));
	addr_str(ev->flow.family, ev->flow.daddr, l.dst, sizeof(l.dst));
	l.state = nm ? wd_tcp_state_name(nm, ev->state) : "?";
	if (nm)
		wd_tcp_rst_name(nm, ev->reason, l.reason, sizeof(l.reason));
	wd_tcp_event_who(s, ev, &l.sock, l.comm, sizeof(l.comm));
	if (ev->type >= WD_TCP_EV_RETRANS && w->last) {
		const struct wd_tcp_watch_last *c;

		wd_tcp_conn_key(l.src, ev->flow.sport, l.dst, ev->flow.dport, conn, sizeof(conn));
		c = slot(w, conn);
		l.cause = strcmp(c->conn, conn) ? NULL : drop_before(c, now);
		if (l.cause)
			l.ago_ms = (double)(now - l.cause->ts_ns) / 1e6;
	}
	if (json)
		print_json(ev, &l, f);
	else
		print_text(ev, &l, f);
	w->shown++;
}
