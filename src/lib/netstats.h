/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Drop counters that are not in /proc/net/{snmp,netstat}: per-interface
 * rx_dropped, tx_dropped, rx_missed_errors and qdisc drops (rtnetlink
 * dumps through libmnl, as `ip -s link` and `tc -s qdisc` read them), and
 * the per-socket drop column of /proc/net/{udp,udp6,raw,raw6}. Added to a
 * struct wd_counters under these names, all sums:
 *
 *   netdev:rx_dropped  netdev:tx_dropped  netdev:rx_missed_errors
 *   qdisc:drops          root (egress) qdiscs, as `tc -s qdisc` shows them
 *   qdisc:ingress_drops  ingress/clsact qdiscs (tc filters that drop)
 *   sockets:udp_drops  sockets:raw_drops  (open sockets only)
 *
 * No privileges needed. Values are those of the caller's network namespace;
 * wd_netstats_sample() reads everything inside another one.
 */
#ifndef WD_NETSTATS_H
#define WD_NETSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "counters.h"

/* netdev:* and qdisc:* over rtnetlink; 0 or a negative errno. */
int wd_netstats_read(struct wd_counters *c);

/* Sum of the "drops" column (the last) of /proc/net/udp-style text. */
int wd_sock_drops_parse(const char *text, uint64_t *sum);

/*
 * One full sample: the /proc/net files of wd_counters_read(), the socket
 * drop columns and wd_netstats_read(), inside the network namespace open
 * at netns_fd (an nsfs file; -1: the caller's own). Entering another
 * namespace needs CAP_SYS_ADMIN; whydrop goes back to its own afterwards.
 * Returns 0, or -1 with a message in err.
 */
int wd_netstats_sample(struct wd_counters *c, int netns_fd, char *err, size_t errlen);

#endif /* WD_NETSTATS_H */
