/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The call-site catalogue (see callsites.h), sorted by function name.
 * Included by callsites.c only. "seen" says where the entry comes from:
 * a drop reproduced here (lab scenario, VM run, host run) or the kernel
 * source only (not reproduced: trust it less).
 */

#define R(...)	((const char *const []){ __VA_ARGS__, NULL })

static const struct wd_callsite callsites[] = {
{
	.function = "__dev_queue_xmit",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "transmit refused: device down or xmit recursion",
	.meaning = "The packet reached a device that cannot send it: a device "
		"without a queue that is not up, or a virtual device looping "
		"back into itself (xmit recursion limit, \"Dead loop on virtual "
		"device\" in the kernel log). The caller gets -ENETDOWN.",
	.check = "`ip -s link show DEV` (state, TX dropped), `dmesg | grep -i "
		"'dead loop'`, tunnels or bridges that route into themselves.",
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "__dev_xmit_skb",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1: NOT_SPECIFIED (QDISC_DROP since 6.9)",
	.summary = "the qdisc dropped it (queue full, policer, AQM)",
	.meaning = "The qdisc's enqueue refused the packet and the list of "
		"packets it dropped is freed here. Newer kernels say "
		"QDISC_DROP or a qdisc-specific reason instead.",
	.check = "`tc -s qdisc show dev DEV` (dropped, overlimits), the "
		"qdisc's limit, and whether the sender outruns the link.",
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "do_xdp_generic",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "a generic-mode XDP program returned XDP_DROP",
	.meaning = "An XDP program attached in generic (skb) mode returned "
		"XDP_DROP or XDP_ABORTED, and the kernel freed the skb without "
		"a reason. The drop is the program's decision.",
	.check = "`ip link show DEV` (xdpgeneric), `bpftool net`, the "
		"program's own counters; XDP_ABORTED shows in the "
		"xdp:xdp_exception tracepoint.",
	.severity = WD_SEV_DEPENDS,
	.seen = "lab NOT_SPECIFIED.xdp (6.18)",
},
{
	.function = "inet6_csk_xmit",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "IPv6 TCP segment with no route any more",
	.meaning = "An established IPv6 TCP connection has lost its route (the "
		"address or route was removed): each segment it sends, up to "
		"the RST of an abortive close, is freed here. The IPv4 twin "
		"says IP_OUTNOROUTES.",
	.check = "`ip -6 route get DST`, Ip6OutNoRoutes in `nstat -az`, "
		"addresses or routes removed while connections were open.",
	.severity = WD_SEV_PROBLEM,
	.seen = "lab NOT_SPECIFIED.noroute6 (6.18)",
},
{
	.function = "inet_sock_destruct",
	.reasons = R("NOT_SPECIFIED", "QUEUE_PURGE"),
	.kernels = "6.1: NOT_SPECIFIED; 6.12, 6.18: QUEUE_PURGE",
	.summary = "socket destroyed with unread data: purge",
	.meaning = "The last reference to an inet socket went away and its "
		"receive and error queues still held packets the application "
		"never read: they are freed when the socket is destroyed "
		"(after tcp_close, udp close, inet_csk_destroy_sock).",
	.check = "Normal when applications close sockets they stopped "
		"reading. A high rate: an application that exits or closes "
		"without draining, or that reads far too slowly.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "ip6_mc_input",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "IPv6 multicast for a group not joined here",
	.meaning = "An IPv6 multicast packet arrived for a group no socket on "
		"this host joined and that is not forwarded: typically the MLD "
		"reports neighbours send when an interface comes up, or "
		"discovery protocols (mDNS, SSDP) on a shared link.",
	.check = "`ip -6 maddr show dev DEV` (groups joined here), the sender "
		"(`whydrop watch -r NOT_SPECIFIED`), multicast routing if this "
		"host should forward it.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM runs on 6.1 and 6.12 (MLD of a new veth), lab on 6.18",
},
{
	.function = "ip_defrag",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "fragment refused: reassembly memory exhausted",
	.meaning = "A fragment could not get a reassembly queue: fragment "
		"memory is over net.ipv4.ipfrag_high_thresh (a fragment flood, "
		"or many lost fragments) or the queue could not be created.",
	.check = "ReasmFails and ReasmReqds in `nstat -az`, "
		"net.ipv4.ipfrag_high_thresh, the path MTU of the senders.",
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "netlink_broadcast_filtered",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "netlink event not delivered to a slow listener",
	.meaning = "A netlink multicast (route, link, conntrack event) could not "
		"be queued to a listening socket whose receive buffer is full; "
		"the listener gets ENOBUFS on its next read. Not a network "
		"packet: l3 protocol 0, no flow.",
	.check = "Which process listens (`ss -f netlink -p`): ip monitor, a "
		"routing daemon, conntrack -E; its receive buffer "
		"(net.core.rmem_max) and how fast it reads.",
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "packet_rcv",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1: NOT_SPECIFIED (newer: SOCKET_RCVBUFF, PACKET_SOCK_ERROR)",
	.summary = "a packet socket (tcpdump) could not take a copy",
	.meaning = "An AF_PACKET socket (tcpdump, a DHCP client, a monitoring "
		"agent) could not queue its copy: its receive buffer is full or "
		"its filter cut the packet. Only the capture's copy is lost; "
		"the packet itself went on.",
	.check = "`ss -0 -p` (packet sockets and their owners), tcpdump's "
		"\"dropped by kernel\", a larger capture buffer (tcpdump -B).",
	.severity = WD_SEV_BENIGN,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "pneigh_queue_purge",
	.reasons = R("NOT_SPECIFIED", "NEIGH_DEAD"),
	.kernels = "6.1: NOT_SPECIFIED; 6.12, 6.18: NEIGH_DEAD",
	.summary = "proxy-neighbour queue flushed: device or netns gone",
	.meaning = "Packets waiting for a proxy ARP / NDP answer are freed "
		"because the device went down or its namespace is being "
		"destroyed.",
	.check = "Device or namespace teardown at that time (`ip monitor "
		"link`); expected during shutdown or container deletion.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "sk_stream_kill_queues",
	.reasons = R("NOT_SPECIFIED", "QUEUE_PURGE"),
	.kernels = "6.1: NOT_SPECIFIED; 6.12, 6.18: QUEUE_PURGE",
	.summary = "TCP socket closed with unread data: purge",
	.meaning = "inet_csk_destroy_sock (from tcp_close, tcp_done, a reset) "
		"empties the receive queue of a TCP socket that is being "
		"destroyed: data that arrived but was never read.",
	.check = "Normal at connection teardown. Many: a client that closes "
		"before reading the reply, or a server that resets "
		"connections (TcpExtTCPAbortOnClose in `nstat -az`).",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "skb_queue_purge_reason",
	.reasons = R("NOT_SPECIFIED", "QUEUE_PURGE"),
	.kernels = "6.12, 6.18: QUEUE_PURGE or the caller's reason",
	.summary = "a queue emptied at teardown (socket, device)",
	.meaning = "Generic helper that frees every packet of a queue: a socket, "
		"a device, or a protocol (bluetooth, CAN, tun) shutting down. "
		"The caller is the real information: use --stacks.",
	.check = "`whydrop count --stacks -r QUEUE_PURGE,NOT_SPECIFIED` "
		"to see which teardown frees them.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "tcp_v4_rcv",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1: NOT_SPECIFIED (6.12, 6.18: mostly specific reasons)",
	.summary = "TCP segment discarded: TIME_WAIT or a late check",
	.meaning = "A segment was discarded without a classified reason, most "
		"often one for a TIME_WAIT socket that did not start a new "
		"connection (a late retransmission or FIN after close).",
	.check = "`ss -tan state time-wait`, TcpExtTW* counters in "
		"`nstat -az`; a steady trickle after connection close is normal.",
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
{
	.function = "tun_get_user",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "a frame written to a tun/tap device was refused",
	.meaning = "A user-space writer (VPN, VM backend) handed the tun/tap "
		"device a frame it could not take: a bad virtio_net_hdr (GSO "
		"type), or a frame too short. The write fails with EINVAL. The "
		"macvtap twin says DEV_HDR.",
	.check = "The writer's own errors (qemu, the VPN daemon), the "
		"device's vnet_hdr and offload flags (`ethtool -k DEV`).",
	.severity = WD_SEV_PROBLEM,
	.seen = "lab DEV_HDR.l2 notes (6.18, tap twin)",
},
{
	.function = "unix_release_sock",
	.reasons = R("NOT_SPECIFIED", "SOCKET_CLOSE"),
	.kernels = "6.1: NOT_SPECIFIED; 6.18: SOCKET_CLOSE",
	.summary = "Unix socket closed with unread messages",
	.meaning = "A Unix domain socket was closed while messages sent to it "
		"were still queued: they are freed unread. No network is "
		"involved (no device, no flow).",
	.check = "Normal when a peer closes first. Many: a service that exits "
		"without reading its queue (journald, D-Bus clients).",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "host run on 6.18 (SOCKET_CLOSE, socketpair closed with 3 messages unread)",
},
{
	.function = "veth_xdp_rcv_skb",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "a veth XDP program returned XDP_DROP",
	.meaning = "A native XDP program on a veth peer dropped the packet "
		"(XDP_DROP or XDP_ABORTED), or the packet could not be "
		"converted for it.",
	.check = "`ip link show DEV` (xdp), `bpftool net`; the program's "
		"own statistics.",
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
};

#undef R
