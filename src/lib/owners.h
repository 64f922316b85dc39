/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who owns a kernel object a drop names: the network namespace's name (an
 * `ip netns` name, else the process that lives in it) and a socket's
 * process, found the way `ss -p` does (socket:[inode] links in /proc/PID/fd).
 * Both are caches refreshed by a scan on a miss, at most once a second;
 * a scan adds to what earlier ones found.
 */
#ifndef WD_OWNERS_H
#define WD_OWNERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WD_COMM_LEN	16	/* TASK_COMM_LEN */

enum wd_owner_kind { WD_OWNER_NETNS, WD_OWNER_SOCKET };

struct wd_owner_entry {
	uint64_t ino;		/* netns or socket inode (two file systems) */
	enum wd_owner_kind kind;
	pid_t pid;		/* 0 for an `ip netns` name */
	char name[64];		/* netns: its name; socket: the process's comm */
};

struct wd_owners {
	const char *proc;	/* "/proc", or a fixture tree */
	const char *run_netns;	/* "/run/netns", or a fixture directory */
	struct wd_owner_entry *v;	/* sorted by kind and inode */
	size_t n, cap;
	double last_scan;	/* monotonic seconds, 0 before the first */
	unsigned int scans;
	/* called with true before a scan, false after: raise what it needs */
	void (*around_scan)(bool begin);
};

/* NULL roots mean the real /proc and /run/netns. */
void wd_owners_init(struct wd_owners *o, const char *proc, const char *run_netns);
void wd_owners_free(struct wd_owners *o);

/*
 * Name of a network namespace: "blue" for /run/netns/blue, "host" for the
 * namespace of pid 1, else "COMM[PID]" of its lowest pid; NULL if unknown.
 */
const char *wd_netns_name(struct wd_owners *o, uint32_t ino);

/* The owner of a socket inode: its lowest pid and comm; NULL if unknown. */
const struct wd_owner_entry *wd_socket_owner(struct wd_owners *o, uint64_t ino);

/*
 * Scan now, whatever the rate limit (before privileges are dropped). What
 * the lookups return stays valid until the next scan.
 */
void wd_owners_scan(struct wd_owners *o);

#endif /* WD_OWNERS_H */
