// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The tracepoint program's side of a pcap filter, for tests: under
 * BPF_PROG_TEST_RUN, point filter_ctx at the packet user space wrote into
 * the pkt map, then tail-call the translated filter (filter_progs slot
 * WD_FILTER_PROG). With WD_FILTER_MATCHED empty the run's return value is
 * the filter's verdict: 1 match, 0 not.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include "whydrop.h"
#include "filter_maps.h"
#include "filter_equal.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fe_pkt);
} pkt SEC(".maps");

SEC("raw_tp")
int setup(void *ctx)
{
	struct wd_filter_ctx *fc;
	struct fe_pkt *p;
	__u32 zero = 0;

	fc = bpf_map_lookup_elem(&filter_ctx, &zero);
	p = bpf_map_lookup_elem(&pkt, &zero);
	if (!fc || !p)
		return FE_NO_MAP;
	fc->nh = (__u64)(unsigned long)p->data;	/* a number: root may leak it */
	fc->linear = p->linear;
	fc->wirelen = p->wirelen;
	bpf_tail_call(ctx, &filter_progs, WD_FILTER_PROG);
	return FE_NO_FILTER;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
