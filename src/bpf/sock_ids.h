/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A socket's owner as the kernel knows it (inode, cgroup): shared by the
 * drop program (sock_owner.h) and the TCP events program.
 */
#ifndef WHYDROP_SOCK_IDS_H
#define WHYDROP_SOCK_IDS_H

#define TCP_TIME_WAIT		6
#define TCP_NEW_SYN_RECV	12

/*
 * skb->sk may be a timewait or request socket (early demux): those share
 * only sock_common with a full socket, so nothing past it is read.
 */
static __always_inline bool full_socket(__u8 state)
{
	return state != TCP_TIME_WAIT && state != TCP_NEW_SYN_RECV;
}

/*
 * A full socket's inode and cgroup v2 id. In tp_btf, sk is the program's
 * own BTF pointer, read with direct loads (a NULL link included: the load
 * gives 0, as the helper would).
 */
static __always_inline void sock_ids(const struct sock *sk, __u64 *ino, __u64 *cgroup_id,
				     bool btf)
{
	*ino = RD(btf, sk, sk_socket, file, f_inode, i_ino);
	if (bpf_core_field_exists(struct sock, sk_cgrp_data) &&
	    bpf_core_field_exists(struct sock_cgroup_data, cgroup))
		*cgroup_id = RD(btf, sk, sk_cgrp_data.cgroup, kn, id);
}

#endif /* WHYDROP_SOCK_IDS_H */
