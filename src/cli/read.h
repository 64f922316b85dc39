/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read, between its files: cmd_read.c (options, reading, the
 * summary) and read_groups.c (what it counts, by key).
 */
#ifndef WD_READ_H
#define WD_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_comment.h"
#include "netns.h"
#include "opts.h"

/* Rows counted by key: an array and an open-addressing index into it. */
struct table {
	size_t size;			/* of a row */
	uint32_t (*hash)(const void *row);
	bool (*same)(const void *a, const void *b);
	char *rows;
	size_t n, cap;
	uint32_t *slots;		/* row index + 1, 0 = empty */
	size_t n_slots;
};

void wd_table_free(struct table *t);

/* Drops by (reason, location), as count. */
struct read_row {
	struct wd_pcapng_meta m;	/* reason, code, location, function */
	char subsys[64];
	uint64_t count;
};

/* --group-by: drops by (who, reason), as count --group-by. */
struct read_group {
	char group[512];		/* as long as a cgroup path can be */
	struct wd_netns_id ns;		/* by netns or interface: the namespace */
	char reason[128];		/* "" in location-only recordings */
	uint32_t code;
	uint64_t count;
	uint64_t group_total;		/* of every reason in the group, for sorting */
};

/* Empty tables of struct read_row and of struct read_group. */
void wd_read_tables_init(struct table *drops, struct table *groups);
/* One drop more of its (reason, location); 0 or -ENOMEM. */
int wd_read_add_drop(struct table *t, const struct wd_pcapng_meta *m);
/* One drop more of its (who, reason); comment for what meta lacks. 0 or -ENOMEM. */
int wd_read_add_group(struct table *t, const struct wd_pcapng_meta *m, const char *comment,
		      enum wd_group_by by);
/*
 * Past the max largest groups, every row goes to "(other)", by reason;
 * then every row has its group's total, the largest group first.
 */
int wd_read_fold_groups(struct table *t, uint32_t max);

#endif /* WD_READ_H */
