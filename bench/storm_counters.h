/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * storm_counters: the kernel's count of a storm's drops, read from the
 * network namespace the storm runs in, independently of any tracer: the
 * drops column of our own receiving sockets in /proc/net/udp and udp6 (found
 * by inode), Udp RcvbufErrors and NoPorts in /proc/net/snmp, Udp6RcvbufErrors
 * and Udp6NoPorts in /proc/net/snmp6.  Used by storm.c.
 */
#ifndef WHYDROP_STORM_COUNTERS_H
#define WHYDROP_STORM_COUNTERS_H

#include <stdbool.h>

/* A receiving socket of -m rcvbuf, never read. */
struct receiver {
	int fd;
	bool v6;
	unsigned long ino;
};

/* The namespace's counters of our drops; -1 where unreadable. */
struct counters {
	long long sock[2];	/* drops column of our socket, [0] IPv4, [1] IPv6 */
	long long rcvbuf[2];	/* Udp RcvbufErrors, Udp6RcvbufErrors */
	long long noports[2];	/* Udp NoPorts, Udp6NoPorts */
};

void read_counters(struct counters *c, const struct receiver *r, int nr);
/* b - a, or -1 if either is unknown. */
long long counter_delta(long long a, long long b);
/*
 * The kernel's count of the drops of family @fam (0 IPv4, 1 IPv6) from @a to
 * @b: NoPorts with @closed (-m closed), else the drops of our socket.
 */
long long family_drops(const struct counters *a, const struct counters *b,
		       int fam, bool closed);
void settle_counters(struct counters *c, const struct counters *c0,
		     const struct receiver *r, int nr, bool closed);

#endif /* WHYDROP_STORM_COUNTERS_H */
