// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Requests to nf_tables over netfilter netlink; see nft_netlink.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/table.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>

#include "nft_netlink.h"

#define RECV_BUF	(1u << 16)
#define DEL_BUF		1024	/* a delete batch: three short messages */

int wd_nft_nl_open(uint32_t *portid)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 5 };
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER), e;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	*portid = sa.nl_pid;
	return fd;
}

int wd_nft_nl_send(int fd, const void *buf, size_t len)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char junk[4096];
	ssize_t n;

	while (recv(fd, junk, sizeof(junk), MSG_DONTWAIT) > 0)
		;
	n = sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

int wd_nft_nl_acks(int fd, unsigned int acks)
{
	char *buf = malloc(RECV_BUF);
	const struct nlmsghdr *nlh;
	const struct nlmsgerr *e;
	int first = 0, len;
	ssize_t n;

	if (!buf)
		return -1;
	while (acks && !first) {
		n = recv(fd, buf, RECV_BUF, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			first = n < 0 ? errno : EPROTO;
			break;
		}
		len = (int)n;
		for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type != NLMSG_ERROR)
				continue;
			e = mnl_nlmsg_get_payload(nlh);
			if (e->error && !first)
				first = -e->error;
			if (acks)
				acks--;
		}
	}
	free(buf);
	if (!first)
		return 0;
	errno = first;
	return -1;
}

/* ------------------------------------------------------------ batches */

struct nlmsghdr *wd_nft_nl_hdr(struct wd_nft_batch *bt, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(bt->b), type,
						     NFPROTO_INET, flags | NLM_F_ACK, bt->seq++);

	bt->acks++;
	return nlh;
}

void wd_nft_nl_begin(struct wd_nft_batch *bt)
{
	nftnl_batch_begin(mnl_nlmsg_batch_current(bt->b), bt->seq++);
	mnl_nlmsg_batch_next(bt->b);
}

void wd_nft_nl_end(struct wd_nft_batch *bt)
{
	nftnl_batch_end(mnl_nlmsg_batch_current(bt->b), bt->seq++);
	mnl_nlmsg_batch_next(bt->b);
}

int wd_nft_nl_table(struct wd_nft_batch *bt, const char *name, bool owner, uint16_t type)
{
	struct nftnl_table *t = nftnl_table_alloc();
	struct nftnl_udata_buf *ud = nftnl_udata_buf_alloc(NFTNL_UDATA_COMMENT_MAXLEN);

	if (!t || !ud)
		goto fail;
	nftnl_table_set_str(t, NFTNL_TABLE_NAME, name);
	nftnl_table_set_u32(t, NFTNL_TABLE_FAMILY, NFPROTO_INET);
	if (type == NFT_MSG_NEWTABLE) {
		nftnl_table_set_u32(t, NFTNL_TABLE_FLAGS, owner ? NFT_TABLE_F_OWNER : 0);
		nftnl_udata_put_strz(ud, NFTNL_UDATA_TABLE_COMMENT,
				     "whydrop --rules: marks packets for nftables tracing; "
				     "removed when that whydrop exits");
		nftnl_table_set_data(t, NFTNL_TABLE_USERDATA, nftnl_udata_buf_data(ud),
				     nftnl_udata_buf_len(ud));
	}
	nftnl_table_nlmsg_build_payload(wd_nft_nl_hdr(bt, type, type == NFT_MSG_NEWTABLE ?
						      NLM_F_CREATE | NLM_F_EXCL : 0), t);
	mnl_nlmsg_batch_next(bt->b);
	nftnl_udata_buf_free(ud);
	nftnl_table_free(t);
	return 0;
fail:
	nftnl_udata_buf_free(ud);
	if (t)
		nftnl_table_free(t);
	return -1;
}

int wd_nft_nl_delete_batch(const char *name, void *out, size_t room, size_t *len)
{
	char buf[DEL_BUF];
	struct wd_nft_batch bt = { .seq = 1 };
	int ret;

	bt.b = mnl_nlmsg_batch_start(buf, sizeof(buf));
	if (!bt.b)
		return -1;
	wd_nft_nl_begin(&bt);
	if (wd_nft_nl_table(&bt, name, false, NFT_MSG_DELTABLE)) {
		mnl_nlmsg_batch_stop(bt.b);
		return -1;
	}
	wd_nft_nl_end(&bt);
	*len = mnl_nlmsg_batch_size(bt.b);
	ret = *len <= room ? 0 : -1;
	if (!ret)
		memcpy(out, mnl_nlmsg_batch_head(bt.b), *len);
	mnl_nlmsg_batch_stop(bt.b);
	return ret;
}
