/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * whydrop's own nftables table, one per network namespace traced:
 *
 *   table inet whydrop_<pidns>_<pid>_<start> {
 *     flags owner                 (the kernel removes it when whydrop's socket closes)
 *     chain prerouting { type filter hook prerouting priority -2147483648;
 *                        meta nftrace set 1 accept }
 *     ... input, forward, output, postrouting the same
 *   }
 *
 * The earliest priority of every inet hook (IPv4 and IPv6) marks each packet
 * for tracing before any other chain sees it, so every later verdict is
 * reported (nftrace.h). The accept ends whydrop's chain only, in one trace
 * message; the hook's other chains run as before. Built as one libnftnl
 * batch on a netlink socket of its own that stays open: with
 * NFT_TABLE_F_OWNER (5.12+) closing it, even by a SIGKILL, removes the
 * table; without it (older kernels) the next whydrop removes the table of
 * a dead one (wd_nft_trace_cleanup, nftables_stale.c).
 * Not covered: netdev ingress/egress, inet ingress, bridge and arp hooks,
 * and chains at priority -2147483648 registered before whydrop's.
 */
#ifndef WD_NFTABLES_SETUP_H
#define WD_NFTABLES_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WD_NFT_TABLE_PREFIX	"whydrop_"
#define WD_NFT_TABLE_NAME_LEN	80
#define WD_NFT_DEL_MSG_LEN	256
#define WD_NFT_IFNAME_LEN	16	/* IFNAMSIZ */

struct wd_nft_trace_opts {
	/*
	 * Mark only packets that came in on (prerouting, input, forward) or
	 * go out through (output, postrouting) this interface: a drop whose
	 * skb names it is marked (whydrop -i). NULL: every packet.
	 */
	const char *ifname;
	/*
	 * Mark only packets whose input device has this index, at
	 * prerouting, input and forward (where the skb's device is the input
	 * device, the one whydrop -i counts a drop by); output and
	 * postrouting get no chain. 0: not by index.
	 */
	uint32_t ifindex;
	bool no_owner;		/* leave NFT_TABLE_F_OWNER out (tests) */
};

/* The owner a table's name tells: whydrop_<pidns>_<pid>_<start>. */
struct wd_nft_owner {
	uint64_t pidns;		/* inode of its pid namespace */
	uint32_t pid;
	uint64_t start;		/* its start time, clock ticks after boot */
};

struct wd_nft_trace_table {
	int fd;			/* netlink socket in the namespace (-1: none) */
	uint32_t portid;
	char name[WD_NFT_TABLE_NAME_LEN];
	bool owner;		/* NFT_TABLE_F_OWNER set */
	size_t del_len;		/* the delete batch, built beforehand */
	unsigned char del_msg[WD_NFT_DEL_MSG_LEN];
};

/*
 * Install the table in the namespace of @netns_fd (-1: ours). Needs
 * CAP_NET_ADMIN (and CAP_SYS_ADMIN to enter another namespace). 0, or -1
 * with a message in @err (t->fd is -1 then).
 */
int wd_nft_trace_install(struct wd_nft_trace_table *t, int netns_fd,
			 const struct wd_nft_trace_opts *o, char *err, size_t errlen);
/*
 * Delete the table and close its socket. Deleting needs CAP_NET_ADMIN in
 * effect; without it an owned table still goes with the socket. 0, or -1
 * with a message (the socket is closed all the same).
 */
int wd_nft_trace_remove(struct wd_nft_trace_table *t, char *err, size_t errlen);
/*
 * The same from a signal handler: only sendto() and close(), no memory
 * allocated, nothing waited for.
 */
void wd_nft_trace_remove_signal_safe(struct wd_nft_trace_table *t);

/* This process's table name: whydrop_<pidns>_<pid>_<start>. */
int wd_nft_trace_table_name(char *buf, size_t len);
/* 0 when @name is a whydrop table name, its owner in *o. */
int wd_nft_trace_parse_name(const char *name, struct wd_nft_owner *o);

enum wd_nft_owner_state {
	WD_NFT_OWNER_ALIVE,	/* the process is running */
	WD_NFT_OWNER_DEAD,	/* gone, or its pid now names another process */
	WD_NFT_OWNER_UNKNOWN,	/* another pid namespace: cannot tell */
};
/* Whether the owner a table name tells is still running. */
enum wd_nft_owner_state wd_nft_owner_state(const struct wd_nft_owner *o);

struct wd_nft_cleanup {
	unsigned int removed;	/* tables of dead whydrops deleted */
	unsigned int alive;	/* tables of running whydrops left */
	unsigned int unknown;	/* tables of other pid namespaces left */
	unsigned int failed;	/* deletions that failed */
	char last_removed[WD_NFT_TABLE_NAME_LEN];
};

/*
 * Delete every whydrop table in the namespace of @netns_fd (-1: ours)
 * whose owner is dead (never a live one's, nor any other table). Needs
 * CAP_NET_ADMIN. 0, or -1 with a message in @err.
 */
int wd_nft_trace_cleanup(int netns_fd, struct wd_nft_cleanup *c, char *err, size_t errlen);

#endif /* WD_NFTABLES_SETUP_H */
