/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Least privilege: once the BPF program is attached, a command keeps only
 * the capabilities the rest of its run needs, and can never regain any.
 */
#ifndef WD_PRIVILEGES_H
#define WD_PRIVILEGES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define WD_CAP_NET_ADMIN	12	/* drop_monitor's STOP on exit */
#define WD_CAP_SYS_ADMIN	21	/* setns(): counters and names in other namespaces */
#define WD_CAP_BPF		39
#define WD_CAP_DAC_READ_SEARCH	2	/* -p: open other users' /proc/PID/fd */
#define WD_CAP_SYS_PTRACE	19	/* -p: read the socket:[inode] links in them */

#define WD_CAP(c)		(1ULL << (c))

/*
 * Keep the capabilities in @keep (those held now), plus CAP_BPF alone where
 * the kernel demands it to read maps (@map_fd is probed); give up every
 * other one, clear the bounding and ambient sets and set no_new_privs.
 * *@kept_bpf tells whether CAP_BPF had to stay. Returns 0, or -1 after
 * saying why on stderr (@who prefixes the message).
 */
int wd_privileges_reduce(const char *who, uint64_t keep, int map_fd, bool *kept_bpf);

/*
 * Nothing gained across execve, ever: bounding and ambient sets emptied.
 * Needs CAP_SETPCAP in effect, so it comes before a switch of user.
 */
void wd_privileges_seal(void);

/* Resolve @name for wd_privileges_switch_user ("nobody" always resolves). */
int wd_privileges_user(const char *who, const char *name, uid_t *uid, gid_t *gid);

/* Become @uid/@gid, keeping the capabilities for wd_privileges_reduce. */
int wd_privileges_switch_user(const char *who, uid_t uid, gid_t gid);

/* "none", "CAP_SYS_ADMIN", "CAP_SYS_ADMIN CAP_BPF": the effective set now. */
const char *wd_privileges_describe(char *buf, size_t len);

#endif /* WD_PRIVILEGES_H */
