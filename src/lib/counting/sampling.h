/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a source that counts in user space (drop_monitor's alerts; the
 * nftables traces and TCP events to come) shares with the BPF program,
 * which does the same in the kernel (src/bpf/counting.h, whydrop.bpf.c):
 * the -r reason filter on a reason's slot, and the --rate limit of records
 * (counting is never limited). Pure: unit-tested in tests/unit/test_keyset.c.
 */
#ifndef WD_SAMPLING_H
#define WD_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "whydrop.h"

/* -r: is code among the selected reasons (src/core/reason_bits.c made bits)? */
static inline bool wd_reason_selected(const __u64 *bits, bool enabled, uint32_t code)
{
	uint32_t slot = wd_reason_slot(code);

	if (!enabled)
		return true;
	return slot < WD_REASON_SLOTS && (bits[slot / 64] >> (slot % 64) & 1);
}

/* --rate: records per second, in windows of one second; 0 is no limit. */
struct wd_rate {
	uint32_t per_s;
	double window_start;	/* seconds, of the clock given to wd_rate_allow */
	uint64_t used;		/* records in this window */
	uint64_t limited;	/* records refused so far */
};

/* May one more record go at now (seconds, monotonic)? Refusals are counted. */
bool wd_rate_allow(struct wd_rate *r, double now);

#endif /* WD_SAMPLING_H */
