/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The drop_monitor source of a session (--source dropmon, or the fallback
 * where BPF cannot load): drop_monitor's alerts are counted in user space
 * (src/lib/dropmon_events.c) and turned into the same keys and records as
 * the BPF program's.
 */
#ifndef WD_SOURCE_DROPMON_H
#define WD_SOURCE_DROPMON_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "dropmon.h"
#include "dropmon_events.h"
#include "whydrop_types.h"

struct wd_session;
struct wd_opts;
struct wd_key_total;
struct wd_stats;
struct wd_drop_view;

struct wd_dm_source {
	struct wd_dm dm;		/* the alerts' socket, in the "events" group */
	struct wd_dm stats_nl;		/* NET_DM_CMD_STATS_GET while running, any thread */
	bool have_stats_nl;
	struct wd_dm_events ev;		/* alerts -> counts, records, names */
	struct wd_session *s;
	bool sw_on, hw_on;		/* what START enabled: STOP exactly that */
	bool owner_file;		/* we wrote /run/whydrop-dropmon.pid */
	uint32_t queue_len;		/* --dropmon-queue */
	pthread_mutex_t stats_lock;	/* base and last: serve reads them from its HTTP thread */
	struct wd_dm_stats base, last;	/* queue losses at START, and at the last read */
	bool have_stats;
	double stats_at;		/* wd_now() of the last read while polling */
	bool loss_said;			/* the notice of losses while running, once */
};

/*
 * Open drop_monitor for a session: checks, CONFIG, join, START. 0, or an
 * exit status after one message. quiet (the automatic fallback): say
 * nothing when drop_monitor is absent or unusable here, or lacks a
 * privilege; returns -1 then, and wd_dm_source_lacks() says which.
 */
int wd_dm_source_open(struct wd_session *s, const struct wd_opts *o, bool details, bool quiet);
/*
 * After a quiet open failed: the capability drop_monitor refused to work
 * without ("CAP_NET_ADMIN", or "CAP_SYS_ADMIN" to join its "events" group),
 * or NULL: it is absent, hidden (another network namespace) or cannot
 * apply the options.
 */
const char *wd_dm_source_lacks(void);
/* STOP (if started) and free; safe to call twice. */
void wd_dm_source_close(struct wd_session *s);
/* Deliver what drop_monitor still holds, STOP, read its loss counters. */
void wd_dm_source_detach(struct wd_session *s);
/* Read alerts for up to ms; its loss counters once a second. */
bool wd_dm_source_poll(struct wd_session *s, int ms);
int wd_dm_source_keys(struct wd_session *s, struct wd_key_total **out, size_t *n);
int wd_dm_source_stats(struct wd_session *s, struct wd_stats *st);
/* Names of the codes only this source has; false for ordinary codes. */
bool wd_dm_source_names(struct wd_session *s, uint32_t code, uint64_t location,
			char *reason, char *function, char *loc, size_t len);
const char *wd_dm_source_subsys(struct wd_session *s, uint32_t code);
/* What a record's view gains (or loses) from drop_monitor. */
void wd_dm_source_view(struct wd_session *s, struct wd_drop_view *v);
/*
 * Losses for reports: queue-limit drops, socket overruns, truncations.
 * While drop_monitor runs, its counters are read now (a request on a
 * socket of their own, from any thread: serve's scrapes); after the stop,
 * the last values.
 */
struct wd_dm_losses {
	uint64_t queue_dropped, hw_queue_dropped, overruns, truncated, summary_full;
	bool packet_mode;
};
void wd_dm_source_losses(struct wd_session *s, struct wd_dm_losses *l);

#endif /* WD_SOURCE_DROPMON_H */
