/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Least privilege: once the BPF program is attached, a command runs with no
 * capability in effect (CAP_BPF alone on kernels that demand it to read
 * maps). The few an option needs now and then (-p: reading other users'
 * /proc/PID/fd; drop_monitor: STOP on exit) stay permitted and are raised
 * only around that work. Nothing can be regained beyond them: the bounding
 * and ambient sets are emptied and no_new_privs is set.
 */
#ifndef WD_PRIVILEGES_H
#define WD_PRIVILEGES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define WD_CAP_SETPCAP		8
#define WD_CAP_NET_ADMIN	12	/* drop_monitor's STOP on exit */
#define WD_CAP_SYS_ADMIN	21	/* setns(): counters and names in other namespaces */
#define WD_CAP_PERFMON		38
#define WD_CAP_BPF		39
#define WD_CAP_DAC_READ_SEARCH	2	/* -p: open other users' /proc/PID/fd */
#define WD_CAP_SYS_PTRACE	19	/* -p: read the socket:[inode] links in them */

#define WD_CAP(c)		(1ULL << (c))

/*
 * Before loading: whether this process may load and attach the BPF
 * program, with CAP_BPF and CAP_PERFMON (5.8+) or CAP_SYS_ADMIN in effect;
 * true when it cannot tell (the kernel decides then). *@net_admin tells
 * whether CAP_NET_ADMIN (drop_monitor's) is in effect.
 */
bool wd_privileges_bpf(bool *net_admin);

/*
 * Keep @keep (of those held now) permitted but not in effect, plus CAP_BPF
 * in effect where the kernel demands it to read maps (@map_fd is probed);
 * give up every other one, clear the bounding and ambient sets and set
 * no_new_privs. *@kept_bpf tells whether CAP_BPF had to stay. Returns 0,
 * or -1 after saying why on stderr (@who prefixes the message).
 */
int wd_privileges_reduce(const char *who, uint64_t keep, int map_fd, bool *kept_bpf);

/* Put @caps (kept by wd_privileges_reduce) in effect; 0 or -1 (errno). */
int wd_privileges_raise(uint64_t caps);
/* Back to what wd_privileges_reduce left in effect. */
void wd_privileges_lower(void);

/*
 * Nothing gained across execve, ever: ambient and bounding sets emptied.
 * The bounding set needs CAP_SETPCAP in effect, so this comes before a
 * switch of user; without CAP_SETPCAP it stays (no_new_privs covers it).
 * 0, or -1 with errno set.
 */
int wd_privileges_seal(void);

/* Resolve @name for wd_privileges_switch_user ("nobody" always resolves). */
int wd_privileges_user(const char *who, const char *name, uid_t *uid, gid_t *gid);

/* Become @uid/@gid, keeping the capabilities for wd_privileges_reduce. */
int wd_privileges_switch_user(const char *who, uid_t uid, gid_t gid);

/* "none", "CAP_SYS_ADMIN", "CAP_SYS_ADMIN CAP_BPF": the effective set now. */
const char *wd_privileges_describe(char *buf, size_t len);

#endif /* WD_PRIVILEGES_H */
