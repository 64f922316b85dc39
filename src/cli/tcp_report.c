// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --tcp: a snapshot's resets and flows named for the outputs (tcp_report.h). */
#include <arpa/inet.h>
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "source_tcp.h"
#include "tcp_report.h"

static int cmp_reset(const void *x, const void *y)
{
	const struct wd_tcp_reset_out *a = x, *b = y;
	int c;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	c = strcmp(a->direction, b->direction);
	if (c)
		return c;
	c = strcmp(a->reason, b->reason);
	if (c)
		return c;
	c = strcmp(a->state, b->state);
	if (c)
		return c;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->cgroup_id < b->cgroup_id ? -1 : a->cgroup_id > b->cgroup_id;
}

/* Who a reset row counts for, named as drop rows name theirs (src/lib/who). */
static void name_who(struct wd_session *s, const struct wd_tcp_rst_key *k,
		     struct wd_tcp_reset_out *r)
{
	const struct wd_ctr_name *c = NULL;
	const char *path;

	r->pid = k->pid;
	if (k->pid)
		snprintf(r->comm, sizeof(r->comm), "%.*s", (int)sizeof(k->comm), k->comm);
	r->cgroup_id = k->cgroup_id;
	path = k->cgroup_id ? wd_cgroup_path(&s->who.cgroups, k->cgroup_id) : NULL;
	if (!path)
		return;
	snprintf(r->cgroup, sizeof(r->cgroup), "%s", path);
	wd_cgroup_label(path, r->cgroup_label, sizeof(r->cgroup_label));
	if (wd_who_container(&s->who, path, &c) != WD_CTR_NAMED)
		return;
	snprintf(r->container, sizeof(r->container), "%s", c->name);
	snprintf(r->pod, sizeof(r->pod), "%s", c->pod);
}

/* A reset row named: sent ones by their reason, received ones have none. */
static void name_reset(const struct wd_tcp_snap *t, const struct wd_tcp_rst_count *c,
		       struct wd_tcp_reset_out *r, char *reason, size_t len)
{
	bool sent = c->key.dir == WD_TCP_SENT;

	if (!sent)
		snprintf(reason, len, "none");
	else if (c->overflow && c->key.reason == WD_TCP_RST_SLOTS - 1)
		snprintf(reason, len, "(reasons beyond the overflow's slots)");
	else
		wd_tcp_rst_name(t->names, c->key.reason, reason, len);
	*r = (struct wd_tcp_reset_out){
		.direction = sent ? "sent" : "received", .reason = reason,
		.code = c->key.reason, .state = wd_tcp_state_name(t->names, c->key.state),
		.netns = c->key.netns_ino, .netns_cookie = c->key.netns_cookie,
		.overflow = c->overflow, .count = c->count,
	};
}

static int build_resets(struct wd_session *s, const struct wd_tcp_snap *t,
			struct wd_tcp_parts *p)
{
	size_t n = t->n_resets, m = 0;

	p->resets = calloc(n ? n : 1, sizeof(*p->resets));
	p->reason = calloc(n ? n : 1, sizeof(*p->reason));
	if (!p->resets || !p->reason)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!t->resets[i].count)
			continue;
		name_reset(t, &t->resets[i], &p->resets[m], p->reason[m], sizeof(p->reason[m]));
		if (!t->resets[i].overflow)
			name_who(s, &t->resets[i].key, &p->resets[m]);
		if (t->resets[i].key.dir == WD_TCP_SENT)
			p->doc.resets_sent += t->resets[i].count;
		else
			p->doc.resets_received += t->resets[i].count;
		m++;
	}
	qsort(p->resets, m, sizeof(*p->resets), cmp_reset);
	p->doc.resets = p->resets;
	p->doc.n_resets = m;
	return 0;
}

/* ------------------------------------------------------------ flows */

#define WD_TCP_FLOW_REASONS	8	/* drop reasons named per flow, the rest "other" */

/*
 * A connection without its direction: (family, lower endpoint, higher
 * endpoint), an IPv4-mapped IPv6 address as IPv4, so that a socket's flow
 * and the packets of both directions compare equal.
 */
struct conn {
	uint16_t family;
	uint16_t port[2];
	uint16_t pad;
	uint8_t addr[2][16];
};

struct drop_ref {
	struct conn c;
	const struct wd_tcp_drop_row *row;
};

static void endpoint(uint16_t family, const uint8_t *a, uint16_t *fam, uint8_t *out)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	memset(out, 0, 16);
	*fam = family;
	if (family == AF_INET6 && !memcmp(a, mapped, sizeof(mapped))) {
		*fam = AF_INET;
		memcpy(out, a + 12, 4);
	} else {
		memcpy(out, a, family == AF_INET6 ? 16 : 4);
	}
}

static void conn_of(uint16_t family, const uint8_t *sa, uint16_t sp, const uint8_t *da,
		    uint16_t dp, struct conn *c)
{
	uint8_t a[16], b[16];
	uint16_t fa, fb;
	int cmp;

	memset(c, 0, sizeof(*c));
	endpoint(family, sa, &fa, a);
	endpoint(family, da, &fb, b);
	c->family = fa;
	cmp = memcmp(a, b, 16);
	if (cmp > 0 || (!cmp && sp > dp)) {
		memcpy(c->addr[0], b, 16), memcpy(c->addr[1], a, 16);
		c->port[0] = dp, c->port[1] = sp;
	} else {
		memcpy(c->addr[0], a, 16), memcpy(c->addr[1], b, 16);
		c->port[0] = sp, c->port[1] = dp;
	}
}

static int cmp_ref(const void *x, const void *y)
{
	return memcmp(&((const struct drop_ref *)x)->c, &((const struct drop_ref *)y)->c,
		      sizeof(struct conn));
}

static int cmp_flow(const void *x, const void *y)
{
	const struct wd_tcp_flow_count *a = x, *b = y;

	if (a->segs != b->segs)
		return a->segs < b->segs ? 1 : -1;
	return memcmp(&a->flow, &b->flow, sizeof(a->flow));
}

/* The drops of a flow, joined: packets, segments and reasons. */
struct joined {
	uint64_t packets, segs;
};

static void name_flow(const struct wd_tcp_flow *f, struct wd_tcp_flow_out *o)
{
	int af = f->family == AF_INET6 ? AF_INET6 : AF_INET;

	o->family = af == AF_INET6 ? "ipv6" : "ipv4";
	if (!inet_ntop(af, f->saddr, o->src, sizeof(o->src)))
		snprintf(o->src, sizeof(o->src), "?");
	if (!inet_ntop(af, f->daddr, o->dst, sizeof(o->dst)))
		snprintf(o->dst, sizeof(o->dst), "?");
	o->sport = f->sport;
	o->dport = f->dport;
	o->netns = f->netns_ino;
	o->netns_cookie = f->netns_cookie;
}

/* Add a drop row's reason to a flow's: its own slot, else the last, "other". */
static void add_reason(struct wd_session *s, struct wd_tcp_flow_out *o,
		       struct wd_tcp_flow_reason *r, char (*names)[64],
		       const struct wd_tcp_drop_row *row)
{
	char name[64];
	size_t i;

	wd_reason_name(&s->reasons, row->key.reason, name, sizeof(name));
	for (i = 0; i < o->n_reasons; i++)
		if (!strcmp(r[i].reason, name))
			break;
	if (i == WD_TCP_FLOW_REASONS) {
		i = WD_TCP_FLOW_REASONS - 1;
		snprintf(names[i], sizeof(names[i]), "other");
	} else if (i == o->n_reasons) {
		snprintf(names[i], sizeof(names[i]), "%s", name);
		r[i] = (struct wd_tcp_flow_reason){ names[i], 0 };
		o->n_reasons++;
	}
	r[i].count += row->count.packets;
}

/*
 * where: "beyond" when none of the flow's packets was dropped inside the
 * view; "here" when the segments dropped inside it are at least the
 * segments retransmitted; "here and beyond" when fewer.
 */
static const char *place(uint64_t retransmits, const struct joined *j)
{
	if (!j->packets)
		return "beyond";
	return j->segs >= retransmits ? "here" : "here and beyond";
}

static void join_flow(struct wd_session *s, const struct wd_tcp_flow_count *f,
		      const struct drop_ref *refs, size_t n, struct wd_tcp_parts *p, size_t k)
{
	struct wd_tcp_flow_out *o = &p->flows[k];
	struct drop_ref key;
	struct joined j = { 0 };
	const struct drop_ref *hit;

	name_flow(&f->flow, o);
	o->retransmits = f->segs;
	o->reasons = &p->flow_reasons[k * WD_TCP_FLOW_REASONS];
	conn_of(f->flow.family, f->flow.saddr, f->flow.sport, f->flow.daddr, f->flow.dport,
		&key.c);
	hit = n ? bsearch(&key, refs, n, sizeof(*refs), cmp_ref) : NULL;
	while (hit && hit > refs && !cmp_ref(hit - 1, &key))
		hit--;
	for (; hit && hit < refs + n && !cmp_ref(hit, &key); hit++) {
		j.packets += hit->row->count.packets;
		j.segs += hit->row->count.segs;
		add_reason(s, o, &p->flow_reasons[k * WD_TCP_FLOW_REASONS],
			   &p->flow_reason[k * WD_TCP_FLOW_REASONS], hit->row);
	}
	o->dropped_here = j.packets;
	o->dropped_segs_here = j.segs;
	o->where = place(f->segs, &j);
}

/* The TCP rows (with --group-by flow the hash has every protocol's), in *n. */
static struct drop_ref *drop_refs(const struct wd_tcp_snap *t, size_t *n)
{
	struct drop_ref *r = calloc(t->n_drops ? t->n_drops : 1, sizeof(*r));
	size_t m = 0;

	if (!r)
		return NULL;
	for (size_t i = 0; i < t->n_drops; i++) {
		const struct wd_tcp_drop_key *k = &t->drops[i].key;

		if (k->proto != IPPROTO_TCP)
			continue;
		conn_of(k->family, k->saddr, k->sport, k->daddr, k->dport, &r[m].c);
		r[m++].row = &t->drops[i];
	}
	qsort(r, m, sizeof(*r), cmp_ref);
	*n = m;
	return r;
}

static int build_flows(struct wd_session *s, const struct wd_tcp_snap *t, struct wd_tcp_parts *p)
{
	size_t n = t->n_flows, shown = n < WD_TCP_SHOWN_FLOWS ? n : WD_TCP_SHOWN_FLOWS;
	struct wd_tcp_flow_count *f = malloc((n ? n : 1) * sizeof(*f));
	size_t n_refs = 0;
	struct drop_ref *refs = drop_refs(t, &n_refs);
	int err = -ENOMEM;

	p->flows = calloc(n ? n : 1, sizeof(*p->flows));
	p->flow_reasons = calloc((n ? n : 1) * WD_TCP_FLOW_REASONS, sizeof(*p->flow_reasons));
	p->flow_reason = calloc((n ? n : 1) * WD_TCP_FLOW_REASONS, sizeof(*p->flow_reason));
	if (!f || !refs || !p->flows || !p->flow_reasons || !p->flow_reason)
		goto out;
	if (n)
		memcpy(f, t->flows, n * sizeof(*f));
	qsort(f, n, sizeof(*f), cmp_flow);
	for (size_t i = 0; i < n; i++) {
		join_flow(s, &f[i], refs, n_refs, p, i);
		p->doc.retransmits += f[i].segs;
		if (i < shown)
			continue;
		p->doc.other_retransmits += f[i].segs;
		p->doc.other_dropped_here += p->flows[i].dropped_here;
	}
	p->doc.has_flows = true;
	p->doc.flows = p->flows;
	p->doc.n_flows = shown;
	p->doc.flows_other = n - shown;
	p->doc.retransmits += t->flows_overflow;
	p->doc.other_retransmits += t->flows_overflow;
	p->doc.flow_drops_overflow = t->drops_overflow.packets;
	p->doc.max_flows = WD_TCP_SHOWN_FLOWS;
	p->doc.caught_up = t->stats.v[WD_TCP_STAT_RETRANS_CAUGHT_UP];
	err = 0;
out:
	free(f);
	free(refs);
	return err;
}

int wd_tcp_parts_build(struct wd_session *s, const struct wd_snapshot *snap,
		       struct wd_tcp_parts *p)
{
	const struct wd_tcp_snap *t = snap->tcp;
	int err;

	memset(p, 0, sizeof(*p));
	if (!t || !t->caps)
		return 0;
	p->doc.attach = t->caps->attach;
	p->doc.reasons_known = t->caps->rst_reason;
	wd_session_cgroups_read(s);
	err = build_resets(s, t, p);
	if (!err && t->has_drops)
		err = build_flows(s, t, p);
	return err;
}

void wd_tcp_parts_free(struct wd_tcp_parts *p)
{
	free(p->resets);
	free(p->reason);
	free(p->flows);
	free(p->flow_reasons);
	free(p->flow_reason);
	memset(p, 0, sizeof(*p));
}

/* --per-cgroup: the socket's cgroup as the drop families label it. */
static const char *cg_label(const struct wd_tcp_reset_out *r, char *buf, size_t len)
{
	if (r->cgroup_label[0])
		return r->cgroup_label;
	if (!r->cgroup_id)
		return "none";
	snprintf(buf, len, "cgroup %" PRIu64, r->cgroup_id);
	return buf;
}

int wd_tcp_render_prom(struct wd_prom_buf *b, struct wd_session *s,
		       const struct wd_snapshot *snap, struct wd_prom_cap *cap)
{
	struct wd_prom_family f = {
		.name = "whydrop_tcp_resets_total", .type = "counter",
		.help = "TCP resets (serve --tcp), by direction and reset reason (and with "
			"--per-cgroup the socket's cgroup, \"none\" without a full socket): sent "
			"with the kernel's enum sk_rst_reason (Linux 6.10 and later; "
			"reason=\"unknown\" before), received with reason=\"none\" (a reset "
			"carries no reason); exact. What a reason means: whydrop explain "
			"rst:REASON.",
		.labels = { "reason", "direction", "cgroup" }, .nlabels = cap ? 3 : 2,
	};
	struct wd_tcp_parts p;
	int err = wd_tcp_parts_build(s, snap, &p);

	for (size_t i = 0; !err && i < p.doc.n_resets; i++) {
		const struct wd_tcp_reset_out *r = &p.doc.resets[i];
		char buf[32];
		const char *v[] = { r->reason, r->direction, cg_label(r, buf, sizeof(buf)) };

		err = wd_prom_add(&f, v, r->count);
	}
	if (!err) {
		wd_prom_merge(&f);
		if (cap)
			err = wd_prom_cap_apply(cap, &f);
	}
	if (!err)
		wd_prom_render_family(b, &f);
	wd_prom_family_clear(&f);
	wd_tcp_parts_free(&p);
	return err;
}
