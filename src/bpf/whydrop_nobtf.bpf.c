// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fallback for kernels without BTF, where CO-RE cannot relocate skb field
 * reads: a raw tracepoint that only uses its arguments, never the skb.
 * Counts stay exact, keyed by reason and location; netns, interface,
 * protocol and packet bytes are unknown. Whether the tracepoint passes a
 * reason comes from the tracefs format, set by user space before load.
 */
#include "core_types.h"
#include <bpf/bpf_helpers.h>
#include "whydrop.h"
#include "keyed_count.h"
#include "counting.h"

const volatile bool has_reason;

SEC("raw_tp/kfree_skb")
int kfree_skb_nobtf(struct bpf_raw_tracepoint_args *ctx)
{
	struct wd_key key;

	__builtin_memset(&key, 0, sizeof(key));
	key.location = ctx->args[1];
	if (has_reason)
		key.reason = (__u32)ctx->args[2];
	if (!reason_wanted(key.reason))
		return 0;
	count_key(&key);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
