// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* drop_monitor's alerts as counts, records and names; see dropmon_events.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pcap/bpf.h>
#include <linux/net_dropmon.h>

#include "decode.h"
#include "dropmon_events.h"
#include "format.h"
#include "reasons.h"

#define DM_MAX_NAMES	1024
#define DM_HIT_LIMIT	64	/* points per summary alert (the kernel's dm_hit_limit) */
#define DM_PLAUSIBLE_REALTIME	1000000000000000000ULL	/* 2001 */

void wd_dm_events_init(struct wd_dm_events *e)
{
	memset(e, 0, sizeof(*e));
	pthread_mutex_init(&e->lock, NULL);
	wd_keyset_init(&e->keys, sizeof(struct wd_key));
}

void wd_dm_events_free(struct wd_dm_events *e)
{
	pthread_mutex_destroy(&e->lock);
	wd_keyset_free(&e->keys);
	free(e->names);
	free(e->names_hw);
	e->names = NULL;
	e->names_hw = NULL;
	e->n_names = 0;
}

static double mono_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ counting */

/* Add n to a key; past --map-size distinct keys, to the reason's overflow. */
static void count_key(struct wd_dm_events *e, struct wd_key key, uint64_t n)
{
	uint64_t *c = wd_keyset_find(&e->keys, &key);

	if (c) {
		*c += n;
		return;
	}
	if (e->keys.n >= e->max_keys && key.location)
		key = (struct wd_key){ .reason = key.reason };
	wd_keyset_add(&e->keys, &key, n);	/* out of memory: not counted, as before */
}

/* A code for a name the kernel's reason table lacks, or a hardware trap. */
static uint32_t intern(struct wd_dm_events *e, const char *name, bool hw)
{
	size_t i;

	for (i = 0; i < e->n_names; i++)
		if (e->names_hw[i] == hw && !strcmp(e->names[i], name))
			return WD_DM_CODE_BASE + (uint32_t)i;
	if (e->n_names == DM_MAX_NAMES)
		return WD_DM_CODE_BASE + DM_MAX_NAMES - 1;
	if (!(e->n_names & (e->n_names + 1)) || !e->names) {
		size_t cap = (e->n_names + 1) * 2;
		void *n = realloc(e->names, cap * sizeof(*e->names));
		void *h = n ? realloc(e->names_hw, cap * sizeof(*e->names_hw)) : NULL;

		if (n)
			e->names = n;
		if (!h)
			return WD_DM_CODE_BASE + DM_MAX_NAMES - 1;
		e->names_hw = h;
	}
	snprintf(e->names[i], WD_DM_NAME_LEN, "%s", name);
	e->names_hw[i] = hw;
	e->n_names++;
	return WD_DM_CODE_BASE + (uint32_t)i;
}

static bool is_hw(const struct wd_dm_packet *p)
{
	return p->has_origin && p->origin == NET_DM_ORIGIN_HW;
}

static uint32_t packet_reason(struct wd_dm_events *e, const struct wd_dm_packet *p)
{
	char name[WD_DM_NAME_LEN + 8];
	const struct wd_reason *r;

	if (is_hw(p)) {
		snprintf(name, sizeof(name), "%s", p->hw_trap[0] ? p->hw_trap : "(unnamed trap)");
		return intern(e, name, true);
	}
	if (!p->reason[0])
		return intern(e, "(no reason sent)", false);
	r = e->reasons ? wd_reason_by_name(e->reasons, p->reason) : NULL;
	return r ? r->code : intern(e, p->reason, false);
}


/* The packet as a BPF record, so views, JSON and pcapng are the same code. */
static void make_event(struct wd_dm_events *e, const struct wd_dm_packet *p, uint32_t code,
		       int l3, struct wd_event *ev)
{
	size_t caplen = l3 >= 0 ? p->payload_len - (size_t)l3 : 0;

	memset(ev, 0, sizeof(*ev));
	/* The kernel stamps the clone with the wall clock of the drop. */
	if (p->has_ts && p->ts_ns > DM_PLAUSIBLE_REALTIME) {
		ev->ts_ns = p->ts_ns - e->mono_to_real_ns;
	} else {
		struct timespec t;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ev->ts_ns = (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
	}
	ev->location = p->pc;
	ev->reason = code;
	ev->ifindex = p->ifindex;
	if (p->has_orig_len && l3 >= 0 && p->orig_len >= (uint32_t)l3)
		ev->skb_len = ev->wire_len = p->orig_len - (uint32_t)l3;
	ev->l3proto = p->proto;
	ev->caplen = (uint16_t)(caplen < WD_HDR_BYTES ? caplen : WD_HDR_BYTES);
	if (ev->caplen)
		memcpy(ev->hdr, p->payload + l3, ev->caplen);
}

/* The filter expression, on the packet from its network header, as in the kernel. */
static bool filter_matches(const struct wd_dm_events *e, const struct wd_dm_packet *p, int l3)
{
	size_t caplen = l3 >= 0 ? p->payload_len - (size_t)l3 : 0;
	u_int wirelen = (u_int)caplen;

	if (!e->filter)
		return true;
	if (l3 < 0)
		return false;
	if (p->has_orig_len && p->orig_len >= (uint32_t)l3)
		wirelen = p->orig_len - (uint32_t)l3;
	return bpf_filter((const struct bpf_insn *)e->filter, p->payload + l3, wirelen,
			  (u_int)caplen) != 0;
}

static void on_packet(struct wd_dm_events *e, const struct wd_dm_packet *p)
{
	int l3 = wd_dm_l3_offset(p->payload, p->payload_len, p->proto);
	struct wd_key key = { .location = p->pc, .ifindex = p->ifindex };
	struct wd_event ev;
	uint32_t code;

	pthread_mutex_lock(&e->lock);
	code = key.reason = packet_reason(e, p);
	pthread_mutex_unlock(&e->lock);
	e->received++;
	if (!wd_reason_selected(e->reason_bits, e->filter_reasons, code) ||
	    !filter_matches(e, p, l3)) {
		e->filtered++;
		return;
	}
	if (p->has_orig_len && p->orig_len > p->payload_len)
		e->truncated++;
	pthread_mutex_lock(&e->lock);
	count_key(e, key, 1);
	pthread_mutex_unlock(&e->lock);
	if (!e->details || !e->on_record || !wd_rate_allow(&e->rate, mono_now()))
		return;
	make_event(e, p, code, l3, &ev);
	e->cur = p;
	e->on_record(e->ctx, &ev);
	e->cur = NULL;
	e->emitted++;
}

static void on_summary(struct wd_dm_events *e, const struct wd_dm_summary *sm)
{
	pthread_mutex_lock(&e->lock);
	for (size_t i = 0; i < sm->n_points; i++) {
		struct wd_key key = { .location = sm->points[i].pc };

		count_key(e, key, sm->points[i].count);
		e->received += sm->points[i].count;
	}
	for (size_t i = 0; i < sm->n_hw; i++) {
		struct wd_key key = { .reason = intern(e, sm->hw[i].trap, true) };

		count_key(e, key, sm->hw[i].count);
		e->received += sm->hw[i].count;
		e->hw_points += sm->hw[i].count;
	}
	/* The kernel drops further locations of a full alert without a count. */
	if (sm->entries >= DM_HIT_LIMIT || sm->hw_truncated)
		e->summary_full++;
	pthread_mutex_unlock(&e->lock);
}

void wd_dm_events_msg(struct wd_dm_events *e, const struct wd_dm_msg *m)
{
	if (m->kind == WD_DM_PACKET && e->packet_mode)
		on_packet(e, &m->packet);
	else if (m->kind == WD_DM_SUMMARY && !e->packet_mode)
		on_summary(e, &m->summary);
}

/* ------------------------------------------------------------ reading */

int wd_dm_events_keys(struct wd_dm_events *e, struct wd_keyset *out)
{
	int err;

	pthread_mutex_lock(&e->lock);
	err = wd_keyset_append(out, &e->keys);
	pthread_mutex_unlock(&e->lock);
	wd_keyset_merge(out);
	return err;
}

uint64_t wd_dm_events_seen(struct wd_dm_events *e)
{
	uint64_t seen;

	pthread_mutex_lock(&e->lock);
	seen = wd_keyset_sum(&e->keys);
	pthread_mutex_unlock(&e->lock);
	return seen;
}

bool wd_dm_events_names(struct wd_dm_events *e, uint32_t code, uint64_t location,
			char *reason, char *function, char *loc, size_t len)
{
	size_t i = code - WD_DM_CODE_BASE;
	bool done = false;

	pthread_mutex_lock(&e->lock);
	if (code < WD_DM_CODE_BASE || i >= e->n_names)
		goto out;
	snprintf(reason, len, "%s", e->names_hw[i] ? "HW_TRAP" : e->names[i]);
	if (e->names_hw[i] || !location) {
		snprintf(function, len, "%s", e->names_hw[i] ? "(hardware)" : "(unknown)");
		snprintf(loc, len, "%s%s", e->names_hw[i] ? "hw:" : "", e->names[i]);
		done = true;
	}
out:
	pthread_mutex_unlock(&e->lock);
	return done;	/* false for a software location: the caller names it */
}

const char *wd_dm_events_subsys(struct wd_dm_events *e, uint32_t code)
{
	size_t i = code - WD_DM_CODE_BASE;
	const char *subsys = NULL;

	pthread_mutex_lock(&e->lock);
	if (code >= WD_DM_CODE_BASE && i < e->n_names)
		subsys = e->names_hw[i] ? "hardware" : "unknown";
	pthread_mutex_unlock(&e->lock);
	return subsys;
}

void wd_dm_events_view(struct wd_dm_events *e, uint32_t code, struct wd_drop_view *v)
{
	const struct wd_dm_packet *p = e->cur;

	v->netns = 0;
	v->no_cpu = true;
	v->no_code = wd_dm_events_subsys(e, code) != NULL;
	if (!p)
		return;
	/* skb_iif names no namespace: only hardware drops come with a name. */
	snprintf(e->cur_ifname, sizeof(e->cur_ifname), "%s", p->ifname);
	v->ifname = e->cur_ifname[0] ? e->cur_ifname : NULL;
	if (is_hw(p)) {
		v->hw_group = p->hw_group[0] ? p->hw_group : NULL;
		v->hw_trap = p->hw_trap[0] ? p->hw_trap : NULL;
	}
}
