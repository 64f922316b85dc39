/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Flame graphs as one self-contained, interactive SVG. The input is folded
 * stacks with exact counts ("NO_SOCKET;outer;...;inner 7", what
 * `count --stacks --folded` prints), the first frame of each being its root
 * (the reason). A frame's width is its exact count's share of the total;
 * hovering shows its count and share, a click zooms into it, and the script
 * doing so is inline: nothing is fetched when the file is viewed. The same
 * stacks always give the same bytes (children are ordered by name).
 */
#ifndef WD_FLAMEGRAPH_H
#define WD_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WD_FLAME_MAX_DEPTH	1024	/* frames in one stack, its root frame included */
#define WD_FLAME_WIDTH		1200	/* pixels, when the options say 0 */

struct wd_flame_node;

struct wd_flame {
	struct wd_flame_node *root;	/* the "all" frame, over every stack added */
	size_t depth;			/* frames of the deepest stack added */
};

/* What the picture says around the frames; NULL members are left out. */
struct wd_flame_opts {
	const char *title;	/* "Kernel stacks of dropped packets" */
	const char *subtitle;	/* what was counted, where, for how long */
	const char *unit;	/* what a count counts, plural ("drops"; NULL: "samples") */
	const char *unit_one;	/* ... singular ("drop"; NULL: "sample") */
	unsigned int width;	/* pixels, 0: WD_FLAME_WIDTH */
};

/* 0 or -ENOMEM. */
int wd_flame_init(struct wd_flame *fg);
void wd_flame_free(struct wd_flame *fg);

/*
 * Add count to one stack: frames separated by ';', outermost (the root
 * frame) first. A count of 0 adds nothing. Returns 0; -EINVAL for an empty
 * frame or more than WD_FLAME_MAX_DEPTH frames; -EOVERFLOW when the total
 * would pass UINT64_MAX; -ENOMEM. On error no count was added.
 */
int wd_flame_add(struct wd_flame *fg, const char *stack, uint64_t count);

/*
 * Folded text: "STACK COUNT" lines, the count after the last blank; blank
 * lines are skipped. 0, or an error of wd_flame_add, or -EINVAL for a line
 * without a count; *line is then the failing line's number (from 1).
 */
int wd_flame_parse(struct wd_flame *fg, const char *text, size_t len, size_t *line);

/* Everything added: the width of the "all" frame. */
uint64_t wd_flame_total(const struct wd_flame *fg);

/* The SVG document; 0, or -EIO when f reported a write error. */
int wd_flame_write_svg(FILE *f, const struct wd_flame *fg, const struct wd_flame_opts *o);

#endif /* WD_FLAMEGRAPH_H */
