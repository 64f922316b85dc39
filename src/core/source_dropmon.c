// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * drop_monitor as a drop source (source.h): --source dropmon, or the
 * fallback where BPF cannot load.
 *
 * Packet mode (the default): one NET_DM_CMD_PACKET_ALERT per drop, with the
 * reason's name, the location, skb_iif and the packet from its MAC header;
 * counted by src/lib/dropmon/dropmon_events.c with the key the BPF program uses
 * (netns unknown: 0). What drop_monitor could not deliver is counted, never
 * hidden: its per-CPU queue limit (NET_DM_ATTR_STATS_DROPPED, read while it
 * runs too) and overruns of our socket.
 * Summary mode: NET_DM_CMD_ALERT every second, counts by location only.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/net_dropmon.h>

#include "core.h"
#include "dropmon.h"
#include "dropmon_events.h"
#include "privileges.h"
#include "safe_open.h"
#include "session.h"

#define DM_TRUNC_LEN	(WD_HDR_BYTES + 18)	/* what a record keeps, after L2 */
#define DM_OWNER_FILE	"/run/whydrop-dropmon.pid"
#define DM_POLL_BATCH	50	/* ms per read while draining */

struct wd_dm_source {
	struct wd_dm dm;		/* the alerts' socket, in the "events" group */
	struct wd_dm stats_nl;		/* NET_DM_CMD_STATS_GET while running, any thread */
	bool have_stats_nl;
	struct wd_dm_events ev;		/* alerts -> counts, records, names */
	struct wd_source *src;
	bool sw_on, hw_on;		/* what START enabled: STOP exactly that */
	bool owner_file;		/* we wrote /run/whydrop-dropmon.pid */
	uint32_t queue_len;		/* --dropmon-queue */
	pthread_mutex_t stats_lock;	/* base and last: serve reads them from its HTTP thread */
	struct wd_dm_stats base, last;	/* queue losses at START, and at the last read */
	bool have_stats;
	double stats_at;		/* wd_now() of the last read while polling */
	bool loss_said;			/* the notice of losses while running, once */
};

static struct wd_dm_source *dm_of(struct wd_source *src)
{
	return src->priv;
}

/* ------------------------------------------------------------ life cycle */

static void on_alert(void *ctx, const struct wd_dm_msg *m)
{
	struct wd_dm_source *d = ctx;

	d->ev.mono_to_real_ns = d->src->s->mono_to_real_ns;
	wd_dm_events_msg(&d->ev, m);
}

static void on_record(void *ctx, const struct wd_event *ev)
{
	struct wd_session *s = ctx;

	if (s->on_event)
		s->on_event(s->event_ctx, ev);
}

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

static unsigned long pidns_ino(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (unsigned long)st.st_ino;
}

/*
 * drop_monitor runs on after its listener dies (SIGKILL, OOM): the owner's
 * pid is kept in a file, so that the next whydrop can tell a dead whydrop's
 * trace from another tool's, and stop it. With the owner's PID namespace:
 * a pid from another one (a container's) names no process here.
 */
static bool owner_dead(pid_t *pid)
{
	char path[64], comm[32] = "";
	FILE *f = fopen(DM_OWNER_FILE, "re");
	unsigned long ns = 0;
	int n = f ? fscanf(f, "%d %lu", pid, &ns) : 0;

	if (f)
		fclose(f);
	if (n < 1 || *pid <= 0 || *pid == getpid() || (n == 2 && ns != pidns_ino()))
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
	fprintf(f, "%d %lu\n", (int)getpid(), pidns_ino());
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

/* A privilege refused: nothing said when quiet (the fallback says it), else why. */
static int refused(struct wd_dm_source *d, const char *what, int err, bool quiet,
		   const char *cap)
{
	if (err != -EPERM || !quiet)
		return wd_dm_say_request_error(&d->dm, what, err);
	d->src->lacks = cap;
	return -1;
}

static int configure_and_start(struct wd_dm_source *d, bool quiet)
{
	uint8_t mode = d->ev.packet_mode ? NET_DM_ALERT_MODE_PACKET : NET_DM_ALERT_MODE_SUMMARY;
	int err = wd_dm_config(&d->dm, mode, DM_TRUNC_LEN, d->queue_len);

	if (err && recover(d, err))
		err = wd_dm_config(&d->dm, mode, DM_TRUNC_LEN, d->queue_len);
	if (err)
		return refused(d, "configuration (NET_DM_CMD_CONFIG)", err, quiet, "CAP_NET_ADMIN");
	/* CAP_SYS_ADMIN since 6.6, and in stable updates of older kernels (6.1.192) */
	err = wd_dm_join(&d->dm);
	if (err == -EPERM && quiet) {
		d->src->lacks = "CAP_SYS_ADMIN";
		return -1;
	}
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
		return refused(d, "start (NET_DM_CMD_START)", err, quiet, "CAP_NET_ADMIN");
	/* In no group, so no alerts: a request answered at once, from any thread. */
	d->have_stats_nl = !wd_dm_open(&d->stats_nl, NULL, NULL);
	own(d);
	return 0;
}

/* The WHYDROP_DROPMON_DUMP file, while drop_monitor is being started. */
struct wd_dump {
	const char *path;
	FILE *f;
	bool created;
	struct stat st;		/* of what was opened */
};

/*
 * WHYDROP_DROPMON_DUMP=FILE (tests: the fixtures of the unit test): every
 * alert as a hex line. Read with secure_getenv(), so that a binary given
 * file capabilities ignores it, and opened as record -w opens its files,
 * before drop_monitor is asked anything: a link, another user's file... is
 * refused, said, and nothing starts. Emptied once drop_monitor answers
 * (empty_dump). 0, or 1 after saying why.
 */
static int open_dump(struct wd_dump *dump)
{
	const char *path = secure_getenv("WHYDROP_DROPMON_DUMP");
	char err[PATH_MAX + 200];
	int fd;

	dump->f = NULL;
	dump->path = path;
	if (!path)
		return 0;
	fd = wd_open_for_writing(path, &dump->st, &dump->created, err, sizeof(err));
	if (fd < 0) {
		fprintf(stderr, "whydrop: WHYDROP_DROPMON_DUMP: %s\n", err);
		return 1;
	}
	dump->f = fdopen(fd, "w");
	if (!dump->f) {
		fprintf(stderr, "whydrop: WHYDROP_DROPMON_DUMP: %s: %s\n", path, strerror(errno));
		close(fd);
		return 1;
	}
	return 0;
}

/* drop_monitor answered: an existing file of ours is emptied only now. */
static int empty_dump(struct wd_dump *dump)
{
	if (!dump->f || !S_ISREG(dump->st.st_mode) || !ftruncate(fileno(dump->f), 0))
		return 0;
	fprintf(stderr, "whydrop: WHYDROP_DROPMON_DUMP: cannot truncate %s: %s\n", dump->path,
		strerror(errno));
	return 1;
}

/* drop_monitor could not start: the dump file made for it goes too. */
static void discard_dump(struct wd_dump *dump)
{
	if (!dump->f)
		return;
	fclose(dump->f);
	dump->f = NULL;
	if (dump->created)
		wd_unlink_created(dump->path, &dump->st);
}


/* No subsystem reason among the -r bits (their slots follow the core's). */
static bool subsys_bits_clear(const __u64 *bits)
{
	for (size_t w = WD_CORE_SLOTS / 64; w < WD_REASON_BITMAP_WORDS; w++)
		if (bits[w])
			return false;
	return true;
}

/* -r, checked before anything starts: the filter of the alerts in user space. */
static int reason_filter(struct wd_session *s, const struct wd_opts *o, __u64 *bits,
			 bool *enabled)
{
	int status = 0;

	if (o->reasons && !o->dropmon_summary)
		status = wd_reason_bits(&s->reasons, o->reasons, bits, enabled);
	if (!status && !subsys_bits_clear(bits)) {
		fprintf(stderr, "whydrop: drop_monitor names a subsystem's reasons (openvswitch, "
				"mac80211) without their numbers: -r cannot select them with "
				"--source dropmon; leave them out or use BPF (--source bpf)\n");
		status = WD_EXIT_USAGE;
	}
	return status;
}

static struct wd_dm_source *dm_new(struct wd_source *src, const struct wd_opts *o)
{
	struct wd_session *s = src->s;
	struct wd_dm_source *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	wd_dm_events_init(&d->ev);
	pthread_mutex_init(&d->stats_lock, NULL);
	d->src = src;
	d->ev.packet_mode = !o->dropmon_summary;
	d->ev.details = s->details;
	d->ev.max_keys = o->map_size;
	d->ev.rate.per_s = o->rate;
	d->ev.reasons = &s->reasons;
	d->ev.filter = s->filter;
	d->ev.on_record = s->on_event ? on_record : NULL;
	d->ev.ctx = s;
	d->queue_len = o->dropmon_queue;
	src->priv = d;
	return d;
}

/*
 * Checks, CONFIG, join, START. quiet (the automatic fallback): say nothing
 * when drop_monitor is absent or unusable here, or lacks a privilege
 * (src->lacks names it); -1 then.
 */
static int dm_open(struct wd_source *src, const struct wd_opts *o, bool quiet)
{
	__u64 bits[WD_REASON_BITMAP_WORDS] = { 0 };
	bool summary = o->dropmon_summary, enabled = false;
	struct wd_session *s = src->s;
	struct wd_dm_source *d;
	struct wd_dump dump;
	int status = reason_filter(s, o, bits, &enabled), err;

	if (status)
		return status;
	status = wd_dm_refuse_options(o, s->details, summary);
	if (status)
		return quiet ? -1 : status;
	if (open_dump(&dump))
		return 1;
	d = dm_new(src, o);
	if (!d) {
		discard_dump(&dump);
		return 1;
	}
	memcpy(d->ev.reason_bits, bits, sizeof(bits));
	d->ev.filter_reasons = enabled;
	err = wd_dm_open(&d->dm, on_alert, d);
	if (err || empty_dump(&dump)) {
		discard_dump(&dump);
		return err ? wd_dm_say_open_error(err, quiet) : 1;
	}
	d->dm.dump = dump.f;	/* closed with d->dm from here */
	status = configure_and_start(d, quiet);
	if (status) {
		d->dm.dump = NULL;
		discard_dump(&dump);
		return status;
	}
	if (summary)
		s->reasons.has_reason = false;	/* every output: by location only */
	src->what = "drop_monitor";
	src->attach_mode = summary ? "NET_DM summary mode: by location only"
			 : d->hw_on ? "NET_DM packet mode, software and hardware drops"
				    : "NET_DM packet mode, software drops";
	/* STOP on exit needs CAP_NET_ADMIN: kept permitted, raised around it */
	src->keep_caps = WD_CAP(WD_CAP_NET_ADMIN);
	src->keep_why = "CAP_NET_ADMIN only, to stop drop_monitor on exit";
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
	pthread_mutex_lock(&d->stats_lock);
	d->sw_on = d->hw_on = false;	/* no live read of the counters from here */
	pthread_mutex_unlock(&d->stats_lock);
}

static void dm_close(struct wd_source *src)
{
	struct wd_dm_source *d = dm_of(src);

	if (!d)
		return;
	if (d->sw_on || d->hw_on)
		stop_trace(d);
	disown(d);
	wd_dm_close(&d->dm);
	wd_dm_close(&d->stats_nl);
	wd_dm_events_free(&d->ev);
	pthread_mutex_destroy(&d->stats_lock);
	free(d);
	src->priv = NULL;
}

/* The loss counters now, while drop_monitor runs (after STOP they stay as read last). */
static void read_stats(struct wd_dm_source *d)
{
	struct wd_dm_stats st;

	pthread_mutex_lock(&d->stats_lock);
	if ((d->sw_on || d->hw_on) && d->have_stats_nl && !wd_dm_stats_get(&d->stats_nl, &st)) {
		d->last = st;
		d->have_stats = true;
	}
	pthread_mutex_unlock(&d->stats_lock);
}

/*
 * Losses for reports: queue-limit drops, socket overruns, truncations.
 * While drop_monitor runs, its counters are read now (a request on a
 * socket of their own, from any thread: serve's scrapes); after the stop,
 * the last values.
 */
static void losses(struct wd_dm_source *d, struct wd_count_source *l)
{
	read_stats(d);
	memset(l, 0, sizeof(*l));
	l->name = "dropmon";
	l->mode = d->ev.packet_mode ? "packet" : "summary";
	pthread_mutex_lock(&d->stats_lock);
	if (d->have_stats && d->last.sw_dropped >= d->base.sw_dropped)
		l->queue_dropped = d->last.sw_dropped - d->base.sw_dropped;
	if (d->have_stats && d->last.hw_dropped >= d->base.hw_dropped)
		l->hw_queue_dropped = d->last.hw_dropped - d->base.hw_dropped;
	pthread_mutex_unlock(&d->stats_lock);
	l->overruns = d->dm.overruns;
	l->truncated = d->ev.truncated;
	l->summary_full = d->ev.summary_full;
	l->lower_bound = l->queue_dropped || l->hw_queue_dropped || l->overruns || l->summary_full;
}

/* On stderr, once: what drop_monitor could not deliver or say. */
static void say_losses(struct wd_dm_source *d)
{
	struct wd_count_source l;

	losses(d, &l);
	fprintf(stderr, "whydrop: drop_monitor: %" PRIu64 " %s lost in its per-CPU queue, "
			"socket overflowed %" PRIu64 " %s%s; network namespaces unknown%s\n",
		l.queue_dropped + l.hw_queue_dropped,
		wd_plural(l.queue_dropped + l.hw_queue_dropped, "drop", "drops"), l.overruns,
		wd_plural(l.overruns, "time", "times"),
		l.summary_full ? ", summaries full (locations lost)" : "",
		l.lower_bound ? ": counts are lower bounds" : "");
}

/* Deliver what drop_monitor still holds, STOP, read its loss counters, say them. */
static void dm_detach(struct wd_source *src)
{
	struct wd_dm_source *d = dm_of(src);
	/* Packet alerts leave their queue at once; summaries once a second. */
	double quiet_s = d->ev.packet_mode ? 0.15 : 1.3, last = wd_now(), t0 = last;
	uint64_t seen = d->ev.received;
	struct wd_dm_stats st;

	if (!d->sw_on && !d->hw_on)
		return;
	while (wd_now() - last < quiet_s && wd_now() - t0 < 5) {
		wd_dm_poll(&d->dm, DM_POLL_BATCH);
		if (d->ev.received != seen) {
			seen = d->ev.received;
			last = wd_now();
		}
	}
	/* STOP discards what is still queued: losses are read before it. */
	if (!wd_dm_stats_get(&d->dm, &st)) {
		pthread_mutex_lock(&d->stats_lock);
		d->last = st;
		d->have_stats = true;
		pthread_mutex_unlock(&d->stats_lock);
	}
	stop_trace(d);
	disown(d);
	say_losses(d);
}

/* Once, as soon as drop_monitor loses drops: the end of the run says how many. */
static void say_losses_live(struct wd_dm_source *d)
{
	struct wd_count_source l;

	losses(d, &l);
	if (d->loss_said || !(l.queue_dropped + l.hw_queue_dropped + l.overruns))
		return;
	d->loss_said = true;
	fprintf(stderr, "whydrop: drop_monitor is losing drops: %" PRIu64 " so far did not fit "
			"its per-CPU queue (--dropmon-queue %u), our socket overflowed %" PRIu64
			" %s: counts are lower bounds\n", l.queue_dropped + l.hw_queue_dropped,
		d->queue_len, l.overruns, wd_plural(l.overruns, "time", "times"));
}

static int dm_fd(struct wd_source *src)
{
	return wd_dm_fd(&dm_of(src)->dm);
}

/* The alerts waiting now; the loss counters once a second. */
static int dm_poll(struct wd_source *src)
{
	struct wd_dm_source *d = dm_of(src);
	int err = wd_dm_poll(&d->dm, 0);

	if (err && err != -EINTR) {
		fprintf(stderr, "whydrop: reading drop_monitor's alerts failed: %s\n",
			strerror(-err));
		return err;
	}
	if (wd_now() - d->stats_at >= 1) {
		d->stats_at = wd_now();
		say_losses_live(d);
	}
	return 0;
}

/* Counts by key, what they add up to, and what drop_monitor lost. */
static int dm_snapshot(struct wd_source *src, struct wd_snapshot *snap)
{
	struct wd_dm_source *d = dm_of(src);
	int err = wd_dm_events_keys(&d->ev, &snap->keys);

	if (err)
		return err;
	snap->stats.seen = wd_keyset_sum(&snap->keys);
	snap->stats.v[WD_STAT_EMITTED] = d->ev.emitted;
	snap->stats.rate_limited = d->ev.rate.limited;
	losses(d, &snap->source);
	snap->lost_events += snap->source.queue_dropped + snap->source.hw_queue_dropped;
	return 0;
}

static bool dm_names(struct wd_source *src, uint32_t code, uint64_t location, char *reason,
		     char *function, char *loc, size_t len)
{
	return wd_dm_events_names(&dm_of(src)->ev, code, location, reason, function, loc, len);
}

static const char *dm_subsys(struct wd_source *src, uint32_t code)
{
	return wd_dm_events_subsys(&dm_of(src)->ev, code);
}

static void dm_view(struct wd_source *src, const struct wd_event *ev, struct wd_drop_view *v)
{
	wd_dm_events_view(&dm_of(src)->ev, ev->reason, v);
}

const struct wd_source_ops wd_source_dropmon_ops = {
	.name = "dropmon",
	.open = dm_open,
	.fd = dm_fd,
	.poll = dm_poll,
	.snapshot = dm_snapshot,
	.detach = dm_detach,
	.close = dm_close,
	.names = dm_names,
	.subsys = dm_subsys,
	.view = dm_view,
};
