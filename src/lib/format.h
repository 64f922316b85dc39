/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Output of drops: per-packet lines (text/JSON) and count documents. */
#ifndef WD_FORMAT_H
#define WD_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "decode.h"

/* One dropped packet, already resolved to names. NULL/false = unknown. */
struct wd_drop_view {
	uint64_t ts_realtime_ns;
	const char *reason;	/* NULL in location-only mode */
	uint32_t code;
	const char *function;
	const char *location;
	uint16_t l3proto;
	struct wd_flow flow;
	uint32_t len;
	uint32_t ifindex;
	const char *ifname;
	uint32_t netns;
	uint32_t cpu;
	const char *hint;	/* one-line explanation, text output only */
};

/* One aggregated row of a count. */
struct wd_count_row {
	uint32_t code;
	const char *reason;	/* NULL in location-only mode */
	const char *subsystem;
	const char *function;
	const char *location;
	const char *hint;
	uint64_t count;
};

/* A kernel counter that moved over the same interval as the count. */
struct wd_counter_row {
	const char *name;	/* "TcpExtListenOverflows", "qdisc:drops" */
	uint64_t delta;
	const char *reasons;	/* matching reasons, "A,B"; NULL: context only */
	bool compared;		/* traced and unexplained are valid */
	uint64_t traced;	/* drops traced with the matching reasons */
	uint64_t unexplained;	/* delta beyond traced: drops with no traced reason */
	const char *explanation; /* why such drops lack an event (unexplained > 0) */
	const char *note;	/* a remark, or why it was not compared */
	const char *message;	/* text output: the sentence for unexplained drops */
};

struct wd_count_doc {
	const char *kernel;
	double duration_s;
	uint64_t total;
	uint64_t lost_events;
	bool location_only;
	const struct wd_count_row *rows;
	size_t n_rows;
	/* Additive: kernel counters (printed only when has_counters). */
	bool has_counters;
	bool counters_only;	/* no tracing: total, drops, lost_events unknown */
	const char *counters_scope;	/* "network namespace blue", NULL: ours */
	const struct wd_counter_row *counters;
	size_t n_counters;
};

/* "2026-12-03T06:42:05.123456Z" */
void wd_format_time(uint64_t realtime_ns, char *buf, size_t len);
void wd_print_drop_text(FILE *f, const struct wd_drop_view *d);
void wd_print_drop_json(FILE *f, const struct wd_drop_view *d);
void wd_print_count_json(FILE *f, const struct wd_count_doc *doc);
void wd_print_count_table(FILE *f, const struct wd_count_doc *doc);
/* Only the counters part of the table (what `top` shows every second). */
void wd_print_counters_table(FILE *f, const struct wd_count_doc *doc);

#endif /* WD_FORMAT_H */
