/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One read of every source of a session, from which every output of a
 * report, a refresh or a scrape derives: top's table, count's table and
 * JSON, --group-by, serve's families, the kernel counters' reconciliation,
 * the end-of-run summaries. Taking one changes nothing that is counted:
 * generation swaps happen only in wd_session_maintain(), which the command
 * loops call after a snapshot. While attached, totals never decrease and
 * never exceed the truth; after wd_session_detach() they are exact.
 */
#ifndef WD_SNAPSHOT_H
#define WD_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "keyset.h"
#include "source.h"

struct wd_session;
struct wd_rules_snap;
struct wd_tcp_snap;

struct wd_stats {
	uint64_t seen;			/* drops counted: the sum of all counts */
	uint64_t v[WD_STAT_MAX];
	uint64_t rate_limited;		/* records over --rate: derived, not counted */
	uint64_t recursion_misses;	/* drops the kernel could not run us for */
	uint64_t filter_nonlinear;	/* left unmatched: the filter needed paged data */
};

/* A (reason, location) total, summed over CPUs and the rest of the key. */
struct wd_total {
	uint32_t reason;
	uint64_t location;	/* 0: overflow bucket, location unknown */
	uint64_t count;
};

/* A (reason, location, stack) total of --stacks. */
struct wd_stack_total {
	uint32_t reason;
	int32_t stack_id;	/* <0: the error instead of a stack; WD_STACK_NONE: overflow */
	uint64_t location;	/* 0: stack_counts was full */
	uint64_t count;
};

/*
 * key.ino of swapped-out counts whose socket's inode was let go: the counts of
 * sockets of one reason, namespace and cgroup that the fold did not take.
 */
#define WD_SOCK_INO_RETIRED	UINT64_MAX
/* key.cgroup_id of swapped-out counts whose cgroup is gone (wd_session_age()). */
#define WD_CGROUP_GONE		UINT64_MAX
/* wd_key.ifindex of retired counts whose interface is gone, its namespace not. */
#define WD_IFINDEX_GONE		UINT32_MAX

struct wd_snapshot {
	double t;			/* wd_now() when it was taken */
	struct wd_keyset keys;		/* every count by its whole key (struct
					 * wd_key_total, wd_key_rows()), sorted by key */
	struct wd_stats stats;		/* seen: the sum of keys */
	uint64_t lost_events;		/* drops not counted: recursion misses, or
					 * those drop_monitor's queue could not hold */
	struct wd_count_source source;	/* what the source adds to a report (its
					 * losses); name NULL: nothing */
	bool has_socks;			/* counted by socket (WD_SRC_SOCKETS) */
	struct wd_keyset socks;		/* struct wd_sock_total (wd_sock_rows()), sorted */
	unsigned int sock_generation;	/* by-socket generations swapped out so far */
	bool has_stacks;		/* --stacks (WD_SRC_STACKS) */
	struct wd_stack_total *stacks;	/* sorted by count */
	size_t n_stacks;
	struct wd_rules_snap *rules;	/* --rules (rules_snap.h), NULL: none */
	struct wd_tcp_snap *tcp;	/* --tcp (source_tcp.h), NULL: not asked for */
};

/* Read every source once into snap (freed with wd_snapshot_free). 0 or -errno. */
int wd_session_snapshot(struct wd_session *s, struct wd_snapshot *snap);
void wd_snapshot_free(struct wd_snapshot *snap);
/* By (reason, location), sorted by count; the caller frees *out. 0 or -ENOMEM. */
int wd_snapshot_totals(const struct wd_snapshot *snap, struct wd_total **out, size_t *n);

/*
 * The one point where sources swap generations (and keep any other table
 * bounded): after a snapshot, never inside one. The swapped-out counts by
 * socket go to fold first (--group-by process: to their process), else are
 * kept without their inode. 0 or -errno.
 */
int wd_session_maintain(struct wd_session *s, wd_sock_fold_fn fold, void *ctx);
/*
 * After maintain: the swapped-out counts of namespaces that a says are
 * gone (their interfaces with them) move to one row per reason and
 * location (by socket: and cgroup), namespace WD_NETNS_COOKIE_GONE,
 * interface 0; by socket, those of gone cgroups to cgroup WD_CGROUP_GONE.
 * Every total, and each key's floor for live reads, stays the same: memory
 * follows what exists, not the host's history.
 */
int wd_session_age(struct wd_session *s, const struct wd_age *a);

#endif /* WD_SNAPSHOT_H */
