/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The maps between the tracepoint program, the translated pcap filter
 * (src/lib/filter/cbpf_ebpf.h) and kfree_skb_matched_*: the filter's per-CPU
 * state and the program array it is tail-called through. Shared with
 * tests/system/filter_equal.bpf.c, which runs the filter the same way.
 */
#ifndef WD_FILTER_MAPS_H
#define WD_FILTER_MAPS_H

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wd_filter_ctx);
} filter_ctx SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} filter_progs SEC(".maps");

#endif /* WD_FILTER_MAPS_H */
