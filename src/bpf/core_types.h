/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The few kernel types whydrop reads, declared by hand for CO-RE instead of
 * a 3 MB vmlinux.h. preserve_access_index makes every field access a
 * relocation that libbpf resolves against the running kernel's BTF, so the
 * layout here does not need to match any kernel: only the names do.
 */
#ifndef WHYDROP_CORE_TYPES_H
#define WHYDROP_CORE_TYPES_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
#define true 1
#define false 0

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PROG_ARRAY = 3,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_STACK_TRACE = 7,
	BPF_MAP_TYPE_ARRAY_OF_MAPS = 12,
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
};

/* bpf_ringbuf_submit() flags and bpf_ringbuf_query() questions */
enum {
	BPF_RB_NO_WAKEUP = 1,
	BPF_RB_FORCE_WAKEUP = 2,
};

enum {
	BPF_RB_AVAIL_DATA = 0,
};

struct bpf_raw_tracepoint_args {
	__u64 args[0];
};

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

struct ns_common {
	unsigned int inum;
};

struct net_device;

struct net {
	struct ns_common ns;
	struct net_device *loopback_dev;
	/*
	 * 5.14+: set when the namespace is made. Before, an atomic64_t given
	 * out on first use: not an integer, so CO-RE finds no such field.
	 */
	__u64 net_cookie;
};

typedef struct {
	struct net *net;
} possible_net_t;

struct net_device {
	char name[16];
	int ifindex;
	possible_net_t nd_net;
};

struct sock_common {
	possible_net_t skc_net;
	unsigned short skc_family;
	volatile unsigned char skc_state;
	__be16 skc_dport;
	unsigned short skc_num;
};

struct inode {
	unsigned long i_ino;
};

struct file {
	struct inode *f_inode;
};

struct socket {
	struct file *file;
};

typedef struct {
	unsigned int val;
} kuid_t;

struct kernfs_node {
	__u64 id;
};

struct cgroup {
	struct kernfs_node *kn;
};

struct sock_cgroup_data {
	struct cgroup *cgroup;
};

struct sock {
	struct sock_common __sk_common;
	struct socket *sk_socket;
	kuid_t sk_uid;
	struct sock_cgroup_data sk_cgrp_data;
};

struct dst_entry {
	struct net_device *dev;
};

struct sk_buff {
	struct net_device *dev;
	unsigned long _skb_refdst;
	struct sock *sk;
	unsigned int len;
	unsigned int data_len;
	int skb_iif;
	__be16 protocol;
	__u16 network_header;
	unsigned int tail;
	unsigned char *head;
	/* nftables tracing (CONFIG_NF_TABLES or xt TRACE): --rules only */
	__u8 nf_trace : 1;
};

/* Values are never used: numbers come from the kernel at run time. */
enum skb_drop_reason {
	SKB_DROP_REASON_NOT_SPECIFIED___whydrop,
};

/* Only used to ask, at load time, which shape the tracepoint has. */
struct trace_event_raw_kfree_skb {
	void *location;
	enum skb_drop_reason reason;
	void *rx_sk;
};

#pragma clang attribute pop

#endif /* WHYDROP_CORE_TYPES_H */
