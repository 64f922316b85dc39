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
#include "keyset.h"
#include "pcapng_read.h"
#include "tcp_format.h"

/* Each table a row per key, found through a hash (keyset.h), in the order first seen. */
struct wd_read_tcp {
	bool any;			/* a TCP event was kept */
	struct wd_keyset resets;	/* by direction, reason, state, namespace */
	struct wd_keyset flows;		/* retransmitted segments by flow */
	struct wd_keyset drops;		/* TCP drops by connection and reason */
	/* what print_summary hands to the report */
	uint32_t *by_conn;		/* drop rows sorted by connection, for the join */
	struct wd_tcp_reset_out *rst_out;
	struct wd_tcp_flow_out *flow_out;
	struct wd_tcp_flow_reason *flow_reasons;	/* 8 a flow */
	struct wd_tcp_doc doc;
};

/* The event's type ("tcp_reset_sent", ...) when comment is a TCP event's, else NULL. */
const char *wd_read_tcp_event(const char *comment, char *buf, size_t len);
/* Empty tables; wd_read_tcp_free() leaves them so too. */
void wd_read_tcp_init(struct wd_read_tcp *t);
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
