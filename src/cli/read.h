/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop read, between its files: cmd_read.c (options, the files and
 * their packets read), read_report.c (the summary printed) and
 * read_rows.c (what it counts by reason and location, in a read_table.h).
 */
#ifndef WD_READ_H
#define WD_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_comment.h"
#include "flame_output.h"
#include "keyset.h"
#include "opts.h"
#include "pcapng_read.h"
#include "read_filter.h"
#include "read_stacks.h"
#include "read_table.h"
#include "read_tcp.h"

/* Drops by (reason, location), as count. */
struct read_row {
	struct wd_pcapng_meta m;	/* reason, code, location, function */
	char subsys[64];
	uint64_t count;
};

/* An empty table of struct read_row. */
void wd_read_table_init(struct wd_read_table *drops);
/* One drop more of its (reason, location); 0 or -ENOMEM. */
int wd_read_add_drop(struct wd_read_table *t, const struct wd_pcapng_meta *m);

/* The options of read that shape what it keeps and prints. */
struct read_opts {
	bool json;
	bool verbose;
	bool lines;
	bool stacks, folded;		/* --stacks, --folded */
	enum wd_group_by group_by;
	uint32_t max_groups;
};

/* What one file held, of the packets the time range and expression kept. */
struct read_file_sum {
	uint64_t packets;
	uint64_t uncommented;		/* packets without a whydrop comment */
	uint64_t commented;		/* of every packet in the file, for -v */
	bool any_ts;
	uint64_t first_ns, last_ns;	/* of the packets in the time range */
	unsigned int n_isb;
	struct wd_pcapng_stats isb;	/* the last one; comment not kept */
};

/* Every file's drops, summed: what cmd_read.c reads and read_report.c prints. */
struct read_summary {
	const struct read_opts *ro;
	struct wd_read_filter *flt;
	const char *path;		/* the file being read */
	struct read_file_sum fs;		/* ... and what it held */
	struct wd_read_table drops;		/* struct read_row */
	struct wd_keyset groups;	/* struct wd_group_key, with --group-by */
	const char *section;		/* the file's section comment (--group-by host) */
	struct wd_read_stacks stacks;	/* with --stacks */
	struct wd_flame_out *flame;	/* --svg FILE, else NULL */
	struct wd_read_tcp tcp;		/* record --tcp's events, not drops */
	uint64_t kept;			/* packets summarised or printed */
	bool any_reason;
	bool any_window;
	uint64_t start_ns, end_ns;	/* the recordings' time, cut to the range */
	uint64_t lost_events;
	char kernels[256];		/* "6.18.0", or "6.1.0, 6.12.0" */
	int out_errno;			/* --lines: standard output failed */
};

/*
 * The table or the JSON document on stdout: 0, else 1 after a message
 * (WD_EXIT_USAGE: --stacks of files recorded without).
 */
int wd_read_print_summary(struct read_summary *s);

#endif /* WD_READ_H */
