// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --tcp: a snapshot's resets and flows named for the outputs (tcp_report.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	return c ? c : strcmp(a->state, b->state);
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

static int build_resets(const struct wd_tcp_snap *t, struct wd_tcp_parts *p)
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

int wd_tcp_parts_build(struct wd_session *s, const struct wd_snapshot *snap,
		       struct wd_tcp_parts *p)
{
	const struct wd_tcp_snap *t = snap->tcp;

	(void)s;
	memset(p, 0, sizeof(*p));
	if (!t)
		return 0;
	p->doc.attach = t->caps->attach;
	p->doc.reasons_known = t->caps->rst_reason;
	return build_resets(t, p);
}

void wd_tcp_parts_free(struct wd_tcp_parts *p)
{
	free(p->resets);
	free(p->reason);
	memset(p, 0, sizeof(*p));
}

int wd_tcp_render_prom(struct wd_prom_buf *b, struct wd_session *s,
		       const struct wd_snapshot *snap)
{
	struct wd_prom_family f = {
		.name = "whydrop_tcp_resets_total", .type = "counter",
		.help = "TCP resets (serve --tcp), by direction and reset reason: sent with the "
			"kernel's enum sk_rst_reason (Linux 6.10 and later; reason=\"unknown\" "
			"before), received with reason=\"none\" (a reset carries no reason); "
			"exact. What a reason means: whydrop explain rst:REASON.",
		.labels = { "reason", "direction" }, .nlabels = 2,
	};
	struct wd_tcp_parts p;
	int err = wd_tcp_parts_build(s, snap, &p);

	for (size_t i = 0; !err && i < p.doc.n_resets; i++) {
		const struct wd_tcp_reset_out *r = &p.doc.resets[i];
		const char *v[] = { r->reason, r->direction };

		err = wd_prom_add(&f, v, r->count);
	}
	if (!err) {
		wd_prom_merge(&f);
		wd_prom_render_family(b, &f);
	}
	wd_prom_family_clear(&f);
	wd_tcp_parts_free(&p);
	return err;
}
