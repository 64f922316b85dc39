/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Requests to nf_tables over netfilter netlink, for whydrop's own table
 * (nftables_setup.c, nftables_stale.c): a socket, a batch built with
 * libnftnl, its acknowledgements read back.
 */
#ifndef WD_NFT_NETLINK_H
#define WD_NFT_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mnl_nlmsg_batch;
struct nlmsghdr;

/* A NETLINK_NETFILTER socket bound where we are now (5 s receive timeout). */
int wd_nft_nl_open(uint32_t *portid);
/* Send a request after dropping what an earlier one left unread. 0 or -1. */
int wd_nft_nl_send(int fd, const void *buf, size_t len);
/*
 * Read @acks acknowledgements (one per message sent with NLM_F_ACK): 0, or
 * -1 with errno of the first error the kernel reported (the batch is
 * undone whole then, and what else it says is dropped by the next send).
 */
int wd_nft_nl_acks(int fd, unsigned int acks);

struct wd_nft_batch {
	struct mnl_nlmsg_batch *b;
	uint32_t seq;
	unsigned int acks;	/* messages sent with NLM_F_ACK */
};

/* The next message's header (family inet, NLM_F_ACK added). */
struct nlmsghdr *wd_nft_nl_hdr(struct wd_nft_batch *bt, uint16_t type, uint16_t flags);
void wd_nft_nl_begin(struct wd_nft_batch *bt);
void wd_nft_nl_end(struct wd_nft_batch *bt);
/* NFT_MSG_NEWTABLE (with whydrop's comment, @owner: NFT_TABLE_F_OWNER) or _DELTABLE. */
int wd_nft_nl_table(struct wd_nft_batch *bt, const char *name, bool owner, uint16_t type);
/* A whole batch deleting table inet @name into @out (@room bytes): 0, or -1. */
int wd_nft_nl_delete_batch(const char *name, void *out, size_t room, size_t *len);

#endif /* WD_NFT_NETLINK_H */
