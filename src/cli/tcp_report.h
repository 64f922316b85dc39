/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --tcp in the outputs: a snapshot's tcp section (source_tcp.h) named into
 * the rows that count, top and serve print (tcp_format.h).
 */
#ifndef WD_TCP_REPORT_H
#define WD_TCP_REPORT_H

#include "prom.h"
#include "session.h"
#include "tcp_format.h"

#define WD_TCP_SHOWN_FLOWS	20	/* flows a report shows, the rest summed */

struct wd_tcp_parts {
	struct wd_tcp_doc doc;
	struct wd_tcp_reset_out *resets;
	char (*reason)[64];
	struct wd_tcp_flow_out *flows;
	struct wd_tcp_flow_reason *flow_reasons;	/* WD_TCP_FLOW_REASONS a flow */
	char (*flow_reason)[64];
};

/* From snap->tcp (NULL: nothing, 0). 0 or -ENOMEM; free with wd_tcp_parts_free. */
int wd_tcp_parts_build(struct wd_session *s, const struct wd_snapshot *snap,
		       struct wd_tcp_parts *p);
void wd_tcp_parts_free(struct wd_tcp_parts *p);
/*
 * serve --tcp: whydrop_tcp_resets_total{reason,direction}; with a cap
 * (--per-cgroup) {reason,direction,cgroup}, bounded by it. 0 or -ENOMEM.
 */
int wd_tcp_render_prom(struct wd_prom_buf *b, struct wd_session *s,
		       const struct wd_snapshot *snap, struct wd_prom_cap *cap);

#endif /* WD_TCP_REPORT_H */
