// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * wdovs: makes the kernel's openvswitch datapath drop packets with its own
 * drop reason, for the whydrop VM tests (built static, runs in a busybox
 * initramfs, needs the openvswitch module loaded).
 *
 *   wdovs COUNT
 *
 * Creates a datapath named "wdovs" (generic netlink family ovs_datapath),
 * hands it COUNT Ethernet frames to execute with an empty action list
 * (ovs_packet, OVS_PACKET_CMD_EXECUTE): the datapath runs off the end of the
 * list and frees each one with OVS_DROP_LAST_ACTION (6.6+). Deletes the
 * datapath and prints "executed N": the executions the kernel acknowledged,
 * the count whydrop must match. Exit 1 on any error, with its message.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/openvswitch.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define DP_NAME		"wdovs"
#define BUF_BYTES	4096

struct msg {
	char *buf;
	size_t len;
};

static int nl_fd;
static uint32_t nl_seq;

static void die(const char *what, int err)
{
	fprintf(stderr, "wdovs: %s: %s\n", what, strerror(err));
	exit(1);
}

static void put(struct msg *m, const void *data, size_t len)
{
	if (m->len + NLMSG_ALIGN(len) > BUF_BYTES)
		die("message too long", EMSGSIZE);
	memcpy(m->buf + m->len, data, len);
	memset(m->buf + m->len + len, 0, NLMSG_ALIGN(len) - len);
	m->len += NLMSG_ALIGN(len);
}

static void put_attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type };

	put(m, &a, sizeof(a));
	if (len)
		put(m, data, len);
}

/* A request: nlmsghdr, genlmsghdr, and the family's header when it has one. */
static void start(struct msg *m, uint16_t family, uint8_t cmd, uint8_t version,
		  const void *hdr, size_t hdr_len)
{
	struct nlmsghdr nh = {
		.nlmsg_type = family, .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = ++nl_seq,
	};
	struct genlmsghdr gh = { .cmd = cmd, .version = version };

	m->len = 0;
	put(m, &nh, sizeof(nh));
	put(m, &gh, sizeof(gh));
	if (hdr_len)
		put(m, hdr, hdr_len);
}

/*
 * Send m and read until its ACK: 0, or the kernel's error (positive). A
 * reply before the ACK (CTRL_CMD_GETFAMILY's) is copied to reply.
 */
static int transact(struct msg *m, char *reply, size_t reply_len)
{
	char buf[BUF_BYTES];
	ssize_t n;

	((struct nlmsghdr *)m->buf)->nlmsg_len = (uint32_t)m->len;
	if (send(nl_fd, m->buf, m->len, 0) != (ssize_t)m->len)
		die("send", errno);
	for (;;) {
		n = recv(nl_fd, buf, sizeof(buf), 0);
		if (n < 0)
			die("recv", errno);
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != nl_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return -((struct nlmsgerr *)NLMSG_DATA(h))->error;
			if (reply && h->nlmsg_len <= reply_len)
				memcpy(reply, h, h->nlmsg_len);
		}
	}
}

/* The id of a generic netlink family, by name. */
static uint16_t family_id(const char *name)
{
	char buf[BUF_BYTES], reply[BUF_BYTES] = { 0 };
	struct msg m = { buf, 0 };
	struct nlmsghdr *h = (struct nlmsghdr *)reply;
	struct nlattr *a;
	int err, left;

	start(&m, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NULL, 0);
	put_attr(&m, CTRL_ATTR_FAMILY_NAME, name, strlen(name) + 1);
	err = transact(&m, reply, sizeof(reply));
	if (err)
		die(name, err);
	a = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
	left = (int)h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
	for (; left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left;
	     left -= NLA_ALIGN(a->nla_len), a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)((char *)a + NLA_HDRLEN);
	die(name, ENOENT);
	return 0;
}

static int datapath(uint16_t family, uint8_t cmd)
{
	struct ovs_header oh = { .dp_ifindex = 0 };
	char buf[BUF_BYTES];
	struct msg m = { buf, 0 };
	uint32_t pid = 0;

	start(&m, family, cmd, OVS_DATAPATH_VERSION, &oh, sizeof(oh));
	put_attr(&m, OVS_DP_ATTR_NAME, DP_NAME, sizeof(DP_NAME));
	if (cmd == OVS_DP_CMD_NEW)
		put_attr(&m, OVS_DP_ATTR_UPCALL_PID, &pid, sizeof(pid));
	return transact(&m, NULL, 0);
}

/* One Ethernet frame (IPv4, UDP 192.0.2.1:40020 > 192.0.2.2:9) to execute, no actions. */
static int execute(uint16_t family, int dp_ifindex)
{
	static const uint8_t frame[] = {
		0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,
		0x45, 0, 0, 29, 0, 1, 0, 0, 64, 17, 0, 0, 192, 0, 2, 1, 192, 0, 2, 2,
		0x9c, 0x54, 0, 9, 0, 9, 0, 0, 'x',
	};
	struct ovs_header oh = { .dp_ifindex = dp_ifindex };
	char buf[BUF_BYTES];
	struct msg m = { buf, 0 };

	start(&m, family, OVS_PACKET_CMD_EXECUTE, OVS_PACKET_VERSION, &oh, sizeof(oh));
	put_attr(&m, OVS_PACKET_ATTR_PACKET, frame, sizeof(frame));
	put_attr(&m, OVS_PACKET_ATTR_KEY | NLA_F_NESTED, NULL, 0);
	put_attr(&m, OVS_PACKET_ATTR_ACTIONS | NLA_F_NESTED, NULL, 0);
	return transact(&m, NULL, 0);
}

int main(int argc, char **argv)
{
	uint16_t dp_family, packet_family;
	int count, done = 0, err = 0, ifindex;

	if (argc != 2 || (count = atoi(argv[1])) <= 0) {
		fprintf(stderr, "usage: wdovs COUNT\n");
		return 2;
	}
	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl_fd < 0)
		die("socket", errno);
	dp_family = family_id(OVS_DATAPATH_FAMILY);
	packet_family = family_id(OVS_PACKET_FAMILY);
	err = datapath(dp_family, OVS_DP_CMD_NEW);
	if (err)
		die("create datapath " DP_NAME, err);
	ifindex = (int)if_nametoindex(DP_NAME);
	if (!ifindex)
		err = errno;
	while (!err && done < count) {
		err = execute(packet_family, ifindex);
		done += !err;
	}
	if (datapath(dp_family, OVS_DP_CMD_DEL))
		fprintf(stderr, "wdovs: cannot delete datapath " DP_NAME "\n");
	printf("executed %d\n", done);
	if (err)
		die("execute", err);
	return 0;
}
