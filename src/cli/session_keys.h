/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Exact counts by the whole counting key (netns, interface, ...), for serve. */
#ifndef WD_SESSION_KEYS_H
#define WD_SESSION_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "session.h"
#include "whydrop.h"

/* One key of the counting map, summed over CPUs. */
struct wd_key_total {
	struct wd_key key;	/* location 0: overflow bucket, only reason known */
	uint64_t count;
};

/*
 * Every key of the counting map and every non-empty overflow slot (as a key
 * with only the reason set), unsorted. The caller frees *out.
 */
int wd_session_totals_by(struct wd_session *s, struct wd_key_total **out, size_t *n);

#endif /* WD_SESSION_KEYS_H */
