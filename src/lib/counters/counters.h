/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel network counters and sysctls from plain files: the MIBs of
 * /proc/net/{snmp,netstat,snmp6}, /proc/net/xfrm_stat, /proc/net/softnet_stat
 * and /sys/class/net/DEV/statistics. No privileges needed. Counter names are
 * spelled as nstat prints them ("TcpExtTCPBacklogDrop", "UdpNoPorts",
 * "Ip6InDiscards"); "softnet:dropped" and "netdev:rx_dropped" are sums over
 * CPUs and devices. Values are those of the reader's network namespace.
 */
#ifndef WD_COUNTERS_H
#define WD_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct wd_counter {
	char *name;
	uint64_t value;
};

struct wd_counters {
	struct wd_counter *v;
	size_t n, cap;
};

void wd_counters_init(struct wd_counters *c);
void wd_counters_free(struct wd_counters *c);

/* Text of /proc/net/snmp or /proc/net/netstat ("Tcp: names" + "Tcp: values"). */
int wd_counters_parse_table(struct wd_counters *c, const char *text);
/* Text with one "Name value" per line (/proc/net/snmp6, /proc/net/xfrm_stat). */
int wd_counters_parse_flat(struct wd_counters *c, const char *text);
/* Text of /proc/net/softnet_stat: softnet:processed, :dropped, :time_squeeze,
 * :received_rps, :flow_limit_count, each summed over CPUs. */
int wd_counters_parse_softnet(struct wd_counters *c, const char *text);

/*
 * Read the /proc files above under root ("/" when NULL; tests pass a fixture
 * tree). Missing files are skipped; returns 0 or a negative errno for
 * allocation failures.
 */
int wd_counters_read(struct wd_counters *c, const char *root);
/* Those files' names in /proc/net, NULL-terminated ("snmp", "netstat", ...). */
extern const char *const wd_counters_proc_files[];
/* Parse the text of one of them (@file: its name there) into @c. */
int wd_counters_add_text(struct wd_counters *c, const char *file, const char *text);
/* All of an open file, from offset 0, NUL-terminated; NULL with errno set. */
char *wd_slurp_fd(int fd);
/* Add "netdev:STAT", the sum of sys/class/net/ * /statistics/STAT. */
int wd_counters_add_netdev(struct wd_counters *c, const char *root, const char *stat);

/*
 * The parts of a sum: a counter named "SUM@DEVICE KIND HANDLE" holds what
 * one device's qdisc adds to SUM (netstats.h: "qdisc:drops@eth0 fq_codel
 * 0:"). A part that moved, as reconciliation reports it:
 */
#define WD_COUNTER_PART	'@'

struct wd_counter_part {
	char device[16];	/* IFNAMSIZ; "if7" when the name was not known */
	char kind[16];		/* the qdisc's kind, "tbf"; "?" if unknown */
	char handle[16];	/* "8001:" */
	uint64_t delta;
};

/* "eth0 fq_codel 0:" (what follows the '@') into p; 0 or -EINVAL. */
int wd_counter_part_parse(const char *label, struct wd_counter_part *p);

/* Set (or add) a counter. */
int wd_counters_set(struct wd_counters *c, const char *name, uint64_t value);
bool wd_counters_get(const struct wd_counters *c, const char *name, uint64_t *value);

/*
 * Sysctls. Names use dots ("net.core.rmem_max"); a '*' component matches
 * every entry there ("net.ipv4.conf.*.rp_filter" visits all, default and
 * each device). Values come back on one line, tabs turned into spaces.
 */
int wd_sysctl_read(const char *root, const char *name, char *buf, size_t len);
/* cb gets each matching name, its value or NULL with err set (-errno). */
typedef void (*wd_sysctl_cb)(const char *name, const char *value, int err, void *arg);
/* Number of matches; a pattern without '*' always gives one call. */
int wd_sysctl_each(const char *root, const char *pattern, wd_sysctl_cb cb, void *arg);

#endif /* WD_COUNTERS_H */
