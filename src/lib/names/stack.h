/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel stacks of drops (--stacks): symbolised frames, and flame-graph
 * "folded" lines (`root;caller;...;leaf COUNT`, outermost frame first, as
 * flamegraph.pl, inferno and speedscope read them).
 */
#ifndef WD_STACK_H
#define WD_STACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ksym.h"

/* One stack, innermost frame first (frames[0] is where the skb was freed). */
struct wd_stack {
	char **frames;		/* "__udp4_lib_rcv+0x545", "veth_xmit+0x10 [veth]", "0x..." */
	char **functions;	/* "__udp4_lib_rcv": frames without offset and module */
	size_t n;
};

/*
 * Symbolise up to n return addresses (a zero address ends the stack). Frames
 * of the tracing machinery above the dropping function (the BPF trampoline,
 * bpf_trace_run*) are left out: they are the same for every drop.
 * Returns 0 or -ENOMEM.
 */
int wd_stack_symbolise(const struct wd_ksyms *k, const uint64_t *ips, size_t n,
		       struct wd_stack *out);
/* A stack of one pseudo-frame, e.g. "[stack lost: bucket collision]". */
int wd_stack_pseudo(struct wd_stack *out, const char *what);
void wd_stack_free(struct wd_stack *s);

/* What a negative stack id from the kernel means, as a pseudo-frame. */
const char *wd_stack_error_frame(int32_t stack_id, char *buf, size_t len);

/*
 * Folded lines, merged: equal lines (the same functions at different
 * offsets) are added up, and written sorted by line.
 */
struct wd_folded {
	struct wd_folded_line {
		char *text;	/* "NO_SOCKET;ip_local_deliver;__udp4_lib_rcv" */
		uint64_t count;
	} *v;
	size_t n, cap;
};

/*
 * Add a stack under root (e.g. the reason name; NULL for none). Characters
 * folded formats treat as separators (';', blanks, controls) become '_'.
 * Returns 0 or -ENOMEM.
 */
int wd_folded_add(struct wd_folded *fo, const char *root, const struct wd_stack *st,
		  uint64_t count);
void wd_folded_write(FILE *f, struct wd_folded *fo);
void wd_folded_free(struct wd_folded *fo);

#endif /* WD_STACK_H */
