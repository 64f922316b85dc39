// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* whydrop's own tracing table; see nftables_setup.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <libnftnl/chain.h>
#include <libnftnl/common.h>
#include <libnftnl/expr.h>
#include <libnftnl/rule.h>
#include <libnftnl/table.h>
#include <libnftnl/udata.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>

#include "netns.h"
#include "nftables_setup.h"

#define BATCH_BUF	(1u << 14)
#define RECV_BUF	(1u << 16)

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

/* ------------------------------------------------------------ names */

/* Field 22 of /proc/PID/stat, after the command's closing parenthesis. */
static int start_time(uint32_t pid, uint64_t *start)
{
	char path[64], buf[1024], *p;
	unsigned long long v;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after ") ": state, then fields 4..21, then starttime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			 "%*d %*d %*d %*d %llu", &v) != 1)
		return -1;
	*start = v;
	return 0;
}

static uint64_t pidns_self(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) ? 0 : (uint64_t)st.st_ino;
}

int wd_nft_trace_table_name(char *buf, size_t len)
{
	uint64_t start;
	int n;

	if (start_time((uint32_t)getpid(), &start))
		return -1;
	n = snprintf(buf, len, WD_NFT_TABLE_PREFIX "%" PRIu64 "_%u_%" PRIu64, pidns_self(),
		     (uint32_t)getpid(), start);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int wd_nft_trace_parse_name(const char *name, struct wd_nft_owner *o)
{
	unsigned long long ns, start;
	unsigned int pid;
	int used = 0;

	if (strncmp(name, WD_NFT_TABLE_PREFIX, strlen(WD_NFT_TABLE_PREFIX)))
		return -1;
	name += strlen(WD_NFT_TABLE_PREFIX);
	if (sscanf(name, "%llu_%u_%llu%n", &ns, &pid, &start, &used) != 3 || name[used] ||
	    !pid || name[0] < '0' || name[0] > '9')
		return -1;
	o->pidns = ns;
	o->pid = pid;
	o->start = start;
	return 0;
}

enum wd_nft_owner_state wd_nft_owner_state(const struct wd_nft_owner *o)
{
	uint64_t start;

	if (o->pidns != pidns_self())
		return WD_NFT_OWNER_UNKNOWN;
	if (start_time(o->pid, &start) || start != o->start)
		return WD_NFT_OWNER_DEAD;
	return WD_NFT_OWNER_ALIVE;
}

/* ------------------------------------------------------------ netlink */

static int nl_open(uint32_t *portid)
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

/* Send a request after dropping what an earlier one left unread. */
static int nl_send(int fd, const void *buf, size_t len)
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

/*
 * Read @acks acknowledgements (one per message sent with NLM_F_ACK): 0, or
 * -1 with errno of the first error the kernel reported (the batch is
 * undone whole then, and what else it says is dropped by the next send).
 */
static int nl_acks(int fd, unsigned int acks)
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

/* ------------------------------------------------------------ the batch */

struct batch {
	struct mnl_nlmsg_batch *b;
	uint32_t seq;
	unsigned int acks;
};

static struct nlmsghdr *next_hdr(struct batch *bt, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = nftnl_nlmsg_build_hdr(mnl_nlmsg_batch_current(bt->b), type,
						     NFPROTO_INET, flags | NLM_F_ACK, bt->seq++);

	bt->acks++;
	return nlh;
}

static void put_begin(struct batch *bt)
{
	nftnl_batch_begin(mnl_nlmsg_batch_current(bt->b), bt->seq++);
	mnl_nlmsg_batch_next(bt->b);
}

static void put_end(struct batch *bt)
{
	nftnl_batch_end(mnl_nlmsg_batch_current(bt->b), bt->seq++);
	mnl_nlmsg_batch_next(bt->b);
}

static int put_table(struct batch *bt, const char *name, bool owner, uint16_t type)
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
	nftnl_table_nlmsg_build_payload(next_hdr(bt, type, type == NFT_MSG_NEWTABLE ?
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

static int put_chain(struct batch *bt, const char *table, const char *name, uint32_t hook)
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
	nftnl_chain_nlmsg_build_payload(next_hdr(bt, NFT_MSG_NEWCHAIN, NLM_F_CREATE | NLM_F_EXCL), c);
	mnl_nlmsg_batch_next(bt->b);
	nftnl_chain_free(c);
	return 0;
}

/* [meta load iifname/oifname => reg 1; cmp eq reg 1 "name"] */
static int add_ifname_match(struct nftnl_rule *r, const char *ifname, bool out)
{
	char name[WD_NFT_IFNAME_LEN] = { 0 };
	struct nftnl_expr *m = nftnl_expr_alloc("meta"), *c = nftnl_expr_alloc("cmp");

	if (!m || !c) {
		if (m)
			nftnl_expr_free(m);
		if (c)
			nftnl_expr_free(c);
		return -1;
	}
	strncpy(name, ifname, sizeof(name) - 1);
	nftnl_expr_set_u32(m, NFTNL_EXPR_META_KEY, out ? NFT_META_OIFNAME : NFT_META_IIFNAME);
	nftnl_expr_set_u32(m, NFTNL_EXPR_META_DREG, NFT_REG_1);
	nftnl_rule_add_expr(r, m);
	nftnl_expr_set_u32(c, NFTNL_EXPR_CMP_SREG, NFT_REG_1);
	nftnl_expr_set_u32(c, NFTNL_EXPR_CMP_OP, NFT_CMP_EQ);
	nftnl_expr_set_data(c, NFTNL_EXPR_CMP_DATA, name, sizeof(name));
	nftnl_rule_add_expr(r, c);
	return 0;
}

/*
 * [immediate reg 1 1; meta set nftrace with reg 1; immediate reg 0 accept]:
 * `meta nftrace set 1 accept`. The accept ends whydrop's chain alone (the
 * hook's other chains still run) and makes the mark one trace message,
 * where falling off the chain's end would add two (end of chain, policy).
 */
static int add_set_nftrace(struct nftnl_rule *r)
{
	struct nftnl_expr *i = nftnl_expr_alloc("immediate"), *m = nftnl_expr_alloc("meta"),
			  *v = nftnl_expr_alloc("immediate");
	uint8_t one = 1;

	if (!i || !m || !v) {
		if (i)
			nftnl_expr_free(i);
		if (m)
			nftnl_expr_free(m);
		if (v)
			nftnl_expr_free(v);
		return -1;
	}
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

static int put_rule(struct batch *bt, const char *table, const char *chain, const char *ifname,
		    bool out)
{
	struct nftnl_rule *r = nftnl_rule_alloc();
	int ret = -1;

	if (!r)
		return -1;
	nftnl_rule_set_str(r, NFTNL_RULE_TABLE, table);
	nftnl_rule_set_str(r, NFTNL_RULE_CHAIN, chain);
	nftnl_rule_set_u32(r, NFTNL_RULE_FAMILY, NFPROTO_INET);
	if (ifname && add_ifname_match(r, ifname, out))
		goto out;
	if (add_set_nftrace(r))
		goto out;
	nftnl_rule_nlmsg_build_payload(next_hdr(bt, NFT_MSG_NEWRULE,
						NLM_F_CREATE | NLM_F_APPEND), r);
	mnl_nlmsg_batch_next(bt->b);
	ret = 0;
out:
	nftnl_rule_free(r);
	return ret;
}

static int build_install(struct batch *bt, const struct wd_nft_trace_table *t,
			 const struct wd_nft_trace_opts *o)
{
	const char *ifname = o ? o->ifname : NULL;
	size_t i;

	put_begin(bt);
	if (put_table(bt, t->name, t->owner, NFT_MSG_NEWTABLE))
		return -1;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (put_chain(bt, t->name, hooks[i].name, hooks[i].hook) ||
		    put_rule(bt, t->name, hooks[i].name, ifname, hooks[i].out))
			return -1;
	put_end(bt);
	return 0;
}

/* The delete batch, kept in @t for the signal-safe path. */
static int build_delete(struct wd_nft_trace_table *t)
{
	char buf[BATCH_BUF];
	struct batch bt = { .seq = 1 };

	bt.b = mnl_nlmsg_batch_start(buf, sizeof(buf));
	if (!bt.b)
		return -1;
	put_begin(&bt);
	if (put_table(&bt, t->name, false, NFT_MSG_DELTABLE)) {
		mnl_nlmsg_batch_stop(bt.b);
		return -1;
	}
	put_end(&bt);
	t->del_len = mnl_nlmsg_batch_size(bt.b);
	if (t->del_len <= sizeof(t->del_msg))
		memcpy(t->del_msg, mnl_nlmsg_batch_head(bt.b), t->del_len);
	mnl_nlmsg_batch_stop(bt.b);
	return t->del_len <= sizeof(t->del_msg) ? 0 : -1;
}

static int send_install(struct wd_nft_trace_table *t, const struct wd_nft_trace_opts *o)
{
	char *buf = malloc(BATCH_BUF);
	struct batch bt = { .seq = 1 };
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
	ret = nl_send(t->fd, mnl_nlmsg_batch_head(bt.b), mnl_nlmsg_batch_size(bt.b));
	if (!ret)
		ret = nl_acks(t->fd, bt.acks);
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
	t->fd = nl_open(&t->portid);
	if (t->fd < 0) {
		snprintf(err, errlen, "cannot open a netfilter netlink socket: %s", strerror(errno));
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
	if (wd_nft_trace_table_name(t->name, sizeof(t->name)) || build_delete(t)) {
		snprintf(err, errlen, "cannot name whydrop's nftables table (/proc/self/stat)");
		return -1;
	}
	if (netns_fd >= 0 && wd_netns_enter_fd(netns_fd, &saved)) {
		snprintf(err, errlen, "cannot enter the network namespace: %s%s", strerror(errno),
			 errno == EPERM ? " (it needs CAP_SYS_ADMIN)" : "");
		return -1;
	}
	ret = install_here(t, o, err, errlen);
	if (saved >= 0 && wd_netns_leave(saved)) {
		snprintf(err, errlen, "cannot return to the original network namespace: %s",
			 strerror(errno));
		wd_nft_trace_remove_signal_safe(t);
		return -1;
	}
	return ret;
}

int wd_nft_trace_remove(struct wd_nft_trace_table *t, char *err, size_t errlen)
{
	int ret = 0;

	if (t->fd < 0)
		return 0;
	if (nl_send(t->fd, t->del_msg, t->del_len) || nl_acks(t->fd, 1)) {
		/*
		 * an owned table goes with its socket; one already gone (an
		 * administrator's `nft flush ruleset`) is no error
		 */
		if (errno != ENOENT && !(t->owner && errno == EPERM)) {
			snprintf(err, errlen, "cannot delete nftables table inet %s: %s%s", t->name,
				 strerror(errno), errno == EPERM ? " (it needs CAP_NET_ADMIN)" : "");
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

/* ------------------------------------------------------------ stale tables */

struct dump_ctx {
	int fd;
	struct wd_nft_cleanup *c;
};

static int delete_table(int fd, const char *name)
{
	struct wd_nft_trace_table t = { .fd = fd };

	snprintf(t.name, sizeof(t.name), "%s", name);
	if (build_delete(&t))
		return -1;
	return nl_send(fd, t.del_msg, t.del_len) || nl_acks(fd, 1) ? -1 : 0;
}

static void judge(struct dump_ctx *d, const char *name, uint32_t family)
{
	struct wd_nft_owner o;

	if (family != NFPROTO_INET || wd_nft_trace_parse_name(name, &o))
		return;
	switch (wd_nft_owner_state(&o)) {
	case WD_NFT_OWNER_ALIVE:
		d->c->alive++;
		return;
	case WD_NFT_OWNER_UNKNOWN:
		d->c->unknown++;
		return;
	case WD_NFT_OWNER_DEAD:
		break;
	}
	if (delete_table(d->fd, name)) {
		d->c->failed++;
		return;
	}
	d->c->removed++;
	snprintf(d->c->last_removed, sizeof(d->c->last_removed), "%s", name);
}

/* Names and families of every table in the namespace (a dump). */
struct names {
	char (*name)[WD_NFT_TABLE_NAME_LEN];
	uint32_t *family;
	size_t n, cap;
};

static int add_name(struct names *nm, const struct nlmsghdr *nlh)
{
	struct nftnl_table *t = nftnl_table_alloc();
	const char *s;
	void *p;

	if (!t)
		return -1;
	if (nftnl_table_nlmsg_parse(nlh, t) < 0 || !(s = nftnl_table_get_str(t, NFTNL_TABLE_NAME)) ||
	    strlen(s) >= WD_NFT_TABLE_NAME_LEN)
		goto out;	/* too long for one of ours */
	if (nm->n == nm->cap) {
		nm->cap = nm->cap ? nm->cap * 2 : 16;
		p = realloc(nm->name, nm->cap * sizeof(*nm->name));
		if (!p)
			goto fail;
		nm->name = p;
		p = realloc(nm->family, nm->cap * sizeof(*nm->family));
		if (!p)
			goto fail;
		nm->family = p;
	}
	snprintf(nm->name[nm->n], WD_NFT_TABLE_NAME_LEN, "%s", s);
	nm->family[nm->n++] = nftnl_table_get_u32(t, NFTNL_TABLE_FAMILY);
out:
	nftnl_table_free(t);
	return 0;
fail:
	nftnl_table_free(t);
	return -1;
}

static int dump_tables(int fd, uint32_t portid, struct names *nm)
{
	char *buf = malloc(RECV_BUF);
	const struct nlmsghdr *nlh;
	int len, ret = -1;
	ssize_t n;

	if (!buf)
		return -1;
	nlh = nftnl_nlmsg_build_hdr(buf, NFT_MSG_GETTABLE, NFPROTO_UNSPEC, NLM_F_DUMP, 1);
	if (nl_send(fd, nlh, nlh->nlmsg_len))
		goto out;
	for (;;) {
		n = recv(fd, buf, RECV_BUF, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		len = (int)n;
		for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_pid != portid)
				continue;
			if (nlh->nlmsg_type == NLMSG_DONE) {
				ret = 0;
				goto out;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

				errno = -e->error;
				goto out;
			}
			if (add_name(nm, nlh))
				goto out;
		}
	}
out:
	free(buf);
	return ret;
}

static int cleanup_here(struct wd_nft_cleanup *c, char *err, size_t errlen)
{
	struct names nm = { 0 };
	struct dump_ctx d = { .c = c };
	uint32_t portid;
	int ret = -1;

	d.fd = nl_open(&portid);
	if (d.fd < 0) {
		snprintf(err, errlen, "cannot open a netfilter netlink socket: %s", strerror(errno));
		return -1;
	}
	if (dump_tables(d.fd, portid, &nm)) {
		snprintf(err, errlen, "cannot list nftables tables: %s%s", strerror(errno),
			 errno == EPERM ? " (it needs CAP_NET_ADMIN)" : "");
		goto out;
	}
	for (size_t i = 0; i < nm.n; i++)
		judge(&d, nm.name[i], nm.family[i]);
	ret = 0;
out:
	free(nm.name);
	free(nm.family);
	close(d.fd);
	return ret;
}

int wd_nft_trace_cleanup(int netns_fd, struct wd_nft_cleanup *c, char *err, size_t errlen)
{
	int saved = -1, ret;

	memset(c, 0, sizeof(*c));
	if (netns_fd >= 0 && wd_netns_enter_fd(netns_fd, &saved)) {
		snprintf(err, errlen, "cannot enter the network namespace: %s", strerror(errno));
		return -1;
	}
	ret = cleanup_here(c, err, errlen);
	if (saved >= 0 && wd_netns_leave(saved)) {
		snprintf(err, errlen, "cannot return to the original network namespace: %s",
			 strerror(errno));
		return -1;
	}
	return ret;
}
