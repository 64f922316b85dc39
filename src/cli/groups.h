/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * --group-by, the one engine of count, top and read: exact counts by reason
 * and by who they hurt. What a drop says of who (struct wd_group_who) comes
 * from a live snapshot (groups_live.c: its keys, its counts by socket) or
 * from a recording's packet comments (read); the engine gives both the same
 * labels, keeps the --max-groups largest groups with the rest as one
 * "(other)" group, and makes the rows of the table and the JSON document.
 */
#ifndef WD_GROUPS_H
#define WD_GROUPS_H

#include <stdio.h>

#include "containers.h"
#include "decode.h"
#include "drop_comment.h"
#include "format.h"
#include "aging.h"
#include "keyset.h"
#include "netns.h"
#include "opts.h"
#include "session.h"

#define WD_GROUP_LABEL	512	/* as long as a cgroup path can be shown */

/* What is known of who a drop hurt; NULL and 0 where nothing is. */
struct wd_group_who {
	struct wd_netns_id ns;		/* both 0: unknown */
	const char *netns_name;
	const char *ifname;		/* NULL: ifindex, if any */
	uint32_t ifindex;
	enum wd_sock_kind sock;
	uint64_t sock_ino;		/* 0: not known; WD_SOCK_INO_RETIRED: let go */
	const char *cgroup;		/* the unit, container or pod its path names, else the path */
	uint64_t cgroup_id;		/* when the path is not known */
	int pid;			/* the socket's process, 0: not seen */
	const char *comm;
	const struct wd_ctr_name *ctr;	/* the socket's container or pod, else the namespace's */
	const struct wd_flow *flow;	/* the packet's addresses */
	const char *host;		/* the host that recorded it */
};

/* One row: a group and a reason; zeroed before filled (compared as bytes). */
struct wd_group_key {
	char group[WD_GROUP_LABEL];
	/* by netns or interface, the group's namespace: a group's rows sort together */
	uint64_t netns_cookie;
	uint32_t netns;
	uint32_t code;
	char reason[128];		/* "" in location-only recordings */
};

/* The label of w's group by by, as count, top and read show it. */
const char *wd_group_label(enum wd_group_by by, const struct wd_group_who *w, char *buf,
			   size_t len);
/* What w points into, for a recorded drop. */
struct wd_group_scratch {
	struct wd_ctr_name ctr;
	struct wd_flow flow;
	char host[128];
};

/*
 * What a recorded drop says of who it hurt: its comment (parsed into m),
 * its packet (len bytes from the network header, LINKTYPE_RAW) and its
 * section's comment ("whydrop: host=web1", or NULL); sc holds what w points
 * to while w is used.
 */
void wd_group_who_recorded(const struct wd_pcapng_meta *m, const char *comment,
			   const uint8_t *pkt, size_t len, const char *section,
			   struct wd_group_scratch *sc, struct wd_group_who *w);
/* An empty set of rows (struct wd_group_key). */
void wd_group_rows_init(struct wd_keyset *rows);
/* count drops of reason (NULL: location only) more in w's group. 0 or -ENOMEM. */
int wd_group_add(struct wd_keyset *rows, enum wd_group_by by, const struct wd_group_who *w,
		 const char *reason, uint32_t code, uint64_t count);

/* The --group-by part of a count document, freed with wd_groups_doc_free. */
struct wd_groups_doc {
	struct wd_keyset rows;		/* struct wd_group_key: the strings of out */
	struct wd_group_out *out;
};

/*
 * rows (given up to gd) as doc's groups: the max largest groups, every row
 * of the others summed into "(other)" by reason; largest group first.
 */
int wd_groups_doc_make(struct wd_keyset *rows, enum wd_group_by by, uint32_t max,
		       struct wd_count_doc *doc, struct wd_groups_doc *gd);
void wd_groups_doc_free(struct wd_groups_doc *gd);

/* ---- groups_live.c: a live session's groups, from its snapshots ---- */

/* A socket's owner as seen while it was open: sockets close before count ends. */
struct wd_known_sock {
	uint64_t ino;
	int pid;		/* 0: never seen in /proc */
	char comm[WD_COMM_LEN + 1];
	unsigned int seen_gen;	/* the by-socket generation it last dropped in */
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
	struct wd_keyset retired;	/* struct wd_group_key */
	unsigned int exited_scan;	/* the /proc scan exited processes were last judged by */
	struct wd_aging aging;		/* the counts of gone namespaces and cgroups */
};

void wd_groups_init(struct wd_groups *g, const struct wd_opts *o, struct wd_session *s);
void wd_groups_free(struct wd_groups *g);
/* Learn the owners of sockets that dropped, as snap has them (once a second). */
void wd_groups_refresh(struct wd_groups *g, const struct wd_snapshot *snap);
/*
 * wd_session_maintain() after the tables of a snapshot are made: counts of
 * swapped-out sockets go to their process's row (--group-by process), the
 * rows of processes that exited to "(process exited)" (at each new /proc
 * scan), what is gone folded (wd_aging_run()).
 */
void wd_groups_maintain(struct wd_groups *g, struct wd_session *s);
/* The --group-by part of a count document, from snap. 0 or -errno. */
int wd_groups_doc(struct wd_groups *g, const struct wd_snapshot *snap, struct wd_count_doc *doc,
		  struct wd_groups_doc *gd);
/* top: the groups table of snap. */
void wd_groups_print_live(struct wd_groups *g, const struct wd_snapshot *snap, FILE *f);

#endif /* WD_GROUPS_H */
