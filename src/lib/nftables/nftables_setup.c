// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop's own tracing table in and out; see nftables_setup.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netlink.h>

#include "netns.h"
#include "nft_netlink.h"
#include "nftables_setup.h"

#define BATCH_BUF	(1u << 14)

static const struct {
	const char *name;
	uint32_t hook;
	bool out;		/* the packet's device is its output device */
} hooks[] = {
	{ "prerouting", NF_INET_PRE_ROUTING, false },
	{ "input", NF_INET_LOCAL_IN, false },
	{ "forward", NF_INET_FORWARD, false },
	{ "output", NF_INET_LOCAL_OUT, true },
	{ "postrouting", NF_INET_POST_ROUTING, true },
};

static int put_chain(struct wd_nft_batch *bt, const char *table, const char *name, uint32_t hook)
{
	struct nftnl_chain *c = nftnl_chain_alloc();

	if (!c)
		return -1;
	nftnl_chain_set_str(c, NFTNL_CHAIN_TABLE, table);
	nftnl_chain_set_str(c, NFTNL_CHAIN_NAME, name);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_FAMILY, NFPROTO_INET);
	nftnl_chain_set_str(c, NFTNL_CHAIN_TYPE, "filter");
	nftnl_chain_set_u32(c, NFTNL_CHAIN_HOOKNUM, hook);
	nftnl_chain_set_s32(c, NFTNL_CHAIN_PRIO, INT_MIN);
	nftnl_chain_set_u32(c, NFTNL_CHAIN_POLICY, NF_ACCEPT);
	nftnl_chain_nlmsg_build_payload(wd_nft_nl_hdr(bt, NFT_MSG_NEWCHAIN,
						     NLM_F_CREATE | NLM_F_EXCL), c);
	mnl_nlmsg_batch_next(bt->b);
	nftnl_chain_free(c);
	return 0;
}

/* Expressions of these kinds into e, all or none: 0, or -1 with none left. */
static int alloc_exprs(struct nftnl_expr **e, const char *const *kinds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		e[i] = nftnl_expr_alloc(kinds[i]);
		if (e[i])
			continue;
		while (i--)
			nftnl_expr_free(e[i]);
		return -1;
	}
	return 0;
}

/* [meta load @key => reg 1; cmp eq reg 1 @data] */
static int add_meta_eq(struct nftnl_rule *r, uint32_t key, const void *data, uint32_t len)
{
	static const char *const kinds[] = { "meta", "cmp" };
	struct nftnl_expr *e[2], *m, *c;

	if (alloc_exprs(e, kinds, 2))
		return -1;
	m = e[0];
	c = e[1];
	nftnl_expr_set_u32(m, NFTNL_EXPR_META_KEY, key);
	nftnl_expr_set_u32(m, NFTNL_EXPR_META_DREG, NFT_REG_1);
	nftnl_rule_add_expr(r, m);
	nftnl_expr_set_u32(c, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
	nftnl_expr_set_u32(c, NFTNL_EXPR_CMP_OP, NFT_CMP_EQ);
	nftnl_expr_set_data(c, NFTNL_EXPR_CMP_DATA, data, len);
	nftnl_rule_add_expr(r, c);
	return 0;
}

/* [meta load iifname/oifname => reg 1; cmp eq reg 1 "name"] */
static int add_ifname_match(struct nftnl_rule *r, const char *ifname, bool out)
{
	char name[WD_NFT_IFNAME_LEN] = { 0 };

	strncpy(name, ifname, sizeof(name) - 1);
	return add_meta_eq(r, out ? NFT_META_OIFNAME : NFT_META_IIFNAME, name, sizeof(name));
}

/*
 * [immediate reg 1 1; meta set nftrace with reg 1; immediate reg 0 accept]:
 * `meta nftrace set 1 accept`. The accept ends whydrop's chain alone (the
 * hook's other chains still run) and makes the mark one trace message,
 * where falling off the chain's end would add two (end of chain, policy).
 */
static int add_set_nftrace(struct nftnl_rule *r)
{
	static const char *const kinds[] = { "immediate", "meta", "immediate" };
	struct nftnl_expr *e[3], *i, *m, *v;
	uint8_t one = 1;

	if (alloc_exprs(e, kinds, 3))
		return -1;
	i = e[0];
	m = e[1];
	v = e[2];
	nftnl_expr_set_u32(i, NFTNL_EXPR_IMM_DREG, NFT_REG_1);
	nftnl_expr_set_data(i, NFTNL_EXPR_IMM_DATA, &one, sizeof(one));
	nftnl_rule_add_expr(r, i);
	nftnl_expr_set_u32(m, NFTNL_EXPR_META_KEY, NFT_META_NFTRACE);
	nftnl_expr_set_u32(m, NFTNL_EXPR_META_SREG, NFT_REG_1);
	nftnl_rule_add_expr(r, m);
	nftnl_expr_set_u32(v, NFTNL_EXPR_IMM_DREG, NFT_REG_VERDICT);
	nftnl_expr_set_u32(v, NFTNL_EXPR_IMM_VERDICT, NF_ACCEPT);
	nftnl_rule_add_expr(r, v);
	return 0;
}

/* [meta load iif => reg 1; cmp eq reg 1 index]: the device's index, as whydrop -i counts */
static int add_ifindex_match(struct nftnl_rule *r, uint32_t ifindex)
{
	return add_meta_eq(r, NFT_META_IIF, &ifindex, sizeof(ifindex));
}

static int put_rule(struct wd_nft_batch *bt, const char *table, const char *chain,
		    const struct wd_nft_trace_opts *o, bool out)
{
	const char *ifname = o ? o->ifname : NULL;
	uint32_t ifindex = o ? o->ifindex : 0;

	struct nftnl_rule *r = nftnl_rule_alloc();
	int ret = -1;

	if (!r)
		return -1;
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	if (ifname && add_ifname_match(r, ifname, out))
		goto out;
	if (ifindex && add_ifindex_match(r, ifindex))
		goto out;
	if (add_set_nftrace(r))
		goto out;
	nftnl_rule_nlmsg_build_payload(wd_nft_nl_hdr(bt, NFT_MSG_NEWRULE,
						NLM_F_CREATE | NLM_F_APPEND), r);
	mnl_nlmsg_batch_next(bt->b);
	ret = 0;
out:
	nftnl_rule_free(r);
	return ret;
}

static int build_install(struct wd_nft_batch *bt, const struct wd_nft_trace_table *t,
			 const struct wd_nft_trace_opts *o)
{
	size_t i;

	wd_nft_nl_begin(bt);
	if (wd_nft_nl_table(bt, t->name, t->owner, NFT_MSG_NEWTABLE))
		return -1;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		/* by input index: the output hooks' packets have none */
		if (o && o->ifindex && hooks[i].out)
			continue;
		if (put_chain(bt, t->name, hooks[i].name, hooks[i].hook) ||
		    put_rule(bt, t->name, hooks[i].name, o, hooks[i].out))
			return -1;
	}
	wd_nft_nl_end(bt);
	return 0;
}

static int send_install(struct wd_nft_trace_table *t, const struct wd_nft_trace_opts *o)
{
	char *buf = malloc(BATCH_BUF);
	struct wd_nft_batch bt = { .seq = 1 };
	int ret = -1, e = ENOMEM;

	if (!buf)
		goto out;
	bt.b = mnl_nlmsg_batch_start(buf, BATCH_BUF);
	if (!bt.b)
		goto out;
	if (build_install(&bt, t, o)) {
		e = ENOMEM;
		goto out;
	}
	ret = wd_nft_nl_send(t->fd, mnl_nlmsg_batch_head(bt.b), mnl_nlmsg_batch_size(bt.b));
	if (!ret)
		ret = wd_nft_nl_acks(t->fd, bt.acks);
	e = errno;
out:
	if (bt.b)
		mnl_nlmsg_batch_stop(bt.b);
	free(buf);
	errno = e;
	return ret;
}

/* ------------------------------------------------------------ install */

static int install_here(struct wd_nft_trace_table *t, const struct wd_nft_trace_opts *o,
			char *err, size_t errlen)
{
	t->fd = wd_nft_nl_open(&t->portid);
	if (t->fd < 0) {
		snprintf(err, errlen, "cannot open a netfilter netlink socket: %s",
			 strerror(errno));
		return -1;
	}
	t->owner = !(o && o->no_owner);
	if (!send_install(t, o))
		return 0;
	/* before 5.12 the kernel refuses the owner flag */
	if (t->owner && errno == EOPNOTSUPP) {
		t->owner = false;
		if (!send_install(t, o))
			return 0;
	}
	snprintf(err, errlen, "cannot add nftables table inet %s: %s%s", t->name,
		 strerror(errno), errno == EPERM ? " (it needs CAP_NET_ADMIN)" :
		 errno == ENOENT || errno == EOPNOTSUPP || errno == EPROTONOSUPPORT ?
		 " (a kernel without nf_tables?)" : "");
	close(t->fd);
	t->fd = -1;
	return -1;
}

int wd_nft_trace_install(struct wd_nft_trace_table *t, int netns_fd,
			 const struct wd_nft_trace_opts *o, char *err, size_t errlen)
{
	int saved = -1, ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (o && o->ifname && (!*o->ifname || strlen(o->ifname) >= WD_NFT_IFNAME_LEN)) {
		snprintf(err, errlen, "'%s' is no interface name (1 to %d characters)", o->ifname,
			 WD_NFT_IFNAME_LEN - 1);
		return -1;
	}
	if (wd_nft_trace_table_name(t->name, sizeof(t->name)) ||
	    wd_nft_nl_delete_batch(t->name, t->del_msg, sizeof(t->del_msg), &t->del_len)) {
		snprintf(err, errlen, "cannot name whydrop's nftables table (/proc/self/stat)");
		return -1;
	}
	if (wd_netns_enter_said(netns_fd, &saved, err, errlen))
		return -1;
	ret = install_here(t, o, err, errlen);
	if (wd_netns_leave_said(saved, err, errlen)) {
		wd_nft_trace_remove_signal_safe(t);
		return -1;
	}
	return ret;
}

int wd_nft_trace_remove(struct wd_nft_trace_table *t, char *err, size_t errlen)
{
	int ret = 0, e;

	if (t->fd < 0)
		return 0;
	/*
	 * An owned table goes with its socket (EPERM, no CAP_NET_ADMIN, is
	 * fine then); one already gone (a table without owner flushed by an
	 * administrator) is no error.
	 */
	if (wd_nft_nl_send(t->fd, t->del_msg, t->del_len) || wd_nft_nl_acks(t->fd, 1)) {
		e = errno;
		if (e != ENOENT && !(t->owner && e == EPERM)) {
			snprintf(err, errlen, "cannot delete nftables table inet %s: %s%s",
				 t->name, strerror(e),
				 e == EPERM ? " (it needs CAP_NET_ADMIN)" : "");
			ret = -1;
		}
	}
	close(t->fd);
	t->fd = -1;
	return ret;
}

void wd_nft_trace_remove_signal_safe(struct wd_nft_trace_table *t)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = t->fd;

	if (fd < 0)
		return;
	t->fd = -1;
	(void)!sendto(fd, t->del_msg, t->del_len, MSG_DONTWAIT, (struct sockaddr *)&sa,
		      sizeof(sa));
	close(fd);
}
