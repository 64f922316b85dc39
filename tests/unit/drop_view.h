/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The drop the output suites start from (test_format.c, the pcapng
 * fixtures): DESIGN.md's NO_SOCKET drop at tcp_v4_rcv+0x99 of an IPv4
 * packet at @ts_ns, everything else zero for the suite to fill.
 */
#ifndef WD_UNIT_DROP_VIEW_H
#define WD_UNIT_DROP_VIEW_H

#include <string.h>

#include "format.h"

static inline void unit_no_socket_view(struct wd_drop_view *v, uint64_t ts_ns)
{
	memset(v, 0, sizeof(*v));
	v->ts_realtime_ns = ts_ns;
	v->reason = "NO_SOCKET";
	v->code = 3;
	v->function = "tcp_v4_rcv";
	v->location = "tcp_v4_rcv+0x99";
	v->l3proto = WD_ETH_P_IP;
}

#endif /* WD_UNIT_DROP_VIEW_H */
