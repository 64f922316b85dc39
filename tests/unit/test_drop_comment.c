// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The packet comment of a drop: written (who included), and parsed back. */
#include "pcapng_fixtures.h"

static void test_drop_comment(void)
{
	struct wd_pcapng_meta m;
	struct wd_drop_view v;
	char buf[256], tiny[12];

	udp4_view(&v);
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
		       "netns=4026531840 code=3");

	/* location-only kernels (before 5.17), interface known by index only */
	v.reason = NULL;
	v.ifname = NULL;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "location=tcp_v4_rcv+0x99 ifindex=2 netns=4026531840");

	/* nothing known but the location; a non-IP drop names its protocol */
	memset(&v, 0, sizeof(v));
	v.reason = "OPENVSWITCH:OVS_DROP_LAST_ACTION";
	v.code = 0x30001;
	v.location = "ovs_dp_process_packet+0x1a";
	v.l3proto = WD_ETH_P_ARP;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=OPENVSWITCH:OVS_DROP_LAST_ACTION "
		       "location=ovs_dp_process_packet+0x1a code=196609 l3=arp");

	/* the namespace's cookie, where known, after the code; parsed back */
	udp4_view(&v);
	v.netns_cookie = 183;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
		       "netns=4026531840 code=3 netns_cookie=183");
	CHECK(wd_pcapng_parse_comment(buf, &m));
	CHECK(m.has_netns && m.netns == 4026531840u && m.has_netns_cookie);
	CHECK_INT(m.netns_cookie, 183);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 netns_cookie=7x", &m));
	CHECK(!m.has_netns_cookie);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 netns_cookie=18446744073709551616", &m));
	CHECK(!m.has_netns_cookie);

	/* a short buffer is cut, terminated */
	udp4_view(&v);
	wd_pcapng_drop_comment(&v, tiny, sizeof(tiny));
	CHECK_STR(tiny, "reason=NO_S");
}

/* Who: the words a drop's owner adds, and back, with spaces and '%' escaped. */
static void test_who_comment(void)
{
	struct wd_pcapng_meta m;
	struct wd_drop_view v;
	char buf[1024];

	udp4_view(&v);
	v.netns_name = "blue";
	v.sock = (struct wd_sock_view){
		.kind = WD_SOCK_SEEN, .full = true, .ino = 42569, .lport = 9999, .rport = 0,
		.state = 7, .pid = 20898, .comm = "wd rcvr%",
		.cgroup = "/who.slice/docker-abc.scope", .workload = "docker:abc",
	};
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(buf, "reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
		       "netns=4026531840 code=3 netns_name=blue sock=42569 lport=9999 "
		       "rport=0 state=CLOSE pid=20898 comm=wd%20rcvr%25 "
		       "cgroup=/who.slice/docker-abc.scope workload=docker:abc");
	CHECK(wd_pcapng_parse_comment(buf, &m));
	CHECK(m.has_netns_name && m.has_sock && m.has_lport && m.has_pid && m.has_comm);
	CHECK(m.has_rport && m.has_state);
	CHECK_STR(m.netns_name, "blue");
	CHECK_INT(m.sock, 42569);
	CHECK_INT(m.lport, 9999);
	CHECK_INT(m.rport, 0);
	CHECK_STR(m.state, "CLOSE");
	CHECK_INT(m.pid, 20898);
	CHECK_STR(m.comm, "wd rcvr%");
	CHECK_STR(m.cgroup, "/who.slice/docker-abc.scope");
	CHECK_STR(m.workload, "docker:abc");
	CHECK(!m.sock_unknown);
	CHECK(!m.has_container && !m.has_pod && !m.has_k8s_namespace);

	/* a pod's container: the runtime's names, after workload */
	v.sock.container = "nginx";
	v.sock.pod = "web-0";
	v.sock.k8s_namespace = "shop";
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, " workload=docker:abc container=nginx pod=web-0 k8s_namespace=shop") !=
	      NULL);
	CHECK(wd_pcapng_parse_comment(buf, &m));
	CHECK(m.has_container && m.has_pod && m.has_k8s_namespace);
	CHECK_STR(m.container, "nginx");
	CHECK_STR(m.pod, "web-0");
	CHECK_STR(m.k8s_namespace, "shop");

	/* a connection: its peer's port and its state; a path as the netns name */
	v.netns_name = "/proc/4242/ns/net";
	v.sock = (struct wd_sock_view){ .kind = WD_SOCK_SEEN, .full = true, .ino = 7,
					.lport = 40123, .rport = 9, .state = 2 };
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, " netns_name=/proc/4242/ns/net sock=7 lport=40123 rport=9 "
			  "state=SYN_SENT") != NULL);
	CHECK(wd_pcapng_parse_comment(buf, &m));
	CHECK_STR(m.netns_name, "/proc/4242/ns/net");
	CHECK(m.has_rport && m.rport == 9 && m.has_lport && m.lport == 40123);
	CHECK_STR(m.state, "SYN_SENT");
	/* out of range or malformed: left out, the first of two kept */
	CHECK(wd_pcapng_parse_comment("location=f+0x1 rport=65536 state=syn_sent", &m));
	CHECK(!m.has_rport && !m.has_state);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 rport=x state=S%41 lport=1", &m));
	CHECK(!m.has_rport && !m.has_state && m.has_lport);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 state=LISTEN state=CLOSE rport=1 rport=2",
				      &m));
	CHECK_STR(m.state, "LISTEN");
	CHECK_INT(m.rport, 1);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 state=? state=LISTEN", &m));
	CHECK_STR(m.state, "?");
	CHECK(wd_pcapng_parse_comment("location=f+0x1 state=AVERYLONGSTATENAMEX", &m));
	CHECK(!m.has_state);

	/* a kernel without rx_sk says so; a socket-less drop says nothing */
	v.netns_name = NULL;
	v.sock = (struct wd_sock_view){ .kind = WD_SOCK_UNKNOWN };
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, " sock=unknown") != NULL);
	CHECK(wd_pcapng_parse_comment(buf, &m) && m.sock_unknown && !m.has_sock);
	v.sock.kind = WD_SOCK_NONE;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK(strstr(buf, "sock") == NULL);

	/* bad escapes and a NUL byte are refused, not half-decoded */
	CHECK(wd_pcapng_parse_comment("location=f+0x1 comm=a%2 pid=7", &m));
	CHECK(!m.has_comm && m.has_pid);
	CHECK(wd_pcapng_parse_comment("location=f+0x1 comm=a%00b cgroup=%zz", &m));
	CHECK(!m.has_comm && !m.has_cgroup);
}

static void test_parse_comment(void)
{
	struct wd_pcapng_meta m;
	char big[400];

	CHECK(wd_pcapng_parse_comment("reason=NO_SOCKET location=tcp_v4_rcv+0x99 ifname=veth0 "
				      "netns=4026531840 code=3", &m));
	CHECK_STR(m.reason, "NO_SOCKET");
	CHECK_STR(m.location, "tcp_v4_rcv+0x99");
	CHECK_STR(m.function, "tcp_v4_rcv");
	CHECK_STR(m.ifname, "veth0");
	CHECK(m.has_netns && m.netns == 4026531840u);
	CHECK(m.has_code && m.code == 3);

	/* location only; unknown words ignored; first value wins */
	CHECK(wd_pcapng_parse_comment("location=0xffffffff81000000 foo=bar x location=b+0x1", &m));
	CHECK(!m.has_reason && !m.has_code && !m.has_netns && !m.has_ifname);
	CHECK_STR(m.location, "0xffffffff81000000");
	CHECK_STR(m.function, "0xffffffff81000000");

	/* a second comment (added in Wireshark) on its own line */
	CHECK(wd_pcapng_parse_comment("reason=TCP_CSUM location=tcp_v4_rcv+0x1\nchecked by Bob",
				      &m));
	CHECK_STR(m.reason, "TCP_CSUM");

	/* not whydrop's */
	CHECK(!wd_pcapng_parse_comment("reason=NO_SOCKET", &m));
	CHECK(!wd_pcapng_parse_comment("", &m));
	CHECK(!wd_pcapng_parse_comment(NULL, &m));
	CHECK(!wd_pcapng_parse_comment("location=", &m));
	CHECK(!wd_pcapng_parse_comment("location=caf\xc3\xa9+0x1", &m));

	/* bad numbers and names too long to keep whole are dropped, not cut */
	CHECK(wd_pcapng_parse_comment("location=f+0x1 netns=-1 code=99999999999 ifname="
				      "abcdefghijklmnopqrstuvwxyz0123456789", &m));
	CHECK(!m.has_netns && !m.has_code && !m.has_ifname);
	memset(big, 'a', sizeof(big));
	memcpy(big, "location=", 9);
	big[sizeof(big) - 1] = '\0';
	CHECK(!wd_pcapng_parse_comment(big, &m));
}

/* --stacks: one word; a pseudo-frame keeps its words (spaces as '_') and gets
 * them back; a module frame loses its space only */
static void test_stack_comment(void)
{
	static const char *const frames[] = { "sk_skb_reason_drop+0x90",
					      "nf_hook_slow+0x41 [nf_tables]",
					      "[stack lost: bucket collision]" };
	struct wd_drop_view v;
	char buf[512], frame[64];

	udp4_view(&v);
	v.stack = frames;
	v.n_stack = 3;
	wd_pcapng_drop_comment(&v, buf, sizeof(buf));
	CHECK_STR(strstr(buf, " stack="), " stack=sk_skb_reason_drop+0x90;"
		  "nf_hook_slow+0x41[nf_tables];[stack_lost:_bucket_collision]");
	snprintf(frame, sizeof(frame), "[stack_lost:_bucket_collision]");
	wd_pcapng_stack_frame(frame);
	CHECK_STR(frame, "[stack lost: bucket collision]");
	snprintf(frame, sizeof(frame), "tcp_v4_rcv+0x1");
	wd_pcapng_stack_frame(frame);
	CHECK_STR(frame, "tcp_v4_rcv+0x1");
	/* cut short, still NUL-terminated inside the buffer */
	wd_pcapng_drop_comment(&v, buf, 100);
	CHECK(strlen(buf) < 100);
}

UNIT_MAIN(test_drop_comment, test_who_comment, test_parse_comment, test_stack_comment)
