/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Drop counters that are not in /proc/net/{snmp,netstat}: per-interface
 * rx_dropped, tx_dropped, rx_missed_errors, rx_nohandler and qdisc drops (rtnetlink
 * dumps through libmnl, as `ip -s link` and `tc -s qdisc` read them), and
 * the per-socket drop column of /proc/net/{udp,udp6,raw,raw6}. Added to a
 * struct wd_counters under these names, all sums:
 *
 *   netdev:rx_dropped  netdev:tx_dropped  netdev:rx_missed_errors  netdev:rx_nohandler
 *   qdisc:drops          root (egress) qdiscs, as `tc -s qdisc` shows them
 *   qdisc:ingress_drops  ingress/clsact qdiscs (tc filters that drop)
 *   qdisc:drops@DEVICE KIND HANDLE   one of those qdiscs alone, as tc names
 *                        it ("qdisc:drops@eth0 fq_codel 0:"), the same for
 *                        ingress: the parts of the sums (counters.h)
 *   sockets:udp_drops  sockets:raw_drops  (open sockets only)
 *   conntrack:COLUMN   /proc/net/stat/nf_conntrack summed over CPUs (drop,
 *                      insert_failed, early_drop, invalid, chainlength), when
 *                      conntrack is loaded (conntrack_stats.h)
 *   sysctl:NAME        the first number of a sysctl asked for at open
 *                      ("sysctl:net.ipv4.ip_forward"): a value, not a count
 *
 * No privileges needed. Values are those of the caller's network namespace,
 * or of the one a struct wd_netstats_src was opened in.
 */
#ifndef WD_NETSTATS_H
#define WD_NETSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "conntrack_stats.h"
#include "counters.h"

struct mnl_socket;

/* Sum of the "drops" column (the last) of /proc/net/udp-style text. */
int wd_sock_drops_parse(const char *text, uint64_t *sum);

#define WD_NETSTATS_MIB_FILES	8	/* room for wd_counters_proc_files */
#define WD_NETSTATS_SOCK_FILES	4	/* udp, udp6, raw, raw6 */
#define WD_NETSTATS_SYSCTLS	64	/* sysctls read with each sample */

/*
 * What a sample reads in one network namespace, opened there once: the
 * /proc/net files (a kept /proc/net file goes on showing the namespace it
 * was opened in) and an rtnetlink socket bound in it. Sampling afterwards
 * needs no capability and no setns(), so whydrop can give up its own.
 */
struct wd_netstats_src {
	int mib[WD_NETSTATS_MIB_FILES];		/* wd_counters_proc_files, -1 if absent */
	int sock[WD_NETSTATS_SOCK_FILES];
	struct mnl_socket *nl;			/* NULL: no rtnetlink here */
	struct wd_ct_reader ct;			/* conntrack's counters, -1s if absent */
	int sysctl[WD_NETSTATS_SYSCTLS];	/* /proc/sys files, -1 if absent */
	const char *sysctl_name[WD_NETSTATS_SYSCTLS];
};

/*
 * Open them inside the namespace open at @netns_fd (an nsfs file; -1: the
 * caller's own), which needs CAP_SYS_ADMIN, and come back; with the
 * sysctls named (NULL-terminated, dotted names; NULL: none), at most
 * WD_NETSTATS_SYSCTLS. 0, or -1 with a message in err.
 */
int wd_netstats_open(struct wd_netstats_src *src, int netns_fd, const char *const *sysctls,
		     char *err, size_t errlen);
/* Nothing open: wd_netstats_close() is then harmless. */
void wd_netstats_init(struct wd_netstats_src *src);
/*
 * One full sample: the /proc/net files of wd_counters_read(), the socket
 * drop columns and the rtnetlink counters. 0, or -1 with a message in err.
 */
int wd_netstats_sample(struct wd_counters *c, const struct wd_netstats_src *src,
		       char *err, size_t errlen);
void wd_netstats_close(struct wd_netstats_src *src);

#endif /* WD_NETSTATS_H */
