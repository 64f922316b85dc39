/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* filter_equal.c's kernel side (filter_equal_kernel.c). */
#ifndef FILTER_EQUAL_KERNEL_H
#define FILTER_EQUAL_KERNEL_H

#include <stddef.h>
#include <linux/types.h>

#include "cbpf_ebpf.h"
#include "filter_equal_packets.h"

struct filter_equal_bpf;

/* The run: filter_equal.bpf.o and its maps, the packets, the totals. */
struct env {
	struct filter_equal_bpf *skel;
	int setup_fd, pkt_fd, ctx_fd, progs_fd;
	int tr_ctx_fd, tr_progs_fd;	/* maps of the tp_btf loads */
	__u32 btf_id;			/* btf_trace_kfree_skb */
	int ncpus;
	struct wd_filter_ctx *percpu;
	struct packet *pkts;
	size_t npkts;
	size_t runs, cbpf_total, ebpf_total;
};

/* Load filter_equal.bpf.o, make the tp_btf maps, find the kfree_skb BTF id; -errno. */
int fe_setup(struct env *e);
/* What fe_setup() allocated (the tp_btf maps stay until exit). */
void fe_teardown(struct env *e);
/* Make fd the filter that the setup program tail-calls; -errno. */
int fe_set_filter(struct env *e, int fd);
/*
 * Run that filter on pk as linear bytes out of wirelen: its verdict, and
 * how many times it counted paged bytes (nonlinear) meanwhile; -errno.
 */
int fe_run_once(struct env *e, const struct packet *pk, __u32 linear, __u32 wirelen,
		__u32 *verdict, __u64 *delta);
/* Load insns as tp_btf with BPF_LOG_STATS and print the verifier's lines. */
void fe_verifier_stats(struct env *e, const struct bpf_insn *insns, size_t n);

#endif /* FILTER_EQUAL_KERNEL_H */
