// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * whydrop's table names, their owners, and the tables of dead owners
 * removed; see nftables_setup.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <libnftnl/common.h>
#include <libnftnl/table.h>
#include <linux/netfilter.h>
#include <linux/netfilter/nf_tables.h>
#include <linux/netlink.h>

#include "netns.h"
#include "nft_netlink.h"
#include "nftables_setup.h"

#define RECV_BUF	(1u << 16)

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

/* ------------------------------------------------------------ stale tables */

struct dump_ctx {
	int fd;
	struct wd_nft_cleanup *c;
};

static int delete_table(int fd, const char *name)
{
	unsigned char msg[WD_NFT_DEL_MSG_LEN];
	size_t len;

	if (wd_nft_nl_delete_batch(name, msg, sizeof(msg), &len))
		return -1;
	return wd_nft_nl_send(fd, msg, len) || wd_nft_nl_acks(fd, 1) ? -1 : 0;
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
	if (nftnl_table_nlmsg_parse(nlh, t) < 0 ||
	    !(s = nftnl_table_get_str(t, NFTNL_TABLE_NAME)) || strlen(s) >= WD_NFT_TABLE_NAME_LEN)
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
	if (wd_nft_nl_send(fd, nlh, nlh->nlmsg_len))
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

	d.fd = wd_nft_nl_open(&portid);
	if (d.fd < 0) {
		snprintf(err, errlen, "cannot open a netfilter netlink socket: %s",
			 strerror(errno));
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
	if (wd_netns_enter_said(netns_fd, &saved, err, errlen))
		return -1;
	ret = cleanup_here(c, err, errlen);
	if (wd_netns_leave_said(saved, err, errlen))
		return -1;
	return ret;
}
