/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --tcp: the TCP events program (tcp_events.h) as a source beside the drop
 * source: resets by direction, reason, state and namespace, retransmitted
 * segments per flow, its records through the session's wait. Its section
 * of a snapshot is a struct wd_tcp_snap.
 */
#ifndef WD_SOURCE_TCP_H
#define WD_SOURCE_TCP_H

#include <linux/types.h>

#include "tcp_drop_key.h"
#include "tcp_events.h"
#include "tcp_names.h"

/* TCP drops of a (flow, reason, namespace), summed over CPUs. */
struct wd_tcp_drop_row {
	struct wd_tcp_drop_key key;
	struct wd_tcp_drop_count count;
};

/* What a snapshot holds of the TCP source; reads only, counts only grow. */
struct wd_tcp_snap {
	const struct wd_tcp_caps *caps;
	const struct wd_tcp_names *names;	/* the session's, live as long */
	struct wd_tcp_rst_count *resets;
	size_t n_resets;
	struct wd_tcp_flow_count *flows;
	size_t n_flows;
	uint64_t flows_overflow;	/* segments of flows the hash had no room for */
	struct wd_tcp_stats stats;
	/* From the drop program (tcp_drops.c): its TCP drops per flow. */
	bool has_drops;			/* false: the drop source cannot tell */
	struct wd_tcp_drop_row *drops;
	size_t n_drops, cap_drops;
	struct wd_tcp_drop_count drops_overflow;	/* the per-flow hash had no room */
};

struct wd_snapshot;
/* snap's tcp section, made empty if it has none yet; NULL: out of memory. */
struct wd_tcp_snap *wd_tcp_snap_of(struct wd_snapshot *snap);
void wd_tcp_snap_free(struct wd_tcp_snap *t);
struct wd_session;
/* The TCP source's names (reset reasons, states); NULL without --tcp. */
const struct wd_tcp_names *wd_source_tcp_names(struct wd_session *s);

#endif /* WD_SOURCE_TCP_H */
