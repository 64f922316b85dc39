/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read of a recording made with record --tcp: its TCP events
 * (packets of the "whydrop-tcp" interface, comment "event=tcp_..."),
 * counted apart from the drops: resets by direction, reason, state and
 * namespace, retransmitted segments per flow (docs/pcapng.md).
 */
#ifndef WD_READ_TCP_H
#define WD_READ_TCP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "drop_comment.h"
#include "pcapng_read.h"
#include "tcp_format.h"

struct wd_read_tcp_rst;
struct wd_read_tcp_flow;
struct wd_read_tcp_drop;

struct wd_read_tcp {
	bool any;			/* a TCP event was kept */
	struct wd_read_tcp_rst *resets;
	size_t n_resets, cap_resets;
	struct wd_read_tcp_flow *flows;
	size_t n_flows, cap_flows;
	struct wd_read_tcp_drop *drops;	/* TCP drops by connection and reason */
	size_t n_drops, cap_drops;
	/* what print_summary hands to the report */
	struct wd_tcp_reset_out *rst_out;
	struct wd_tcp_flow_out *flow_out;
	struct wd_tcp_doc doc;
};

/* The event's type ("tcp_reset_sent", ...) when comment is a TCP event's, else NULL. */
const char *wd_read_tcp_event(const char *comment, char *buf, size_t len);
/* One TCP event more; 0 or -ENOMEM. */
int wd_read_tcp_add(struct wd_read_tcp *t, const struct wd_pcapng_rec *rec,
		    const struct wd_pcapng_meta *m, const char *type);
/* A drop read: joined to the flows when it is a TCP packet; 0 or -ENOMEM. */
int wd_read_tcp_drop(struct wd_read_tcp *t, const struct wd_pcapng_rec *rec,
		     const struct wd_pcapng_meta *m);
/* The "resets" and "flows" of the report, in t->doc; 0 or -ENOMEM. */
int wd_read_tcp_doc(struct wd_read_tcp *t);
void wd_read_tcp_free(struct wd_read_tcp *t);
/* --lines: a TCP event as watch --tcp prints it; 0 or -ENOMEM. */
int wd_read_tcp_line(FILE *f, const struct wd_pcapng_rec *rec, const struct wd_pcapng_meta *m,
		     const char *type, bool json);

#endif /* WD_READ_TCP_H */
