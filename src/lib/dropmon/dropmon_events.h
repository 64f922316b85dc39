/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_monitor's alerts turned into whydrop's own data, with no socket:
 * each packet alert is counted by the key the BPF program uses and, for
 * watch and record, handed on as a record (struct wd_event) like the ring
 * buffer's; summary alerts are counted by location. The names only this
 * source has (reasons the running kernel's table lacks, hardware traps) are
 * kept here, with what a record's view gains or loses from drop_monitor.
 * The live source (src/core/source_dropmon.c) feeds it what its socket
 * reads; tests/unit/test_dropmon.c feeds it fixtures through the same calls.
 */
#ifndef WD_DROPMON_EVENTS_H
#define WD_DROPMON_EVENTS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "dropmon.h"
#include "keyset.h"
#include "sampling.h"
#include "whydrop.h"

struct wd_reasons;
struct wd_drop_view;

/* Codes of reasons the running kernel's table lacks (and hardware traps). */
#define WD_DM_CODE_BASE	0xfff00000u

typedef void (*wd_dm_record_fn)(void *ctx, const struct wd_event *ev);

struct wd_dm_events {
	/* Set by the owner before the first alert. */
	bool packet_mode;
	bool details;			/* records wanted (watch, record) */
	size_t max_keys;		/* --map-size; then the reason's overflow key */
	struct wd_rate rate;		/* --rate (per_s): records a second, 0 = no limit */
	const struct wd_reasons *reasons;	/* the running kernel's names and codes */
	const struct wd_cbpf_insn *filter;	/* the compiled pcap filter, NULL: none */
	__u64 reason_bits[WD_REASON_BITMAP_WORDS];	/* -r */
	bool filter_reasons;
	uint64_t mono_to_real_ns;	/* records' ts_ns are CLOCK_MONOTONIC, as BPF's */
	wd_dm_record_fn on_record;	/* NULL: count only */
	void *ctx;
	/* What the alerts made. Keys and names under lock: serve reads them from its HTTP thread. */
	pthread_mutex_t lock;
	struct wd_keyset keys;		/* struct wd_key_total, one row per key */
	char (*names)[WD_DM_NAME_LEN];	/* interned names, by code - WD_DM_CODE_BASE */
	bool *names_hw;
	size_t n_names;
	uint64_t received;		/* drops drop_monitor reported */
	uint64_t emitted, truncated, summary_full, filtered;	/* over --rate: rate.limited */
	uint64_t hw_points;		/* hardware drops seen in summary mode */
	const struct wd_dm_packet *cur;	/* the alert behind the record being delivered */
	char cur_ifname[WD_DM_IFNAME_LEN + 1];
};

/* Zeroes e and sets up its lock; the owner then fills in the settings. */
void wd_dm_events_init(struct wd_dm_events *e);
void wd_dm_events_free(struct wd_dm_events *e);
/* One parsed alert (stats replies and other messages are ignored). */
void wd_dm_events_msg(struct wd_dm_events *e, const struct wd_dm_msg *m);
/* The counts by key appended to out (struct wd_key), then sorted by key. 0 or -ENOMEM. */
int wd_dm_events_keys(struct wd_dm_events *e, struct wd_keyset *out);
/* The sum of all counts. */
uint64_t wd_dm_events_seen(struct wd_dm_events *e);
/*
 * Names of the codes only this source has: reason "HW_TRAP", function
 * "(hardware)", location "hw:TRAP" for a hardware trap; the name as sent for
 * a reason the kernel's table lacks (and "(unknown)" without a location).
 * False for an ordinary code, or a software location the caller names.
 */
bool wd_dm_events_names(struct wd_dm_events *e, uint32_t code, uint64_t location,
			char *reason, char *function, char *loc, size_t len);
/* "hardware" or "unknown" for those codes, NULL for ordinary ones. */
const char *wd_dm_events_subsys(struct wd_dm_events *e, uint32_t code);
/*
 * During on_record: what the view of that record gains or loses from
 * drop_monitor (no netns, no CPU, no code for names the kernel lacks, the
 * interface name and devlink trap of hardware drops).
 */
void wd_dm_events_view(struct wd_dm_events *e, uint32_t code, struct wd_drop_view *v);

#endif /* WD_DROPMON_EVENTS_H */
