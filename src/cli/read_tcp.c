// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read: the TCP events of a recording; see read_tcp.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "format.h"
#include "grow.h"
#include "json.h"
#include "read_lines.h"
#include "read_tcp.h"
#include "tcp_format.h"

#define FLOW_REASONS	8	/* drop reasons named per flow, as count's */

struct wd_read_tcp_rst {
	bool sent;
	char reason[128], state[24];
	uint32_t netns;
	uint64_t cookie, count;
};

struct wd_read_tcp_flow {
	int family;
	char src[48], dst[48];	/* local, remote */
	uint16_t sport, dport;
	uint32_t netns;
	uint64_t cookie, segs;
};

/* The drops of a connection (either direction) by reason. */
struct wd_read_tcp_drop {
	char conn[WD_TCP_CONN_LEN];	/* wd_tcp_conn_key() */
	char reason[160];
	uint64_t count;
};

/* What an event's packet and comment say, the flow local end first. */
struct tcp_ev {
	const char *type;
	bool sent, received, retrans;
	struct wd_flow flow;	/* of the packet */
	char src[48], dst[48];	/* local, remote */
	uint16_t sport, dport;
	uint64_t segs;
};

const char *wd_read_tcp_event(const char *comment, char *buf, size_t len)
{
	size_t n;

	if (!comment || strncmp(comment, "event=tcp_", 10))
		return NULL;
	n = strcspn(comment + 6, " \n");
	if (n >= len)
		return NULL;
	memcpy(buf, comment + 6, n);
	buf[n] = '\0';
	return buf;
}

static uint64_t segs_of(const char *comment)
{
	const char *p = strstr(comment, " segs=");

	return p ? strtoull(p + 6, NULL, 10) : 0;
}

/* 0, or -1 when the packet is not the TCP/IP header record --tcp writes. */
static int decode(const struct wd_pcapng_rec *rec, const char *type, struct tcp_ev *e)
{
	uint16_t l3 = rec->caplen && rec->data[0] >> 4 == 6 ? WD_ETH_P_IPV6 : WD_ETH_P_IP;
	struct wd_flow *f = &e->flow;
	bool in;

	memset(e, 0, sizeof(*e));
	e->type = type;
	e->sent = !strcmp(type, "tcp_reset_sent");
	e->received = !strcmp(type, "tcp_reset_received");
	e->retrans = !strcmp(type, "tcp_retransmit") || !strcmp(type, "tcp_synack_retransmit");
	if (!rec->caplen || wd_decode(rec->data, rec->caplen, l3, f) || !f->has_ports)
		return -1;
	/* a reset received came from the remote end */
	in = e->received;
	snprintf(e->src, sizeof(e->src), "%s", in ? f->dst : f->src);
	snprintf(e->dst, sizeof(e->dst), "%s", in ? f->src : f->dst);
	e->sport = in ? f->dport : f->sport;
	e->dport = in ? f->sport : f->dport;
	e->segs = e->retrans ? segs_of(rec->comment) : 0;
	return 0;
}

static int add_reset(struct wd_read_tcp *t, const struct tcp_ev *e, const struct wd_pcapng_meta *m)
{
	const char *reason = e->sent ? (m->has_reason ? m->reason : "unknown") : "none";
	const char *state = m->has_state ? m->state : "-";
	uint32_t netns = m->has_netns ? m->netns : 0;
	uint64_t cookie = m->has_netns_cookie ? m->netns_cookie : 0;
	struct wd_read_tcp_rst *r;

	for (size_t i = 0; i < t->n_resets; i++) {
		r = &t->resets[i];
		if (r->sent == e->sent && r->netns == netns && r->cookie == cookie &&
		    !strcmp(r->reason, reason) && !strcmp(r->state, state)) {
			r->count++;
			return 0;
		}
	}
	if (wd_grow(&t->resets, &t->cap_resets, t->n_resets, sizeof(*t->resets), 64))
		return -ENOMEM;
	r = &t->resets[t->n_resets++];
	*r = (struct wd_read_tcp_rst){ .sent = e->sent, .netns = netns, .cookie = cookie,
				       .count = 1 };
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	snprintf(r->state, sizeof(r->state), "%s", state);
	return 0;
}

static int add_flow(struct wd_read_tcp *t, const struct tcp_ev *e, const struct wd_pcapng_meta *m)
{
	uint32_t netns = m->has_netns ? m->netns : 0;
	uint64_t cookie = m->has_netns_cookie ? m->netns_cookie : 0;
	struct wd_read_tcp_flow *f;

	for (size_t i = 0; i < t->n_flows; i++) {
		f = &t->flows[i];
		if (f->sport == e->sport && f->dport == e->dport && f->netns == netns &&
		    f->cookie == cookie && !strcmp(f->src, e->src) && !strcmp(f->dst, e->dst)) {
			f->segs += e->segs;
			return 0;
		}
	}
	if (wd_grow(&t->flows, &t->cap_flows, t->n_flows, sizeof(*t->flows), 64))
		return -ENOMEM;
	f = &t->flows[t->n_flows++];
	*f = (struct wd_read_tcp_flow){ .family = e->flow.family, .sport = e->sport,
					.dport = e->dport, .netns = netns, .cookie = cookie,
					.segs = e->segs };
	snprintf(f->src, sizeof(f->src), "%s", e->src);
	snprintf(f->dst, sizeof(f->dst), "%s", e->dst);
	return 0;
}

int wd_read_tcp_add(struct wd_read_tcp *t, const struct wd_pcapng_rec *rec,
		    const struct wd_pcapng_meta *m, const char *type)
{
	struct tcp_ev e;

	t->any = true;
	if (decode(rec, type, &e))
		return 0;
	if (e.sent || e.received)
		return add_reset(t, &e, m);
	return e.retrans ? add_flow(t, &e, m) : 0;
}

int wd_read_tcp_drop(struct wd_read_tcp *t, const struct wd_pcapng_rec *rec,
		     const struct wd_pcapng_meta *m)
{
	uint16_t l3 = rec->caplen && rec->data[0] >> 4 == 6 ? WD_ETH_P_IPV6 : WD_ETH_P_IP;
	const char *reason = m->has_reason ? m->reason : m->function;
	struct wd_read_tcp_drop *d;
	struct wd_flow f;
	char conn[sizeof(d->conn)];

	if (!rec->caplen || wd_decode(rec->data, rec->caplen, l3, &f) || !f.has_ports ||
	    !f.has_l4 || f.l4 != IPPROTO_TCP)
		return 0;
	wd_tcp_conn_key(f.src, f.sport, f.dst, f.dport, conn, sizeof(conn));
	for (size_t i = 0; i < t->n_drops; i++) {
		d = &t->drops[i];
		if (!strcmp(d->conn, conn) && !strcmp(d->reason, reason)) {
			d->count++;
			return 0;
		}
	}
	if (wd_grow(&t->drops, &t->cap_drops, t->n_drops, sizeof(*t->drops), 64))
		return -ENOMEM;
	d = &t->drops[t->n_drops++];
	memcpy(d->conn, conn, sizeof(conn));
	snprintf(d->reason, sizeof(d->reason), "%s", reason);
	d->count = 1;
	return 0;
}

static int cmp_reset(const void *a, const void *b)
{
	const struct wd_tcp_reset_out *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->reason, y->reason);
}

static int cmp_flow(const void *a, const void *b)
{
	const struct wd_tcp_flow_out *x = a, *y = b;

	if (x->retransmits != y->retransmits)
		return x->retransmits > y->retransmits ? -1 : 1;
	return x->sport - y->sport;
}

static void build_resets(struct wd_read_tcp *t)
{
	struct wd_tcp_doc *d = &t->doc;

	d->reasons_known = true;
	for (size_t i = 0; i < t->n_resets; i++) {
		const struct wd_read_tcp_rst *r = &t->resets[i];

		t->rst_out[i] = (struct wd_tcp_reset_out){
			.direction = r->sent ? "sent" : "received", .reason = r->reason,
			.code = 0xffff, .state = r->state, .netns = r->netns,
			.netns_cookie = r->cookie, .count = r->count,
		};
		*(r->sent ? &d->resets_sent : &d->resets_received) += r->count;
		if (r->sent && !strcmp(r->reason, "unknown"))
			d->reasons_known = false;
	}
	qsort(t->rst_out, t->n_resets, sizeof(*t->rst_out), cmp_reset);
	d->resets = t->rst_out;
	d->n_resets = t->n_resets;
}

/*
 * The flow's drops in the files read, by connection (either direction,
 * any namespace), as count joins them. A file has no segment count of a
 * drop: each counts one. where as count says it.
 */
static int join_flow(struct wd_read_tcp *t, struct wd_tcp_flow_out *o)
{
	struct wd_tcp_flow_reason *r;
	char conn[sizeof(t->drops->conn)];
	size_t n = 0;

	wd_tcp_conn_key(o->src, o->sport, o->dst, o->dport, conn, sizeof(conn));
	r = calloc(t->n_drops + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < t->n_drops; i++) {
		if (strcmp(t->drops[i].conn, conn))
			continue;
		o->dropped_here += t->drops[i].count;
		/* as count: FLOW_REASONS named, the rest in the last, "other" */
		if (n == FLOW_REASONS) {
			r[n - 1].reason = "other";
			r[n - 1].count += t->drops[i].count;
			continue;
		}
		r[n++] = (struct wd_tcp_flow_reason){ t->drops[i].reason, t->drops[i].count };
	}
	o->reasons = r;
	o->n_reasons = n;
	o->dropped_segs_here = o->dropped_here;
	if (!o->dropped_here)
		o->where = "beyond";
	else
		o->where = o->dropped_here >= o->retransmits ? "here" : "here and beyond";
	return 0;
}

static int build_flows(struct wd_read_tcp *t)
{
	struct wd_tcp_doc *d = &t->doc;

	for (size_t i = 0; i < t->n_flows; i++) {
		const struct wd_read_tcp_flow *f = &t->flows[i];
		struct wd_tcp_flow_out *o = &t->flow_out[i];

		*o = (struct wd_tcp_flow_out){
			.family = f->family == 6 ? "ipv6" : "ipv4", .sport = f->sport,
			.dport = f->dport, .netns = f->netns, .netns_cookie = f->cookie,
			.retransmits = f->segs,
		};
		snprintf(o->src, sizeof(o->src), "%s", f->src);
		snprintf(o->dst, sizeof(o->dst), "%s", f->dst);
		d->retransmits += f->segs;
		if (join_flow(t, o))
			return -ENOMEM;
	}
	qsort(t->flow_out, t->n_flows, sizeof(*t->flow_out), cmp_flow);
	d->has_flows = true;
	d->flows = t->flow_out;
	d->n_flows = t->n_flows;
	d->max_flows = (uint32_t)t->n_flows;
	return 0;
}

int wd_read_tcp_doc(struct wd_read_tcp *t)
{
	t->rst_out = calloc(t->n_resets + 1, sizeof(*t->rst_out));
	t->flow_out = calloc(t->n_flows + 1, sizeof(*t->flow_out));
	if (!t->rst_out || !t->flow_out)
		return -ENOMEM;
	t->doc.attach = "recorded";
	build_resets(t);
	return build_flows(t);
}

void wd_read_tcp_free(struct wd_read_tcp *t)
{
	for (size_t i = 0; t->flow_out && i < t->n_flows; i++)
		free((void *)t->flow_out[i].reasons);
	free(t->resets);
	free(t->flows);
	free(t->drops);
	free(t->rst_out);
	free(t->flow_out);
	memset(t, 0, sizeof(*t));
}

/* watch --tcp's type words: "reset_sent", "retransmit", ... */
static const char *line_type(const char *type)
{
	if (!strcmp(type, "tcp_reset_sent"))
		return "reset_sent";
	if (!strcmp(type, "tcp_reset_received"))
		return "reset_received";
	if (!strcmp(type, "tcp_synack_retransmit"))
		return "synack_retransmit";
	return !strcmp(type, "tcp_retransmit") ? "retransmit" : type;
}

static void line_json(FILE *f, const struct tcp_ev *e, const struct wd_pcapng_meta *m,
		      const char *ts, const struct wd_sock_view *k)
{
	struct wd_json j;

	wd_json_init(&j, f);
	wd_json_open(&j, NULL, '{');
	wd_json_str(&j, "ts", ts);
	wd_json_str(&j, "type", line_type(e->type));
	if (e->sent)
		wd_json_str(&j, "reason", m->has_reason ? m->reason : "unknown");
	wd_json_str(&j, "state", m->has_state ? m->state : "-");
	wd_json_str(&j, "family", e->flow.family == 6 ? "ipv6" : "ipv4");
	wd_json_str(&j, "src", e->src);
	wd_json_uint(&j, "sport", e->sport);
	wd_json_str(&j, "dst", e->dst);
	wd_json_uint(&j, "dport", e->dport);
	if (m->has_netns)
		wd_json_uint(&j, "netns", m->netns);
	if (m->has_netns_cookie)
		wd_json_uint(&j, "netns_cookie", m->netns_cookie);
	if (e->retrans)
		wd_json_uint(&j, "segs", e->segs);
	wd_print_sock_json(&j, k);
	wd_json_close(&j, '}');
	fputc('\n', f);
}

static void line_text(FILE *f, const struct tcp_ev *e, const struct wd_pcapng_meta *m,
		      const char *ts, const struct wd_sock_view *k)
{
	fprintf(f, "%s TCP %s", strlen(ts) > 11 ? ts + 11 : ts, line_type(e->type));
	if (e->sent)
		fprintf(f, " %s", m->has_reason ? m->reason : "unknown");
	fprintf(f, " %s:%u > %s:%u state %s netns %u", e->src, e->sport, e->dst, e->dport,
		m->has_state ? m->state : "-", m->has_netns ? m->netns : 0);
	if (e->retrans)
		fprintf(f, " segs %" PRIu64, e->segs);
	wd_print_sock_text(f, k);
	fputc('\n', f);
}

int wd_read_tcp_line(FILE *f, const struct wd_pcapng_rec *rec, const struct wd_pcapng_meta *m,
		     const char *type, bool json)
{
	struct wd_sock_view k = { 0 };
	struct tcp_ev e;
	char ts[40] = "-";

	if (decode(rec, type, &e))
		return 0;
	if (rec->has_ts)
		wd_format_time(rec->ts_ns, ts, sizeof(ts));
	wd_read_sock_of(m, &k);
	if (json)
		line_json(f, &e, m, ts, &k);
	else
		line_text(f, &e, m, ts, &k);
	return 0;
}
