// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop read: the TCP events of a recording; see read_tcp.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "format.h"
#include "json.h"
#include "keyset.h"
#include "read_lines.h"
#include "read_tcp.h"
#include "tcp_format.h"

#define FLOW_REASONS	8	/* drop reasons named per flow, as count's */

/*
 * The keys of the three tables (struct wd_keyset: a row per key, found
 * through a hash, kept in the order first seen), zeroed before they are
 * filled so that equal keys are equal bytes.
 */
struct rst_key {
	char reason[128], state[24];
	uint64_t cookie;
	uint32_t netns;
	uint8_t sent;
	uint8_t pad[3];
};

/* A flow by its local end first; the count is its retransmitted segments. */
struct flow_key {
	char src[48], dst[48];	/* local, remote */
	uint64_t cookie;
	uint32_t netns;
	uint16_t sport, dport;
	uint8_t family;
	uint8_t pad[7];
};

/* The drops of a connection (either direction) by reason. */
struct drop_key {
	char conn[WD_TCP_CONN_LEN];	/* wd_tcp_conn_key() */
	char reason[160];
	char pad[(8 - (WD_TCP_CONN_LEN + 160) % 8) % 8];
};

_Static_assert(sizeof(struct rst_key) % 8 == 0, "a keyset key is whole words");
_Static_assert(sizeof(struct flow_key) % 8 == 0, "a keyset key is whole words");
_Static_assert(sizeof(struct drop_key) % 8 == 0, "a keyset key is whole words");

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

void wd_read_tcp_init(struct wd_read_tcp *t)
{
	memset(t, 0, sizeof(*t));
	wd_keyset_init(&t->resets, sizeof(struct rst_key));
	wd_keyset_init(&t->flows, sizeof(struct flow_key));
	wd_keyset_init(&t->drops, sizeof(struct drop_key));
}

static int add_reset(struct wd_read_tcp *t, const struct tcp_ev *e, const struct wd_pcapng_meta *m)
{
	struct rst_key k;

	memset(&k, 0, sizeof(k));
	k.sent = e->sent;
	k.netns = m->has_netns ? m->netns : 0;
	k.cookie = m->has_netns_cookie ? m->netns_cookie : 0;
	snprintf(k.reason, sizeof(k.reason), "%s",
		 e->sent ? (m->has_reason ? m->reason : "unknown") : "none");
	snprintf(k.state, sizeof(k.state), "%s", m->has_state ? m->state : "-");
	return wd_keyset_add(&t->resets, &k, 1);
}

static int add_flow(struct wd_read_tcp *t, const struct tcp_ev *e, const struct wd_pcapng_meta *m)
{
	struct flow_key k;

	memset(&k, 0, sizeof(k));
	k.family = (uint8_t)e->flow.family;
	k.sport = e->sport;
	k.dport = e->dport;
	k.netns = m->has_netns ? m->netns : 0;
	k.cookie = m->has_netns_cookie ? m->netns_cookie : 0;
	snprintf(k.src, sizeof(k.src), "%s", e->src);
	snprintf(k.dst, sizeof(k.dst), "%s", e->dst);
	return wd_keyset_add(&t->flows, &k, e->segs);
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
	struct drop_key k;
	struct wd_flow f;

	if (!rec->caplen || wd_decode(rec->data, rec->caplen, l3, &f) || !f.has_ports ||
	    !f.has_l4 || f.l4 != IPPROTO_TCP)
		return 0;
	memset(&k, 0, sizeof(k));
	wd_tcp_conn_key(f.src, f.sport, f.dst, f.dport, k.conn, sizeof(k.conn));
	snprintf(k.reason, sizeof(k.reason), "%s", m->has_reason ? m->reason : m->function);
	return wd_keyset_add(&t->drops, &k, 1);
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
	for (size_t i = 0; i < t->resets.n; i++) {
		const struct rst_key *r = wd_keyset_key(&t->resets, i);
		uint64_t count = *wd_keyset_count(&t->resets, i);

		t->rst_out[i] = (struct wd_tcp_reset_out){
			.direction = r->sent ? "sent" : "received", .reason = r->reason,
			.code = 0xffff, .state = r->state, .netns = r->netns,
			.netns_cookie = r->cookie, .count = count,
		};
		*(r->sent ? &d->resets_sent : &d->resets_received) += count;
		if (r->sent && !strcmp(r->reason, "unknown"))
			d->reasons_known = false;
	}
	qsort(t->rst_out, t->resets.n, sizeof(*t->rst_out), cmp_reset);
	d->resets = t->rst_out;
	d->n_resets = t->resets.n;
}

/* The drop rows by connection, each connection's in the order first seen. */
static int cmp_conn(const void *a, const void *b, void *drops)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct drop_key *kx = wd_keyset_key(drops, x), *ky = wd_keyset_key(drops, y);
	int c = strcmp(kx->conn, ky->conn);

	return c ? c : (x > y) - (x < y);
}

/* by_conn: the first of the drop rows of conn, or n when there is none. */
static size_t first_of_conn(const struct wd_read_tcp *t, const char *conn)
{
	size_t lo = 0, hi = t->drops.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct drop_key *k = wd_keyset_key(&t->drops, t->by_conn[mid]);

		if (strcmp(k->conn, conn) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The flow's drops in the files read, by connection (either direction,
 * any namespace), as count joins them. A file has no segment count of a
 * drop: each counts one. where as count says it.
 */
static void join_flow(struct wd_read_tcp *t, struct wd_tcp_flow_out *o,
		      struct wd_tcp_flow_reason *r)
{
	char conn[WD_TCP_CONN_LEN];
	size_t n = 0;

	wd_tcp_conn_key(o->src, o->sport, o->dst, o->dport, conn, sizeof(conn));
	for (size_t i = first_of_conn(t, conn); i < t->drops.n; i++) {
		const struct drop_key *k = wd_keyset_key(&t->drops, t->by_conn[i]);
		uint64_t count = *wd_keyset_count(&t->drops, t->by_conn[i]);

		if (strcmp(k->conn, conn))
			break;
		o->dropped_here += count;
		/* as count: FLOW_REASONS named, the rest in the last, "other" */
		if (n == FLOW_REASONS) {
			r[n - 1].reason = "other";
			r[n - 1].count += count;
			continue;
		}
		r[n++] = (struct wd_tcp_flow_reason){ k->reason, count };
	}
	o->reasons = r;
	o->n_reasons = n;
	o->dropped_segs_here = o->dropped_here;
	if (!o->dropped_here)
		o->where = "beyond";
	else
		o->where = o->dropped_here >= o->retransmits ? "here" : "here and beyond";
}

static void build_flows(struct wd_read_tcp *t)
{
	struct wd_tcp_doc *d = &t->doc;

	for (size_t i = 0; i < t->flows.n; i++) {
		const struct flow_key *f = wd_keyset_key(&t->flows, i);
		struct wd_tcp_flow_out *o = &t->flow_out[i];

		*o = (struct wd_tcp_flow_out){
			.family = f->family == 6 ? "ipv6" : "ipv4", .sport = f->sport,
			.dport = f->dport, .netns = f->netns, .netns_cookie = f->cookie,
			.retransmits = *wd_keyset_count(&t->flows, i),
		};
		snprintf(o->src, sizeof(o->src), "%s", f->src);
		snprintf(o->dst, sizeof(o->dst), "%s", f->dst);
		d->retransmits += o->retransmits;
		join_flow(t, o, &t->flow_reasons[i * FLOW_REASONS]);
	}
	qsort(t->flow_out, t->flows.n, sizeof(*t->flow_out), cmp_flow);
	d->has_flows = true;
	d->flows = t->flow_out;
	d->n_flows = t->flows.n;
	d->max_flows = (uint32_t)t->flows.n;
}

int wd_read_tcp_doc(struct wd_read_tcp *t)
{
	t->rst_out = calloc(t->resets.n + 1, sizeof(*t->rst_out));
	t->flow_out = calloc(t->flows.n + 1, sizeof(*t->flow_out));
	t->flow_reasons = calloc(t->flows.n * FLOW_REASONS + 1, sizeof(*t->flow_reasons));
	t->by_conn = calloc(t->drops.n + 1, sizeof(*t->by_conn));
	if (!t->rst_out || !t->flow_out || !t->flow_reasons || !t->by_conn)
		return -ENOMEM;
	for (size_t i = 0; i < t->drops.n; i++)
		t->by_conn[i] = (uint32_t)i;
	qsort_r(t->by_conn, t->drops.n, sizeof(*t->by_conn), cmp_conn, &t->drops);
	t->doc.attach = "recorded";
	build_resets(t);
	build_flows(t);
	return 0;
}

void wd_read_tcp_free(struct wd_read_tcp *t)
{
	wd_keyset_free(&t->resets);
	wd_keyset_free(&t->flows);
	wd_keyset_free(&t->drops);
	free(t->by_conn);
	free(t->rst_out);
	free(t->flow_out);
	free(t->flow_reasons);
	wd_read_tcp_init(t);
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
