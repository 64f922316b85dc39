// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --rules: the nftables-trace source, beside the drop source. In every
 * network namespace watched (--netns, else ours and every one that exists
 * at start) it installs whydrop's marking table (nftables_setup.h), reads
 * the traces (nftrace.h) and claims each drop verdict of a packet it
 * marked for its rule or chain policy (nftrace_claims.h); rules are named
 * when a report asks (nftrules.h). See docs/firewall.md.
 *
 * Without --netns, namespaces created while it runs are looked for every
 * SCAN_SECS and traced from then on, with capabilities raised only around it.
 * The setup per namespace is nftrace_ns.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pcap/pcap.h>

#include "nftrace_src.h"
#include "session.h"

static struct nft_src *nft_of(struct wd_source *src)
{
	return src->priv;
}

static int nft_open(struct wd_source *src, const struct wd_opts *o, bool quiet)
{
	struct wd_session *s = src->s;
	struct nft_src *t = calloc(1, sizeof(*t));
	struct stat st;
	int status = 1;

	(void)quiet;
	src->priv = t;
	if (!t)
		goto out;
	t->epfd = -1;
	t->epfd = epoll_create1(EPOLL_CLOEXEC);
	t->ns = calloc(NFT_NS_MAX, sizeof(*t->ns));
	t->seen = calloc(NFT_NS_MAX, sizeof(*t->seen));
	/* watch, record: each NETFILTER_DROP record joined with its trace */
	t->recent = s->details ? calloc(RECENT_DROPS, sizeof(*t->recent)) : NULL;
	if (t->epfd < 0 || !t->ns || !t->seen || (s->details && !t->recent))
		goto out;
	t->ifindex = s->ifindex;
	/* the session frees its program before the last traces are read */
	if (s->filter_len) {
		t->filter = malloc(s->filter_len * sizeof(*s->filter));
		if (!t->filter)
			goto out;
		memcpy(t->filter, s->filter, s->filter_len * sizeof(*s->filter));
		t->filter_len = s->filter_len;
	}
	if (wd_reason_code(&s->reasons, "NETFILTER_DROP", &t->nf_drop))
		t->nf_drop = UINT32_MAX;
	if (o->netns) {
		status = wd_nft_src_install_ns(t, s->netns_fd, o->netns, true);
	} else {
		/* ours first: a failure there (privileges, no nf_tables) is the user's to fix */
		status = wd_nft_src_install_ns(t, -1, NULL, true);
		if (!status && !stat("/proc/self/ns/net", &st))
			t->seen[t->n_seen++] = (struct ns_file){ st.st_dev, st.st_ino };
		if (!status)
			status = wd_nft_src_install_all(t);
		t->scan = true;
		t->next_scan = wd_now() + SCAN_SECS;
	}
	if (status)
		goto out;
	wd_nft_src_say_legacy(t);
	src->what = "nftables traces";
	src->attach_mode = "NFNLGRP_NFTRACE";
	src->keep_caps = WD_CAP(WD_CAP_NET_ADMIN);
	src->keep_why = "CAP_NET_ADMIN only, to name nftables rules (--rules)";
	if (t->scan) {
		src->keep_caps = SCAN_CAPS;
		src->keep_why = "CAP_NET_ADMIN, CAP_SYS_ADMIN and CAP_SYS_PTRACE only, to name "
				"nftables rules and trace new namespaces (--rules)";
	}
out:
	if (status == 1 && t && (!t->ns || !t->seen || t->epfd < 0 || (s->details && !t->recent) ||
				 (s->filter_len && !t->filter)))
		fprintf(stderr, "whydrop: --rules: out of memory or descriptors\n");
	return status;
}

static int nft_fd(struct wd_source *src)
{
	return nft_of(src)->epfd;
}

/* The claim's bounded name: family/table/chain/handle, or .../policy. */
static void claim_label(const struct wd_nft_claim *c, char *buf, size_t len)
{
	char fam[16];

	wd_nft_family_name(c->family, fam, sizeof(fam));
	if (c->policy)
		snprintf(buf, len, "%s/%s/%s/policy", fam, c->table, c->chain);
	else
		snprintf(buf, len, "%s/%s/%s/%" PRIu64, fam, c->table, c->chain, c->handle);
}

/* The headers a trace id's first message carried. */
static void remember_nh(struct nh_slot *slot, const struct wd_nftrace_event *ev)
{
	if (!ev->nh_len)
		return;
	slot->id = ev->id;
	slot->len = (uint8_t)ev->nh_len;
	memcpy(slot->nh, ev->nh, ev->nh_len);
	slot->th_len = (uint8_t)ev->th_len;
	memcpy(slot->th, ev->th, ev->th_len);
}

/* The IP packet's length, from its header: pcap's wirelen, as the BPF side's. */
static unsigned int ip_length(const uint8_t *nh, size_t len, unsigned int fallback)
{
	if (len >= 4 && nh[0] >> 4 == 4)
		return (unsigned int)nh[2] << 8 | nh[3];
	if (len >= 6 && nh[0] >> 4 == 6)
		return 40 + ((unsigned int)nh[4] << 8 | nh[5]);
	return fallback;
}

/*
 * Whether the transport header follows the network header bytes at once: a
 * whole IPv4 header, or an IPv6 one with no extension header (the trace
 * cuts the network header at 40 bytes). Else the filter gets the network
 * header alone: a load past it fails (no claim) rather than read the wrong bytes.
 */
static bool th_adjacent(const struct nh_slot *slot)
{
	uint8_t nx;

	if (slot->nh[0] >> 4 == 4)
		return slot->len == (slot->nh[0] & 0xf) * 4;
	if (slot->nh[0] >> 4 != 6 || slot->len != 40)
		return false;
	nx = slot->nh[6];
	return nx == IPPROTO_TCP || nx == IPPROTO_UDP || nx == IPPROTO_ICMPV6 ||
	       nx == IPPROTO_SCTP || nx == IPPROTO_UDPLITE;
}

/*
 * A filter expression: whether the drop of trace id matches it, run (by
 * libpcap) over the network and transport header bytes its trace carried.
 * Headers unknown: not claimed (it stays unclaimed, if counted).
 */
static bool filter_passes(const struct nft_src *t, const struct nh_slot *slot, uint32_t id)
{
	uint8_t buf[WD_NFTRACE_NH_LEN + WD_NFTRACE_TH_LEN];
	unsigned int len;

	if (!slot || slot->id != id || !slot->len)
		return false;
	memcpy(buf, slot->nh, slot->len);
	len = slot->len;
	if (th_adjacent(slot)) {
		memcpy(buf + len, slot->th, slot->th_len);
		len += slot->th_len;
	}
	return bpf_filter((const struct bpf_insn *)t->filter, buf,
			  ip_length(buf, len, len), len) != 0;
}

/*
 * One trace: claimed or not; with records asked for, the network header of
 * its id remembered, and a claimed drop kept for its record.
 */
static void account(struct nft_src *t, size_t i, const struct wd_nftrace_event *ev)
{
	struct nft_ns *n = &t->ns[i];
	const struct wd_nft_claim *claim = NULL;
	enum wd_nft_claim_result res;
	struct nh_slot *slot = NULL;
	struct recent_drop *r;

	if (n->nh) {
		slot = &n->nh[ev->id % NH_SLOTS];
		remember_nh(slot, ev);
	}
	if (t->filter && wd_nftrace_is_drop(ev) && !filter_passes(t, slot, ev->id))
		return;
	res = wd_nft_claims_add(&n->claims, ev, &claim);
	if (!slot || !t->recent)
		return;
	if (res != WD_NFT_CLAIMED || slot->id != ev->id || !slot->len)
		return;
	r = &t->recent[t->next_recent];
	t->next_recent = (t->next_recent + 1) % RECENT_DROPS;
	*r = (struct recent_drop){ .used = true, .ns = i, .t = wd_now(), .len = slot->len };
	memcpy(r->nh, slot->nh, slot->len);
	/* past the rules kept apart: claimed, but not named */
	if (claim)
		claim_label(claim, r->label, sizeof(r->label));
	else
		snprintf(r->label, sizeof(r->label), "unknown");
}

/*
 * No --netns: now and then, trace the namespaces created since the last
 * look. Its capabilities are in effect only around it; failures are said
 * per namespace by wd_nft_src_install_ns, which is then left out (not
 * looked at again).
 */
static void scan_new(struct nft_src *t)
{
	double now = wd_now();
	bool raised;

	if (!t->scan || t->removed || now < t->next_scan)
		return;
	t->next_scan = now + SCAN_SECS;
	raised = !wd_privileges_raise(SCAN_CAPS);
	wd_nft_src_install_all(t);
	if (raised)
		wd_privileges_lower();
}

/* Every trace waiting, claimed. */
static int nft_poll(struct wd_source *src)
{
	struct nft_src *t = nft_of(src);
	struct wd_nftrace_event ev;

	scan_new(t);
	for (size_t i = 0; i < t->n; i++) {
		struct nft_ns *n = &t->ns[i];
		int r;

		while ((r = wd_nftrace_next(n->tr, &ev)) > 0)
			account(t, i, &ev);
		if (r < 0) {
			fprintf(stderr, "whydrop: --rules: reading traces of %s failed: %s\n",
				n->label, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

static int snap_ns(struct wd_rules_snap_ns *out, struct nft_ns *n)
{
	const struct wd_nft_claims *c = &n->claims;

	out->id = n->id;
	snprintf(out->label, sizeof(out->label), "%s", n->label);
	out->claims = calloc(c->n ? c->n : 1, sizeof(*out->claims));
	if (!out->claims)
		return -ENOMEM;
	if (c->n)
		memcpy(out->claims, c->v, c->n * sizeof(*c->v));
	out->n = c->n;
	out->claimed = c->claimed;
	out->other = c->other;
	out->foreign = c->foreign;
	wd_nftrace_stats(n->tr, &out->st);
	out->n_legacy = n->n_legacy;
	snprintf(out->legacy, sizeof(out->legacy), "%s", n->legacy);
	return 0;
}

/*
 * Traces read up to now, after the drop source's counts: a trace is sent
 * before its packet is freed, so what was claimed is counted by then.
 */
static int nft_snapshot(struct wd_source *src, struct wd_snapshot *snap)
{
	struct nft_src *t = nft_of(src);
	struct wd_rules_snap *r = calloc(1, sizeof(*r));
	int err = nft_poll(src);

	if (!r)
		return -ENOMEM;
	snap->rules = r;
	r->src = src;
	r->ns = calloc(t->n ? t->n : 1, sizeof(*r->ns));
	if (!r->ns)
		return -ENOMEM;
	for (size_t i = 0; !err && i < t->n; i++, r->n++)
		err = snap_ns(&r->ns[i], &t->ns[i]);
	return err;
}

static uint64_t lost_now(struct nft_src *t)
{
	struct wd_nftrace_stats st;
	uint64_t lost = 0;

	for (size_t i = 0; i < t->n; i++) {
		wd_nftrace_stats(t->ns[i].tr, &st);
		lost += st.lost + st.overruns;
	}
	return lost;
}

/* Whether claimed drop r is the packet of record ev: same namespace, same header bytes. */
static bool same_packet(const struct nft_src *t, const struct recent_drop *r,
			const struct wd_event *ev)
{
	const struct wd_netns_id id = { ev->netns_cookie, ev->netns };

	return r->used && r->len <= ev->caplen && wd_netns_same(&t->ns[r->ns].id, &id) &&
	       !memcmp(r->nh, ev->hdr, r->len);
}

/*
 * A NETFILTER_DROP record's rule: its trace was sent before the packet was
 * freed, so it waits by now. Named when the claimed drops waiting with the
 * same network header bytes all name one rule (that one is taken); else,
 * or after trace messages were lost, "unknown". docs/firewall.md.
 */
static void nft_view(struct wd_source *src, const struct wd_event *ev, struct wd_drop_view *v)
{
	struct nft_src *t = nft_of(src);
	double now = wd_now();
	struct recent_drop *first = NULL;
	bool one_rule = true;
	uint64_t lost;

	if (!t->recent || ev->reason != t->nf_drop)
		return;
	nft_poll(src);
	lost = lost_now(t);
	snprintf(t->label, sizeof(t->label), "unknown");
	v->rule = t->label;
	if (lost != t->lost_seen) {
		/* which drops the lost messages named cannot be told: start again */
		t->lost_seen = lost;
		memset(t->recent, 0, RECENT_DROPS * sizeof(*t->recent));
		return;
	}
	for (size_t k = 0; k < RECENT_DROPS; k++) {
		size_t i = (t->next_recent + k) % RECENT_DROPS;	/* oldest first */
		struct recent_drop *r = &t->recent[i];

		if (r->used && now - r->t > RECENT_SECS)
			r->used = false;
		if (!same_packet(t, r, ev))
			continue;
		if (!first)
			first = r;
		else if (strcmp(first->label, r->label))
			one_rule = false;
	}
	if (!first || !one_rule)
		return;
	snprintf(t->label, sizeof(t->label), "%s", first->label);
	first->used = false;
}

/* Raise CAP_NET_ADMIN where it is kept; false when it was in effect already or is not kept. */
static bool raise_net_admin(void)
{
	return !wd_privileges_raise(WD_CAP(WD_CAP_NET_ADMIN));
}

/* Stop marking: tables first (the drop source detaches after), traces read on. */
static void nft_detach(struct wd_source *src)
{
	struct nft_src *t = nft_of(src);
	bool raised = raise_net_admin();
	char err[256];

	for (size_t i = 0; i < t->n; i++) {
		struct nft_ns *n = &t->ns[i];

		if (n->table.fd >= 0 && wd_nft_trace_remove(&n->table, err, sizeof(err)))
			fprintf(stderr, "whydrop: --rules: %s: %s\n", n->label, err);
		n->table.fd = -1;
	}
	if (raised)
		wd_privileges_lower();
	t->removed = true;
}

static void nft_close(struct wd_source *src)
{
	struct nft_src *t = nft_of(src);
	bool raised;

	if (!t)
		return;
	raised = raise_net_admin();
	for (size_t i = 0; t->ns && i < t->n; i++)
		wd_nft_src_ns_close(&t->ns[i]);
	if (raised)
		wd_privileges_lower();
	if (t->epfd >= 0)
		close(t->epfd);
	free(t->ns);
	free(t->seen);
	free(t->recent);
	free(t->filter);
	free(t);
	src->priv = NULL;
}

int wd_nftrace_rule_name(struct wd_source *src, size_t ns, const struct wd_nft_claim *c,
			 struct wd_nft_rule_info *info, char *why, size_t len)
{
	struct nft_src *t = nft_of(src);
	bool raised;
	int r;

	if (ns >= t->n) {
		snprintf(why, len, "namespace gone");
		return 0;
	}
	raised = raise_net_admin();
	r = wd_nft_rules_lookup(t->ns[ns].rules, c->family, c->table, c->handle, info, why, len);
	if (raised)
		wd_privileges_lower();
	if (r < 0)
		return 0;
	if (!r && !why[0])
		snprintf(why, len, "no rule with handle %" PRIu64 " now", c->handle);
	return r;
}

void wd_rules_snap_free(struct wd_rules_snap *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		free(r->ns[i].claims);
	free(r->ns);
	free(r);
}

const struct wd_source_ops wd_source_nftrace_ops = {
	.name = "nftrace",
	.open = nft_open,
	.fd = nft_fd,
	.poll = nft_poll,
	.snapshot = nft_snapshot,
	.detach = nft_detach,
	.close = nft_close,
	.view = nft_view,
};
