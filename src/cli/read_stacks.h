/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * read --stacks: the stacks `record --stacks` wrote in the packet comments
 * (stack=frame;frame;..., innermost first), counted exactly per (reason,
 * location, stack) as count --stacks counts them, for its table, --json,
 * --folded and --svg.
 */
#ifndef WD_READ_STACKS_H
#define WD_READ_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_comment.h"
#include "format.h"
#include "read_table.h"

/* A drop kept without a stack= word (recorded without --stacks) has this frame. */
#define WD_READ_NO_STACK	"[stack not recorded]"

struct wd_read_stacks {
	struct wd_read_table t;			/* of struct wd_read_stack (read_stacks.c) */
	uint64_t with_stack;		/* drops whose comment had a stack */
	uint64_t without;		/* ... had none */
	struct wd_stack_row *rows;	/* wd_read_stacks_doc's */
};

/* Empty; wd_read_stacks_free() leaves it so too. */
void wd_read_stacks_init(struct wd_read_stacks *rs);
/* One drop more of its (reason, location, comment's stack); 0 or -ENOMEM. */
int wd_read_stacks_add(struct wd_read_stacks *rs, const struct wd_pcapng_meta *m,
		       const char *comment);
/* The stacks into doc (has_stacks, stacks, n_stacks), largest first; 0 or -ENOMEM. */
int wd_read_stacks_doc(struct wd_read_stacks *rs, struct wd_count_doc *doc);
void wd_read_stacks_free(struct wd_read_stacks *rs);

#endif /* WD_READ_STACKS_H */
