/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Conntrack's own counters, the other source of NETFILTER_DROP: the
 * per-CPU rows of /proc/net/stat/nf_conntrack (columns named by its header
 * line, which differs between kernels: "searched" before 4.10, "delete_list"
 * before 5.15, "chainlength" since; 6.1 and 6.18 print the same) and
 * net.netfilter.nf_conntrack_count / nf_conntrack_max. All are per network
 * namespace except the max: they are opened inside the namespace at start
 * and read later without privileges.
 */
#ifndef WD_CONNTRACK_STATS_H
#define WD_CONNTRACK_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum wd_ct_col {
	WD_CT_ENTRIES,		/* the namespace's conntrack count (same on every row) */
	WD_CT_FOUND,
	WD_CT_INVALID,		/* not trackable: accepted unless a rule drops them */
	WD_CT_INSERT,
	WD_CT_INSERT_FAILED,	/* confirm failed: the packet is dropped */
	WD_CT_DROP,		/* conntrack dropped the packet (no entry could be made) */
	WD_CT_EARLY_DROP,	/* entries evicted to make room (the table was full) */
	WD_CT_ICMP_ERROR,
	WD_CT_CLASHRES,		/* clashes resolved at confirm (not dropped) */
	WD_CT_CHAINLENGTH,	/* insertions refused: hash chain too long (dropped) */
	WD_CT_SEARCH_RESTART,
	WD_CT_EXPECT_NEW,
	WD_CT_EXPECT_CREATE,
	WD_CT_EXPECT_DELETE,
	WD_CT_NCOLS,
};

struct wd_ct_stats {
	unsigned int cpus;	/* rows read */
	uint32_t have;		/* bit (1 << wd_ct_col): column present */
	uint64_t v[WD_CT_NCOLS];	/* summed over CPUs (entries: the first row's) */
	bool has_count, has_max;
	uint64_t count;		/* net.netfilter.nf_conntrack_count */
	uint64_t max;		/* net.netfilter.nf_conntrack_max */
};

/* Column name as the kernel prints it ("insert_failed"). */
const char *wd_ct_col_name(enum wd_ct_col c);
/*
 * Parse the text of /proc/net/stat/nf_conntrack (header line, then one
 * row of hex numbers per CPU) into *s (count/max untouched). 0, or -1
 * when it is not that file's shape.
 */
int wd_ct_stats_parse(const char *text, struct wd_ct_stats *s);

struct wd_ct_reader {
	int stat_fd;		/* -1: conntrack not in this kernel */
	int count_fd;
	int max_fd;
};

/*
 * Open the three files inside the namespace of @netns_fd (-1: ours). A
 * kernel without conntrack is no error (the fds are -1). 0, or -1 with a
 * message when the namespace cannot be entered.
 */
int wd_ct_open(struct wd_ct_reader *r, int netns_fd, char *err, size_t errlen);
/* Read them now: 0, or -1 when conntrack is absent or unreadable. */
int wd_ct_read(const struct wd_ct_reader *r, struct wd_ct_stats *s);
void wd_ct_close(struct wd_ct_reader *r);

/*
 * What conntrack's counters say about the NETFILTER_DROP no rule claims
 * between two reads. The counters explain, they do not count: a clash
 * lost at confirm moves both drop and insert_failed, a refused insertion
 * (chainlength) moves insert_failed too. The exact number is the traced
 * NETFILTER_DROP no trace claims (docs/firewall.md).
 */
struct wd_ct_cause {
	bool dropped;		/* drop or insert_failed moved */
	bool table_full;	/* drop moved with the table at its max, or early_drop moved */
	uint64_t drop, insert_failed, early_drop, invalid, chainlength;	/* deltas */
	bool has_count, has_max;
	uint64_t count, max;	/* of the later read */
	char text[200];		/* "conntrack table full (N of max M)", ...; "" when none */
};

void wd_ct_explain(const struct wd_ct_stats *before, const struct wd_ct_stats *after,
		   struct wd_ct_cause *c);

#endif /* WD_CONNTRACK_STATS_H */
