/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read, between its files: cmd_read.c (options, reading, the
 * summary) and read_rows.c (what it counts by reason and location).
 */
#ifndef WD_READ_H
#define WD_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_comment.h"
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

/* An empty table of struct read_row. */
void wd_read_table_init(struct table *drops);
/* One drop more of its (reason, location); 0 or -ENOMEM. */
int wd_read_add_drop(struct table *t, const struct wd_pcapng_meta *m);

#endif /* WD_READ_H */
