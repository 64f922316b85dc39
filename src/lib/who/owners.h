/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who owns a kernel object a drop names: the network namespace's name (the
 * one given on the command line, an `ip netns` name, "host", the container or
 * pod that lives in it, else a process that lives in it) and a socket's
 * process, found the way `ss -p` does (socket:[inode] links in /proc/PID/fd).
 * Both are caches refreshed by a scan on a miss, at most once a second;
 * a scan adds to what earlier ones found. A namespace is named by its
 * cookie where the scan could learn it (struct wd_netns_id): a name found
 * by inode alone is given only to ids without a cookie, since the kernel
 * reuses inodes. Bounded: what the last scan found, names given on the
 * command line, and at most keep_unseen entries it did not find (sockets
 * closed, namespaces freed, or out of sight once unprivileged), the most
 * recently found first: the host's history does not pile up.
 */
#ifndef WD_OWNERS_H
#define WD_OWNERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "netns.h"

#define WD_COMM_LEN	16	/* TASK_COMM_LEN */

enum wd_owner_kind { WD_OWNER_NETNS, WD_OWNER_SOCKET };

/* Where a namespace's name comes from, best first (sockets: always 0). */
enum wd_netns_rank {
	WD_NETNS_GIVEN,		/* --netns NAME|PATH, as the user wrote it */
	WD_NETNS_IP_NETNS,	/* /run/netns/NAME; of several, the first in byte order */
	WD_NETNS_HOST,		/* the namespace of pid 1 */
	WD_NETNS_WORKLOAD,	/* a container or pod lives in it (lowest pid's cgroup) */
	WD_NETNS_PROCESS,	/* COMM[PID] of the lowest pid living in it */
};

struct wd_owner_entry {
	uint64_t ino;		/* socket inode; netns: its cookie, or inode if by_inode */
	enum wd_owner_kind kind;
	bool by_inode;		/* netns: no cookie learnt, only its inode */
	enum wd_netns_rank rank;
	pid_t pid;		/* 0 for a given, `ip netns` or "host" name */
	unsigned int seen;	/* the last scan that found it */
	char name[64];		/* netns: its name; socket: the process's comm */
};

#define WD_OWNERS_KEEP_UNSEEN	4096

struct wd_ctr_names;

struct wd_owners {
	const char *proc;	/* "/proc", or a fixture tree */
	const char *run_netns;	/* "/run/netns", or a fixture directory */
	struct wd_owner_entry *v;	/* sorted by kind and inode */
	size_t n, cap;
	/* the namespaces the last two scans found, each by its best name then (sorted) */
	struct wd_owner_entry *found, *found_before;
	size_t n_found, cap_found, n_found_before, cap_found_before;
	double last_scan;	/* monotonic seconds, 0 before the first */
	unsigned int scans;
	bool complete;		/* the last scan read the namespaces it found by cookie */
	bool denied;		/* this scan found a namespace by inode only */
	size_t keep_unseen;	/* entries kept that the last scan did not find */
	/* called with true before a scan, false after: raise what it needs */
	void (*around_scan)(bool begin);
	/* names of containers and pods (containers.h), NULL: by cgroup path only */
	struct wd_ctr_names *ctr;
	/* the namespace of an nsfs path: wd_netns_id_of_path, or a fixture's */
	int (*netns_id)(const char *path, struct wd_netns_id *id);
};

/* NULL roots mean the real /proc and /run/netns. */
void wd_owners_init(struct wd_owners *o, const char *proc, const char *run_netns);
void wd_owners_free(struct wd_owners *o);

/*
 * Name of a network namespace, by the first of: the name given to
 * wd_owners_name_netns; "blue" for /run/netns/blue; "host" for the namespace
 * of pid 1; the workload of the lowest pid in it whose cgroup names one
 * ("docker:0123456789ab", "pod UID"); "COMM[PID]" of its lowest pid. NULL if
 * unknown.
 */
const char *wd_netns_name(struct wd_owners *o, const struct wd_netns_id *ns);

/* Name a namespace as the user did (--netns): it outranks every other name. */
void wd_owners_name_netns(struct wd_owners *o, const struct wd_netns_id *ns, const char *name);

/* The owner of a socket inode: its lowest pid and comm; NULL if unknown. */
const struct wd_owner_entry *wd_socket_owner(struct wd_owners *o, uint64_t ino);

/*
 * Scan now, whatever the rate limit (before privileges are dropped). What
 * the lookups return stays valid until the next scan.
 */
void wd_owners_scan(struct wd_owners *o);
/* Scan when the last scan is max_age seconds old or more. */
void wd_owners_refresh(struct wd_owners *o, double max_age);
/*
 * The name under which the last scan found this namespace (in /run/netns,
 * or as the namespace of a process whose /proc/PID/ns/net it could read:
 * once unprivileged, only its own user's); NULL if it did not. Unlike
 * wd_netns_name(), only what is there now. By cookie; by inode where the
 * kernel gives none (the kernel gives a freed namespace's inode to the
 * next one, which has another name).
 */
const char *wd_netns_found(const struct wd_owners *o, const struct wd_netns_id *ns);
/* The same for the scan before the last. */
const char *wd_netns_found_before(const struct wd_owners *o, const struct wd_netns_id *ns);

#endif /* WD_OWNERS_H */
