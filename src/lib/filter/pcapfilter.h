/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tcpdump-style filter expressions, compiled by libpcap for packets that
 * start at the IP header (DLT_RAW) into classic BPF. The kernel never sees
 * that classic BPF: whydrop translates it into an eBPF program of its own
 * (cbpf_ebpf.h), which the tracepoint program tail-calls before counting.
 */
#ifndef WD_PCAPFILTER_H
#define WD_PCAPFILTER_H

#include <stddef.h>
#include <linux/types.h>

#include "whydrop.h"

/*
 * Compile expr. On success *out (caller frees) holds *n instructions. On
 * error, err holds libpcap's message and a second line pointing at where
 * the expression stops making sense.
 */
int wd_filter_compile(const char *expr, struct wd_cbpf_insn **out, size_t *n,
		      char *err, size_t errlen);

#endif /* WD_PCAPFILTER_H */
