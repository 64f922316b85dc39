/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * count/top --group-by: exact counts by reason and by who they hurt (the
 * network namespace, the interface, the socket's cgroup or process). The
 * --max-groups largest groups are kept, the rest is one "other" group.
 */
#ifndef WD_GROUPS_H
#define WD_GROUPS_H

#include <stdio.h>

#include "session.h"

/* A socket's owner as seen while it was open: sockets close before count ends. */
struct wd_known_sock {
	uint64_t ino;
	int pid;		/* 0: never seen in /proc */
	char comm[WD_COMM_LEN + 1];
	unsigned int seen_gen;	/* the by-socket generation it last dropped in */
};

struct wd_group_row {
	char group[256];	/* "blue", "veth0@blue", "docker:0123456789ab", "nginx[42]" */
	/* netns, interface: the namespace; a group is (group, ns), names may repeat */
	struct wd_netns_id ns;
	uint32_t reason;
	uint64_t count;
	uint64_t group_total;	/* of every reason in the group, for sorting */
};

/*
 * --group-by process keeps the owners of the sockets of the last two by-socket
 * generations (sorted by inode), and the counts of swapped-out sockets by their
 * process (retired): never one entry per socket that ever dropped. Every
 * table is made from a snapshot (snapshot.h); nothing here reads the kernel.
 */
struct wd_groups {
	enum wd_group_by by;		/* WD_GROUP_NONE: no --group-by */
	uint32_t max_groups;
	struct wd_session *s;
	unsigned int generation;	/* the by-socket generation of the last snapshot */
	struct wd_known_sock *socks;
	size_t n_socks, cap_socks;
	struct wd_group_row *retired;
	size_t n_retired, cap_retired;
};

void wd_groups_init(struct wd_groups *g, const struct wd_opts *o, struct wd_session *s);
void wd_groups_free(struct wd_groups *g);
/* Learn the owners of sockets that dropped, as snap has them (once a second). */
void wd_groups_refresh(struct wd_groups *g, const struct wd_snapshot *snap);
/*
 * wd_session_maintain() after the tables of a snapshot are made: counts of
 * swapped-out sockets go to their process's row (--group-by process).
 */
void wd_groups_maintain(struct wd_groups *g, struct wd_session *s);
/* The rows of snap, largest group first; caller frees *out. 0 or -errno. */
int wd_groups_rows(struct wd_groups *g, const struct wd_snapshot *snap,
		   struct wd_group_row **out, size_t *n);

/* The --group-by part of a count document: rows and names, freed with wd_groups_doc_free. */
struct wd_groups_doc {
	struct wd_group_row *rows;
	struct wd_group_out *out;
	char (*names)[160];
};

int wd_groups_doc(struct wd_groups *g, struct wd_session *s, const struct wd_snapshot *snap,
		  struct wd_count_doc *doc, struct wd_groups_doc *gd);
void wd_groups_doc_free(struct wd_groups_doc *gd);
/* top: the groups table of snap. */
void wd_groups_print_live(struct wd_groups *g, struct wd_session *s,
			  const struct wd_snapshot *snap, FILE *f);

#endif /* WD_GROUPS_H */
