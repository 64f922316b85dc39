// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* drop_monitor's generic netlink messages; see dropmon.h. */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/net_dropmon.h>
#include <linux/netlink.h>

#include "dropmon.h"

#define DM_BUF		(1u << 16)
#define DM_RCVBUF	(16 << 20)	/* room for bursts of packet alerts */

/* ------------------------------------------------------------ parser */

static void copy_str(char *dst, size_t size, const struct nlattr *a)
{
	const char *s = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a);
	const char *nul = memchr(s, '\0', n);

	if (nul)
		n = (size_t)(nul - s);
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static bool is(const struct nlattr *a, enum mnl_attr_data_type t)
{
	return mnl_attr_validate(a, t) == 0;
}

static int parse_points(const struct nlattr *a, struct wd_dm_summary *s)
{
	const uint8_t *p = mnl_attr_get_payload(a);
	size_t len = mnl_attr_get_payload_len(a), room;
	struct net_dm_drop_point pt;

	if (len < sizeof(s->entries))
		return -EINVAL;
	memcpy(&s->entries, p, sizeof(s->entries));
	room = (len - sizeof(s->entries)) / sizeof(pt);
	for (size_t i = 0; i < s->entries && i < room && s->n_points < WD_DM_MAX_POINTS; i++) {
		memcpy(&pt, p + sizeof(s->entries) + i * sizeof(pt), sizeof(pt));
		memcpy(&s->points[s->n_points].pc, pt.pc, sizeof(uint64_t));
		s->points[s->n_points++].count = pt.count;
	}
	return 0;
}

static void parse_hw_entry(const struct nlattr *e, struct wd_dm_summary *s)
{
	struct wd_dm_hw_entry *h;
	const struct nlattr *a;

	if (s->n_hw == WD_DM_MAX_HW) {
		s->hw_truncated = true;
		return;
	}
	h = &s->hw[s->n_hw];
	memset(h, 0, sizeof(*h));
	mnl_attr_for_each_nested(a, e) {
		if (mnl_attr_get_type(a) == NET_DM_ATTR_HW_TRAP_NAME)
			copy_str(h->trap, sizeof(h->trap), a);
		else if (mnl_attr_get_type(a) == NET_DM_ATTR_HW_TRAP_COUNT && is(a, MNL_TYPE_U32))
			h->count = mnl_attr_get_u32(a);
	}
	s->n_hw++;
}

static int parse_summary(const struct nlmsghdr *nlh, struct wd_dm_summary *s)
{
	const struct nlattr *a, *e;
	int err = 0;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(a)) {
		case 0:	/* NLA_UNSPEC: struct net_dm_alert_msg */
			err = parse_points(a, s);
			break;
		case NET_DM_ATTR_HW_ENTRIES:
			mnl_attr_for_each_nested(e, a)
				if (mnl_attr_get_type(e) == NET_DM_ATTR_HW_ENTRY)
					parse_hw_entry(e, s);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

static void parse_in_port(const struct nlattr *port, struct wd_dm_packet *p)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, port) {
		if (mnl_attr_get_type(a) == NET_DM_ATTR_PORT_NETDEV_IFINDEX &&
		    is(a, MNL_TYPE_U32)) {
			p->ifindex = mnl_attr_get_u32(a);
			p->has_ifindex = true;
		} else if (mnl_attr_get_type(a) == NET_DM_ATTR_PORT_NETDEV_NAME) {
			copy_str(p->ifname, sizeof(p->ifname), a);
		}
	}
}

#define PKT(member)	offsetof(struct wd_dm_packet, member)

/* A packet alert's fixed-size attributes: the member each fills, and its has_ flag. */
static const struct {
	uint16_t attr;
	enum mnl_attr_data_type type;
	size_t off, has;
} packet_scalars[] = {
	{ NET_DM_ATTR_ORIGIN, MNL_TYPE_U16, PKT(origin), PKT(has_origin) },
	{ NET_DM_ATTR_PC, MNL_TYPE_U64, PKT(pc), PKT(has_pc) },
	{ NET_DM_ATTR_TIMESTAMP, MNL_TYPE_U64, PKT(ts_ns), PKT(has_ts) },
	{ NET_DM_ATTR_PROTO, MNL_TYPE_U16, PKT(proto), PKT(has_proto) },
	{ NET_DM_ATTR_ORIG_LEN, MNL_TYPE_U32, PKT(orig_len), PKT(has_orig_len) },
	{ NET_DM_ATTR_TRUNC_LEN, MNL_TYPE_U32, PKT(trunc_len), PKT(has_trunc_len) },
	{ NET_DM_ATTR_HW_TRAP_COUNT, MNL_TYPE_U32, PKT(hw_count), PKT(has_hw_count) },
};

/* The fixed-size attributes; false if a known one has the wrong size. */
static bool packet_scalar(const struct nlattr *a, struct wd_dm_packet *p)
{
	char *base = (char *)p;

	for (size_t i = 0; i < sizeof(packet_scalars) / sizeof(packet_scalars[0]); i++) {
		if (mnl_attr_get_type(a) != packet_scalars[i].attr)
			continue;
		if (!is(a, packet_scalars[i].type))
			return false;
		if (packet_scalars[i].type == MNL_TYPE_U16)
			*(uint16_t *)(base + packet_scalars[i].off) = mnl_attr_get_u16(a);
		else if (packet_scalars[i].type == MNL_TYPE_U32)
			*(uint32_t *)(base + packet_scalars[i].off) = mnl_attr_get_u32(a);
		else
			*(uint64_t *)(base + packet_scalars[i].off) = mnl_attr_get_u64(a);
		*(bool *)(base + packet_scalars[i].has) = true;
		return true;
	}
	return true;
}

#define PKT_STR(attr, member) \
	{ attr, PKT(member), sizeof(((struct wd_dm_packet *)0)->member) }

/* A packet alert's string attributes: the member each is copied into. */
static const struct {
	uint16_t attr;
	size_t off, size;
} packet_strings[] = {
	PKT_STR(NET_DM_ATTR_SYMBOL, symbol),
	PKT_STR(NET_DM_ATTR_REASON, reason),
	PKT_STR(NET_DM_ATTR_HW_TRAP_GROUP_NAME, hw_group),
	PKT_STR(NET_DM_ATTR_HW_TRAP_NAME, hw_trap),
};

static void packet_string(const struct nlattr *a, struct wd_dm_packet *p)
{
	for (size_t i = 0; i < sizeof(packet_strings) / sizeof(packet_strings[0]); i++)
		if (mnl_attr_get_type(a) == packet_strings[i].attr)
			copy_str((char *)p + packet_strings[i].off, packet_strings[i].size, a);
}

static int parse_packet(const struct nlmsghdr *nlh, struct wd_dm_packet *p)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (!packet_scalar(a, p))
			return -EINVAL;
		packet_string(a, p);
		switch (mnl_attr_get_type(a)) {
		case NET_DM_ATTR_IN_PORT:
			parse_in_port(a, p);
			break;
		case NET_DM_ATTR_PAYLOAD:
			p->payload = mnl_attr_get_payload(a);
			p->payload_len = mnl_attr_get_payload_len(a);
			break;
		case NET_DM_ATTR_FLOW_ACTION_COOKIE:
			p->cookie = mnl_attr_get_payload(a);
			p->cookie_len = mnl_attr_get_payload_len(a);
			break;
		}
	}
	return 0;
}

/* NET_DM_ATTR_STATS / _HW_STATS: { NET_DM_ATTR_STATS_DROPPED u64 } */
static bool stats_dropped(const struct nlattr *nest, uint64_t *out)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == NET_DM_ATTR_STATS_DROPPED && is(a, MNL_TYPE_U64)) {
			*out = mnl_attr_get_u64(a);
			return true;
		}
	return false;
}

static void parse_stats(const struct nlmsghdr *nlh, struct wd_dm_stats *st)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == NET_DM_ATTR_STATS)
			st->has_sw = stats_dropped(a, &st->sw_dropped);
		else if (mnl_attr_get_type(a) == NET_DM_ATTR_HW_STATS)
			st->has_hw = stats_dropped(a, &st->hw_dropped);
	}
}

int wd_dm_parse(const void *buf, size_t len, struct wd_dm_msg *m)
{
	const struct nlmsghdr *nlh = buf;
	const struct genlmsghdr *g;

	memset(m, 0, sizeof(*m));
	/* libmnl walks attributes up to the aligned end: that must be in buf too */
	if (len < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) ||
	    nlh->nlmsg_len > len || MNL_ALIGN((size_t)nlh->nlmsg_len) > len)
		return -EMSGSIZE;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	g = mnl_nlmsg_get_payload(nlh);
	m->cmd = g->cmd;
	switch (g->cmd) {
	case NET_DM_CMD_ALERT:
		m->kind = WD_DM_SUMMARY;
		return parse_summary(nlh, &m->summary);
	case NET_DM_CMD_PACKET_ALERT:
		m->kind = WD_DM_PACKET;
		return parse_packet(nlh, &m->packet);
	case NET_DM_CMD_STATS_NEW:
		m->kind = WD_DM_STATS;
		parse_stats(nlh, &m->stats);
		return 0;
	}
	return 0;
}

static uint16_t be16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

int wd_dm_l3_offset(const uint8_t *payload, size_t len, uint16_t proto)
{
	int version = proto == 0x0800 ? 4 : proto == 0x86DD ? 6 : 0;

	if (!payload || !len)
		return -1;
	if (len >= 14 && be16_at(payload + 12) == proto)
		return 14;
	if (len >= 18 && (be16_at(payload + 12) == 0x8100 || be16_at(payload + 12) == 0x88A8) &&
	    be16_at(payload + 16) == proto)
		return 18;
	if (version && payload[0] >> 4 == version)
		return 0;
	return -1;
}

/* ------------------------------------------------------------ requests */

int wd_dm_fd(const struct wd_dm *dm)
{
	return mnl_socket_get_fd(dm->nl);
}

static void dispatch(struct wd_dm *dm, const struct nlmsghdr *nlh)
{
	struct wd_dm_msg *m;

	if (nlh->nlmsg_type != dm->family || !dm->on_event)
		return;
	if (dm->dump) {
		/* for fixtures: the kernel's own bytes, one message per line */
		for (uint32_t i = 0; i < nlh->nlmsg_len; i++)
			fprintf(dm->dump, "%02x", ((const uint8_t *)nlh)[i]);
		fputc('\n', dm->dump);
		fflush(dm->dump);
	}
	m = malloc(sizeof(*m));
	if (!m)
		return;
	if (!wd_dm_parse(nlh, nlh->nlmsg_len, m))
		dm->on_event(dm->ctx, m);
	free(m);
}

static void keep_extack(struct wd_dm *dm, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (NLMSG_HDRLEN + off > nlh->nlmsg_len)
		return;
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			copy_str(dm->ext_msg, sizeof(dm->ext_msg), a);
}

struct reply {
	struct wd_dm *dm;
	uint32_t seq;
	int (*cb)(const struct nlmsghdr *nlh, void *data);
	void *data;
	bool done;
	int err;
};

/* One datagram: our reply or ack, and any alerts that came in between. */
static void handle(struct reply *r, size_t n)
{
	const struct nlmsghdr *nlh = (const void *)r->dm->buf;
	int left = (int)n;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (!r || nlh->nlmsg_seq != r->seq || !r->seq) {
			dispatch(r->dm, nlh);
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(*e)) {
				r->err = e->error;
				if (e->error)
					keep_extack(r->dm, nlh);
			}
			r->done = true;
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			r->done = true;
		} else if (r->cb) {
			r->cb(nlh, r->data);
		}
	}
}

static int wait_readable(struct wd_dm *dm, int timeout_ms)
{
	struct pollfd p = { .fd = wd_dm_fd(dm), .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -errno;
	return n;
}

static int read_one(struct wd_dm *dm, struct reply *r)
{
	ssize_t n = mnl_socket_recvfrom(dm->nl, dm->buf, DM_BUF);

	if (n < 0) {
		if (errno == ENOBUFS) {
			dm->overruns++;
			return 0;
		}
		return -errno;
	}
	handle(r, (size_t)n);
	return 0;
}

/* Send a request and wait (5 s at most) for its ack. */
static int transact(struct wd_dm *dm, struct nlmsghdr *nlh,
		    int (*cb)(const struct nlmsghdr *, void *), void *data)
{
	struct reply r = { .dm = dm, .seq = nlh->nlmsg_seq, .cb = cb, .data = data };
	struct timespec t0, t;
	int err;

	dm->ext_msg[0] = '\0';
	if (mnl_socket_sendto(dm->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!r.done) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 5)
			return -ETIMEDOUT;
		err = wait_readable(dm, 1000);
		if (err < 0 && err != -EINTR)
			return err;
		if (err > 0 && (err = read_one(dm, &r)) < 0)
			return err;
	}
	return r.err;
}

static struct nlmsghdr *put_genl(struct wd_dm *dm, char *buf, uint16_t type, uint8_t cmd,
				 uint8_t version)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++dm->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct wd_dm *dm = data;
	const struct nlattr *a, *grp, *g;

	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID && is(a, MNL_TYPE_U16))
			dm->family = mnl_attr_get_u16(a);
		if (mnl_attr_get_type(a) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		mnl_attr_for_each_nested(grp, a) {
			char name[32] = "";
			uint32_t id = 0;

			mnl_attr_for_each_nested(g, grp) {
				if (mnl_attr_get_type(g) == CTRL_ATTR_MCAST_GRP_NAME)
					copy_str(name, sizeof(name), g);
				else if (mnl_attr_get_type(g) == CTRL_ATTR_MCAST_GRP_ID &&
					 is(g, MNL_TYPE_U32))
					id = mnl_attr_get_u32(g);
			}
			if (!strcmp(name, "events"))
				dm->group = id;
		}
	}
	return MNL_CB_OK;
}

static int resolve(struct wd_dm *dm)
{
	char buf[256];
	struct nlmsghdr *nlh = put_genl(dm, buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	int err;

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "NET_DM");
	err = transact(dm, nlh, family_cb, dm);
	if (!err && (!dm->family || !dm->group))
		err = -ENOENT;
	return err;
}

int wd_dm_open(struct wd_dm *dm, wd_dm_event_fn fn, void *ctx)
{
	int one = 1, size = DM_RCVBUF, err;

	memset(dm, 0, sizeof(*dm));
	dm->on_event = fn;
	dm->ctx = ctx;
	dm->seq = (uint32_t)time(NULL);
	dm->buf = malloc(DM_BUF);
	dm->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!dm->buf || !dm->nl || mnl_socket_bind(dm->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = errno ? -errno : -ENOMEM;
		wd_dm_close(dm);
		return err;
	}
	/* No fn: a socket for requests alone (it joins no group, gets no alerts). */
	mnl_socket_setsockopt(dm->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(dm->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	/* FORCE needs CAP_NET_ADMIN; the plain one is capped by rmem_max. */
	if (fn && setsockopt(wd_dm_fd(dm), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(wd_dm_fd(dm), SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	err = resolve(dm);
	if (err)
		wd_dm_close(dm);
	return err;
}

void wd_dm_close(struct wd_dm *dm)
{
	if (dm->nl)
		mnl_socket_close(dm->nl);
	dm->nl = NULL;
	if (dm->dump)
		fclose(dm->dump);
	dm->dump = NULL;
	free(dm->buf);
	dm->buf = NULL;
}

int wd_dm_config(struct wd_dm *dm, uint8_t mode, uint32_t trunc_len, uint32_t queue_len)
{
	char buf[256];
	struct nlmsghdr *nlh = put_genl(dm, buf, dm->family, NET_DM_CMD_CONFIG, 2);

	mnl_attr_put_u8(nlh, NET_DM_ATTR_ALERT_MODE, mode);
	mnl_attr_put_u32(nlh, NET_DM_ATTR_TRUNC_LEN, trunc_len);
	mnl_attr_put_u32(nlh, NET_DM_ATTR_QUEUE_LEN, queue_len);
	return transact(dm, nlh, NULL, NULL);
}

static int trace(struct wd_dm *dm, uint8_t cmd, bool sw, bool hw)
{
	char buf[256];
	struct nlmsghdr *nlh = put_genl(dm, buf, dm->family, cmd, 2);

	if (sw)
		mnl_attr_put(nlh, NET_DM_ATTR_SW_DROPS, 0, NULL);
	if (hw)
		mnl_attr_put(nlh, NET_DM_ATTR_HW_DROPS, 0, NULL);
	return transact(dm, nlh, NULL, NULL);
}

int wd_dm_start(struct wd_dm *dm, bool sw, bool hw)
{
	return trace(dm, NET_DM_CMD_START, sw, hw);
}

int wd_dm_stop(struct wd_dm *dm, bool sw, bool hw)
{
	return trace(dm, NET_DM_CMD_STOP, sw, hw);
}

int wd_dm_join(struct wd_dm *dm)
{
	if (mnl_socket_setsockopt(dm->nl, NETLINK_ADD_MEMBERSHIP, &dm->group,
				  sizeof(dm->group)) < 0)
		return -errno;
	return 0;
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct wd_dm_msg m;

	if (!wd_dm_parse(nlh, nlh->nlmsg_len, &m) && m.kind == WD_DM_STATS)
		*(struct wd_dm_stats *)data = m.stats;
	return MNL_CB_OK;
}

int wd_dm_stats_get(struct wd_dm *dm, struct wd_dm_stats *st)
{
	char buf[256];
	struct nlmsghdr *nlh = put_genl(dm, buf, dm->family, NET_DM_CMD_STATS_GET, 2);

	memset(st, 0, sizeof(*st));
	return transact(dm, nlh, stats_cb, st);
}

int wd_dm_poll(struct wd_dm *dm, int timeout_ms)
{
	struct reply r = { .dm = dm };
	int n = wait_readable(dm, timeout_ms);

	while (n > 0) {
		int err = read_one(dm, &r);

		if (err)
			return err;
		n = wait_readable(dm, 0);
	}
	return n == -EINTR ? 0 : n;
}
