// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* --tcp in a report: resets and flows as JSON and as table sections. */
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "tcp_format.h"

void wd_tcp_conn_key(const char *a, uint16_t pa, const char *b, uint16_t pb, char *out,
		     size_t len)
{
	char x[WD_TCP_CONN_LEN / 2], y[WD_TCP_CONN_LEN / 2];

	snprintf(x, sizeof(x), "%s:%u", a, pa);
	snprintf(y, sizeof(y), "%s:%u", b, pb);
	if (strcmp(x, y) > 0)
		snprintf(out, len, "%s %s", y, x);
	else
		snprintf(out, len, "%s %s", x, y);
}

/* "who": the process and the cgroup; nothing when there is neither. */
static void who_json(struct wd_json *j, const struct wd_tcp_reset_out *r)
{
	if (!r->pid && !r->cgroup_id)
		return;
	wd_json_open(j, "who", '{');
	if (r->pid) {
		wd_json_uint(j, "pid", r->pid);
		wd_json_str(j, "comm", r->comm);
	}
	if (r->cgroup[0])
		wd_json_str(j, "cgroup", r->cgroup);
	wd_json_uint_opt(j, "cgroup_id", r->cgroup_id);
	if (r->container[0])
		wd_json_str(j, "container", r->container);
	if (r->pod[0])
		wd_json_str(j, "pod", r->pod);
	wd_json_close(j, '}');
}

/* The WHO column, as drop rows name who: comm[pid], else the cgroup, else "-". */
static const char *who_text(const struct wd_tcp_reset_out *r, char *buf, size_t len)
{
	if (r->pid)
		snprintf(buf, len, "%s[%u]", r->comm, r->pid);
	else if (r->cgroup_label[0])
		snprintf(buf, len, "%s", r->cgroup_label);
	else if (r->cgroup_id)
		snprintf(buf, len, "cgroup %" PRIu64, r->cgroup_id);
	else
		snprintf(buf, len, "-");
	return buf;
}

static void reset_json(struct wd_json *j, const struct wd_tcp_reset_out *r)
{
	wd_json_open(j, NULL, '{');
	wd_json_str(j, "reason", r->reason);
	wd_json_str(j, "direction", r->direction);
	wd_json_uint(j, "count", r->count);
	wd_json_str(j, "state", r->state);
	wd_json_uint_opt(j, "netns", r->netns);
	wd_json_uint_opt(j, "netns_cookie", r->netns_cookie);
	wd_json_flag(j, "overflow", r->overflow);
	who_json(j, r);
	wd_json_close(j, '}');
}

static void flow_json(struct wd_json *j, const struct wd_tcp_flow_out *f)
{
	wd_json_open(j, NULL, '{');
	wd_json_str(j, "family", f->family);
	wd_json_str(j, "src", f->src);
	wd_json_uint(j, "sport", f->sport);
	wd_json_str(j, "dst", f->dst);
	wd_json_uint(j, "dport", f->dport);
	wd_json_uint(j, "netns", f->netns);
	wd_json_uint(j, "netns_cookie", f->netns_cookie);
	wd_json_uint(j, "retransmits", f->retransmits);
	wd_json_uint(j, "dropped_here", f->dropped_here);
	wd_json_uint(j, "dropped_segments_here", f->dropped_segs_here);
	wd_json_open(j, "reasons", '{');
	for (size_t i = 0; i < f->n_reasons; i++)
		wd_json_uint(j, f->reasons[i].reason, f->reasons[i].count);
	wd_json_close(j, '}');
	wd_json_str(j, "where", f->where);
	wd_json_close(j, '}');
}

void wd_print_tcp_json(struct wd_json *j, const struct wd_tcp_doc *t)
{
	wd_json_open(j, "tcp", '{');
	wd_json_str(j, "attach", t->attach);
	wd_json_bool(j, "reset_reasons", t->reasons_known);
	wd_json_uint(j, "resets_sent", t->resets_sent);
	wd_json_uint(j, "resets_received", t->resets_received);
	if (t->has_flows) {
		wd_json_uint(j, "retransmits", t->retransmits);
		wd_json_uint(j, "max_flows", t->max_flows);
		wd_json_uint(j, "flows_other", t->flows_other);
		wd_json_uint(j, "other_retransmits", t->other_retransmits);
		wd_json_uint(j, "other_dropped_here", t->other_dropped_here);
		wd_json_uint(j, "flow_drops_overflow", t->flow_drops_overflow);
		wd_json_uint(j, "retransmits_caught_up", t->caught_up);
	}
	wd_json_close(j, '}');
	wd_json_open(j, "resets", '[');
	for (size_t i = 0; i < t->n_resets; i++)
		reset_json(j, &t->resets[i]);
	wd_json_close(j, ']');
	if (!t->has_flows)
		return;
	wd_json_open(j, "flows", '[');
	for (size_t i = 0; i < t->n_flows; i++)
		flow_json(j, &t->flows[i]);
	wd_json_close(j, ']');
}

static void print_resets_table(FILE *f, const struct wd_tcp_doc *t)
{
	fprintf(f, "\nTCP resets: %" PRIu64 " sent, %" PRIu64 " received%s\n", t->resets_sent,
		t->resets_received, t->reasons_known ? "" :
		" (this kernel's tcp_send_reset carries no reason before 6.10: \"unknown\")");
	if (!t->n_resets)
		return;
	fprintf(f, "%10s  %-9s %-26s %-12s %-11s %s\n", "COUNT", "DIRECTION", "REASON", "STATE",
		"NETNS", "WHO");
	for (size_t i = 0; i < t->n_resets; i++) {
		const struct wd_tcp_reset_out *r = &t->resets[i];
		char ns[24] = "?", who[256];

		if (r->netns)
			snprintf(ns, sizeof(ns), "%u", r->netns);
		fprintf(f, "%10" PRIu64 "  %-9s %-26s %-12s %-11s %s%s\n", r->count, r->direction,
			r->reason, r->state, ns, who_text(r, who, sizeof(who)),
			r->overflow ? " (overflow: hash full)" : "");
	}
}

static void print_flows_table(FILE *f, const struct wd_tcp_doc *t)
{
	fprintf(f, "\nTCP flows with retransmissions: %" PRIu64 " %s retransmitted; the %u "
		"most retransmitting shown, the rest summed\n", t->retransmits,
		wd_plural(t->retransmits, "segment", "segments"), t->max_flows);
	if (!t->n_flows)
		return;
	fprintf(f, "%8s %8s  %-16s %-46s %s\n", "RETRANS", "DROPPED", "WHERE", "FLOW (LOCAL > REMOTE)",
		"DROPPED HERE BY");
	for (size_t i = 0; i < t->n_flows; i++) {
		const struct wd_tcp_flow_out *w = &t->flows[i];
		bool v6 = !strcmp(w->family, "ipv6");
		char flow[160];

		snprintf(flow, sizeof(flow), "%s%s%s:%u > %s%s%s:%u", v6 ? "[" : "", w->src,
			 v6 ? "]" : "", w->sport, v6 ? "[" : "", w->dst, v6 ? "]" : "", w->dport);
		fprintf(f, "%8" PRIu64 " %8" PRIu64 "  %-16s %-46s", w->retransmits,
			w->dropped_here, w->where, flow);
		for (size_t k = 0; k < w->n_reasons; k++)
			fprintf(f, "%s%s %" PRIu64, k ? ", " : " ", w->reasons[k].reason,
				w->reasons[k].count);
		fputc('\n', f);
	}
	if (t->flows_other || t->other_retransmits)
		fprintf(f, "%8" PRIu64 " %8" PRIu64 "  (%zu other %s, summed)\n",
			t->other_retransmits, t->other_dropped_here, t->flows_other,
			wd_plural(t->flows_other, "flow", "flows"));
	if (t->flow_drops_overflow)
		fprintf(f, "%" PRIu64 " TCP %s not joined to a flow: the per-flow hash was full\n",
			t->flow_drops_overflow, wd_plural(t->flow_drops_overflow, "drop", "drops"));
}

void wd_print_tcp_live(FILE *f, const struct wd_tcp_doc *t, size_t max)
{
	fprintf(f, "TCP resets: %" PRIu64 " sent, %" PRIu64 " received", t->resets_sent,
		t->resets_received);
	for (size_t i = 0; i < t->n_resets && i < max; i++) {
		const struct wd_tcp_reset_out *r = &t->resets[i];
		char who[256];

		fprintf(f, "%s %s %s %" PRIu64, i ? "," : ":", r->direction, r->reason, r->count);
		if (r->pid || r->cgroup_id)
			fprintf(f, " (%s)", who_text(r, who, sizeof(who)));
	}
	fputc('\n', f);
	if (!t->has_flows)
		return;
	fprintf(f, "TCP retransmitted segments: %" PRIu64 "%s\n", t->retransmits,
		t->n_flows ? "; worst flows:" : "");
	for (size_t i = 0; i < t->n_flows && i < max; i++) {
		const struct wd_tcp_flow_out *w = &t->flows[i];

		fprintf(f, "%10" PRIu64 "  %-16s %s:%u > %s:%u  dropped here %" PRIu64 "%s%s\n",
			w->retransmits, w->where, w->src, w->sport, w->dst, w->dport,
			w->dropped_here, w->n_reasons ? ", " : "",
			w->n_reasons ? w->reasons[0].reason : "");
	}
}

void wd_print_tcp_table(FILE *f, const struct wd_tcp_doc *t)
{
	print_resets_table(f, t);
	if (t->has_flows)
		print_flows_table(f, t);
}
