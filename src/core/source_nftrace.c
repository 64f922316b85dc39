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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pcap/pcap.h>

#include "core.h"
#include "nftables_setup.h"
#include "privileges.h"
#include "rules_snap.h"
#include "session.h"

#define NFT_NS_MAX	256	/* namespaces traced without --netns */
#define NH_SLOTS	1024	/* network headers of recent trace ids */
#define RECENT_DROPS	4096	/* claimed drops waiting for their record */
#define RECENT_SECS	2.0	/* a claimed drop whose record never came (--rate) */
#define LABEL_LEN	(3 * WD_NFT_NAME_LEN + 32)
#define SCAN_SECS	1.0	/* new namespaces looked for (no --netns) */
/* kept permitted for that: enter (setns), install (nftables), open /proc/PID/ns/net */
#define SCAN_CAPS	(WD_CAP(WD_CAP_SYS_ADMIN) | WD_CAP(WD_CAP_NET_ADMIN) | \
			 WD_CAP(WD_CAP_SYS_PTRACE))

/* The network header a trace id's packet had (the first message of each chain has it). */
struct nh_slot {
	uint32_t id;
	uint8_t len;
	uint8_t nh[WD_NFTRACE_NH_LEN];
	uint8_t th_len;		/* the transport header after it (filter expressions) */
	uint8_t th[WD_NFTRACE_TH_LEN];
};

/* A claimed drop, for the record of the same packet (watch, record). */
struct recent_drop {
	bool used;
	size_t ns;
	double t;
	uint8_t len;
	uint8_t nh[WD_NFTRACE_NH_LEN];
	char label[LABEL_LEN];	/* "inet/fw/input/2" */
};

/* A namespace file's (dev, inode), to take each namespace once. */
struct ns_file {
	dev_t dev;
	ino_t ino;
};

struct nft_ns {
	struct wd_netns_id id;
	char label[64];
	struct wd_nft_trace_table table;
	struct wd_nftrace *tr;
	struct wd_nft_rules *rules;
	struct wd_nft_claims claims;
	int n_legacy;
	char legacy[128];
	struct nh_slot *nh;	/* NH_SLOTS, by id */
};

struct nft_src {
	struct nft_ns *ns;
	size_t n;
	int epfd;		/* every trace socket: the session waits on it */
	bool removed;		/* tables removed (detach) */
	uint32_t nf_drop;	/* NETFILTER_DROP's code, for records */
	uint32_t ifindex;	/* -i: mark and claim by this input index */
	struct wd_cbpf_insn *filter;	/* a filter expression (a copy): claim its drops only */
	size_t filter_len;
	struct recent_drop *recent;	/* ring of RECENT_DROPS (records asked for) */
	size_t next_recent;
	uint64_t lost_seen;	/* trace messages lost, at the last record */
	char label[LABEL_LEN];	/* of the last record viewed */
	bool scan;		/* no --netns: trace namespaces created while running */
	double next_scan;
	struct ns_file *seen;	/* NFT_NS_MAX namespaces taken (or left out) */
	size_t n_seen;
};

static struct nft_src *nft_of(struct wd_source *src)
{
	return src->priv;
}

static bool seen(const struct ns_file *v, size_t n, const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].dev == st->st_dev && v[i].ino == st->st_ino)
			return true;
	return false;
}

/* Open @path as a namespace not taken yet: its fd, or -1. */
static int open_new_ns(const char *path, struct ns_file *v, size_t *n)
{
	struct stat st;
	int fd;

	if (*n >= NFT_NS_MAX)
		return -1;
	/* stat first: a scan while running opens no namespace taken already */
	if (stat(path, &st) || seen(v, *n, &st))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || seen(v, *n, &st)) {
		close(fd);
		return -1;
	}
	v[(*n)++] = (struct ns_file){ st.st_dev, st.st_ino };
	return fd;
}

static int install_ns(struct nft_src *t, int fd, const char *label, bool fatal);

/* Every namespace that exists now and is not taken: `ip netns` ones, then those of processes. */
static int install_all(struct nft_src *t)
{
	struct ns_file *v = t->seen;
	size_t *nv = &t->n_seen;
	static const char *const dirs[] = { WD_NETNS_RUN_DIR, "/proc" };
	char path[300];
	struct dirent *de;

	for (size_t d = 0; d < 2; d++) {
		DIR *dir = opendir(dirs[d]);

		while (dir && (de = readdir(dir))) {
			int fd, err;

			if (de->d_name[0] == '.' || (d == 1 && (de->d_name[0] < '1' ||
							      de->d_name[0] > '9')))
				continue;
			if (d)
				snprintf(path, sizeof(path), "/proc/%s/ns/net", de->d_name);
			else
				snprintf(path, sizeof(path), "%s/%s", dirs[0], de->d_name);
			fd = open_new_ns(path, v, nv);
			if (fd < 0)
				continue;
			err = install_ns(t, fd, NULL, false);
			close(fd);
			if (err > 0) {
				closedir(dir);
				return err;
			}
		}
		if (dir)
			closedir(dir);
	}
	return 0;
}

/* Say what a stale-table cleanup did. */
static void say_cleanup(const struct wd_nft_cleanup *c, const char *label)
{
	if (c->removed)
		fprintf(stderr, "whydrop: --rules: removed %u stale tracing %s of whydrops no "
				"longer running in %s (last: %s)\n", c->removed,
			c->removed == 1 ? "table" : "tables", label, c->last_removed);
}

static void ns_close(struct nft_ns *n)
{
	char err[256];

	if (n->table.fd >= 0 && wd_nft_trace_remove(&n->table, err, sizeof(err)))
		fprintf(stderr, "whydrop: --rules: %s: %s\n", n->label, err);
	n->table.fd = -1;
	wd_nftrace_close(n->tr);
	n->tr = NULL;
	wd_nft_rules_close(n->rules);
	n->rules = NULL;
	wd_nft_claims_free(&n->claims);
	free(n->nh);
	n->nh = NULL;
}

/*
 * Trace the namespace of @fd (-1: ours): clean up tables of dead
 * whydrops, subscribe (before marking: no trace missed), mark, name.
 * 0; -1 left out (said); an exit status when @fatal.
 */
static int install_ns(struct nft_src *t, int fd, const char *label, bool fatal)
{
	struct wd_nft_trace_opts opts = { .ifindex = t->ifindex };
	struct nft_ns *n = &t->ns[t->n];
	struct wd_nft_cleanup c = { 0 };
	struct epoll_event ev = { .events = EPOLLIN };
	char err[512] = "";

	memset(n, 0, sizeof(*n));
	n->table.fd = -1;
	if (fd < 0)
		n->id = wd_netns_self();
	else if (wd_netns_id_of_fd(fd, &n->id))
		return fatal ? 1 : -1;
	if (label)
		snprintf(n->label, sizeof(n->label), "%s", label);
	else
		wd_netns_label(&n->id, n->label, sizeof(n->label));
	if (wd_nft_trace_cleanup(fd, &c, err, sizeof(err)))
		goto fail;
	say_cleanup(&c, n->label);
	n->tr = wd_nftrace_open(fd, 0, err, sizeof(err));
	if (!n->tr || wd_nft_trace_install(&n->table, fd, &opts, err, sizeof(err)))
		goto fail;
	wd_nft_claims_init(&n->claims, n->table.name);
	n->claims.ifindex = t->ifindex;
	n->rules = wd_nft_rules_open(fd, err, sizeof(err));
	if (!n->rules)
		goto fail;
	n->n_legacy = wd_nft_rules_legacy(n->rules, n->legacy, sizeof(n->legacy));
	n->nh = t->recent || t->filter ? calloc(NH_SLOTS, sizeof(*n->nh)) : NULL;
	if ((t->recent || t->filter) && !n->nh) {
		snprintf(err, sizeof(err), "out of memory");
		goto fail;
	}
	ev.data.u64 = t->n;
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, wd_nftrace_fd(n->tr), &ev)) {
		snprintf(err, sizeof(err), "epoll: %s", strerror(errno));
		goto fail;
	}
	t->n++;
	return 0;
fail:
	fprintf(stderr, "whydrop: --rules: %s: %s%s\n", n->label, err,
		fatal ? "" : " (left out: its drops are not traced)");
	ns_close(n);
	return fatal ? WD_EXIT_USAGE : -1;
}

/* Legacy iptables logs every rule a traced packet matches (nf_log_trace). */
static void say_legacy(const struct nft_src *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->ns[i].n_legacy > 0)
			fprintf(stderr, "whydrop: --rules: %s has legacy iptables tables (%s): "
					"their rules cannot be named, and in the initial namespace "
					"the kernel logs TRACE lines for the packets whydrop marks\n",
				t->ns[i].label, t->ns[i].legacy);
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
		status = install_ns(t, s->netns_fd, o->netns, true);
	} else {
		/* ours first: a failure there (privileges, no nf_tables) is the user's to fix */
		status = install_ns(t, -1, NULL, true);
		if (!status && !stat("/proc/self/ns/net", &st))
			t->seen[t->n_seen++] = (struct ns_file){ st.st_dev, st.st_ino };
		if (!status)
			status = install_all(t);
		t->scan = true;
		t->next_scan = wd_now() + SCAN_SECS;
	}
	if (status)
		goto out;
	say_legacy(t);
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
 * per namespace by install_ns, which is then left out (not looked at again).
 */
static void scan_new(struct nft_src *t)
{
	double now = wd_now();
	bool raised;

	if (!t->scan || t->removed || now < t->next_scan)
		return;
	t->next_scan = now + SCAN_SECS;
	raised = !wd_privileges_raise(SCAN_CAPS);
	install_all(t);
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
		ns_close(&t->ns[i]);
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
