/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The call-site catalogue (see callsites.h), sorted by function name.
 * Included by callsites.c only. "seen" says where the entry comes from:
 * a drop reproduced here (lab scenario, VM run, host run) or the kernel
 * source only (not reproduced: trust it less). Then the causes by place
 * (struct wd_cause), by reason then function: what a reason means at one
 * function, the counters that move with each cause (nstat names of both
 * families; "qdisc:drops@KIND" the drops of one kind of root qdisc;
 * "conntrack:COLUMN" of /proc/net/stat/nf_conntrack) and the sysctls to
 * read (NAME=V: the cause needs that value).
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
	.counters = R("Ip6OutNoRoutes"),
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
	.function = "neigh_invalidate",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.1, 6.12, 6.18: NOT_SPECIFIED for IPv6 (IPv4: NEIGH_FAILED)",
	.summary = "IPv6 neighbour discovery failed: queued packets freed",
	.meaning = "Nobody answered the neighbour solicitations for an on-link "
		"IPv6 address (the next hop or the destination): the entry goes to "
		"FAILED and the packets that waited for it are freed. IPv6 reports "
		"this through ndisc_error_report with a plain kfree_skb; the IPv4 "
		"twin (ARP) says NEIGH_FAILED.",
	.check = "`ip -6 neigh show` (FAILED, INCOMPLETE entries), whether the "
		"address should answer, on-link prefixes that are not on the link.",
	.severity = WD_SEV_PROBLEM,
	.seen = "lab notes (6.18: the IPv6 twin of NEIGH_FAILED.ipv4)",
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
{
	.function = "veth_xmit",
	.reasons = R("NOT_SPECIFIED"),
	.kernels = "6.12: NOT_SPECIFIED (6.1, 6.18: the same code, not reproduced)",
	.summary = "veth peer gone while the pair is deleted",
	.meaning = "A frame was sent on one end of a veth pair whose peer was "
		"already gone (the pair being deleted, or its namespace), or "
		"too short to hold an Ethernet header. The device's TX "
		"dropped counter goes up. Seen when a veth is deleted while "
		"its own end still sends (IPv6 MLD/ND, or queued traffic).",
	.check = "`ip -s link show DEV` (TX dropped); whether a container or "
		"namespace was being torn down at that time.",
	.severity = WD_SEV_DEPENDS,
	.seen = "VM run on 6.12 (a veth deleted while its end still sent; "
		"not in every run)",
},
};

#define C(...)	((const char *const []){ __VA_ARGS__, NULL })

static const struct wd_cause causes[] = {
/* ---- INVALID_PROTO: two causes in icmp_rcv, told apart by a sysctl */
{
	.reason = "INVALID_PROTO", .function = "icmp_rcv",
	.text = "broadcast ping ignored (icmp_echo_ignore_broadcasts)",
	.meaning = "An ICMP echo (or timestamp) request to a broadcast or multicast "
		"address: with net.ipv4.icmp_echo_ignore_broadcasts=1, the default, "
		"the host does not answer such pings (smurf amplification) and drops "
		"them. IcmpInErrors moves with each.",
	.remedy = "Nothing: intended. A monitoring tool that pings a subnet's "
		"broadcast address gets no answer from Linux; ping the hosts.",
	.counters = C("IcmpInErrors"),
	.sysctls = C("net.ipv4.icmp_echo_ignore_broadcasts=1"),
	.severity = WD_SEV_BENIGN,
	.seen = "lab INVALID_PROTO.ipv4 (6.18)",
},
{
	.reason = "INVALID_PROTO", .function = "icmp_rcv",
	.text = "ICMP type not allowed to a broadcast/multicast address",
	.meaning = "An ICMP message other than echo, timestamp or address mask sent "
		"to a broadcast or multicast address (RFC 1122 forbids answering "
		"them), or a ping to one with icmp_echo_ignore_broadcasts=0 that "
		"failed the other checks.",
	.remedy = "Find the sender (`whydrop watch -r INVALID_PROTO`): scans or "
		"misconfigured devices.",
	.counters = C("IcmpInErrors"),
	.severity = WD_SEV_BENIGN,
	.seen = "kernel source (not reproduced here)",
},
/* ---- IP_INHDR: a broken header on input, a TTL that ran out when forwarding */
{
	.reason = "IP_INHDR", .function = "ip_rcv_core",
	.text = "invalid IPv4 header (version, header length)",
	.meaning = "The IPv4 header itself is broken: version not 4, a header "
		"length (IHL) below 5 words, or a total length shorter than the "
		"header. Counted in IpInHdrErrors (a bad header checksum is IP_CSUM "
		"at the same place).",
	.remedy = "Find the sender (`whydrop watch -r IP_INHDR`): crafted or "
		"corrupted packets, a broken encapsulation or NIC offload; filter or "
		"fix it upstream.",
	.counters = C("IpInHdrErrors"),
	.severity = WD_SEV_PROBLEM,
	.seen = "lab IP_INHDR.ipv4 (6.18)",
},
{
	.reason = "IP_INHDR", .function = "ip6_rcv_core",
	.text = "bad IPv6 header, or loopback/reserved address from the wire",
	.meaning = "ip6_rcv_core refuses what no link may carry: ::1 (or another "
		"loopback address) as source or destination on a device that is not "
		"loopback, a multicast destination of interface-local or reserved "
		"scope. Counted in Ip6InHdrErrors.",
	.remedy = "Find the sender (`whydrop watch -r IP_INHDR`): a host or "
		"container leaking loopback traffic, spoofing, a broken tunnel.",
	.counters = C("Ip6InHdrErrors"),
	.severity = WD_SEV_PROBLEM,
	.seen = "lab IP_INHDR.ipv6 (6.18: ::1 as source)",
},
{
	.reason = "IP_INHDR", .function = "ip_forward",
	.text = "TTL expired while forwarding (a loop, or traceroute)",
	.meaning = "This host routes (ip_forward=1) and a packet came with TTL 1 "
		"or 0: it may not go further, so it is dropped and an ICMP time "
		"exceeded goes back to the sender (rate-limited: IcmpOutTimeExcds "
		"moves at most as much). The kernel counts it in IpInHdrErrors, "
		"though the header is fine. A steady rate is a routing loop (the "
		"same packets come back with smaller TTLs) or traceroute/mtr probes.",
	.remedy = "Look for a loop: `ip route get DST` here and on the next hop "
		"(two routers pointing at each other, a default route back), the "
		"destinations in `whydrop watch -r IP_INHDR`. Traceroute probes are "
		"harmless. Not a broken header: nothing to fix in the sender.",
	.counters = C("IpInHdrErrors", "IcmpOutTimeExcds"),
	.sysctls = C("net.ipv4.ip_forward", "net.ipv4.icmp_ratelimit"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab IP_INHDR.fwd4 (6.18: TTL 1 through a router namespace)",
},
{
	.reason = "IP_INHDR", .function = "ip6_forward",
	.text = "hop limit expired while forwarding (a loop, or traceroute)",
	.meaning = "This host routes IPv6 (forwarding=1) and a packet came with "
		"hop limit 1 or 0: it is dropped and an ICMPv6 time exceeded goes "
		"back (rate-limited: Icmp6OutTimeExcds moves at most as much). "
		"Counted in Ip6InHdrErrors. A steady rate is a routing loop or "
		"traceroute probes.",
	.remedy = "Look for a loop: `ip -6 route get DST` here and on the next "
		"hop; traceroute probes are harmless.",
	.counters = C("Ip6InHdrErrors", "Icmp6OutTimeExcds"),
	.sysctls = C("net.ipv6.conf.all.forwarding", "net.ipv6.icmp.ratelimit"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab IP_INHDR.fwd6 (6.18: hop limit 1 through a router namespace)",
},
/* ---- IP_OUTNOROUTES */
{
	.reason = "IP_OUTNOROUTES", .function = "__ip_queue_xmit",
	.text = "TCP segment with no route out (route or address removed)",
	.meaning = "An established IPv4 TCP connection looked its route up again "
		"and found none: the route or the source address went away while "
		"it was open. Each segment it sends, up to the reset of an abortive "
		"close, is dropped; IpOutNoRoutes moves with each.",
	.remedy = "`ip route get DST`; address or route changes at that time "
		"(`ip monitor route address`), a VPN or DHCP client that removed them.",
	.counters = C("IpOutNoRoutes"),
	.severity = WD_SEV_PROBLEM,
	.seen = "lab IP_OUTNOROUTES.ipv4 (6.18)",
},
{
	.reason = "IP_OUTNOROUTES", .function = "cookie_v6_check",
	.text = "SYN-cookie ACK with no route back for the connection",
	.meaning = "A listener answered with SYN cookies (a SYN flood, or "
		"tcp_syncookies=2), and when the final ACK came back no route to the "
		"client could be found for the new connection. Ip6OutNoRoutes moves "
		"with each.",
	.remedy = "`ip -6 route get CLIENT`; routes removed during handshakes; "
		"net.ipv4.tcp_syncookies and the listener's backlog.",
	.counters = C("Ip6OutNoRoutes"),
	.sysctls = C("net.ipv4.tcp_syncookies"),
	.severity = WD_SEV_PROBLEM,
	.seen = "lab IP_OUTNOROUTES.ipv6 (6.18)",
},
/* ---- IPV6_BAD_EXTHDR */
{
	.reason = "IPV6_BAD_EXTHDR", .function = "icmpv6_rcv",
	.text = "ICMPv6 error quoting a packet whose headers cannot be walked",
	.meaning = "An ICMPv6 error (destination unreachable, packet too big...) "
		"quotes the packet that caused it; the quoted packet's extension "
		"headers could not be skipped to find its transport header, so the "
		"error cannot be matched to a socket and is dropped. Icmp6InErrors "
		"moves with each.",
	.remedy = "Find the sender of the errors (`whydrop watch -r "
		"IPV6_BAD_EXTHDR`): a middlebox that truncates or mangles the quote.",
	.counters = C("Icmp6InErrors"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab IPV6_BAD_EXTHDR.ipv6 (6.18)",
},
/*
 * ---- NETFILTER_DROP: nftables frees its own drops; the rest in nf_hook_slow.
 * At one place the cause without counters comes first: it is what the place
 * means unless the counters of the next one moved by as many.
 */
{
	.reason = "NETFILTER_DROP", .function = "nft_do_chain",
	.text = "an nftables rule or chain policy dropped it",
	.meaning = "nftables frees what its drop verdicts refuse inside "
		"nft_do_chain (a rule's drop or reject, a base chain's policy drop): "
		"the place says nftables, not conntrack and not legacy iptables "
		"(iptables-nft rules are nftables rules).",
	.remedy = "`whydrop count --rules` names the rule or chain policy, its "
		"text and comment, with exact counts (docs/firewall.md); `nft -a list "
		"ruleset` (add counters to the rules), `nft monitor trace` with `meta "
		"nftrace set 1`.",
	.severity = WD_SEV_DEPENDS,
	.seen = "lab NETFILTER_DROP.ipv4, .ipv6 (6.18: a rule at nft_do_chain+0x46f, "
		"a policy at +0x637); VM runs on 6.1 and 6.12",
},
{
	.reason = "NETFILTER_DROP", .function = "nft_do_chain",
	.text = "nftables rule dropping conntrack-invalid packets",
	.meaning = "conntrack could not track these packets (TCP out of its "
		"window, a reply without its connection, an ICMP error for nothing) "
		"and an nftables rule matching `ct state invalid` dropped them: "
		"conntrack's invalid counter moved by as many.",
	.remedy = "`conntrack -S` (invalid), asymmetric routing (replies taking "
		"another path), net.netfilter.nf_conntrack_tcp_be_liberal; the rule: "
		"`whydrop count --rules` names it (docs/firewall.md), or `nft -a list "
		"ruleset`, `nft monitor trace`.",
	.counters = C("conntrack:invalid"),
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source and docs/firewall.md (conntrack's invalid counter; "
		"not a lab scenario)",
},
{
	.reason = "NETFILTER_DROP", .function = "nf_hook_slow",
	.text = "a legacy iptables rule (nftables too, on old kernels)",
	.meaning = "nf_hook_slow frees what a hook's verdict dropped when the hook "
		"did not free it itself: a legacy iptables (x_tables) DROP, "
		"ebtables, arptables, IPVS; and nftables rules on kernels from before "
		"nftables freed its own drops (2023: Debian's 6.1 and 6.12 and 6.18 "
		"free them in nft_do_chain). conntrack's own drops are told apart by "
		"its counters (the cause below).",
	.remedy = "`iptables-legacy -L -v -n` and `ip6tables-legacy -L -v -n` "
		"(rule counters), `nft list ruleset` on old kernels; `whydrop count "
		"--rules` names nftables' rules and says which drops no rule names "
		"(legacy iptables, conntrack); `iptables -j TRACE` for legacy rules.",
	.severity = WD_SEV_DEPENDS,
	.seen = "lab NETFILTER_DROP.legacy (6.18: iptables-legacy at "
		"nf_hook_slow+0x7d); VM runs on 6.1 and 6.12: nftables at nft_do_chain",
},
{
	.reason = "NETFILTER_DROP", .function = "nf_hook_slow",
	.text = "conntrack refused it: table full, or an insert clash",
	.meaning = "conntrack itself dropped the packet: no entry could be made "
		"(the table at nf_conntrack_max and nothing to evict) or the new "
		"entry could not be inserted (a clash, a hash chain too long). "
		"conntrack's drop or insert_failed counters moved by as many.",
	.remedy = "`conntrack -S`, net.netfilter.nf_conntrack_count against "
		"nf_conntrack_max (raise it, shorten the timeouts, or `notrack` "
		"traffic that needs no state); /proc/net/stat/nf_conntrack.",
	.counters = C("conntrack:drop", "conntrack:insert_failed", "conntrack:early_drop"),
	.sysctls = C("net.netfilter.nf_conntrack_count", "net.netfilter.nf_conntrack_max"),
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source and docs/firewall.md (not a lab scenario: the table "
		"size is the host's)",
},
/* ---- NO_SOCKET: TCP answers with a reset, UDP with ICMP */
{
	.reason = "NO_SOCKET", .function = "tcp_v4_rcv",
	.text = "no listener or connection on this TCP port (RST sent)",
	.meaning = "A TCP segment for an address and port where no socket "
		"listens and no connection exists: the host answers with a reset "
		"(TcpOutRsts) and drops it. SYNs to a closed port, or segments of a "
		"connection this host forgot (restarted service).",
	.remedy = "`ss -ltn` in the namespace: is the service up, bound to this "
		"address and port? A DNAT or load balancer sending to the wrong "
		"port? Scans need nothing.",
	.counters = C("TcpOutRsts"),
	.severity = WD_SEV_BENIGN,
	.seen = "lab NO_SOCKET.ipv4 (6.18)",
},
{
	.reason = "NO_SOCKET", .function = "tcp_v6_rcv",
	.text = "no listener or connection on this TCP port (RST sent)",
	.meaning = "The IPv6 twin of tcp_v4_rcv: no socket for the segment's "
		"address and port; a reset goes back (TcpOutRsts).",
	.remedy = "`ss -ltn6` in the namespace: the service, its bind address "
		"and port.",
	.counters = C("TcpOutRsts"),
	.severity = WD_SEV_BENIGN,
	.seen = "lab NO_SOCKET.ipv6 (6.18)",
},
{
	.reason = "NO_SOCKET", .function = "__udp4_lib_rcv",
	.text = "no UDP socket on this port (ICMP port unreachable)",
	.meaning = "A UDP datagram for a port no socket is bound to: the host "
		"answers with ICMP port unreachable (rate-limited) and drops it; "
		"UdpNoPorts moves with each. DNS replies arriving after the client "
		"closed its socket, syslog or metrics sent to a stopped collector.",
	.remedy = "`ss -lun` in the namespace: is the receiver running, bound to "
		"this address? Late replies to closed clients need nothing.",
	.counters = C("UdpNoPorts", "IcmpOutDestUnreachs"),
	.sysctls = C("net.ipv4.icmp_ratelimit"),
	.severity = WD_SEV_BENIGN,
	.seen = "system tests and VM runs (6.1, 6.12, 6.18); tests/integration/counters.sh",
},
{
	.reason = "NO_SOCKET", .function = "__udp6_lib_rcv",
	.text = "no UDP socket on this port (ICMP port unreachable)",
	.meaning = "The IPv6 twin: a UDP datagram for a port no socket is bound "
		"to; ICMPv6 port unreachable goes back, Udp6NoPorts moves.",
	.remedy = "`ss -lun6` in the namespace: the receiver and its bind address.",
	.counters = C("Udp6NoPorts", "Icmp6OutDestUnreachs"),
	.severity = WD_SEV_BENIGN,
	.seen = "system tests (6.18), VM runs",
},
/* ---- PKT_TOO_BIG: forwarding, local output, openvswitch */
{
	.reason = "PKT_TOO_BIG", .function = "ip_forward",
	.text = "forwarded packet over the next hop's MTU, DF set",
	.meaning = "Forwarding: the packet is larger than the outgoing route's "
		"MTU and its Don't Fragment bit is set, so this router drops it and "
		"sends ICMP fragmentation-needed back (path MTU discovery). "
		"IpFragFails moves with each.",
	.remedy = "Usually self-healing once the sender gets the ICMP. If not: "
		"ICMP filtered between here and the sender (a PMTU black hole), a "
		"tunnel or overlay with a smaller MTU; clamp the TCP MSS (`nft add "
		"rule ... tcp option maxseg size set rt mtu`) or fix the MTUs.",
	.counters = C("IpFragFails", "IcmpOutDestUnreachs"),
	.sysctls = C("net.ipv4.ip_forward", "net.ipv4.ip_forward_use_pmtu"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab PKT_TOO_BIG.ipv4 (6.18)",
},
{
	.reason = "PKT_TOO_BIG", .function = "ip6_forward",
	.text = "forwarded IPv6 packet over the next hop's MTU",
	.meaning = "Forwarding: IPv6 routers never fragment, so a packet larger "
		"than the outgoing MTU is dropped and an ICMPv6 packet too big goes "
		"back. Ip6InTooBigErrors and Ip6FragFails move with each.",
	.remedy = "As for IPv4: ICMPv6 must reach the sender (never filter "
		"type 2); tunnel MTUs; MSS clamping.",
	.counters = C("Ip6InTooBigErrors", "Ip6FragFails", "Icmp6OutPktTooBigs"),
	.sysctls = C("net.ipv6.conf.all.forwarding"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab PKT_TOO_BIG.ipv6 (6.18)",
},
{
	.reason = "PKT_TOO_BIG", .function = "ip6_xmit",
	.text = "IPv6 packet sent from here over the path MTU",
	.meaning = "Local output: a socket of this host sent an IPv6 packet "
		"larger than the route's MTU that may not be fragmented; the sender "
		"gets EMSGSIZE and the packet is dropped. Ip6FragFails moves.",
	.remedy = "The route's MTU (`ip -6 route get DST`, learned PMTU in `ip "
		"-6 route show cache`), the application's message size or "
		"IPV6_DONTFRAG.",
	.counters = C("Ip6FragFails"),
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (mainline 2025, after 6.18; not reproduced here)",
},
{
	.reason = "PKT_TOO_BIG", .function = "do_output",
	.text = "Open vSwitch output port's MTU too small for the packet",
	.meaning = "An OVS datapath action sent a packet (after conntrack "
		"reassembly) to a port whose MTU is below the packet's size and it "
		"could not be fragmented.",
	.remedy = "The MTUs of the OVS ports and tunnels (`ovs-vsctl list "
		"interface`), MSS clamping in the flows.",
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
/* ---- PROTO_MEM: UDP socket memory, TCP receive memory */
{
	.reason = "PROTO_MEM", .function = "__udp_enqueue_schedule_skb",
	.text = "UDP memory over udp_mem or the memory cgroup's limit",
	.meaning = "The datagram could not be charged: UDP's memory (every socket's) "
		"is over net.ipv4.udp_mem, or the receiving socket's memory cgroup "
		"is at its limit (cgroup v1 kmem.tcp, v2 memory.max). On 6.18 only "
		"the socket's drop counter moves (UdpMemErrors stays 0).",
	.remedy = "`cat /proc/net/sockstat` (UDP mem) against net.ipv4.udp_mem; "
		"the container's memory limits; receivers that do not read.",
	.counters = C("sockets:udp_drops", "UdpMemErrors", "Udp6MemErrors"),
	.sysctls = C("net.ipv4.udp_mem"),
	.severity = WD_SEV_PROBLEM,
	.seen = "lab PROTO_MEM.ipv4, .ipv6 (6.18: a memory cgroup's limit)",
},
{
	.reason = "PROTO_MEM", .function = "tcp_data_queue",
	.text = "TCP receive memory full: out-of-order data refused",
	.meaning = "An out-of-order segment could not be queued: the socket's "
		"receive memory (sk_rcvbuf) is used up and pruning freed nothing, "
		"or TCP is over net.ipv4.tcp_mem. TcpExtTCPOFODrop moves with each "
		"on 6.18.",
	.remedy = "A receiver that does not read fast enough, a small SO_RCVBUF "
		"or net.ipv4.tcp_rmem; `ss -tmi` (rb, drops) on the socket.",
	.counters = C("TcpExtTCPOFODrop", "TcpExtTCPRcvQDrop"),
	.sysctls = C("net.ipv4.tcp_rmem"),
	.severity = WD_SEV_PROBLEM,
	.seen = "lab TCP_OFO_QUEUE_PRUNE.* (6.18: 15 such drops = TcpExtTCPOFODrop 15)",
},
/* ---- QDISC_DROP: which kind of qdisc dropped, from its own counter */
{
	.reason = "QDISC_DROP", .function = "*",
	.text = "tbf queue full: traffic over the shaped rate",
	.meaning = "A token bucket filter shapes this device: packets beyond its "
		"rate wait in a queue of `limit` bytes, and what does not fit is "
		"dropped. The tbf's own drop counter (tc -s qdisc) moved.",
	.remedy = "`tc -s qdisc show dev DEV`: rate, burst, limit and backlog. "
		"Raise the rate or the limit, or send less; intended when shaping.",
	.counters = C("qdisc:drops@tbf"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab QDISC_DROP.l2 (6.18); tests/integration/counters.sh",
},
{
	.reason = "QDISC_DROP", .function = "*",
	.text = "htb class queue full: traffic over its rate",
	.meaning = "An htb class (a rate limit per class) holds more than its "
		"leaf queue takes: the excess is dropped and counted by the htb.",
	.remedy = "`tc -s class show dev DEV` (which class drops), its rate and "
		"ceil, the leaf qdisc's limit.",
	.counters = C("qdisc:drops@htb"),
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
{
	.reason = "QDISC_DROP", .function = "*",
	.text = "FIFO queue full: the device sends slower than traffic comes",
	.meaning = "A plain FIFO qdisc (pfifo_fast, pfifo, bfifo) is full: packets "
		"come faster than the device sends them for longer than txqueuelen "
		"(or the limit) covers.",
	.remedy = "`ip -s link show DEV` (txqueuelen), `tc -s qdisc`; a slow or "
		"congested link; fq_codel keeps latency down where drops are due.",
	.counters = C("qdisc:drops@pfifo_fast", "qdisc:drops@pfifo", "qdisc:drops@bfifo"),
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source (not reproduced here)",
},
{
	.reason = "QDISC_DROP", .function = "*",
	.text = "netem dropped it: emulated loss or its queue limit",
	.meaning = "A netem qdisc emulates a network: its loss setting drops on "
		"purpose, and its queue (limit, 1000 packets by default) overflows "
		"when delays are long.",
	.remedy = "`tc qdisc show dev DEV` (loss, limit): intended in a test "
		"setup; remove netem when the test is over.",
	.counters = C("qdisc:drops@netem"),
	.severity = WD_SEV_BENIGN,
	.seen = "VM runs on 6.1 (netem limit 5: 3 refused)",
},
{
	.reason = "QDISC_DROP", .function = "*",
	.text = "fq_codel over its packet or memory limit",
	.meaning = "fq_codel's total limit (packets, or memory_limit) is reached: "
		"it drops from the fattest flow. (Its AQM drops are QDISC_CONGESTED "
		"on kernels with qdisc reasons.)",
	.remedy = "`tc -s qdisc show dev DEV` (drop_overlimit, memory_used); a "
		"flood, or limits too small for the link.",
	.counters = C("qdisc:drops@fq_codel"),
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here: fq_codel is not built on this "
		"kernel)",
},
/* ---- SKB_UCOPY_FAULT: a writer's bad buffer, or zerocopy frames */
{
	.reason = "SKB_UCOPY_FAULT", .function = "tun_get_user",
	.text = "tun/tap write from unreadable memory (EFAULT)",
	.meaning = "The program writing frames to a tun/tap file descriptor (a "
		"VPN, a VM backend) handed it memory that cannot be read: the write "
		"fails with EFAULT and the frame is freed.",
	.remedy = "The writer's bug: its logs, `strace -e write,writev -p PID` "
		"returning EFAULT on /dev/net/tun.",
	.severity = WD_SEV_PROBLEM,
	.seen = "lab SKB_UCOPY_FAULT.tap (6.18)",
},
{
	.reason = "SKB_UCOPY_FAULT", .function = "tap_get_user",
	.text = "macvtap write from unreadable memory (EFAULT)",
	.meaning = "The macvtap twin of tun_get_user: a frame written to "
		"/dev/tapN from memory that cannot be read (a VM backend's bug).",
	.remedy = "The writer (qemu, vhost): its logs and write() errors.",
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source (not reproduced here)",
},
{
	.reason = "SKB_UCOPY_FAULT", .function = "tun_net_xmit",
	.text = "zerocopy frames could not be copied for the tap's reader",
	.meaning = "A packet carrying zerocopy user pages (MSG_ZEROCOPY, vhost) "
		"was routed into a tun/tap device, and copying its pages for the "
		"reader failed (memory).",
	.remedy = "Memory pressure on the host; the zerocopy sender.",
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source (not reproduced here)",
},
/* ---- TCP_OFO_DROP: out-of-order data already covered, or no memory (older) */
{
	.reason = "TCP_OFO_DROP", .function = "tcp_data_queue",
	.text = "out-of-order data already covered by in-order data",
	.meaning = "When in-order data arrives, the out-of-order queue is moved "
		"over (tcp_ofo_queue, inlined here): segments that lie wholly before "
		"the new rcv_nxt are dropped, their data having come again in order. "
		"A trace of reordering and retransmission, not a loss.",
	.remedy = "Nothing by itself. Many: reordering on the path (bonding, "
		"ECMP, multipath) that makes the peer retransmit what was only late.",
	.severity = WD_SEV_BENIGN,
	.seen = "lab TCP_OFO_DROP.ipv4, .ipv6 (6.18)",
},
{
	.reason = "TCP_OFO_DROP", .function = "tcp_data_queue_ofo",
	.text = "no memory to queue an out-of-order segment",
	.meaning = "An out-of-order segment could not be queued for lack of "
		"receive memory (older kernels; 6.18 says PROTO_MEM at "
		"tcp_data_queue). TcpExtTCPOFODrop moves.",
	.remedy = "The receiver's read speed, SO_RCVBUF, net.ipv4.tcp_rmem.",
	.counters = C("TcpExtTCPOFODrop"),
	.severity = WD_SEV_PROBLEM,
	.seen = "kernel source (not reproduced here)",
},
/* ---- TCP_RESET */
{
	.reason = "TCP_RESET", .function = "tcp_rcv_state_process",
	.text = "RST to a listening socket: nothing to reset",
	.meaning = "A reset arrived for a listening socket, which has no "
		"connection to reset: it is ignored. Late resets of connections "
		"this host already closed, or scans.",
	.remedy = "Nothing, unless many: then who sends them (`whydrop watch -r "
		"TCP_RESET`).",
	.severity = WD_SEV_BENIGN,
	.seen = "lab TCP_RESET.ipv4, .ipv6 (6.18)",
},
{
	.reason = "TCP_RESET", .function = "tcp_validate_incoming",
	.text = "RST outside the receive window: challenged, not accepted",
	.meaning = "A reset whose sequence number is not exactly the next "
		"expected one is answered with a challenge ACK (RFC 5961) and "
		"dropped: a blind reset attack, or a late reset.",
	.remedy = "TcpExtTCPChallengeACK in `nstat -az`; who sends them.",
	.counters = C("TcpExtTCPChallengeACK"),
	.severity = WD_SEV_DEPENDS,
	.seen = "kernel source (not reproduced here)",
},
/* ---- TCP_INVALID_SYN */
{
	.reason = "TCP_INVALID_SYN", .function = "tcp_validate_incoming",
	.text = "SYN on an established connection (challenge ACK sent)",
	.meaning = "A SYN for a connection that is established: the host answers "
		"with a challenge ACK (RFC 5961) and drops it; TcpExtTCPSYNChallenge "
		"and TcpInErrs move. A peer that restarted and reuses the ports.",
	.remedy = "Usually the peer restarted: its next segment after the "
		"challenge ACK resets the old connection.",
	.counters = C("TcpExtTCPSYNChallenge", "TcpInErrs"),
	.severity = WD_SEV_BENIGN,
	.seen = "lab TCP_INVALID_SYN.ipv4, .ipv6 (6.18)",
},
/* ---- UNHANDLED_PROTO: an IPv6 option, an EtherType */
{
	.reason = "UNHANDLED_PROTO", .function = "ip6_tlvopt_unknown",
	.text = "unknown IPv6 option whose type says discard",
	.meaning = "A hop-by-hop or destination option of a type this host does "
		"not know, whose two high bits say \"discard\" (01, or 10/11 with an "
		"ICMPv6 parameter problem back). Ip6InHdrErrors moves with each.",
	.remedy = "Find the sender (`whydrop watch -r UNHANDLED_PROTO`): a newer "
		"protocol's option, or crafted traffic.",
	.counters = C("Ip6InHdrErrors"),
	.severity = WD_SEV_DEPENDS,
	.seen = "lab UNHANDLED_PROTO.ipv6 (6.18)",
},
{
	.reason = "UNHANDLED_PROTO", .function = "__netif_receive_skb_core",
	.text = "no handler for this EtherType (or a VLAN not set up here)",
	.meaning = "A frame with an EtherType no protocol handler or packet "
		"socket takes (an unconfigured VLAN, LLDP, a proprietary protocol): "
		"the device's rx_nohandler counter moves with each.",
	.remedy = "`ip -s -s link show DEV` (rx_nohandler); which EtherType "
		"(`tcpdump -e -i DEV`); VLAN sub-interfaces that should exist.",
	.counters = C("netdev:rx_nohandler"),
	.severity = WD_SEV_BENIGN,
	.seen = "lab UNHANDLED_PROTO.l2 (6.18)",
},
};

#undef C
#undef R
