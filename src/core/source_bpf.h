/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The BPF source's state (source_bpf.c), shared with its loader (loader.c)
 * and its stacks (stacks.c): the program attached, its maps, and what it
 * keeps between snapshots.
 */
#ifndef WD_SOURCE_BPF_H
#define WD_SOURCE_BPF_H

#include <stdbool.h>
#include <stdint.h>

#include "map_counts.h"
#include "netns.h"
#include "reasons.h"
#include "whydrop_types.h"

struct whydrop_bpf;
struct whydrop_nobtf_bpf;
struct bpf_link;
struct ring_buffer;
struct wd_source;
struct wd_snapshot;
struct wd_stack;

struct wd_bpf {
	struct wd_source *src;
	struct whydrop_bpf *skel;		/* the CO-RE program, or */
	struct whydrop_nobtf_bpf *nobtf;	/* the fallback without kernel BTF */
	struct bpf_link *link;
	struct bpf_link *tcp_link;	/* --tcp: TCP drops per flow (tcp_drops.h) */
	struct wd_gen counts;		/* the counting hash's generations */
	struct wd_gen socks;		/* the by-socket hash's (--group-by cgroup|process) */
	int overflow_fd, runs_fd, stats_fd, prog_fd;
	uint32_t map_size;		/* --map-size: keys per generation */
	bool stacks;			/* --stacks: the maps below are live */
	int stackmap_fd, stack_counts_fd, stack_overflow_fd;
	int filter_fd;			/* the translated pcap filter, -1 if none */
	int filter_ctx_fd;		/* its per-CPU state (nonlinear drops), -1 if none */
	/* --tcp: drops per TCP flow; --group-by flow|src|dst: per IP flow; -1 if none */
	int flow_drops_fd, flow_drops_ovf_fd;
	struct ring_buffer *rb;		/* records (watch, record) */
	bool details;
	const char *attach_mode;	/* "tp_btf", "raw_tp" or "raw_tp, no BTF" */
	struct wd_keyset last;		/* the last snapshot's counts: live totals only grow */
	/* the session's, for the loader */
	struct wd_reasons *reasons;
	struct wd_netns_id netns;
	uint32_t ifindex;
	const struct wd_cbpf_insn *filter;
	size_t filter_len;
};

/* --stacks (stacks.c): the (reason, location, stack) counts into snap, and frames. */
int wd_bpf_stack_totals(struct wd_bpf *b, struct wd_snapshot *snap, int ncpu);
/* --tcp: the drops per TCP flow into snap's tcp section (source_tcp.h). */
int wd_bpf_tcp_drops(struct wd_bpf *b, struct wd_snapshot *snap, int ncpu);
int wd_bpf_stack(struct wd_bpf *b, const struct wd_ksyms *ksyms, int32_t stack_id,
		 struct wd_stack *st);

#endif /* WD_SOURCE_BPF_H */
