/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The tree behind a flame graph, shared by flamegraph.c and flamegraph_svg.c only. */
#ifndef WD_FLAMEGRAPH_TREE_H
#define WD_FLAMEGRAPH_TREE_H

#include <stddef.h>
#include <stdint.h>

struct wd_flame_node {
	char *name;			/* as added: escaped only when written */
	uint64_t total;			/* every stack through this frame */
	struct wd_flame_node **kids;	/* ordered by name (strcmp) */
	size_t n, cap;
};

#endif /* WD_FLAMEGRAPH_TREE_H */
