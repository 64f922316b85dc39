// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * drop_monitor as a session's source; see source_dropmon.h.
 *
 * Packet mode (the default): one NET_DM_CMD_PACKET_ALERT per drop, with the
 * reason's name, the location, skb_iif and the packet from its MAC header;
 * counted here by the same key the BPF program uses (netns unknown: 0).
 * What drop_monitor could not deliver is counted, never hidden: its per-CPU
 * queue limit (NET_DM_ATTR_STATS_DROPPED) and overruns of our socket.
 * Summary mode: NET_DM_CMD_ALERT every second, counts by location only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <pcap/bpf.h>
#include <linux/net_dropmon.h>

#include "decode.h"
#include "privileges.h"
#include "session.h"
#include "source_dropmon.h"

#define DM_TRUNC_LEN	(WD_HDR_BYTES + 18)	/* what a record keeps, after L2 */
#define DM_HIT_LIMIT	64	/* points per summary alert (dm_hit_limit) */
#define DM_MAX_NAMES	1024
#define DM_OWNER_FILE	"/run/whydrop-dropmon.pid"
#define DM_POLL_BATCH	50	/* ms per read while draining */
#define DM_PLAUSIBLE_REALTIME	1000000000000000000ULL	/* 2001 */

/* ------------------------------------------------------------ checks */

static bool in_initial_netns(void)
{
	struct stat self, init;

	/* Cannot tell without /proc/1: let drop_monitor's own answer decide. */
	if (stat("/proc/self/ns/net", &self) || stat("/proc/1/ns/net", &init))
		return true;
	return self.st_ino == init.st_ino && self.st_dev == init.st_dev;
}

/* drop_monitor.ko in this kernel's module tree (not loaded, or it would answer). */
static bool module_available(void)
{
	static const char *const ext[] = { "", ".xz", ".zst", ".gz" };
	struct utsname u;
	char path[512];
	struct stat st;

	if (uname(&u))
		return false;
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(path, sizeof(path), "/lib/modules/%s/kernel/net/core/drop_monitor.ko%s",
			 u.release, ext[i]);
		if (!stat(path, &st))
			return true;
	}
	return false;
}

static int refuse_options(const struct wd_opts *o, bool details, bool summary)
{
	const char *what = o->netns ? "--netns" : o->ifname ? "-i" : NULL;

	if (what) {
		fprintf(stderr, "whydrop: drop_monitor does not say in which network namespace a "
				"drop happened (its interface index names none), so %s cannot "
				"apply: leave it out, or use --source bpf\n", what);
		return WD_EXIT_USAGE;
	}
	if (!summary)
		return 0;
	what = details ? "per-packet records" : o->reasons ? "-r" : o->filter ? "a filter expression" : NULL;
	if (what) {
		fprintf(stderr, "whydrop: drop_monitor's summary mode counts drops by location only, "
				"so %s cannot apply: use --dropmon-mode packet\n", what);
		return WD_EXIT_USAGE;
	}
	return 0;
}

static int say_open_error(int err, bool quiet)
{
	if (quiet)
		return -1;
	if (err == -ENOENT && !in_initial_netns())
		fprintf(stderr, "whydrop: drop_monitor only answers in the initial network "
				"namespace, and whydrop runs in another one: run it in the host's "
				"namespace, or use --source bpf\n");
	else if (err == -ENOENT && module_available())
		fprintf(stderr, "whydrop: drop_monitor is not loaded: `modprobe drop_monitor`, "
				"then try again\n");
	else if (err == -ENOENT)
		fprintf(stderr, "whydrop: this kernel has no drop_monitor "
				"(CONFIG_NET_DROP_MONITOR): use --source bpf\n");
	else
		fprintf(stderr, "whydrop: cannot talk to drop_monitor over generic netlink: %s\n",
			strerror(-err));
	return 1;
}

static int say_request_error(struct wd_dm_source *d, const char *what, int err)
{
	if (err == -EPERM)
		fprintf(stderr, "whydrop: drop_monitor's %s needs CAP_NET_ADMIN "
				"(and CAP_SYS_ADMIN to receive its alerts): try sudo whydrop ...\n", what);
	else if (err == -EBUSY || err == -EAGAIN || err == -EEXIST)
		fprintf(stderr, "whydrop: drop_monitor is already in use by another listener "
				"(dropwatch, perf, or a whydrop killed by SIGKILL%s%s%s): it serves "
				"one at a time; stop that one, or use --source bpf\n",
			d->dm.ext_msg[0] ? ": \"" : "", d->dm.ext_msg, d->dm.ext_msg[0] ? "\"" : "");
	else
		fprintf(stderr, "whydrop: drop_monitor's %s failed: %s%s%s\n", what,
			strerror(-err), d->dm.ext_msg[0] ? ": " : "", d->dm.ext_msg);
	return 1;
}

/* ------------------------------------------------------------ counting */

static int cmp_key(const void *x, const void *y)
{
	return memcmp(&((const struct wd_key_total *)x)->key,
		      &((const struct wd_key_total *)y)->key, sizeof(struct wd_key));
}

/* Add n to a key; past --map-size distinct keys, to the reason's overflow. */
static void count_key(struct wd_dm_source *d, struct wd_key key, uint64_t n)
{
	for (size_t i = d->n_keys; i-- > 0;)
		if (!cmp_key(&d->keys[i].key, &key)) {
			d->keys[i].count += n;
			return;
		}
	if (d->n_keys >= d->max_keys && key.location) {
		key = (struct wd_key){ .reason = key.reason };
		count_key(d, key, n);
		return;
	}
	if (d->n_keys == d->cap_keys) {
		size_t cap = d->cap_keys ? d->cap_keys * 2 : 64;
		struct wd_key_total *k = realloc(d->keys, cap * sizeof(*k));

		if (!k)
			return;
		d->keys = k;
		d->cap_keys = cap;
	}
	d->keys[d->n_keys].key = key;
	d->keys[d->n_keys++].count = n;
}

/* A code for a name the kernel's reason table lacks, or a hardware trap. */
static uint32_t intern(struct wd_dm_source *d, const char *name, bool hw)
{
	size_t i;

	for (i = 0; i < d->n_names; i++)
		if (d->names_hw[i] == hw && !strcmp(d->names[i], name))
			return WD_DM_CODE_BASE + (uint32_t)i;
	if (d->n_names == DM_MAX_NAMES)
		return WD_DM_CODE_BASE + DM_MAX_NAMES - 1;
	if (!(d->n_names & (d->n_names + 1)) || !d->names) {
		size_t cap = (d->n_names + 1) * 2;
		void *n = realloc(d->names, cap * sizeof(*d->names));
		void *h = n ? realloc(d->names_hw, cap * sizeof(*d->names_hw)) : NULL;

		if (n)
			d->names = n;
		if (!h)
			return WD_DM_CODE_BASE + DM_MAX_NAMES - 1;
		d->names_hw = h;
	}
	snprintf(d->names[i], WD_DM_NAME_LEN, "%s", name);
	d->names_hw[i] = hw;
	d->n_names++;
	return WD_DM_CODE_BASE + (uint32_t)i;
}

static uint32_t packet_reason(struct wd_dm_source *d, const struct wd_dm_packet *p)
{
	char name[WD_DM_NAME_LEN + 8];
	const struct wd_reason *r;

	if (p->has_origin && p->origin == NET_DM_ORIGIN_HW) {
		snprintf(name, sizeof(name), "%s", p->hw_trap[0] ? p->hw_trap : "(unnamed trap)");
		return intern(d, name, true);
	}
	if (!p->reason[0])
		return intern(d, "(no reason sent)", false);
	r = wd_reason_by_name(&d->s->reasons, p->reason);
	return r ? r->code : intern(d, p->reason, false);
}

static bool reason_selected(const struct wd_dm_source *d, uint32_t code)
{
	if (!d->filter_reasons)
		return true;
	return code < WD_REASON_BITMAP_WORDS * 64 && (d->reason_bits[code / 64] >> (code % 64) & 1);
}

static bool rate_allows(struct wd_dm_source *d, const struct wd_opts *o)
{
	double now = wd_now();

	if (now - d->window_start >= 1) {
		d->window_start = now;
		d->window_used = 0;
	}
	if (d->window_used >= o->rate) {
		d->rate_limited++;
		return false;
	}
	d->window_used++;
	return true;
}

static const struct wd_opts *opts;	/* of the running session: --rate */

/* The packet as a BPF record, so views, JSON and pcapng are the same code. */
static void make_event(struct wd_dm_source *d, const struct wd_dm_packet *p, uint32_t code,
		       int l3, struct wd_event *ev)
{
	size_t caplen = l3 >= 0 ? p->payload_len - (size_t)l3 : 0;

	memset(ev, 0, sizeof(*ev));
	/* The kernel stamps the clone with the wall clock of the drop. */
	if (p->has_ts && p->ts_ns > DM_PLAUSIBLE_REALTIME) {
		ev->ts_ns = p->ts_ns - d->s->mono_to_real_ns;
	} else {
		struct timespec t;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ev->ts_ns = (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
	}
	ev->location = p->pc;
	ev->reason = code;
	ev->ifindex = p->ifindex;
	if (p->has_orig_len && l3 >= 0 && p->orig_len >= (uint32_t)l3)
		ev->skb_len = p->orig_len - (uint32_t)l3;
	ev->l3proto = p->proto;
	ev->caplen = (uint16_t)(caplen < WD_HDR_BYTES ? caplen : WD_HDR_BYTES);
	if (ev->caplen)
		memcpy(ev->hdr, p->payload + l3, ev->caplen);
}

static void on_packet(struct wd_dm_source *d, const struct wd_dm_packet *p)
{
	struct wd_session *s = d->s;
	int l3 = wd_dm_l3_offset(p->payload, p->payload_len, p->proto);
	const uint8_t *net = l3 >= 0 ? p->payload + l3 : NULL;
	size_t caplen = net ? p->payload_len - (size_t)l3 : 0;
	struct wd_key key = { .location = p->pc, .ifindex = p->ifindex, .l3proto = p->proto };
	struct wd_flow flow;
	struct wd_event ev;
	uint32_t code;

	pthread_mutex_lock(&d->lock);
	code = key.reason = packet_reason(d, p);
	pthread_mutex_unlock(&d->lock);
	d->received++;
	if (!reason_selected(d, code) ||
	    (s->filter && !(net && bpf_filter((const struct bpf_insn *)s->filter, net,
					     p->has_orig_len ? p->orig_len - (uint32_t)l3 :
					     (u_int)caplen, (u_int)caplen)))) {
		d->filtered++;
		return;
	}
	if (net && !wd_decode(net, caplen, p->proto, &flow) && flow.has_l4)
		key.l4proto = flow.l4;
	if (p->has_orig_len && p->orig_len > p->payload_len)
		d->truncated++;
	pthread_mutex_lock(&d->lock);
	count_key(d, key, 1);
	pthread_mutex_unlock(&d->lock);
	/* --rate 0 is no limit, as on the BPF path */
	if (!d->details || !s->on_event || (opts->rate && !rate_allows(d, opts)))
		return;
	make_event(d, p, code, l3, &ev);
	d->cur = p;
	s->on_event(s->event_ctx, &ev);
	d->cur = NULL;
	d->emitted++;
}

static void on_summary(struct wd_dm_source *d, const struct wd_dm_summary *sm)
{
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < sm->n_points; i++) {
		struct wd_key key = { .location = sm->points[i].pc };

		count_key(d, key, sm->points[i].count);
		d->received += sm->points[i].count;
	}
	for (size_t i = 0; i < sm->n_hw; i++) {
		struct wd_key key = { .reason = intern(d, sm->hw[i].trap, true) };

		count_key(d, key, sm->hw[i].count);
		d->received += sm->hw[i].count;
		d->hw_points += sm->hw[i].count;
	}
	/* The kernel drops further locations of a full alert without a count. */
	if (sm->entries >= DM_HIT_LIMIT || sm->hw_truncated)
		d->summary_full++;
	pthread_mutex_unlock(&d->lock);
}

static void on_alert(void *ctx, const struct wd_dm_msg *m)
{
	struct wd_dm_source *d = ctx;

	if (m->kind == WD_DM_PACKET && d->packet_mode)
		on_packet(d, &m->packet);
	else if (m->kind == WD_DM_SUMMARY && !d->packet_mode)
		on_summary(d, &m->summary);
}

/* ------------------------------------------------------------ life cycle */

static int start(struct wd_dm_source *d)
{
	int err = wd_dm_start(&d->dm, true, true);

	if (err == -EOPNOTSUPP) {
		/* no devlink in this kernel: software drops alone */
		err = wd_dm_start(&d->dm, true, false);
		if (!err)
			d->sw_on = true;
		return err;
	}
	if (!err)
		d->sw_on = d->hw_on = true;
	return err;
}

/*
 * drop_monitor runs on after its listener dies (SIGKILL, OOM): the owner's
 * pid is kept in a file, so that the next whydrop can tell a dead whydrop's
 * trace from another tool's, and stop it.
 */
static bool owner_dead(pid_t *pid)
{
	char path[64], comm[32] = "";
	FILE *f = fopen(DM_OWNER_FILE, "re");
	int n = f ? fscanf(f, "%d", pid) : 0;

	if (f)
		fclose(f);
	if (n != 1 || *pid <= 0 || *pid == getpid())
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", *pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strncmp(comm, "whydrop", 7) != 0;	/* the pid was reused */
}

static void own(struct wd_dm_source *d)
{
	FILE *f = fopen(DM_OWNER_FILE, "we");

	if (!f)
		return;	/* not root: no recovery after a SIGKILL, said in docs */
	fprintf(f, "%d\n", (int)getpid());
	d->owner_file = !fclose(f);
}

static void disown(struct wd_dm_source *d)
{
	if (d->owner_file)
		unlink(DM_OWNER_FILE);
	d->owner_file = false;
}

/* Busy: if a killed whydrop left it running, stop that and go on. */
static bool recover(struct wd_dm_source *d, int err)
{
	pid_t pid;

	if ((err != -EBUSY && err != -EAGAIN) || !owner_dead(&pid))
		return false;
	if (wd_dm_stop(&d->dm, true, true) && wd_dm_stop(&d->dm, true, false))
		return false;
	unlink(DM_OWNER_FILE);
	fprintf(stderr, "whydrop: drop_monitor was left running by whydrop pid %d, which is "
			"gone (killed without stopping it): stopped it\n", (int)pid);
	return true;
}

static int configure_and_start(struct wd_dm_source *d)
{
	uint8_t mode = d->packet_mode ? NET_DM_ALERT_MODE_PACKET : NET_DM_ALERT_MODE_SUMMARY;
	int err = wd_dm_config(&d->dm, mode, DM_TRUNC_LEN, d->queue_len);

	if (err && recover(d, err))
		err = wd_dm_config(&d->dm, mode, DM_TRUNC_LEN, d->queue_len);
	if (err)
		return say_request_error(d, "configuration (NET_DM_CMD_CONFIG)", err);
	err = wd_dm_join(&d->dm);
	if (err == -EPERM)
		fprintf(stderr, "whydrop: joining drop_monitor's \"events\" group needs "
				"CAP_SYS_ADMIN: try sudo whydrop ...\n");
	else if (err)
		fprintf(stderr, "whydrop: cannot join drop_monitor's \"events\" group: %s\n",
			strerror(-err));
	if (err)
		return 1;
	d->have_stats = !wd_dm_stats_get(&d->dm, &d->base);
	d->last = d->base;
	err = start(d);
	if (err)
		return say_request_error(d, "start (NET_DM_CMD_START)", err);
	own(d);
	return 0;
}

int wd_dm_source_open(struct wd_session *s, const struct wd_opts *o, bool details, bool quiet)
{
	bool summary = o->dropmon_summary;
	struct wd_dm_source *d;
	int status = refuse_options(o, details, summary), err;

	if (status)
		return quiet ? -1 : status;
	d = calloc(1, sizeof(*d));
	if (!d)
		return 1;
	pthread_mutex_init(&d->lock, NULL);
	d->s = s;
	d->packet_mode = !summary;
	d->details = details;
	d->max_keys = o->map_size;
	d->queue_len = o->dropmon_queue;
	opts = o;
	err = wd_dm_open(&d->dm, on_alert, d);
	if (err) {
		pthread_mutex_destroy(&d->lock);
		free(d);
		return say_open_error(err, quiet);
	}
	s->dm = d;
	status = configure_and_start(d);
	if (status) {
		wd_dm_source_close(s);
		return status;
	}
	if (summary)
		s->reasons.has_reason = false;	/* every output: by location only */
	s->attach_mode = summary ? "NET_DM summary mode: by location only"
		       : d->hw_on ? "NET_DM packet mode, software and hardware drops"
				  : "NET_DM packet mode, software drops";
	return 0;
}

/* STOP needs CAP_NET_ADMIN: kept permitted for this alone once attached. */
static void stop_trace(struct wd_dm_source *d)
{
	bool raised = !wd_privileges_raise(WD_CAP(WD_CAP_NET_ADMIN));
	int err = wd_dm_stop(&d->dm, d->sw_on, d->hw_on);

	if (raised)
		wd_privileges_lower();
	if (err)
		fprintf(stderr, "whydrop: stopping drop_monitor failed: %s%s%s\n",
			strerror(-err), d->dm.ext_msg[0] ? ": " : "", d->dm.ext_msg);
	d->sw_on = d->hw_on = false;
}

void wd_dm_source_close(struct wd_session *s)
{
	struct wd_dm_source *d = s->dm;

	if (!d)
		return;
	if (d->sw_on || d->hw_on)
		stop_trace(d);
	disown(d);
	wd_dm_close(&d->dm);
	pthread_mutex_destroy(&d->lock);
	free(d->keys);
	free(d->names);
	free(d->names_hw);
	free(d);
	s->dm = NULL;
}

void wd_dm_source_detach(struct wd_session *s)
{
	struct wd_dm_source *d = s->dm;
	/* Packet alerts leave their queue at once; summaries once a second. */
	double quiet_s = d->packet_mode ? 0.15 : 1.3, last = wd_now(), t0 = last;
	uint64_t seen = d->received;

	if (!d->sw_on && !d->hw_on)
		return;
	while (wd_now() - last < quiet_s && wd_now() - t0 < 5) {
		wd_dm_poll(&d->dm, DM_POLL_BATCH);
		if (d->received != seen) {
			seen = d->received;
			last = wd_now();
		}
	}
	/* STOP discards what is still queued: losses are read before it. */
	if (!wd_dm_stats_get(&d->dm, &d->last))
		d->have_stats = true;
	stop_trace(d);
	disown(d);
}

bool wd_dm_source_poll(struct wd_session *s, int ms)
{
	int err;

	if (wd_stop)
		return false;
	err = wd_dm_poll(&s->dm->dm, ms);
	if (err && err != -EINTR) {
		fprintf(stderr, "whydrop: reading drop_monitor's alerts failed: %s\n",
			strerror(-err));
		wd_stop = 1;
	}
	return !wd_stop;
}

int wd_dm_source_keys(struct wd_session *s, struct wd_key_total **out, size_t *n)
{
	struct wd_dm_source *d = s->dm;
	struct wd_key_total *k;

	pthread_mutex_lock(&d->lock);
	k = malloc((d->n_keys ? d->n_keys : 1) * sizeof(*k));
	if (k && d->n_keys)
		memcpy(k, d->keys, d->n_keys * sizeof(*k));
	*n = d->n_keys;
	pthread_mutex_unlock(&d->lock);
	if (!k)
		return -ENOMEM;
	qsort(k, *n, sizeof(*k), cmp_key);
	*out = k;
	return 0;
}

int wd_dm_source_stats(struct wd_session *s, struct wd_stats *st)
{
	struct wd_dm_source *d = s->dm;

	memset(st, 0, sizeof(*st));
	pthread_mutex_lock(&d->lock);
	for (size_t i = 0; i < d->n_keys; i++)
		st->seen += d->keys[i].count;
	pthread_mutex_unlock(&d->lock);
	st->v[WD_STAT_EMITTED] = d->emitted;
	st->v[WD_STAT_RATE_LIMITED] = d->rate_limited;
	return 0;
}

void wd_dm_source_losses(struct wd_session *s, struct wd_dm_losses *l)
{
	struct wd_dm_source *d = s->dm;

	memset(l, 0, sizeof(*l));
	l->packet_mode = d->packet_mode;
	if (d->have_stats && d->last.sw_dropped >= d->base.sw_dropped)
		l->queue_dropped = d->last.sw_dropped - d->base.sw_dropped;
	if (d->have_stats && d->last.hw_dropped >= d->base.hw_dropped)
		l->hw_queue_dropped = d->last.hw_dropped - d->base.hw_dropped;
	l->overruns = d->dm.overruns;
	l->truncated = d->truncated;
	l->summary_full = d->summary_full;
}

bool wd_dm_source_names(struct wd_session *s, uint32_t code, uint64_t location,
			char *reason, char *function, char *loc, size_t len)
{
	struct wd_dm_source *d = s->dm;
	size_t i = code - WD_DM_CODE_BASE;
	bool done = false;

	pthread_mutex_lock(&d->lock);
	if (code < WD_DM_CODE_BASE || i >= d->n_names)
		goto out;
	snprintf(reason, len, "%s", d->names_hw[i] ? "HW_TRAP" : d->names[i]);
	if (d->names_hw[i] || !location) {
		snprintf(function, len, "%s", d->names_hw[i] ? "(hardware)" : "(unknown)");
		snprintf(loc, len, "%s%s", d->names_hw[i] ? "hw:" : "", d->names[i]);
		done = true;
	}
out:
	pthread_mutex_unlock(&d->lock);
	return done;	/* false for a software location: the caller names it */
}

const char *wd_dm_source_subsys(struct wd_session *s, uint32_t code)
{
	struct wd_dm_source *d = s->dm;
	size_t i = code - WD_DM_CODE_BASE;
	const char *subsys = NULL;

	pthread_mutex_lock(&d->lock);
	if (code >= WD_DM_CODE_BASE && i < d->n_names)
		subsys = d->names_hw[i] ? "hardware" : "unknown";
	pthread_mutex_unlock(&d->lock);
	return subsys;
}

void wd_dm_source_view(struct wd_session *s, struct wd_drop_view *v)
{
	struct wd_dm_source *d = s->dm;
	const struct wd_dm_packet *p = d->cur;

	v->netns = 0;
	v->no_cpu = true;
	if (!p)
		return;
	/* skb_iif names no namespace: only hardware drops come with a name. */
	snprintf(d->cur_ifname, sizeof(d->cur_ifname), "%s", p->ifname);
	v->ifname = d->cur_ifname[0] ? d->cur_ifname : NULL;
	if (p->has_origin && p->origin == NET_DM_ORIGIN_HW) {
		v->hw_group = p->hw_group[0] ? p->hw_group : NULL;
		v->hw_trap = p->hw_trap[0] ? p->hw_trap : NULL;
	}
}
