/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reconciliation's data: which kernel counter moves once per drop traced
 * with which reasons (the rules), and the counters shown beside them, never
 * compared (the context). Included by reconcile.c only; every reason named
 * here exists in catalogue_data.h (a unit test checks).
 */
#define L(...)	((const char *const []){ __VA_ARGS__, NULL })
#define NONE	((const char *const []){ NULL })

#define NOT_AS(r) "not traced as " r ": freed without that reason or not through kfree_skb"

static const struct wd_recon_rule rules[] = {
{
	.counter = "TcpExtListenOverflows",
	.match = L("TCP_LISTEN_OVERFLOW"),
	.unseen = "no kfree_skb event: the accept queue of a listener is full, SYNs "
		"are discarded as consumed (see `ss -lnt` Recv-Q against Send-Q; "
		"the application does not accept() fast enough or its backlog is small)",
},
{
	.counter = "TcpExtTCPReqQFullDrop",
	.match = NONE,
	.unseen = "no kfree_skb event: the SYN queue is full and SYN cookies are off "
		"(net.ipv4.tcp_syncookies, net.ipv4.tcp_max_syn_backlog; a SYN flood?)",
},
{
	.counter = "TcpExtTCPBacklogDrop",
	.match = L("SOCKET_BACKLOG@tcp_v4_rcv", "SOCKET_BACKLOG@tcp_v6_rcv"),
	.unseen = NOT_AS("SOCKET_BACKLOG"),
},
{
	.counter = "TcpExtTCPZeroWindowDrop",
	.match = L("TCP_ZEROWINDOW"),
	.unseen = NOT_AS("TCP_ZEROWINDOW"),
},
{
	.counter = "TcpInCsumErrors",
	.match = L("TCP_CSUM"),
	.unseen = NOT_AS("TCP_CSUM"),
},
{
	.counter = "TcpExtTCPMD5NotFound",
	.match = L("TCP_MD5NOTFOUND"),
	.unseen = NOT_AS("TCP_MD5NOTFOUND"),
},
{
	.counter = "TcpExtTCPMD5Unexpected",
	.match = L("TCP_MD5UNEXPECTED"),
	.unseen = NOT_AS("TCP_MD5UNEXPECTED"),
},
{
	.counter = "TcpExtTCPMD5Failure",
	.match = L("TCP_MD5FAILURE"),
	.unseen = NOT_AS("TCP_MD5FAILURE"),
},
{
	.counter = "UdpNoPorts",
	.match = L("NO_SOCKET@__udp4_lib_rcv"),
	.unseen = NOT_AS("NO_SOCKET in __udp4_lib_rcv"),
},
{
	.counter = "Udp6NoPorts",
	.match = L("NO_SOCKET@__udp6_lib_rcv"),
	.unseen = NOT_AS("NO_SOCKET in __udp6_lib_rcv"),
},
{
	.counter = "UdpRcvbufErrors",
	.match = L("SOCKET_RCVBUFF@udp_queue_rcv_one_skb",
		   "SOCKET_RCVBUFF@__udp_queue_rcv_skb",
		   "SOCKET_RCVBUFF@udp_queue_rcv_skb"),
	.unseen = NOT_AS("SOCKET_RCVBUFF in the IPv4 UDP receive path"),
},
{
	.counter = "Udp6RcvbufErrors",
	.match = L("SOCKET_RCVBUFF@udpv6_queue_rcv_one_skb",
		   "SOCKET_RCVBUFF@__udpv6_queue_rcv_skb",
		   "SOCKET_RCVBUFF@udpv6_queue_rcv_skb"),
	.unseen = NOT_AS("SOCKET_RCVBUFF in the IPv6 UDP receive path"),
},
{
	.counter = "UdpMemErrors",
	.match = L("PROTO_MEM@udp_queue_rcv_one_skb", "PROTO_MEM@__udp_queue_rcv_skb",
		   "PROTO_MEM@udp_queue_rcv_skb"),
	.unseen = NOT_AS("PROTO_MEM in the IPv4 UDP receive path"),
},
{
	.counter = "Udp6MemErrors",
	.match = L("PROTO_MEM@udpv6_queue_rcv_one_skb", "PROTO_MEM@__udpv6_queue_rcv_skb",
		   "PROTO_MEM@udpv6_queue_rcv_skb"),
	.unseen = NOT_AS("PROTO_MEM in the IPv6 UDP receive path"),
},
{
	/* ip_rcv_core: bad header, and bad checksum (counted here too);
	 * ip_forward: TTL exceeded; ip_rcv_finish_core: bad IP options. */
	.counter = "IpInHdrErrors",
	.match = L("IP_INHDR@ip_rcv_core", "IP_CSUM@ip_rcv_core", "IP_INHDR@ip_forward",
		   "NOT_SPECIFIED@ip_rcv_finish_core"),
	.unseen = NOT_AS("IP_INHDR or IP_CSUM in ip_rcv_core/ip_forward"),
},
{
	.counter = "IpExtInCsumErrors",
	.match = L("IP_CSUM@ip_rcv_core"),
	.unseen = NOT_AS("IP_CSUM in ip_rcv_core"),
	.within = "IpInHdrErrors",	/* ip_rcv_core counts a bad checksum in both */
},
{
	.counter = "IcmpInCsumErrors",
	.match = L("ICMP_CSUM@icmp_rcv"),
	.unseen = NOT_AS("ICMP_CSUM in icmp_rcv"),
},
{
	.counter = "softnet:dropped",
	.match = L("CPU_BACKLOG"),
	.global = true,
	.unseen = NOT_AS("CPU_BACKLOG") " (a per-CPU input backlog was full: "
		"net.core.netdev_max_backlog)",
},
{
	.counter = "qdisc:drops",
	.match = L("QDISC_DROP", "QDISC_OVERLIMIT", "QDISC_CONGESTED", "QDISC_BURST_DROP",
		   "CAKE_FLOOD", "FQ_BAND_LIMIT", "FQ_HORIZON_LIMIT", "FQ_FLOW_LIMIT",
		   "DUALPI2_STEP_DROP"),
	.unseen = NOT_AS("a qdisc reason") " (see `tc -s qdisc`)",
},
};

/* Moved counters shown beside the rules, never compared: they also move
 * for things that are not drops, or sum several causes. */
static const struct {
	const char *name, *note;
} context[] = {
	{ "TcpExtListenDrops", "every SYN/ACK a listener refused, overflows included" },
	{ "TcpOutRsts", "RSTs sent: not a drop count" },
	{ "TcpInErrs", "sum of TCP receive errors" },
	{ "TcpExtTCPRcvQDrop", NULL },
	{ "TcpExtTCPOFODrop", NULL },
	{ "TcpExtPFMemallocDrop", NULL },
	{ "TcpExtTCPMinTTLDrop", NULL },
	{ "TcpExtBeyondWindow", NULL },
	{ "UdpInErrors", "sum of UDP receive errors" },
	{ "Udp6InErrors", "sum of UDP receive errors" },
	{ "UdpInCsumErrors", NULL },
	{ "Udp6InCsumErrors", NULL },
	{ "IpInDiscards", NULL },
	{ "IpOutDiscards", NULL },
	{ "IpInAddrErrors", NULL },
	{ "IpInUnknownProtos", NULL },
	{ "IpExtInNoRoutes", NULL },
	{ "IpExtInTruncatedPkts", NULL },
	{ "IpReasmFails", NULL },
	{ "Ip6InDiscards", NULL },
	{ "Ip6OutDiscards", NULL },
	{ "Ip6InHdrErrors", NULL },
	{ "Ip6InAddrErrors", NULL },
	{ "Ip6InNoRoutes", NULL },
	{ "Ip6InTruncatedPkts", NULL },
	{ "Ip6ReasmFails", NULL },
	{ "IcmpInErrors", NULL },
	{ "Icmp6InErrors", NULL },
	{ "softnet:time_squeeze", "NAPI ran out of budget: not drops" },
	{ "softnet:flow_limit_count", "counted in softnet:dropped too" },
	{ "netdev:rx_dropped", "summed over interfaces" },
	{ "netdev:tx_dropped", "summed over interfaces" },
	{ "netdev:rx_missed_errors", "the NIC ran out of buffers: no skb, no event" },
	{ "qdisc:ingress_drops", "ingress/clsact (tc filters)" },
	{ "sockets:udp_drops", "open UDP sockets only" },
	{ "sockets:raw_drops", "open raw sockets only" },
	{ "conntrack:drop", "conntrack dropped them itself (no entry could be made)" },
	{ "conntrack:insert_failed", "conntrack could not insert new entries" },
	{ "conntrack:early_drop", "entries evicted for room: the table was full" },
	{ "conntrack:invalid", "not trackable: accepted unless a rule drops them" },
	{ "conntrack:chainlength", "insertions refused: a hash chain too long" },
};

#undef L
#undef NONE
#undef NOT_AS
