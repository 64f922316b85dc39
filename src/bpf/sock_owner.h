/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who a drop hurts: the socket it belongs to, read for the records that
 * reach the ring buffer, and counted by socket only when --group-by asks.
 */
#ifndef WHYDROP_SOCK_OWNER_H
#define WHYDROP_SOCK_OWNER_H

#include "sock_ids.h"

static __always_inline void sock_fill(struct wd_sock *w, const struct sock *sk, bool rx_sk_tp,
				      bool btf)
{
	__builtin_memset(w, 0, sizeof(*w));
	if (rx_sk_tp)
		w->flags |= WD_SOCK_TP_RX_SK;
	if (!sk)
		return;
	w->flags |= WD_SOCK_FOUND;
	w->family = RD(btf, sk, __sk_common.skc_family);
	w->state = RD(btf, sk, __sk_common.skc_state);
	w->sport = RD(btf, sk, __sk_common.skc_num);
	w->dport = bpf_ntohs(RD(btf, sk, __sk_common.skc_dport));
	if (!full_socket(w->state))
		return;
	w->flags |= WD_SOCK_FULL;
	w->uid = RD(btf, sk, sk_uid.val);
	sock_ids(sk, &w->ino, &w->cgroup_id, btf);
}

/*
 * Counts by socket, only when asked (--group-by cgroup|process): the
 * verifier drops this code when count_by_socket is false.
 */
const volatile bool count_by_socket;

/*
 * The by-socket hash of the current generation, in a one-slot array of
 * maps like the counting hash: user space swaps in an empty one when a
 * read finds it half full and keeps what the old one counted
 * (src/core/sock_counts.c), so closed sockets leave the kernel.
 */
struct wd_sock_map {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, WD_SOCK_MAP_SIZE);
	/* Sizes, not types: reached only through the array, the key's BTF is a mere FWD. */
	__uint(key_size, sizeof(struct wd_sock_key));
	__uint(value_size, sizeof(__u64));
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct wd_sock_map);
} by_socket SEC(".maps");

static __always_inline void sock_count(const struct sock *sk, const struct wd_key *k, bool btf)
{
	struct wd_sock_key key;
	__u32 zero = 0;
	void *socks = bpf_map_lookup_elem(&by_socket, &zero);

	__builtin_memset(&key, 0, sizeof(key));
	key.reason = k->reason;
	key.netns = k->netns;
	key.netns_cookie = k->netns_cookie;
	if (sk && full_socket(RD(btf, sk, __sk_common.skc_state)))
		sock_ids(sk, &key.ino, &key.cgroup_id, btf);
	/* no hash: not set up, which cannot happen once attached */
	if (!socks || !hash_add(socks, &key, 1))
		stat_inc(WD_STAT_SOCK_OVERFLOW);
}

#endif /* WHYDROP_SOCK_OWNER_H */
