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
	.function = "__dev_forward_skb2",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12: NOT_SPECIFIED (6.18: the same code, not reproduced)",
	.summary = "veth peer down, or frame over the peer's MTU",
	.meaning = "A device that hands frames straight to a peer (veth, also "
		"used by netkit and dev_forward_skb users) could not deliver "
		"one: the peer device is down, or the frame is larger than the "
		"peer's MTU allows. The peer's RX dropped counter goes up. "
		"Seen when one end of a veth pair goes down while the other "
		"still sends (IPv6 MLD/ND from it).",
	.check = "`ip -s link show PEER` (state, RX dropped); the MTU of both "
		"ends (`ip link`): a container-side MTU larger than the host "
		"side drops every big frame here.",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM runs on 6.1 and 6.12 (an MLD report of a veth whose peer "
		"was just set down; not in every run)",
},
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
	.function = "__rtnl_unlock",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12: NOT_SPECIFIED (6.18: not reproduced here)",
	.summary = "packets a qdisc held, freed on a device/qdisc change",
	.meaning = "A qdisc was reset or destroyed under the RTNL lock (the "
		"device went down or was deleted, the qdisc was replaced or "
		"removed) while it still held packets: it hands them to "
		"rtnl_kfree_skbs() and they are freed when the lock is released. "
		"The packets were queued for sending and never left.",
	.check = "`ip monitor link` and `tc monitor` at that time (link flaps, "
		"tc changes by a network manager or CNI); `tc -s qdisc show dev "
		"DEV` (backlog) on the device; --stacks names the change "
		"(netdev_run_todo: device down or deleted).",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM runs on 6.1 and 6.12 (netem holding 5 datagrams, link "
		"set down: 5 here)",
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
	.function = "icmpv6_rcv",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1: NOT_SPECIFIED (6.12, 6.18: consumed, not a drop)",
	.summary = "ICMPv6 error handled, then freed as a drop (6.1)",
	.meaning = "On 6.1 an ICMPv6 error (destination unreachable, packet too "
		"big, time exceeded, parameter problem) is passed to the socket "
		"and the routing code as usual, then freed through kfree_skb(): "
		"the kernel counts a handled message as a drop. Newer kernels "
		"consume it.",
	.check = "Nothing for the errors themselves: they are the replies to "
		"this host's own packets (port unreachable from a closed UDP "
		"port). Icmp6InErrors and Icmp6InDestUnreachs in `nstat -az` "
		"should move with it.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM run on 6.1 (3 ICMPv6 port unreachables over lo); not on "
		"6.12 or the 6.18 host with the same workload",
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
	.function = "kfree_skb_list_reason",
	.reasons = R("QDISC_DROP"),
	.kernels = "6.1: the location of QDISC_DROP (6.12, 6.18: __dev_queue_xmit)",
	.summary = "a list of packets freed at once: see the caller",
	.meaning = "The helper that frees a whole list of packets with one "
		"reason. On 6.1 a qdisc that refuses packets (queue limit, "
		"policer) hands them back as a list and __dev_queue_xmit frees "
		"them here, so QDISC_DROP shows this helper as its location; "
		"newer kernels show __dev_queue_xmit.",
	.check = "`whydrop count --stacks`: the frame below names the caller "
		"(__dev_queue_xmit: a qdisc drop, see `whydrop explain "
		"QDISC_DROP`); `tc -s qdisc show dev DEV`.",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM run on 6.1 (netem limit 5, 8 datagrams sent: 3 refused)",
},
{
	.function = "neigh_destroy",
	.reasons = R("NOT_SPECIFIED", "QUEUE_PURGE"),
	.kernels = "6.1: NOT_SPECIFIED; 6.12, 6.18: QUEUE_PURGE",
	.summary = "packets waiting for ARP/ND freed with the entry",
	.meaning = "A neighbour entry (ARP or NDP) was destroyed while packets "
		"still waited in its queue for the address to resolve: the "
		"device went down or lost its address (neigh_flush_dev), the "
		"cache was flushed, or garbage collection removed an entry that "
		"never resolved. Unresolved for good shows NEIGH_FAILED instead.",
	.check = "Link or address changes at that time (`ip monitor link "
		"address`); `ip neigh show` for INCOMPLETE/FAILED entries; "
		"traffic sent to on-link addresses nobody answers for.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM runs on 6.1 and 6.12, host run on 6.18 (3 datagrams to an "
		"unresolved neighbour, link set down)",
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
	.function = "skb_queue_purge",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1: NOT_SPECIFIED (6.6+: skb_queue_purge_reason, QUEUE_PURGE)",
	.summary = "a queue emptied at teardown (socket, device)",
	.meaning = "The generic helper that frees every packet of a queue, out "
		"of line on 6.1, so it is the drop location whoever calls it: a "
		"packet socket (tcpdump, a DHCP client) closed with captures "
		"unread (packet_release), a Unix datagram socket connected "
		"elsewhere with messages queued (unix_dgram_disconnected), "
		"netlink, tun, bluetooth or CAN sockets and devices going away.",
	.check = "`whydrop count --stacks -r NOT_SPECIFIED`: the frame below "
		"skb_queue_purge names the owner. Normal at close; many from a "
		"packet socket mean a capture that stopped reading.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM run on 6.1 (packet socket on lo closed unread: 24; Unix "
		"datagram socket reconnected: 6)",
},
{
	.function = "skb_queue_purge_reason",
	.reasons = R("NOT_SPECIFIED", "QUEUE_PURGE"),
	.kernels = "6.12, 6.18: QUEUE_PURGE or the caller's reason (6.1: skb_queue_purge)",
	.summary = "a queue emptied at teardown (socket, device)",
	.meaning = "Generic helper that frees every packet of a queue: a packet "
		"socket (tcpdump, a DHCP client) closed with captures unread, a "
		"Unix datagram socket connected elsewhere with messages queued "
		"(UNIX_DISCONNECT where the kernel has it: 6.14+; QUEUE_PURGE on "
		"6.12), netlink, tun, bluetooth or CAN sockets and devices going "
		"away. The caller is the real information: use --stacks.",
	.check = "`whydrop count --stacks -r QUEUE_PURGE,NOT_SPECIFIED` "
		"to see which teardown frees them. Many from packet_release: a "
		"capture that stopped reading.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM run on 6.12 (packet socket on lo closed unread: 24; Unix "
		"datagram socket reconnected: 6), host run on 6.18 (the same; "
		"the reconnect as UNIX_DISCONNECT)",
},
{
	.function = "tcp_disconnect",
	.reasons = R("NOT_SPECIFIED", "QUEUE_PURGE"),
	.kernels = "6.1: NOT_SPECIFIED; 6.12, 6.18: QUEUE_PURGE",
	.summary = "connection torn down with received data unread",
	.meaning = "tcp_disconnect() empties the receive queue of a connection "
		"it resets. Typically a listener closed (service stopped or "
		"restarted) while connections it had not accepted yet held "
		"data: each is reset and its data freed. Also connect(AF_UNSPEC) "
		"on a connected socket.",
	.check = "Restarts of the listening service at that time; "
		"TcpExtTCPAbortOnClose in `nstat -az`; the clients saw a reset "
		"after sending their request.",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM runs on 6.1 and 6.12, host run on 6.18 (listener closed "
		"with an unaccepted connection holding 100 bytes)",
},
{
	.function = "tcp_v4_rcv",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "TCP segment for a TIME_WAIT socket discarded",
	.meaning = "A segment reached a connection this host has closed (a "
		"TIME_WAIT socket, also FIN_WAIT2 after close): data sent after "
		"the close is answered with a reset, a late retransmission or "
		"FIN with an ACK, and the segment itself is freed without a "
		"reason. Other discards in tcp_v4_rcv carry specific reasons.",
	.check = "`ss -tan state time-wait`, TcpExtTW* counters in `nstat "
		"-az`; a trickle after connections close is normal. Many: "
		"clients that keep sending after the server closed (a protocol "
		"mismatch about who closes).",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM runs on 6.1 and 6.12, host run on 6.18 (data sent to a "
		"peer that had closed: reset)",
},
{
	.function = "tcp_v6_rcv",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "TCP segment for a TIME_WAIT socket discarded (IPv6)",
	.meaning = "The IPv6 twin of tcp_v4_rcv: a segment reached a "
		"connection this host has closed (TIME_WAIT, or FIN_WAIT2 after "
		"close); data is answered with a reset, and the segment is "
		"freed without a reason.",
	.check = "`ss -6 -tan state time-wait`, TcpExtTW* counters in `nstat "
		"-az`; a trickle after connections close is normal.",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM runs on 6.1 and 6.12, host run on 6.18 (data sent to a "
		"peer that had closed: reset)",
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
	.function = "udp_destruct_common",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED",
	.summary = "UDP socket closed with datagrams unread",
	.meaning = "A UDP socket was destroyed while datagrams were still in "
		"its receive queue: they are freed when the socket goes away, "
		"a little after close() (an RCU callback, so the stack shows "
		"rcu_do_batch, not the process). Typical of DNS clients and "
		"other request/response programs that close after the first "
		"answer.",
	.check = "Normal for short-lived sockets. Many: an application that "
		"exits or closes without reading (compare UdpInDatagrams), or "
		"duplicated replies.",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM runs on 6.1 and 6.12, host run on 6.18 (4 datagrams left "
		"on a UDP socket closed unread, IPv4 and IPv6)",
},
{
	.function = "unix_release_sock",
	.reasons = R("NOT_SPECIFIED", "SOCKET_CLOSE"),
	.kernels = "6.1: NOT_SPECIFIED; 6.12.118 (stable backport), 6.14+, 6.18: SOCKET_CLOSE",
	.summary = "Unix socket closed with unread messages",
	.meaning = "A Unix domain socket was closed while messages sent to it "
		"were still queued: they are freed unread. No network is "
		"involved (no device, no flow).",
	.check = "Normal when a peer closes first. Many: a service that exits "
		"without reading its queue (journald, D-Bus clients).",
	.severity = WD_SEV_BENIGN,
	.noise = true,
	.seen = "VM runs (6.1: NOT_SPECIFIED, 6.12: SOCKET_CLOSE) and host run "
		"on 6.18 (SOCKET_CLOSE): datagram and stream sockets closed with "
		"3 messages unread",
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
