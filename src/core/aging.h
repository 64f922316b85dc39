/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which namespaces, cgroups and interfaces are gone, for wd_session_age(),
 * as top and count judge it (serve --per-netns/--per-interface by its
 * series: serve_who.c). A cgroup is gone once removed (cgroup.c's table:
 * the kernel told it, or a whole walk missed it): its ids are never reused.
 * An interface, once whydrop's socket in its namespace finds no such index.
 *
 * A namespace is gone once two complete /proc and /run/netns scans in a
 * row missed it, the second made after the first miss: a key is only aged
 * once it was swapped out, so its namespace existed before the first, and
 * a later scan would have found it were it alive. A scan that could not
 * learn namespaces' cookies judges nothing. A namespace the scan cannot see
 * (one only another user's processes live in, without -p; one held by a
 * mount outside /run/netns and no process) is taken as gone: that moves
 * its counts to "(netns gone)", no total changes. Only where the session
 * names namespaces (--group-by, records, --netns-names): without, nothing
 * is scanned, and nothing judged.
 */
#ifndef WD_AGING_H
#define WD_AGING_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct wd_aging {
	struct wd_session *s;
	uint64_t *missed, *next;	/* namespaces the scan missed: last pass's, this one's */
	size_t n_missed, cap_missed, n_next, cap_next;
	unsigned int scan;		/* the scan of the last pass */
	double scan_every;		/* seconds between scans for aging */
	bool cgroups;			/* fold gone cgroups' counts by socket too */
};

void wd_aging_init(struct wd_aging *ag, struct wd_session *s);
void wd_aging_free(struct wd_aging *ag);
/* After wd_session_maintain(): fold what is gone (wd_session_age()). 0 or -errno. */
int wd_aging_run(struct wd_aging *ag);

#endif /* WD_AGING_H */
