/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * count and read --stacks --svg FILE: the flame graph's file, opened before tracing
 * with record -w's checks (cli_open.h), written once from the report's
 * stacks (flame_output.c).
 */
#ifndef WD_FLAME_OUTPUT_H
#define WD_FLAME_OUTPUT_H

#include <stdbool.h>
#include <sys/stat.h>

#include "format.h"
#include "stack.h"

struct wd_flame_out {
	const char *cmd;	/* "count", "read": for the messages */
	const char *path;
	int fd;			/* -1: closed */
	struct stat st;
	bool created;		/* did not exist before: removed if never written */
	bool written;
};

/* Before tracing (or reading): 0, or 1 after a message. */
int wd_flame_out_open(struct wd_flame_out *o, const char *cmd, const char *path);
/*
 * The flame graph of these folded lines (the stacks of doc that were not
 * hidden), doc saying what was counted. 0, or 1 after a message.
 */
int wd_flame_out_write(struct wd_flame_out *o, const struct wd_folded *fo,
		       const struct wd_count_doc *doc);
/* Closed; a file created by wd_flame_out_open and never written is removed. */
void wd_flame_out_close(struct wd_flame_out *o);

#endif /* WD_FLAME_OUTPUT_H */
