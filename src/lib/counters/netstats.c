// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Interface, qdisc and socket drop counters; see netstats.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <libmnl/libmnl.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "grow.h"
#include "netns.h"
#include "netstats.h"

#define DUMP_BUF	32768
#define LINE_LEN	1024

/* An interface's name by index: qdiscs are dumped with the index alone. */
struct link_name {
	int index;
	char name[IF_NAMESIZE];
};

struct link_sums {
	uint64_t rx_dropped, tx_dropped, rx_missed, rx_nohandler;
	struct link_name *names;
	size_t n, cap;
};

struct qdisc_sums {
	uint64_t root, ingress;
	const struct link_sums *links;
	struct wd_counters *c;		/* the parts go straight in */
	int err;
};

/* ------------------------------------------------------------ rtnetlink */

/* Send one dump request and run cb over every answer until NLMSG_DONE. */
static int dump(struct mnl_socket *nl, uint16_t type, size_t hdrlen, mnl_cb_t cb, void *data)
{
	unsigned int seq = (unsigned int)time(NULL), portid = mnl_socket_get_portid(nl);
	char *buf = malloc(DUMP_BUF);
	struct nlmsghdr *nlh;
	ssize_t n;
	int ret = -ENOMEM;

	if (!buf)
		return ret;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	mnl_nlmsg_put_extra_header(nlh, hdrlen);	/* zeroed: AF_UNSPEC, all */
	ret = -errno;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		goto out;
	do {
		n = mnl_socket_recvfrom(nl, buf, DUMP_BUF);
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		ret = mnl_cb_run(buf, (size_t)n, seq, portid, cb, data);
	} while (ret > MNL_CB_STOP);
	ret = ret < 0 ? -errno : 0;
out:
	free(buf);
	return ret;
}

static void keep_name(struct link_sums *s, const struct nlmsghdr *nlh, const char *name)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	if (wd_grow(&s->names, &s->cap, s->n, sizeof(*s->names), 16))
		return;		/* the qdisc is then named by its index */
	s->names[s->n].index = ifi->ifi_index;
	snprintf(s->names[s->n].name, sizeof(s->names[s->n].name), "%s", name);
	s->n++;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_sums *s = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct ifinfomsg)) {
		struct rtnl_link_stats64 st;

		if (mnl_attr_get_type(a) == IFLA_IFNAME && !mnl_attr_validate(a, MNL_TYPE_STRING))
			keep_name(s, nlh, mnl_attr_get_str(a));
		if (mnl_attr_get_type(a) != IFLA_STATS64 ||
		    mnl_attr_get_payload_len(a) < sizeof(st))
			continue;
		/* attributes are only 4-byte aligned */
		memcpy(&st, mnl_attr_get_payload(a), sizeof(st));
		s->rx_dropped += st.rx_dropped;
		s->tx_dropped += st.tx_dropped;
		s->rx_missed += st.rx_missed_errors;
		s->rx_nohandler += st.rx_nohandler;
	}
	return MNL_CB_OK;
}

/* Drops of a qdisc: TCA_STATS2/TCA_STATS_QUEUE, else the old TCA_STATS. */
static uint64_t qdisc_drops(const struct nlmsghdr *nlh)
{
	const struct nlattr *a, *q;
	struct gnet_stats_queue gq;
	struct tc_stats ts;
	uint64_t old = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct tcmsg)) {
		if (mnl_attr_get_type(a) == TCA_STATS &&
		    mnl_attr_get_payload_len(a) >= sizeof(ts)) {
			memcpy(&ts, mnl_attr_get_payload(a), sizeof(ts));
			old = ts.drops;
			continue;
		}
		if (mnl_attr_get_type(a) != TCA_STATS2)
			continue;
		mnl_attr_for_each_nested(q, a) {
			if (mnl_attr_get_type(q) != TCA_STATS_QUEUE ||
			    mnl_attr_get_payload_len(q) < sizeof(gq))
				continue;
			memcpy(&gq, mnl_attr_get_payload(q), sizeof(gq));
			return gq.drops;
		}
	}
	return old;
}

static const char *qdisc_kind(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct tcmsg))
		if (mnl_attr_get_type(a) == TCA_KIND && !mnl_attr_validate(a, MNL_TYPE_STRING))
			return mnl_attr_get_str(a);
	return "?";
}

/* sum@DEVICE KIND HANDLE: one qdisc's part of a sum, named as tc names it. */
static void add_part(struct qdisc_sums *s, const char *sum, const struct nlmsghdr *nlh,
		     uint64_t drops)
{
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	char name[128], dev[IF_NAMESIZE + 8];
	const char *kind = qdisc_kind(nlh);

	snprintf(dev, sizeof(dev), "if%d", tcm->tcm_ifindex);
	for (size_t i = 0; i < s->links->n; i++)
		if (s->links->names[i].index == tcm->tcm_ifindex)
			snprintf(dev, sizeof(dev), "%s", s->links->names[i].name);
	/* a device name has no space nor '@'; a kind is a plain word */
	if (strpbrk(kind, " @"))
		kind = "?";
	snprintf(name, sizeof(name), "%s%c%s %s %x:", sum, WD_COUNTER_PART, dev, kind,
		 TC_H_MAJ(tcm->tcm_handle) >> 16);
	if (!s->err)
		s->err = wd_counters_set(s->c, name, drops);
}

/*
 * Only qdiscs at the root or at ingress: a classful parent already counts
 * what its children drop (htb, tbf), or sums them when dumped (mq), so
 * adding the children too would count the same packet twice. Each one's
 * drops are kept apart too, to name the device.
 */
static int qdisc_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct qdisc_sums *s = data;
	uint64_t drops;

	if (tcm->tcm_parent != TC_H_ROOT && tcm->tcm_parent != TC_H_INGRESS)
		return MNL_CB_OK;
	drops = qdisc_drops(nlh);
	if (tcm->tcm_parent == TC_H_ROOT) {
		s->root += drops;
		add_part(s, "qdisc:drops", nlh, drops);
	} else {
		s->ingress += drops;
		add_part(s, "qdisc:ingress_drops", nlh, drops);
	}
	return MNL_CB_OK;
}

static int store(struct wd_counters *c, const struct link_sums *l, const struct qdisc_sums *q)
{
	int err;

	err = wd_counters_set(c, "netdev:rx_dropped", l->rx_dropped);
	if (!err)
		err = wd_counters_set(c, "netdev:tx_dropped", l->tx_dropped);
	if (!err)
		err = wd_counters_set(c, "netdev:rx_missed_errors", l->rx_missed);
	if (!err)
		err = wd_counters_set(c, "netdev:rx_nohandler", l->rx_nohandler);
	if (!err)
		err = wd_counters_set(c, "qdisc:drops", q->root);
	if (!err)
		err = wd_counters_set(c, "qdisc:ingress_drops", q->ingress);
	return err;
}

/* netdev:* and qdisc:* over an rtnetlink socket bound in the namespace */
static int read_rtnl(struct wd_counters *c, struct mnl_socket *nl)
{
	struct link_sums l = { 0 };
	struct qdisc_sums q = { .links = &l, .c = c };
	int err;

	err = dump(nl, RTM_GETLINK, sizeof(struct ifinfomsg), link_cb, &l);
	if (!err)
		err = dump(nl, RTM_GETQDISC, sizeof(struct tcmsg), qdisc_cb, &q);
	if (!err)
		err = q.err;
	if (!err)
		err = store(c, &l, &q);
	free(l.names);
	return err;
}

static struct mnl_socket *open_rtnl(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);

	if (nl && mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID)) {
		mnl_socket_close(nl);
		return NULL;
	}
	return nl;
}

/* -------------------------------------------------------- socket tables */

int wd_sock_drops_parse(const char *text, uint64_t *sum)
{
	const char *p = text;

	*sum = 0;
	if (!p)
		return -EINVAL;
	p = strchr(p, '\n');	/* header line */
	while (p && *++p) {
		const char *end = strchr(p, '\n');
		const char *last = end ? end : p + strlen(p);
		const char *col = last;

		while (col > p && (col[-1] == ' ' || col[-1] == '\r'))
			col--;
		while (col > p && col[-1] >= '0' && col[-1] <= '9')
			col--;
		if (col < last && col[0] >= '0' && col[0] <= '9')
			*sum += strtoull(col, NULL, 10);
		p = end;
	}
	return 0;
}

/*
 * The /proc/net files a sample reads: the MIB files of counters.c, then the
 * socket tables whose last column is a per-socket drop count.
 */
static const char *const sock_files[] = { "udp", "udp6", "raw", "raw6" };

static void close_fds(int *fd, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		fd[i] = -1;
	}
}

/* net.ipv4.ip_forward -> /proc/sys/net/ipv4/ip_forward, opened here. */
static void open_sysctls(struct wd_netstats_src *src, const char *const *names)
{
	char path[256];
	size_t n = 0;

	for (; names && *names && n < WD_NETSTATS_SYSCTLS; names++) {
		size_t off = (size_t)snprintf(path, sizeof(path), "/proc/sys/%s", *names);

		if (off >= sizeof(path))
			continue;
		for (char *p = path + 10; *p; p++)
			if (*p == '.')
				*p = '/';
		src->sysctl[n] = open(path, O_RDONLY | O_CLOEXEC);
		src->sysctl_name[n++] = *names;
	}
}

/* In the namespace to read: each file, and a bound rtnetlink socket. */
static int open_here(struct wd_netstats_src *src, const char *const *sysctls)
{
	char path[64], err[128];

	for (size_t i = 0; wd_counters_proc_files[i] && i < WD_NETSTATS_MIB_FILES; i++) {
		/* thread-self: the namespace of this thread, the one that entered */
		snprintf(path, sizeof(path), "/proc/thread-self/net/%s", wd_counters_proc_files[i]);
		src->mib[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	for (size_t i = 0; i < WD_NETSTATS_SOCK_FILES; i++) {
		snprintf(path, sizeof(path), "/proc/thread-self/net/%s", sock_files[i]);
		src->sock[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (src->mib[0] < 0)
		return -errno;	/* no /proc/net/snmp: /proc is not there */
	src->nl = open_rtnl();	/* none (seccomp, odd sandbox): /proc is still worth it */
	wd_ct_open(&src->ct, -1, err, sizeof(err));	/* no conntrack: no error */
	open_sysctls(src, sysctls);
	return 0;
}

void wd_netstats_init(struct wd_netstats_src *src)
{
	memset(src->mib, -1, sizeof(src->mib));
	memset(src->sock, -1, sizeof(src->sock));
	memset(src->sysctl, -1, sizeof(src->sysctl));
	memset(src->sysctl_name, 0, sizeof(src->sysctl_name));
	src->ct.stat_fd = src->ct.count_fd = src->ct.max_fd = -1;
	src->nl = NULL;
}

int wd_netstats_open(struct wd_netstats_src *src, int netns_fd, const char *const *sysctls,
		     char *err, size_t errlen)
{
	int saved = -1, e;

	wd_netstats_init(src);
	if (netns_fd >= 0 && wd_netns_enter_fd(netns_fd, &saved)) {
		snprintf(err, errlen, "cannot enter the network namespace to read its counters: "
			 "%s%s", strerror(errno),
			 errno == EPERM ? " (needs root or CAP_SYS_ADMIN)" : "");
		return -1;
	}
	e = open_here(src, sysctls);
	if (netns_fd >= 0 && wd_netns_leave(saved)) {
		snprintf(err, errlen, "cannot return to whydrop's own network namespace: %s",
			 strerror(errno));
		wd_netstats_close(src);
		return -1;
	}
	if (e) {
		snprintf(err, errlen, "cannot open the kernel's counters (/proc/net/snmp): %s",
			 strerror(-e));
		wd_netstats_close(src);
		return -1;
	}
	return 0;
}

void wd_netstats_close(struct wd_netstats_src *src)
{
	close_fds(src->mib, WD_NETSTATS_MIB_FILES);
	close_fds(src->sock, WD_NETSTATS_SOCK_FILES);
	close_fds(src->sysctl, WD_NETSTATS_SYSCTLS);
	wd_ct_close(&src->ct);
	if (src->nl)
		mnl_socket_close(src->nl);
	src->nl = NULL;
}

static int read_mibs(struct wd_counters *c, const struct wd_netstats_src *src)
{
	int err = 0;

	for (size_t i = 0; !err && wd_counters_proc_files[i] && i < WD_NETSTATS_MIB_FILES; i++) {
		char *text = src->mib[i] >= 0 ? wd_slurp_fd(src->mib[i]) : NULL;

		if (!text) {
			err = src->mib[i] >= 0 ? -errno : 0;
			continue;
		}
		err = wd_counters_add_text(c, wd_counters_proc_files[i], text);
		free(text);
	}
	return err;
}

static int read_sockets(struct wd_counters *c, const struct wd_netstats_src *src)
{
	uint64_t sum[2] = { 0 }, v;	/* udp, raw */
	int err;

	for (size_t i = 0; i < WD_NETSTATS_SOCK_FILES; i++) {
		char *text = src->sock[i] >= 0 ? wd_slurp_fd(src->sock[i]) : NULL;

		if (!text) {
			if (src->sock[i] >= 0)
				return -errno;
			continue;	/* no IPv6, no raw: nothing to add */
		}
		if (!wd_sock_drops_parse(text, &v))
			sum[i / 2] += v;
		free(text);
	}
	err = wd_counters_set(c, "sockets:udp_drops", sum[0]);
	if (!err)
		err = wd_counters_set(c, "sockets:raw_drops", sum[1]);
	return err;
}

/* conntrack's own drop counters, summed over CPUs: absent without conntrack. */
static int read_conntrack(struct wd_counters *c, const struct wd_netstats_src *src)
{
	static const enum wd_ct_col cols[] = { WD_CT_DROP, WD_CT_INSERT_FAILED,
					       WD_CT_EARLY_DROP, WD_CT_INVALID, WD_CT_CHAINLENGTH };
	struct wd_ct_stats st;
	char name[64];
	int err = 0;

	if (wd_ct_read(&src->ct, &st))
		return 0;
	for (size_t i = 0; !err && i < sizeof(cols) / sizeof(cols[0]); i++) {
		if (!(st.have & (1u << cols[i])))
			continue;
		snprintf(name, sizeof(name), "conntrack:%s", wd_ct_col_name(cols[i]));
		err = wd_counters_set(c, name, st.v[cols[i]]);
	}
	return err;
}

/* The first number of each sysctl: a value, kept as "sysctl:NAME". */
static int read_sysctls(struct wd_counters *c, const struct wd_netstats_src *src)
{
	char buf[64], name[192];
	int err = 0;

	for (size_t i = 0; !err && i < WD_NETSTATS_SYSCTLS && src->sysctl_name[i]; i++) {
		ssize_t n;

		if (src->sysctl[i] < 0)
			continue;
		n = pread(src->sysctl[i], buf, sizeof(buf) - 1, 0);
		if (n <= 0 || buf[0] < '0' || buf[0] > '9')
			continue;
		buf[n] = '\0';
		snprintf(name, sizeof(name), "sysctl:%s", src->sysctl_name[i]);
		err = wd_counters_set(c, name, strtoull(buf, NULL, 10));
	}
	return err;
}

int wd_netstats_sample(struct wd_counters *c, const struct wd_netstats_src *src,
		       char *err, size_t errlen)
{
	int e = read_mibs(c, src);

	if (!e)
		e = read_sockets(c, src);
	if (!e)
		e = read_conntrack(c, src);
	if (!e)
		e = read_sysctls(c, src);
	if (e) {
		snprintf(err, errlen, "cannot read the kernel's counters: %s", strerror(-e));
		return -1;
	}
	if (!src->nl)
		return 0;
	e = read_rtnl(c, src->nl);
	if (e == -ENOMEM) {
		snprintf(err, errlen, "cannot read interface and qdisc counters: %s",
			 strerror(-e));
		return -1;
	}
	return 0;
}
