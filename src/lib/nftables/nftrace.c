// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* nftables trace socket and its messages; see nftrace.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <libnftnl/trace.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "netns.h"
#include "nftrace.h"

#define NFTRACE_BUF	(1u << 16)

struct wd_nftrace {
	struct mnl_socket *nl;
	struct wd_nftrace_stats st;
	uint32_t drops_seen;	/* SO_MEMINFO's drops at the last read (32 bits) */
	char *buf;
	size_t len;		/* bytes received into buf */
	size_t off;		/* next message in buf */
};

/* ------------------------------------------------------------ parser */

static void copy_str(char *dst, size_t size, const struct nftnl_trace *t, uint16_t attr)
{
	const char *s = nftnl_trace_is_set(t, attr) ? nftnl_trace_get_str(t, attr) : NULL;

	snprintf(dst, size, "%s", s ? s : "");
}

/* An attribute the trace may lack: true with its value in *v when it has it. */
static bool get_u32(const struct nftnl_trace *t, uint16_t attr, uint32_t *v)
{
	if (!nftnl_trace_is_set(t, attr))
		return false;
	*v = nftnl_trace_get_u32(t, attr);
	return true;
}

/* A header the trace may carry: true with as much of it as fits in buf. */
static bool get_header(const struct nftnl_trace *t, uint16_t attr, uint8_t *buf, size_t size,
		       size_t *len)
{
	const void *p;
	uint32_t n = 0;

	if (!nftnl_trace_is_set(t, attr))
		return false;
	p = nftnl_trace_get_data(t, attr, &n);
	if (!p)
		return false;
	*len = n < size ? n : size;
	memcpy(buf, p, *len);
	return true;
}

static void fill(struct wd_nftrace_event *ev, const struct nftnl_trace *t)
{
	uint32_t verdict = 0;

	memset(ev, 0, sizeof(*ev));
	ev->id = nftnl_trace_get_u32(t, NFTNL_TRACE_ID);
	ev->type = nftnl_trace_get_u32(t, NFTNL_TRACE_TYPE);
	ev->family = nftnl_trace_get_u32(t, NFTNL_TRACE_FAMILY);
	copy_str(ev->table, sizeof(ev->table), t, NFTNL_TRACE_TABLE);
	copy_str(ev->chain, sizeof(ev->chain), t, NFTNL_TRACE_CHAIN);
	copy_str(ev->jump_target, sizeof(ev->jump_target), t, NFTNL_TRACE_JUMP_TARGET);
	ev->has_handle = nftnl_trace_is_set(t, NFTNL_TRACE_RULE_HANDLE);
	if (ev->has_handle)
		ev->handle = nftnl_trace_get_u64(t, NFTNL_TRACE_RULE_HANDLE);
	ev->has_verdict = get_u32(t, NFTNL_TRACE_VERDICT, &verdict);
	ev->verdict = (int32_t)verdict;
	ev->has_policy = get_u32(t, NFTNL_TRACE_POLICY, &ev->policy);
	ev->has_nfproto = get_u32(t, NFTNL_TRACE_NFPROTO, &ev->nfproto);
	ev->has_iif = get_u32(t, NFTNL_TRACE_IIF, &ev->iif);
	ev->has_oif = get_u32(t, NFTNL_TRACE_OIF, &ev->oif);
	ev->has_mark = get_u32(t, NFTNL_TRACE_MARK, &ev->mark);
	/* the transport header only with the network header it follows */
	if (get_header(t, NFTNL_TRACE_NETWORK_HEADER, ev->nh, sizeof(ev->nh), &ev->nh_len))
		get_header(t, NFTNL_TRACE_TRANSPORT_HEADER, ev->th, sizeof(ev->th), &ev->th_len);
}

static bool is_trace(const struct nlmsghdr *nlh, size_t len)
{
	if (len < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct nfgenmsg)) ||
	    nlh->nlmsg_len > len)
		return false;
	return NFNL_SUBSYS_ID(nlh->nlmsg_type) == NFNL_SUBSYS_NFTABLES &&
	       NFNL_MSG_TYPE(nlh->nlmsg_type) == NFT_MSG_TRACE;
}

static int parse_with(struct nftnl_trace *t, const void *msg, size_t len,
		      struct wd_nftrace_event *ev)
{
	if (!is_trace(msg, len))
		return 0;
	if (nftnl_trace_nlmsg_parse(msg, t) < 0)
		return -1;
	/* libnftnl insists on table, chain and id; type too is needed here */
	if (!nftnl_trace_is_set(t, NFTNL_TRACE_TYPE))
		return -1;
	fill(ev, t);
	return 1;
}

int wd_nftrace_parse(const void *nlh, size_t len, struct wd_nftrace_event *ev)
{
	struct nftnl_trace *t = nftnl_trace_alloc();
	int ret;

	if (!t)
		return -1;
	ret = parse_with(t, nlh, len, ev);
	nftnl_trace_free(t);
	return ret;
}

/* ------------------------------------------------------------ names */

const char *wd_nftrace_verdict_name(int32_t verdict, char *buf, size_t len)
{
	static const char *const nf[] = { "drop", "accept", "stolen", "queue", "repeat", "stop" };
	static const char *const nft[] = { "continue", "break", "jump", "goto", "return" };
	uint32_t code = (uint32_t)verdict & NF_VERDICT_MASK;

	if (verdict >= 0 && code <= NF_MAX_VERDICT)
		snprintf(buf, len, "%s", nf[code]);
	else if (verdict < 0 && verdict >= NFT_RETURN)
		snprintf(buf, len, "%s", nft[-verdict - 1]);
	else
		snprintf(buf, len, "verdict %d", verdict);
	return buf;
}

struct code_name {
	uint32_t code;
	const char *name;
};

#define CODE_NAME(buf, len, t, code, what) \
	code_name(buf, len, t, sizeof(t) / sizeof(t[0]), code, what)

/* code's name in t, else "what CODE". */
static const char *code_name(char *buf, size_t len, const struct code_name *t, size_t n,
			     uint32_t code, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		if (t[i].code == code) {
			snprintf(buf, len, "%s", t[i].name);
			return buf;
		}
	}
	snprintf(buf, len, "%s %u", what, code);
	return buf;
}

const char *wd_nftrace_type_name(uint32_t type, char *buf, size_t len)
{
	static const struct code_name types[] = {
		{ NFT_TRACETYPE_RULE, "rule" },
		{ NFT_TRACETYPE_RETURN, "return" },
		{ NFT_TRACETYPE_POLICY, "policy" },
	};

	return CODE_NAME(buf, len, types, type, "type");
}

const char *wd_nft_family_name(uint32_t family, char *buf, size_t len)
{
	static const struct code_name families[] = {
		{ NFPROTO_INET, "inet" },
		{ NFPROTO_IPV4, "ip" },
		{ NFPROTO_IPV6, "ip6" },
		{ NFPROTO_ARP, "arp" },
		{ NFPROTO_BRIDGE, "bridge" },
		{ NFPROTO_NETDEV, "netdev" },
	};

	return CODE_NAME(buf, len, families, family, "family");
}

bool wd_nftrace_is_drop(const struct wd_nftrace_event *ev)
{
	/* a policy trace carries the chain's policy, a rule trace its verdict */
	if (ev->type == NFT_TRACETYPE_POLICY)
		return ev->has_policy && (ev->policy & NF_VERDICT_MASK) == NF_DROP;
	if (ev->type != NFT_TRACETYPE_RULE || !ev->has_verdict || ev->verdict < 0)
		return false;
	return ((uint32_t)ev->verdict & NF_VERDICT_MASK) == NF_DROP;
}

/* ------------------------------------------------------------ socket */

static void set_rcvbuf(int fd, int size)
{
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

/* Socket made and subscribed where we are now (inside the namespace). */
static int open_here(struct wd_nftrace *t, int rcvbuf, char *err, size_t errlen)
{
	unsigned int group = NFNLGRP_NFTRACE;

	t->nl = mnl_socket_open2(NETLINK_NETFILTER, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!t->nl) {
		snprintf(err, errlen, "cannot open a netfilter netlink socket: %s",
			 strerror(errno));
		return -1;
	}
	set_rcvbuf(mnl_socket_get_fd(t->nl), rcvbuf);
	if (mnl_socket_bind(t->nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(t->nl, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0) {
		snprintf(err, errlen, "cannot subscribe to nftables traces: %s%s",
			 strerror(errno),
			 errno == EPERM ? " (it needs CAP_NET_ADMIN)" : "");
		return -1;
	}
	return 0;
}

struct wd_nftrace *wd_nftrace_open(int netns_fd, int rcvbuf, char *err, size_t errlen)
{
	struct wd_nftrace *t = calloc(1, sizeof(*t));
	socklen_t sl = sizeof(int);
	int saved = -1, ret;

	if (!t || !(t->buf = malloc(NFTRACE_BUF))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (wd_netns_enter_said(netns_fd, &saved, err, errlen))
		goto fail;
	ret = open_here(t, rcvbuf > 0 ? rcvbuf : WD_NFTRACE_RCVBUF, err, errlen);
	if (wd_netns_leave_said(saved, err, errlen) || ret)
		goto fail;
	getsockopt(mnl_socket_get_fd(t->nl), SOL_SOCKET, SO_RCVBUF, &t->st.rcvbuf, &sl);
	return t;
fail:
	wd_nftrace_close(t);
	return NULL;
}

int wd_nftrace_fd(const struct wd_nftrace *t)
{
	return mnl_socket_get_fd(t->nl);
}

/*
 * Refill the buffer: 1 with data, 0 nothing waiting, -1 error. Only the
 * kernel's messages are kept: libnftnl aborts the process on a malformed
 * attribute (it takes one for a kernel ABI break), and another process
 * with CAP_NET_ADMIN could send us anything.
 */
static int refill(struct wd_nftrace *t)
{
	struct sockaddr_nl from;
	socklen_t fl;
	ssize_t n;

	for (;;) {
		fl = sizeof(from);
		n = recvfrom(mnl_socket_get_fd(t->nl), t->buf, NFTRACE_BUF, 0,
			     (struct sockaddr *)&from, &fl);
		if (n > 0 && from.nl_pid != 0) {
			t->st.bad++;
			continue;
		}
		if (n > 0) {
			t->len = (size_t)n;
			t->off = 0;
			return 1;
		}
		if (n == 0)
			return 0;
		if (errno == ENOBUFS) {
			t->st.overruns++;
			continue;
		}
		if (errno == EINTR)
			continue;
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
	}
}

int wd_nftrace_next(struct wd_nftrace *t, struct wd_nftrace_event *ev)
{
	const struct nlmsghdr *nlh;
	size_t left;
	int ret;

	for (;;) {
		if (t->off >= t->len) {
			ret = refill(t);
			if (ret <= 0)
				return ret;
		}
		nlh = (const struct nlmsghdr *)(t->buf + t->off);
		left = t->len - t->off;
		if (!mnl_nlmsg_ok(nlh, (int)left)) {
			t->off = t->len;	/* a truncated datagram: drop the rest */
			t->st.bad++;
			continue;
		}
		t->off += NLMSG_ALIGN(nlh->nlmsg_len);
		t->st.messages++;
		/* a fresh nftnl_trace each time: parsing into a used one leaks */
		ret = wd_nftrace_parse(nlh, left, ev);
		if (ret > 0) {
			t->st.traces++;
			return 1;
		}
		if (ret < 0)
			t->st.bad++;
		else
			t->st.other++;
	}
}

void wd_nftrace_stats(struct wd_nftrace *t, struct wd_nftrace_stats *s)
{
	uint32_t mem[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mem);

	/* the kernel's count is 32 bits: add what it moved since the last read */
	if (!getsockopt(mnl_socket_get_fd(t->nl), SOL_SOCKET, SO_MEMINFO, mem, &len) &&
	    len > SK_MEMINFO_DROPS * sizeof(uint32_t)) {
		t->st.lost += (uint32_t)(mem[SK_MEMINFO_DROPS] - t->drops_seen);
		t->drops_seen = mem[SK_MEMINFO_DROPS];
	} else {
		t->st.lost = ~0ULL;
	}
	*s = t->st;
}

void wd_nftrace_close(struct wd_nftrace *t)
{
	if (!t)
		return;
	if (t->nl)
		mnl_socket_close(t->nl);
	free(t->buf);
	free(t);
}
