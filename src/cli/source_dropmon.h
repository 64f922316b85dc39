/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The drop_monitor source of a session (--source dropmon, or the fallback
 * where BPF cannot load): drop_monitor's alerts are counted here in user
 * space and turned into the same keys and records as the BPF program's.
 */
#ifndef WD_SOURCE_DROPMON_H
#define WD_SOURCE_DROPMON_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "dropmon.h"
#include "whydrop_types.h"

struct wd_session;
struct wd_opts;
struct wd_key_total;
struct wd_stats;
struct wd_drop_view;

/* Codes of reasons the running kernel's table lacks (and hardware traps). */
#define WD_DM_CODE_BASE	0xfff00000u

struct wd_dm_source {
	struct wd_dm dm;
	struct wd_session *s;
	bool packet_mode, details;
	bool sw_on, hw_on;		/* what START enabled: STOP exactly that */
	bool owner_file;
	uint32_t queue_len;		/* --dropmon-queue */		/* we wrote /run/whydrop-dropmon.pid */
	pthread_mutex_t lock;		/* serve reads from its HTTP thread */
	struct wd_key_total *keys;
	size_t n_keys, cap_keys, max_keys;
	char (*names)[WD_DM_NAME_LEN];	/* interned reason names, by code - BASE */
	bool *names_hw;
	size_t n_names;
	__u64 reason_bits[WD_REASON_BITMAP_WORDS];	/* -r */
	bool filter_reasons;
	uint64_t received;		/* drops drop_monitor reported */
	uint64_t emitted, rate_limited, truncated, summary_full, filtered;
	uint64_t hw_points;		/* hardware drops seen in summary mode */
	double window_start;		/* --rate */
	uint64_t window_used;
	struct wd_dm_stats base, last;	/* queue losses at START, and now */
	bool have_stats;
	const struct wd_dm_packet *cur;	/* the alert behind the record being viewed */
	char cur_ifname[WD_DM_IFNAME_LEN + 1];
};

/*
 * Open drop_monitor for a session: checks, CONFIG, join, START. 0, or an
 * exit status after one message. quiet: say nothing when drop_monitor is
 * simply absent (the automatic fallback); returns -1 then.
 */
int wd_dm_source_open(struct wd_session *s, const struct wd_opts *o, bool details, bool quiet);
/* STOP (if started) and free; safe to call twice. */
void wd_dm_source_close(struct wd_session *s);
/* Deliver what drop_monitor still holds, STOP, read its loss counters. */
void wd_dm_source_detach(struct wd_session *s);
bool wd_dm_source_poll(struct wd_session *s, int ms);
int wd_dm_source_keys(struct wd_session *s, struct wd_key_total **out, size_t *n);
int wd_dm_source_stats(struct wd_session *s, struct wd_stats *st);
/* Names of the codes only this source has; false for ordinary codes. */
bool wd_dm_source_names(struct wd_session *s, uint32_t code, uint64_t location,
			char *reason, char *function, char *loc, size_t len);
const char *wd_dm_source_subsys(struct wd_session *s, uint32_t code);
/* What a record's view gains (or loses) from drop_monitor. */
void wd_dm_source_view(struct wd_session *s, struct wd_drop_view *v);
/* Losses for reports: queue-limit drops, socket overruns, truncations. */
struct wd_dm_losses {
	uint64_t queue_dropped, hw_queue_dropped, overruns, truncated, summary_full;
	bool packet_mode;
};
void wd_dm_source_losses(struct wd_session *s, struct wd_dm_losses *l);

#endif /* WD_SOURCE_DROPMON_H */
