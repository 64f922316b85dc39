/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The catalogue itself: one entry per drop reason, in the order of the
 * kernel's enum (core, newest mainline), then reasons seen only in stable
 * kernels, then the openvswitch and mac80211 subsystems. Included by
 * catalogue.c only. Never key anything here by number.
 *
 * Counter names are spelled as `nstat -az` prints them. Three sources that
 * nstat does not read use a prefix: "softnet:" (/proc/net/softnet_stat,
 * summed over CPUs), "netdev:" (/sys/class/net/DEV/statistics, summed over
 * devices); Xfrm* names come from /proc/net/xfrm_stat.
 */

#define L(...)	((const char *const []){ __VA_ARGS__, NULL })
#define NONE	((const char *const []){ NULL })
#define CORE(n)	.name = n, .subsys = "core"
#define OVS(n)	.name = n, .subsys = "openvswitch", .layer = "openvswitch"
#define M80211(n) .name = n, .subsys = "mac80211", .layer = "Wi-Fi (mac80211)"

/* Where to look for anything mac80211 drops (no MIB counters exist). */
#define M80211_LOOK \
	"`iw dev WLAN station dump` (rx drop misc, rx duplicates per peer); " \
	"debugfs /sys/kernel/debug/ieee80211/phyN/statistics; " \
	"`iw event -t` and the supplicant/hostapd log"

#define OVS_LOOK \
	"`ovs-appctl dpctl/dump-flows -m` (the flow that matched and its " \
	"actions), `ovs-appctl ofproto/trace BRIDGE FLOW`, " \
	"`ovs-appctl coverage/show | grep drop`"

static const struct wd_cat_entry catalogue[] = {
{
	CORE("NOT_SPECIFIED"),
	.layer = "any",
	.since = "5.17",
	.summary = "freed without a reason: see the function",
	.meaning = "The code that freed the packet did not classify the drop: a "
		"plain kfree_skb(), or a path nobody has given a reason yet. It "
		"says nothing by itself; the drop location (function+offset) is "
		"the real information. Common sources: XDP programs returning "
		"XDP_DROP, TIME_WAIT sockets receiving data, fragment queues over "
		"ipfrag_high_thresh, and driver and teardown paths.",
	.functions = L("kfree_skb", "do_xdp_generic", "veth_xdp_rcv_skb",
		       "ip_defrag", "tcp_v4_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The function column of `whydrop top`; `nstat -az` deltas "
		"taken while the drops happen point at the subsystem.",
	.action = "Group by location (`whydrop top`) and read that function. "
		"For XDP_DROP check `bpftool net` / `ip link` for attached "
		"programs; the drop is then intended.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A trickle from teardown paths is normal; a high rate "
		"from one location deserves a look at that function.",
	.history = "Value 0 in 5.17, 1 in 5.18-6.1, 2 since 6.2 (sentinels were "
		"inserted before it).",
},
{
	CORE("NO_SOCKET"),
	.layer = "TCP/UDP",
	.since = "5.17",
	.summary = "no socket for the destination port",
	.meaning = "A TCP segment or UDP datagram reached this host but no "
		"socket matches its destination address and port: no listener, "
		"no established connection, no pending handshake. TCP answers "
		"with a RST, UDP with ICMP port unreachable (rate-limited).",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv", "__udp4_lib_rcv",
		       "__udp6_lib_rcv"),
	.counters = L("UdpNoPorts", "Udp6NoPorts", "TcpOutRsts"),
	.sysctls = L("net.ipv4.icmp_ratelimit"),
	.settings = "`ss -lntu` in the right network namespace; the bind "
		"address (127.0.0.1 vs 0.0.0.0 vs one IP); DNAT/port-forward "
		"targets.",
	.action = "If the port should be open: the service is down, bound to "
		"another address or namespace, or the NAT sends traffic to the "
		"wrong port. If not: nothing to do.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Port scans, clients of a stopped service and late "
		"packets of closed connections cause a steady background. A "
		"burst right after a deploy or restart is a real outage.",
},
{
	CORE("SOCKET_CLOSE"),
	.layer = "socket (AF_UNIX)",
	.since = "6.14",
	.summary = "unread data discarded when the socket closed",
	.meaning = "A socket was closed while data still sat unread in its "
		"receive queue; the queued packets are freed with it. Seen for "
		"AF_UNIX sockets (closing TCP with unread data sends a RST "
		"instead and is not reported this way).",
	.functions = L("unix_release_sock"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Which process owns the socket: `ss -xp`.",
	.action = "Usually nothing. If messages go missing, the receiver "
		"exits or closes before draining its socket.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Normal when programs exit; only a problem if the "
		"discarded messages mattered.",
},
{
	CORE("SOCKET_FILTER"),
	.layer = "socket",
	.since = "5.17",
	.summary = "refused by a socket filter (BPF) on the socket",
	.meaning = "The receiving socket's filter rejected the packet: a "
		"classic or eBPF program attached with SO_ATTACH_FILTER / "
		"SO_ATTACH_BPF, or a cgroup inet-ingress BPF program. Before "
		"6.17 LSM refusals and pfmemalloc packets on the same path were "
		"reported with this reason too.",
	.functions = L("sk_filter_trim_cap", "tcp_filter",
		       "udp_queue_rcv_one_skb", "udpv6_queue_rcv_one_skb"),
	.counters = L("UdpInErrors", "Udp6InErrors"),
	.sysctls = NONE,
	.settings = "`ss -0 -b` and `ss -b` show attached classic filters; "
		"`bpftool cgroup tree` lists cgroup ingress programs; "
		"`bpftool prog list`.",
	.action = "Find the program that filters (capture tools, DNS servers "
		"with BPF, container policy) and check its rules.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Intended when the filter does its job; unexpected "
		"when a policy program is stricter than it should be.",
	.aliases = L("TCP_FILTER"),
	.history = "Named TCP_FILTER in 5.17-rc1, renamed before 5.17. Since "
		"6.17 LSM refusals are SECURITY_HOOK and emergency-memory "
		"packets PFMEMALLOC.",
},
{
	CORE("SOCKET_RCVBUFF"),
	.layer = "socket",
	.since = "5.18",
	.summary = "socket receive buffer full (app reads too slowly)",
	.meaning = "The packet was for a live socket, but the socket's receive "
		"buffer (SO_RCVBUF, sk_rcvbuf) was already full, so it could not "
		"be queued. The application is not reading fast enough for the "
		"rate it receives, or its buffer is small.",
	.functions = L("__udp_enqueue_schedule_skb", "udp_queue_rcv_one_skb",
		       "sock_queue_rcv_skb_reason", "__sock_queue_rcv_skb"),
	.counters = L("UdpRcvbufErrors", "Udp6RcvbufErrors", "UdpInErrors",
		      "Udp6InErrors"),
	.sysctls = L("net.core.rmem_default", "net.core.rmem_max"),
	.settings = "`ss -uamp` (skmem: r = queued, rb = buffer, d = drops); "
		"SO_RCVBUF in the application; CPU of the reading thread.",
	.action = "Give the socket a bigger buffer (SO_RCVBUF, capped by "
		"net.core.rmem_max; or raise net.core.rmem_default), read "
		"faster (more threads, SO_REUSEPORT, recvmmsg), or send less.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Each drop is a datagram the application never saw "
		"(DNS, syslog, metrics, QUIC). Short bursts at start-up can be "
		"harmless.",
},
{
	CORE("UNIX_DISCONNECT"),
	.layer = "socket (AF_UNIX)",
	.since = "6.14",
	.summary = "queued datagrams flushed on UNIX reconnect",
	.meaning = "An AF_UNIX datagram or seqpacket socket was connected to "
		"another peer (or its peer went away); datagrams queued from the "
		"old peer are flushed.",
	.functions = L("unix_dgram_disconnected", "skb_queue_purge_reason"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ss -xp` to find the processes; syslog/journald sockets "
		"are typical.",
	.action = "Nothing at the network level; if messages are lost, the "
		"application reconnects before draining.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Part of normal AF_UNIX semantics.",
},
{
	CORE("UNIX_SKIP_OOB"),
	.layer = "socket (AF_UNIX)",
	.since = "6.14",
	.summary = "UNIX out-of-band byte skipped by a normal read",
	.meaning = "An out-of-band byte (MSG_OOB) on an AF_UNIX stream socket "
		"was passed over by an ordinary read and discarded.",
	.functions = L("unix_stream_read_generic"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The application's use of MSG_OOB / SO_OOBINLINE.",
	.action = "Nothing, unless the program expects to read the OOB byte "
		"(read it with MSG_OOB or set SO_OOBINLINE).",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Application semantics, not packet loss.",
},
{
	CORE("PKT_TOO_SMALL"),
	.layer = "IP/TCP/UDP",
	.since = "5.17",
	.summary = "packet shorter than its headers claim",
	.meaning = "The packet is shorter than its own headers say: IP total "
		"length beyond the received data, or a truncated TCP/UDP header, "
		"or a UDP length field that does not fit.",
	.functions = L("ip_rcv_core", "ip6_rcv_core", "tcp_v4_rcv",
		       "tcp_v6_rcv", "__udp4_lib_rcv", "__udp6_lib_rcv"),
	.counters = L("IpExtInTruncatedPkts", "Ip6InTruncatedPkts",
		      "UdpInErrors", "TcpInErrs"),
	.sysctls = NONE,
	.settings = "`ip -s link` and `ethtool -S DEV` error counters; MTU of "
		"the path; capture one with `whydrop record`.",
	.action = "Find the sender (whydrop watch). Truncation usually comes "
		"from a broken NIC/driver, an MTU/encapsulation mistake, a "
		"buggy middlebox, or crafted traffic.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare on healthy networks; a sustained rate points "
		"at hardware or a middlebox.",
},
{
	CORE("TCP_CSUM"),
	.layer = "TCP",
	.since = "5.17",
	.summary = "bad TCP checksum",
	.meaning = "The TCP checksum did not verify, so the segment is "
		"corrupt (or was modified after the checksum was computed).",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv", "tcp_v4_do_rcv",
		       "tcp_rcv_established"),
	.counters = L("TcpInCsumErrors", "TcpInErrs"),
	.sysctls = NONE,
	.settings = "`ethtool -S DEV` (crc/fcs errors), `ethtool -k DEV` "
		"(rx-checksumming), virtual NICs and tunnels on the path.",
	.action = "Check cabling/optics and NIC errors; test with RX checksum "
		"offload off (`ethtool -K DEV rx off`); look for middleboxes or "
		"BPF/tc programs that rewrite packets without fixing checksums.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Single hits from the Internet happen; a steady rate "
		"means corruption or a checksum bug on the path.",
},
{
	CORE("UDP_CSUM"),
	.layer = "UDP",
	.since = "5.17",
	.summary = "bad UDP checksum",
	.meaning = "The UDP checksum did not verify (checked on receive, or "
		"late when the datagram is copied to the application).",
	.functions = L("__udp4_lib_rcv", "__udp6_lib_rcv",
		       "udp_queue_rcv_one_skb", "udp_recvmsg", "udpv6_recvmsg"),
	.counters = L("UdpInCsumErrors", "Udp6InCsumErrors", "UdpInErrors"),
	.sysctls = NONE,
	.settings = "As for TCP_CSUM; also UDP tunnels (VXLAN, Geneve, "
		"WireGuard) and NAT devices that rewrite payloads.",
	.action = "As for TCP_CSUM: check NIC errors and offloads, and any "
		"program that rewrites UDP packets.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Occasional hits happen; a steady rate means "
		"corruption or a checksum bug.",
},
{
	CORE("NETFILTER_DROP"),
	.layer = "netfilter",
	.since = "5.18",
	.summary = "dropped by an nftables/iptables rule or conntrack",
	.meaning = "A netfilter hook returned DROP: an nftables/iptables/"
		"ebtables/arptables rule (REJECT included), conntrack refusing "
		"an invalid packet or a full table, or another hook user.",
	.functions = L("nf_hook_slow", "nft_do_chain", "nf_hook_slow_list"),
	.counters = NONE,
	.sysctls = L("net.netfilter.nf_conntrack_count",
		     "net.netfilter.nf_conntrack_max"),
	.settings = "`nft list ruleset` / `iptables-save -c` (rule counters); "
		"`nft monitor trace` with `meta nftrace set 1`; `conntrack -S` "
		"(drop, insert_failed, invalid); dmesg 'nf_conntrack: table "
		"full'.",
	.action = "Find the rule whose counter moves with the drops and decide "
		"whether it is right. If nf_conntrack_count is near "
		"nf_conntrack_max, raise the maximum or shorten timeouts.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Expected where a firewall blocks traffic on "
		"purpose; a problem when wanted traffic hits a rule or the "
		"conntrack table is full.",
},
{
	CORE("OTHERHOST"),
	.layer = "IPv4/IPv6 (L2 check)",
	.since = "5.18",
	.summary = "frame addressed to another host's MAC",
	.meaning = "The frame's destination MAC is not this interface's, so "
		"the packet is for another host, yet it reached the IP layer "
		"(promiscuous mode, bridges, macvlan, veth, mirrored ports).",
	.functions = L("ip_rcv_core", "ip6_rcv_core"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ip -s -s link` (rx_otherhost_dropped with newer "
		"iproute2); `ip link` PROMISC flag (tcpdump running?).",
	.action = "Nothing, unless a host keeps sending to a stale MAC (check "
		"neighbour caches of the senders, duplicate IPs).",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Normal in promiscuous mode and on shared L2 "
		"segments.",
},
{
	CORE("IP_CSUM"),
	.layer = "IPv4",
	.since = "5.18",
	.summary = "bad IPv4 header checksum",
	.meaning = "The IPv4 header checksum did not verify.",
	.functions = L("ip_rcv_core"),
	.counters = L("IpExtInCsumErrors", "IpInHdrErrors"),
	.sysctls = NONE,
	.settings = "`ethtool -S DEV`; devices on the path that rewrite IP "
		"headers (NAT, TTL mangling).",
	.action = "As for TCP_CSUM: hardware, offloads, packet-rewriting "
		"programs.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Rare; a steady rate means corruption.",
},
{
	CORE("IP_INHDR"),
	.layer = "IPv4/IPv6",
	.since = "5.18",
	.summary = "invalid IP header, or TTL expired while forwarding",
	.meaning = "On input (ip_rcv_core, ip6_rcv_core) the IP header itself is "
		"invalid: wrong version, header length below the minimum, "
		"inconsistent length fields, bad IPv4 options, a loopback address "
		"from the wire. When forwarding (ip_forward, ip6_forward) it means "
		"something else: the TTL or hop limit ran out (a routing loop, "
		"traceroute), counted in the same IpInHdrErrors. The function "
		"tells which (By place).",
	.functions = L("ip_rcv_core", "ip6_rcv_core", "ip_rcv_options", "ip_forward",
		       "ip6_forward"),
	.counters = L("IpInHdrErrors", "Ip6InHdrErrors"),
	.sysctls = NONE,
	.settings = "Capture offenders with `whydrop record`; tunnel and "
		"encapsulation endpoints.",
	.action = "On input: identify the sender; fix broken encapsulation or "
		"equipment, or filter crafted traffic upstream. When forwarding: "
		"look for a routing loop (`ip route get DST` here and on the next "
		"hop); traceroute probes are harmless.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Background noise on the Internet; inside a data "
		"centre it means a broken device or tunnel.",
},
{
	CORE("IP_RPFILTER"),
	.layer = "IPv4 routing",
	.since = "5.18",
	.summary = "reverse-path filter: source not routed back here",
	.meaning = "Reverse-path filtering refused the packet: the route back "
		"to its source does not go out of the interface it came in on "
		"(strict mode), or there is no route back at all (loose mode).",
	.functions = L("ip_rcv_finish_core", "ip_route_input_slow",
		       "fib_validate_source"),
	.counters = L("TcpExtIPReversePathFilter"),
	.sysctls = L("net.ipv4.conf.all.rp_filter", "net.ipv4.conf.*.rp_filter"),
	.settings = "The effective mode per interface is the maximum of "
		"conf.all and conf.DEV. `ip route get SRC from DST iif DEV`; "
		"policy routing (`ip rule`), VRFs, asymmetric paths.",
	.action = "For asymmetric or multihomed routing use loose mode (2) "
		"or fix the routes so replies leave where requests arrive. "
		"Spoofed sources should stay dropped.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Intended against spoofing; a common cause of "
		"'works one way only' on multihomed hosts and with VPNs.",
},
{
	CORE("UNICAST_IN_L2_MULTICAST"),
	.layer = "IPv4/IPv6",
	.since = "5.18",
	.summary = "unicast IP inside an L2 broadcast/multicast frame",
	.meaning = "A unicast IP packet arrived in a link-layer broadcast or "
		"multicast frame, and the interface is configured to refuse "
		"that (a Wi-Fi hole-196 style protection).",
	.functions = L("ip_rcv_finish_core", "ip6_rcv_core"),
	.counters = L("Ip6InHdrErrors"),
	.sysctls = L("net.ipv4.conf.*.drop_unicast_in_l2_multicast",
		     "net.ipv6.conf.*.drop_unicast_in_l2_multicast"),
	.settings = "The sysctls above, per interface.",
	.action = "Nothing if the protection is wanted; otherwise turn the "
		"sysctl off for that interface.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Policy doing its job.",
},
{
	CORE("XFRM_POLICY"),
	.layer = "xfrm (IPsec)",
	.since = "5.18",
	.summary = "IPsec policy check failed on input",
	.meaning = "The inbound IPsec policy check failed for a packet going "
		"to a local socket: a policy requires ESP/AH but the packet "
		"arrived in clear or through the wrong SA, or a block policy "
		"matched.",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv", "udp_queue_rcv_one_skb",
		       "udpv6_queue_rcv_one_skb", "ip_protocol_deliver_rcu"),
	.counters = L("XfrmInNoPols", "XfrmInPolBlock", "XfrmInTmplMismatch",
		      "XfrmInNoStates"),
	.sysctls = NONE,
	.settings = "/proc/net/xfrm_stat; `ip xfrm policy`, `ip -s xfrm "
		"state`; the IKE daemon (strongSwan, Libreswan) log.",
	.action = "Check that SAs are up and match the policies (expired or "
		"missing SA after a rekey, a peer sending in clear).",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Expected for probes from outside the VPN; a burst "
		"between peers means a broken tunnel.",
},
{
	CORE("IP_NOPROTO"),
	.layer = "IPv4/IPv6",
	.since = "5.18",
	.summary = "no handler for this IP protocol number",
	.meaning = "The packet is for this host, but nothing handles its IP "
		"protocol number (no kernel module, no raw socket), e.g. SCTP, "
		"GRE or an experimental protocol.",
	.functions = L("ip_protocol_deliver_rcu", "ip_local_deliver_finish",
		       "ip6_protocol_deliver_rcu"),
	.counters = L("IpInUnknownProtos", "Ip6InUnknownProtos"),
	.sysctls = NONE,
	.settings = "`lsmod` (sctp, ip_gre, l2tp_ip...); the protocol field "
		"in `whydrop watch`.",
	.action = "Load the module or start the service if the protocol is "
		"wanted; otherwise nothing (an ICMP protocol-unreachable is "
		"sent).",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Usually scans or unused protocols.",
},
{
	CORE("PROTO_MEM"),
	.layer = "socket memory",
	.since = "5.18",
	.summary = "protocol memory limit hit (udp_mem/tcp_mem)",
	.meaning = "Receive memory could not be charged: for UDP the "
		"protocol-wide limit net.ipv4.udp_mem is exhausted; for TCP the "
		"socket could not grow its receive memory for in-order data "
		"(per-socket rcvbuf and global tcp_mem pressure).",
	.functions = L("__udp_enqueue_schedule_skb", "udp_queue_rcv_one_skb",
		       "tcp_data_queue", "tcp_try_rmem_schedule"),
	.counters = L("UdpMemErrors", "Udp6MemErrors", "TcpExtTCPRcvQDrop",
		      "TcpExtTCPMemoryPressures"),
	.sysctls = L("net.ipv4.udp_mem", "net.ipv4.tcp_mem", "net.ipv4.tcp_rmem"),
	.settings = "/proc/net/sockstat ('mem' is in pages, compare with "
		"tcp_mem/udp_mem); `ss -tmp` for sockets with big Recv-Q.",
	.action = "Find sockets that hold memory without reading (large "
		"Recv-Q). Raise udp_mem/tcp_mem only if the host really needs "
		"more socket memory.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Always worth a look: the host is out of socket "
		"memory or an application stopped reading.",
},
{
	CORE("TCP_AUTH_HDR"),
	.layer = "TCP (MD5/AO)",
	.since = "6.7",
	.summary = "conflicting TCP MD5/AO options",
	.meaning = "The segment's authentication options are inconsistent: "
		"both TCP-MD5 and TCP-AO, or one of them repeated or malformed.",
	.functions = L("tcp_inbound_hash", "tcp_v4_rcv", "tcp_v6_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Authentication settings of the BGP/LDP sessions on both "
		"ends.",
	.action = "Configure one authentication method per peer; crafted "
		"traffic if no session uses authentication.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Never normal between correctly configured peers.",
	.history = "Dating approximate (arrived with the TCP-AO merge).",
},
{
	CORE("TCP_MD5NOTFOUND"),
	.layer = "TCP (MD5)",
	.since = "5.18",
	.summary = "MD5 signature missing, a key is configured",
	.meaning = "A TCP-MD5 key (RFC 2385) is configured for this peer but "
		"the segment carries no MD5 signature.",
	.functions = L("tcp_inbound_md5_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPMD5NotFound"),
	.sysctls = NONE,
	.settings = "BGP neighbour password / TCP_MD5SIG on both ends.",
	.action = "Configure the password on the peer too (or remove it "
		"here).",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "The session cannot come up while this happens.",
},
{
	CORE("TCP_MD5UNEXPECTED"),
	.layer = "TCP (MD5)",
	.since = "5.18",
	.summary = "MD5-signed segment, no key configured here",
	.meaning = "The segment is TCP-MD5 signed, but no key is configured "
		"here for that peer.",
	.functions = L("tcp_inbound_md5_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPMD5Unexpected"),
	.sysctls = NONE,
	.settings = "BGP neighbour password / TCP_MD5SIG on both ends.",
	.action = "Configure the same password here, or remove it on the "
		"peer.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "The session cannot come up while this happens.",
},
{
	CORE("TCP_MD5FAILURE"),
	.layer = "TCP (MD5)",
	.since = "5.18",
	.summary = "TCP MD5 signature does not match the key",
	.meaning = "The segment's TCP-MD5 signature does not match the "
		"configured key.",
	.functions = L("tcp_inbound_md5_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPMD5Failure"),
	.sysctls = NONE,
	.settings = "BGP neighbour password on both ends.",
	.action = "Make the passwords identical on both peers.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Key mismatch, or forged segments.",
},
{
	CORE("TCP_AONOTFOUND"),
	.layer = "TCP (AO)",
	.since = "6.7",
	.summary = "TCP-AO required but missing",
	.meaning = "TCP-AO (RFC 5925) is required for this peer, but the "
		"segment carries no AO option.",
	.functions = L("tcp_inbound_ao_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPAORequired"),
	.sysctls = NONE,
	.settings = "TCP-AO keys of the session on both ends.",
	.action = "Enable TCP-AO on the peer, or stop requiring it here.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "The session cannot come up while this happens.",
},
{
	CORE("TCP_AOUNEXPECTED"),
	.layer = "TCP (AO)",
	.since = "6.7",
	.summary = "TCP-AO option present but not expected",
	.meaning = "The segment carries a TCP-AO option although this socket "
		"has no AO keys for the peer.",
	.functions = L("tcp_inbound_ao_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPAOKeyNotFound"),
	.sysctls = NONE,
	.settings = "TCP-AO keys of the session on both ends.",
	.action = "Configure matching AO keys here, or disable AO on the "
		"peer.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Configuration mismatch.",
},
{
	CORE("TCP_AOKEYNOTFOUND"),
	.layer = "TCP (AO)",
	.since = "6.7",
	.summary = "TCP-AO key id unknown here",
	.meaning = "The segment's TCP-AO key id does not match any key "
		"configured here for the peer.",
	.functions = L("tcp_inbound_ao_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPAOKeyNotFound"),
	.sysctls = NONE,
	.settings = "Key ids (SendID/RecvID) on both ends.",
	.action = "Align key ids; during a key rollover add the new key on "
		"both sides before switching.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Usually a key rollover out of step.",
},
{
	CORE("TCP_AOFAILURE"),
	.layer = "TCP (AO)",
	.since = "6.7",
	.summary = "TCP-AO MAC does not verify",
	.meaning = "The segment's TCP-AO MAC does not verify with the key.",
	.functions = L("tcp_inbound_ao_hash", "tcp_inbound_hash", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtTCPAOBad"),
	.sysctls = NONE,
	.settings = "Key material and MAC algorithm on both ends.",
	.action = "Make key and algorithm identical on both peers.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Wrong key, or forged segments.",
},
{
	CORE("SOCKET_BACKLOG"),
	.layer = "TCP/socket",
	.since = "5.18",
	.summary = "socket busy and its backlog queue is full",
	.meaning = "The segment arrived while a task owned the socket lock, "
		"so it had to go to the socket's backlog, and the backlog "
		"(about rcvbuf + sndbuf) was full.",
	.functions = L("tcp_add_backlog", "tcp_v4_rcv", "tcp_v6_rcv",
		       "__sk_receive_skb"),
	.counters = L("TcpExtTCPBacklogDrop"),
	.sysctls = L("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem",
		     "net.core.rmem_max"),
	.settings = "CPU load of the application threads; `ss -tmi` buffer "
		"sizes; busy-polling settings.",
	.action = "The application holds the socket too long (big sendmsg, "
		"slow processing in the socket's context, CPU starvation). Give "
		"it CPU, make buffers larger, spread load over more sockets.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "The sender will retransmit, but each drop costs "
		"latency and throughput.",
},
{
	CORE("TCP_FLAGS"),
	.layer = "TCP",
	.since = "5.18",
	.summary = "TCP flags invalid for the socket's state",
	.meaning = "The flag combination makes no sense for the socket's "
		"state: SYN+FIN or a bare FIN to a listener, a segment without "
		"ACK on a synchronized connection, an ACK to a listener that "
		"matches no handshake.",
	.functions = L("tcp_rcv_state_process", "tcp_rcv_established",
		       "tcp_v4_do_rcv", "tcp_v6_do_rcv"),
	.counters = NONE,
	.sysctls = L("net.ipv4.tcp_syncookies"),
	.settings = "Source addresses in `whydrop watch`; stateful devices on "
		"the path.",
	.action = "Nothing for scans; if a real client is affected, look for "
		"a middlebox that drops or rewrites flags, or handshakes that "
		"time out (ACK arriving after the request expired).",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Scanners and stale connections produce these all "
		"the time.",
},
{
	CORE("TCP_ABORT_ON_DATA"),
	.layer = "TCP",
	.since = "6.9",
	.summary = "data after the local side closed: connection reset",
	.meaning = "New data arrived for a connection the local application "
		"had already closed (or shut down for reading); the kernel "
		"discards it and resets the connection.",
	.functions = L("tcp_rcv_state_process"),
	.counters = L("TcpExtTCPAbortOnData"),
	.sysctls = L("net.ipv4.tcp_fin_timeout"),
	.settings = "Close/shutdown order in the application protocol "
		"(HTTP keep-alive timeouts on both ends).",
	.action = "Make the closing side drain or signal before close, or "
		"make keep-alive timeouts of client and server consistent.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Common with HTTP keep-alive races; a problem if "
		"clients see resets.",
},
{
	CORE("TCP_ZEROWINDOW"),
	.layer = "TCP",
	.since = "5.18",
	.summary = "data arrived while our receive window is zero",
	.meaning = "In-order data arrived while this side advertised a zero "
		"receive window: the application has not read what is queued, "
		"and the buffer is full. Peers probing a zero window with new "
		"data also hit this.",
	.functions = L("tcp_data_queue"),
	.counters = L("TcpExtTCPZeroWindowDrop", "TcpExtTCPFromZeroWindowAdv",
		      "TcpExtTCPToZeroWindowAdv"),
	.sysctls = L("net.ipv4.tcp_rmem", "net.core.rmem_max"),
	.settings = "`ss -tmi` (Recv-Q, rcv_space, rb); the receiving "
		"application's CPU and blocking.",
	.action = "Make the receiver read faster or give it a bigger "
		"receive buffer (tcp_rmem max, SO_RCVBUF).",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A few while a reader is briefly stalled are normal "
		"flow control; many mean a stuck or slow reader.",
	.history = "Since 6.17 most data overrunning a full window is "
		"reported as TCP_INVALID_END_SEQUENCE instead; ZEROWINDOW remains "
		"for an empty receive queue with a zero window.",
},
{
	CORE("TCP_OLD_DATA"),
	.layer = "TCP",
	.since = "5.18",
	.summary = "duplicate data already received (retransmission)",
	.meaning = "Every byte of the segment was already received: a "
		"retransmission of data that had arrived, usually because our "
		"ACK was lost or late. A DSACK is sent back.",
	.functions = L("tcp_data_queue"),
	.counters = L("TcpExtDelayedACKLost", "TcpExtTCPDSACKOldSent"),
	.sysctls = NONE,
	.settings = "Loss in the reverse (ACK) direction; RTO settings of the "
		"sender.",
	.action = "Nothing at low rates. Many: look for ACK loss or "
		"duplication on the path, or an aggressive sender RTO.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Spurious retransmissions happen on every busy "
		"network.",
},
{
	CORE("TCP_OVERWINDOW"),
	.layer = "TCP",
	.since = "5.18",
	.summary = "segment starts beyond the receive window",
	.meaning = "The segment begins at or after the right edge of the "
		"advertised receive window; the peer sent more than it was "
		"allowed to. Since 6.15 also used for out-of-window segments "
		"during the handshake.",
	.functions = L("tcp_data_queue", "tcp_check_req"),
	.counters = NONE,
	.sysctls = L("net.ipv4.tcp_window_scaling"),
	.settings = "Window scaling on both ends; middleboxes that strip the "
		"window-scale option.",
	.action = "Check the peer's TCP stack and anything that rewrites TCP "
		"options on the path.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Occasional with window-probing peers; steady "
		"means a broken peer or middlebox.",
	.history = "On 6.17+ most such data segments are reported as "
		"TCP_INVALID_END_SEQUENCE.",
},
{
	CORE("TCP_OFOMERGE"),
	.layer = "TCP",
	.since = "5.18",
	.summary = "duplicate of data already in out-of-order queue",
	.meaning = "An out-of-order segment carries data already held in the "
		"out-of-order queue.",
	.functions = L("tcp_data_queue_ofo"),
	.counters = L("TcpExtTCPOFOMerge"),
	.sysctls = NONE,
	.settings = "Packet duplication and reordering on the path (bonding, "
		"ECMP, retransmitting senders).",
	.action = "Nothing at low rates; many point at duplication on the "
		"path.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Side effect of loss recovery.",
},
{
	CORE("TCP_RFC7323_PAWS"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "PAWS: timestamp older than the last accepted",
	.meaning = "The segment's TCP timestamp is older than the most recent "
		"one accepted on this connection (RFC 7323 PAWS), so it is "
		"treated as an old duplicate.",
	.functions = L("tcp_validate_incoming", "tcp_paws_discard",
		       "tcp_rcv_synsent_state_process"),
	.counters = L("TcpExtPAWSEstab", "TcpExtPAWSActive"),
	.sysctls = L("net.ipv4.tcp_timestamps"),
	.settings = "Clients behind one NAT with unrelated timestamp clocks; "
		"load balancers or middleboxes that rewrite timestamps.",
	.action = "Find the middlebox/NAT; as a last resort disable TCP "
		"timestamps on one end.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Some are normal for old duplicates; many from one "
		"source mean NAT or timestamp mangling.",
},
{
	CORE("TCP_RFC7323_PAWS_ACK"),
	.layer = "TCP",
	.since = "6.14",
	.summary = "PAWS-failed pure ACK dropped quietly",
	.meaning = "A pure ACK overtaken by newer data failed the PAWS check; "
		"it is dropped without sending a duplicate ACK.",
	.functions = L("tcp_validate_incoming"),
	.counters = L("TcpExtPAWSOldAck"),
	.sysctls = L("net.ipv4.tcp_timestamps"),
	.settings = "Reordering between transmit queues of the sender.",
	.action = "Nothing.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Harmless reordering of ACKs.",
	.history = "The PAWSOldAck counter arrived in 6.15.",
},
{
	CORE("TCP_RFC7323_TW_PAWS"),
	.layer = "TCP",
	.since = "6.15",
	.summary = "PAWS failed against a TIME_WAIT socket",
	.meaning = "A segment for a connection in TIME_WAIT carried a "
		"timestamp older than the last one seen; typically a client "
		"reusing the same port quickly, often behind NAT.",
	.functions = L("tcp_timewait_state_process", "tcp_v4_rcv",
		       "tcp_v6_rcv"),
	.counters = L("TcpExtPAWSTimewait"),
	.sysctls = L("net.ipv4.tcp_tw_reuse", "net.ipv4.tcp_timestamps"),
	.settings = "Clients sharing a NAT address; port reuse rate.",
	.action = "Usually nothing; with many NATed clients check their "
		"timestamp behaviour.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Expected occasionally with fast port reuse.",
},
{
	CORE("TCP_RFC7323_TSECR"),
	.layer = "TCP",
	.since = "6.15",
	.summary = "handshake ACK echoes an invalid timestamp",
	.meaning = "The ACK completing a handshake echoes a timestamp "
		"(TSecr) this side never sent.",
	.functions = L("tcp_check_req"),
	.counters = L("TcpExtTSEcrRejected"),
	.sysctls = L("net.ipv4.tcp_timestamps"),
	.settings = "Middleboxes that rewrite timestamps; forged ACKs.",
	.action = "Find the source; usually forged or mangled traffic.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare on healthy paths.",
},
{
	CORE("TCP_LISTEN_OVERFLOW"),
	.layer = "TCP",
	.since = "6.15",
	.summary = "accept queue full: handshake ACK dropped",
	.meaning = "The final ACK of a handshake arrived but the listener's "
		"accept queue was full, so the connection could not be created. "
		"The application does not call accept() fast enough.",
	.functions = L("tcp_check_req", "tcp_v4_syn_recv_sock",
		       "tcp_v6_syn_recv_sock"),
	.counters = L("TcpExtListenOverflows", "TcpExtListenDrops"),
	.sysctls = L("net.core.somaxconn", "net.ipv4.tcp_max_syn_backlog",
		     "net.ipv4.tcp_abort_on_overflow"),
	.settings = "`ss -lnt`: Recv-Q (queued) vs Send-Q (backlog) of the "
		"listener; the listen() backlog in the application.",
	.action = "Add accept workers or make accept faster; raise the "
		"listen() backlog and net.core.somaxconn.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Clients see slow or failed connects. SYNs dropped "
		"for a full queue are not traced at all: watch ListenDrops.",
},
{
	CORE("TCP_OLD_SEQUENCE"),
	.layer = "TCP",
	.since = "6.6",
	.summary = "segment entirely left of the window (old)",
	.meaning = "The segment ends before the left edge of the receive "
		"window: an old duplicate. Keepalive and zero-window probes from "
		"Linux peers are built this way on purpose (sequence one below "
		"the window); they are dropped after the ACK they ask for is "
		"sent.",
	.functions = L("tcp_validate_incoming", "tcp_sequence"),
	.counters = L("TcpExtTCPACKSkippedSeq"),
	.sysctls = L("net.ipv4.tcp_keepalive_time"),
	.settings = "Whether the sources are idle connections with "
		"keepalive enabled.",
	.action = "Nothing for keepalives; otherwise look for duplication "
		"on the path.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Keepalive probes alone produce a steady trickle.",
	.history = "Before 6.6 these segments were TCP_INVALID_SEQUENCE.",
},
{
	CORE("TCP_INVALID_SEQUENCE"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "sequence number not acceptable (out of window)",
	.meaning = "The segment's sequence number is outside the receive "
		"window (starts beyond it). A duplicate ACK is sent.",
	.functions = L("tcp_validate_incoming", "tcp_sequence"),
	.counters = L("TcpExtBeyondWindow", "TcpExtTCPACKSkippedSeq"),
	.sysctls = NONE,
	.settings = "NAT/conntrack state, load balancers, sequence-rewriting "
		"middleboxes.",
	.action = "Find the source; steady rates mean injected packets or "
		"state confusion on a middlebox.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Sporadic hits are normal.",
	.history = "Before 6.6 it also covered old segments, including "
		"keepalive probes (now TCP_OLD_SEQUENCE). The BeyondWindow "
		"counter exists since 6.17.",
},
{
	CORE("TCP_INVALID_END_SEQUENCE"),
	.layer = "TCP",
	.since = "6.17",
	.summary = "segment overruns the receive window's end",
	.meaning = "The segment starts inside the receive window but runs "
		"past its right edge while unread data is still queued: the "
		"peer sends more than advertised, or the reader is not "
		"draining the socket.",
	.functions = L("tcp_validate_incoming", "tcp_sequence"),
	.counters = L("TcpExtBeyondWindow"),
	.sysctls = L("net.ipv4.tcp_rmem", "net.core.rmem_max"),
	.settings = "`ss -tmi` Recv-Q of the receiving socket.",
	.action = "As for TCP_ZEROWINDOW: a slow reader or a small buffer; "
		"otherwise a peer ignoring the window.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Frequent when a receiver stalls.",
	.history = "Took over most cases reported as TCP_ZEROWINDOW / "
		"TCP_OVERWINDOW before 6.17.",
},
{
	CORE("TCP_INVALID_ACK_SEQUENCE"),
	.layer = "TCP",
	.since = "6.9",
	.summary = "handshake ACK number outside what was sent",
	.meaning = "During connection setup the ACK number does not "
		"acknowledge what was actually sent (SYN-SENT or SYN-RECV "
		"checks).",
	.functions = L("tcp_rcv_state_process", "tcp_rcv_synsent_state_process"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Source addresses; NAT devices reusing ports.",
	.action = "Usually stale or spoofed packets; nothing to do unless "
		"real connections fail.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Rare background.",
},
{
	CORE("TCP_RESET"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "RST not accepted (or RST to a listener)",
	.meaning = "A RST that cannot be accepted: not at exactly the "
		"expected sequence (a challenge ACK is sent, RFC 5961), or sent "
		"to a listening socket. Accepted resets are not drops.",
	.functions = L("tcp_validate_incoming", "tcp_rcv_state_process"),
	.counters = L("TcpExtTCPChallengeACK"),
	.sysctls = L("net.ipv4.tcp_challenge_ack_limit"),
	.settings = "Middleboxes injecting resets; load balancers timing out "
		"idle flows.",
	.action = "Nothing unless connections die: then find who sends the "
		"resets.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Blind-reset protection at work.",
},
{
	CORE("TCP_INVALID_SYN"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "SYN on an established connection",
	.meaning = "A SYN arrived for a connection that is already "
		"synchronized; a challenge ACK is returned instead.",
	.functions = L("tcp_validate_incoming"),
	.counters = L("TcpExtTCPSYNChallenge", "TcpExtTCPChallengeACK"),
	.sysctls = L("net.ipv4.tcp_challenge_ack_limit"),
	.settings = "Clients that rebooted and reuse the 4-tuple; NAT port "
		"collisions.",
	.action = "Usually nothing; many from behind one NAT point at port "
		"reuse there.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Normal after peer restarts.",
},
{
	CORE("TCP_CLOSE"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "segment for a socket already in CLOSE state",
	.meaning = "The segment reached a socket that is already in CLOSE "
		"state.",
	.functions = L("tcp_rcv_state_process"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Connection teardown timing.",
	.action = "Nothing.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Late packets of dying connections.",
},
{
	CORE("TCP_FASTOPEN"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "dropped by a TCP Fast Open request socket",
	.meaning = "A segment for a connection still handled by a TCP Fast "
		"Open request socket failed its checks.",
	.functions = L("tcp_rcv_state_process", "tcp_check_req"),
	.counters = L("TcpExtTCPFastOpenPassiveFail"),
	.sysctls = L("net.ipv4.tcp_fastopen"),
	.settings = "TFO clients and servers (`ss -ti` shows fastopen).",
	.action = "Nothing unless TFO clients fail; then try disabling TFO "
		"on the server.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Rare.",
},
{
	CORE("TCP_OLD_ACK"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "old ACK during the handshake",
	.meaning = "While the connection was still being set up, an ACK was "
		"judged old or unacceptable; a reset may be returned.",
	.functions = L("tcp_rcv_state_process", "tcp_ack"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Stale or spoofed ACKs racing the handshake.",
	.action = "Nothing at low rates.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Rare background.",
},
{
	CORE("TCP_TOO_OLD_ACK"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "ACK for data far older than anything in flight",
	.meaning = "The ACK number lies before everything still "
		"unacknowledged by more than a window: too old to be valid.",
	.functions = L("tcp_ack", "tcp_rcv_established", "tcp_v4_do_rcv",
		       "tcp_v6_do_rcv"),
	.counters = L("TcpExtTCPChallengeACK"),
	.sysctls = NONE,
	.settings = "NAT devices or load balancers with confused state.",
	.action = "Find the source; injected packets or middlebox bugs.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Should be rare.",
},
{
	CORE("TCP_ACK_UNSENT_DATA"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "ACK for data never sent",
	.meaning = "The ACK acknowledges bytes this side has not sent yet.",
	.functions = L("tcp_ack", "tcp_rcv_established", "tcp_v4_do_rcv",
		       "tcp_v6_do_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Middleboxes that rewrite sequence numbers; TCP "
		"splicing proxies.",
	.action = "Find the source; spoofing or a middlebox bug.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Should be rare.",
},
{
	CORE("TCP_OFO_QUEUE_PRUNE"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "out-of-order data pruned to free memory",
	.meaning = "Received out-of-order data was thrown away to reclaim "
		"memory: the socket is over its receive buffer and the kernel "
		"pruned the out-of-order queue.",
	.functions = L("tcp_prune_ofo_queue", "tcp_prune_queue"),
	.counters = L("TcpExtOfoPruned", "TcpExtPruneCalled",
		      "TcpExtRcvPruned"),
	.sysctls = L("net.ipv4.tcp_rmem", "net.ipv4.tcp_mem"),
	.settings = "Loss on the path (big out-of-order queues); "
		"/proc/net/sockstat memory.",
	.action = "Raise tcp_rmem maximum if memory allows; reduce loss.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Forces retransmissions of data already received.",
},
{
	CORE("TCP_OFO_DROP"),
	.layer = "TCP",
	.since = "5.19",
	.summary = "no memory to queue an out-of-order segment",
	.meaning = "An out-of-order segment could not be queued because no "
		"receive memory was available for the socket.",
	.functions = L("tcp_data_queue_ofo"),
	.counters = L("TcpExtTCPOFODrop"),
	.sysctls = L("net.ipv4.tcp_rmem", "net.ipv4.tcp_mem"),
	.settings = "As for TCP_OFO_QUEUE_PRUNE.",
	.action = "As for TCP_OFO_QUEUE_PRUNE.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Memory pressure together with loss.",
},
{
	CORE("IP_OUTNOROUTES"),
	.layer = "IP output",
	.since = "5.18",
	.summary = "no route to send the packet",
	.meaning = "Route lookup on output failed: no route to the "
		"destination, or an unreachable/prohibit route matched.",
	.functions = L("__ip_queue_xmit", "ip6_pkt_drop",
		       "ip6_pkt_discard_out", "ip6_pkt_prohibit_out"),
	.counters = L("IpOutNoRoutes", "Ip6OutNoRoutes"),
	.sysctls = NONE,
	.settings = "`ip route get DST`, `ip rule`, VRFs; routes removed by "
		"a routing daemon or a VPN going down.",
	.action = "Restore the missing route or default route; check policy "
		"routing rules.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Locally generated traffic cannot leave.",
},
{
	CORE("BPF_CGROUP_EGRESS"),
	.layer = "BPF (cgroup)",
	.since = "5.18",
	.summary = "refused by a cgroup egress BPF program",
	.meaning = "A cgroup-skb egress BPF program attached to the sender's "
		"cgroup refused to let the packet out (the sender typically "
		"gets EPERM).",
	.functions = L("ip_finish_output", "ip6_finish_output",
		       "__cgroup_bpf_run_filter_skb"),
	.counters = L("IpOutDiscards", "Ip6OutDiscards"),
	.sysctls = NONE,
	.settings = "`bpftool cgroup tree`; systemd IPAddressDeny= / "
		"IPEgressFilterPath=; container network policies.",
	.action = "Find the program on the sender's cgroup and check the "
		"policy.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Policy at work, unless the traffic should pass.",
},
{
	CORE("IPV6DISABLED"),
	.layer = "IPv6",
	.since = "5.18",
	.summary = "IPv6 packet on an interface with IPv6 disabled",
	.meaning = "An IPv6 packet was received on, or sent through, an "
		"interface where IPv6 is disabled.",
	.functions = L("ip6_rcv_core", "ip6_output", "ip6_finish_output2"),
	.counters = L("Ip6InDiscards", "Ip6OutDiscards"),
	.sysctls = L("net.ipv6.conf.all.disable_ipv6",
		     "net.ipv6.conf.*.disable_ipv6"),
	.settings = "The sysctls above per interface.",
	.action = "Nothing if IPv6 is disabled on purpose; else enable it on "
		"that interface.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Neighbours keep sending router advertisements and "
		"mDNS; expected.",
},
{
	CORE("NEIGH_CREATEFAIL"),
	.layer = "neighbour (ARP/ND)",
	.since = "5.18",
	.summary = "could not create a neighbour (ARP/ND) entry",
	.meaning = "Output needed a new ARP/ND entry for the next hop but "
		"could not create one: the neighbour table is at gc_thresh3 or "
		"memory ran out.",
	.functions = L("ip_finish_output2", "ip6_finish_output2",
		       "__neigh_create"),
	.counters = NONE,
	.sysctls = L("net.ipv4.neigh.default.gc_thresh3",
		     "net.ipv6.neigh.default.gc_thresh3"),
	.settings = "dmesg 'neighbour table overflow'; `ip -s neigh | wc -l`; "
		"`lnstat -f arp_cache` (table_fulls).",
	.action = "Raise gc_thresh1/2/3 on hosts with many L2 neighbours "
		"(large subnets, container hosts).",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Traffic to new neighbours fails.",
},
{
	CORE("NEIGH_FAILED"),
	.layer = "neighbour (ARP/ND)",
	.since = "5.18",
	.summary = "ARP/ND resolution of the next hop failed",
	.meaning = "Address resolution for the next hop failed (no ARP/ND "
		"reply); packets that were waiting for it are discarded.",
	.functions = L("neigh_invalidate", "__neigh_event_send"),
	.counters = L("IcmpOutDestUnreachs", "Icmp6OutDestUnreachs"),
	.sysctls = L("net.ipv4.neigh.default.mcast_solicit",
		     "net.ipv4.neigh.default.retrans_time_ms"),
	.settings = "`ip neigh show nud failed`; `ip route get DST` to find "
		"the next hop; `arping`; VLAN tags; arp_ignore/arp_filter on "
		"the target.",
	.action = "Check that the next hop is up and on the same L2 segment "
		"and subnet.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Expected for hosts that are down; a problem for "
		"gateways.",
},
{
	CORE("NEIGH_QUEUEFULL"),
	.layer = "neighbour (ARP/ND)",
	.since = "5.18",
	.summary = "too many packets waiting for ARP/ND resolution",
	.meaning = "Packets queue while a neighbour is being resolved; the "
		"queue for this neighbour exceeded its limit, so the oldest "
		"waiting packets were discarded.",
	.functions = L("__neigh_event_send"),
	.counters = NONE,
	.sysctls = L("net.ipv4.neigh.*.unres_qlen_bytes",
		     "net.ipv6.neigh.*.unres_qlen_bytes"),
	.settings = "`lnstat -f arp_cache` (unresolved_discards); "
		"`ip neigh` entries in INCOMPLETE state.",
	.action = "Usually a burst to an unreachable on-link address: fix "
		"the destination. Raise unres_qlen_bytes only for slow "
		"resolution with legitimate bursts.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Goes with NEIGH_FAILED for dead hosts.",
},
{
	CORE("NEIGH_DEAD"),
	.layer = "neighbour (ARP/ND)",
	.since = "5.18",
	.summary = "neighbour entry being torn down",
	.meaning = "The neighbour entry was being deleted (interface down, "
		"cache flush) when the packet tried to use it.",
	.functions = L("__neigh_event_send"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Interface or route changes at that time.",
	.action = "Nothing unless it persists.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Transient during changes.",
},
{
	CORE("NEIGH_HH_FILLFAIL"),
	.layer = "neighbour / L2",
	.since = "6.16",
	.summary = "could not build the link-layer header",
	.meaning = "Building the link-layer header for output failed "
		"(dev_hard_header returned an error).",
	.functions = L("neigh_resolve_output", "neigh_connected_output"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The output device type and driver.",
	.action = "Rare; report with the device type and driver.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Should not happen on common devices.",
},
{
	CORE("TC_EGRESS"),
	.layer = "tc (egress)",
	.since = "5.18",
	.summary = "dropped by a tc egress filter/action or tcx",
	.meaning = "A tc egress classifier or action (or a tcx BPF program) "
		"dropped the packet, e.g. TC_ACT_SHOT or a police action.",
	.functions = L("sch_handle_egress", "__dev_queue_xmit",
		       "tcf_classify"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s filter show dev DEV egress`; `bpftool net show` "
		"(CNI dataplanes such as Cilium attach here).",
	.action = "Find the program or filter; check its policy/policing "
		"rate.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Policy or policing at work, unless unexpected.",
},
{
	CORE("SECURITY_HOOK"),
	.layer = "LSM",
	.since = "6.9",
	.summary = "refused by a security module (SELinux, BPF-LSM)",
	.meaning = "A Linux security module hook (SELinux, Smack, AppArmor, "
		"BPF-LSM, secmark) refused the packet.",
	.functions = L("sk_filter_trim_cap", "tcp_conn_request"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Audit log (`ausearch -m AVC`), secmark rules, "
		"`bpftool prog list` for lsm programs.",
	.action = "Check the denial in the audit log and the labeling "
		"policy.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Policy at work, unless the traffic should pass.",
	.history = "Before 6.17 socket-filter LSM refusals were reported as "
		"SOCKET_FILTER.",
},
{
	CORE("QDISC_DROP"),
	.layer = "qdisc",
	.since = "5.18",
	.summary = "egress queue (qdisc) refused the packet",
	.meaning = "The interface's queueing discipline would not take the "
		"packet: its queue limit was reached or its shaping policy "
		"dropped it. The egress link or shaper is saturated.",
	.functions = L("__dev_xmit_skb", "__dev_queue_xmit", "qdisc_drop",
		       "kfree_skb_list_reason"),
	.counters = NONE,
	.sysctls = L("net.core.default_qdisc"),
	.settings = "`tc -s qdisc show dev DEV` (dropped, overlimits, "
		"backlog); `ip link` qlen (txqueuelen).",
	.action = "If the link is simply full, this is congestion: shape "
		"upstream or add capacity. Raise the qdisc limit or txqueuelen "
		"only for bursty traffic that would otherwise fit.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Normal on shaped or saturated links (TCP backs "
		"off); a problem for latency-sensitive or UDP traffic.",
	.history = "The drop location is kfree_skb_list_reason on 6.1 (the "
		"list helper __dev_queue_xmit calls), __dev_queue_xmit on 6.12 "
		"and later.",
},
{
	CORE("QDISC_BURST_DROP"),
	.layer = "qdisc",
	.since = "6.19",
	.summary = "too many packets waiting in front of the qdisc",
	.meaning = "Too many packets piled up in the lockless queue in front "
		"of the qdisc while another CPU held it.",
	.functions = L("__dev_xmit_skb"),
	.counters = NONE,
	.sysctls = L("net.core.qdisc_max_burst"),
	.settings = "Many CPUs sending through one device queue; "
		"`tc -s qdisc`.",
	.action = "Spread transmit load over more queues (multiqueue NIC, "
		"XPS) or raise net.core.qdisc_max_burst.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Transmit contention on one queue.",
	.history = "Added by a fix during 6.19-rc; every later reason moved "
		"up by one.",
},
{
	CORE("QDISC_OVERLIMIT"),
	.layer = "qdisc",
	.since = "6.14",
	.summary = "qdisc total limit or memory limit reached",
	.meaning = "A qdisc's overall packet or memory limit was exceeded "
		"(fq, fq_codel memory_limit, cake memlimit...).",
	.functions = L("fq_enqueue", "fq_codel_enqueue", "cake_enqueue"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s qdisc show dev DEV` (limit, memory_limit, "
		"drop_overlimit).",
	.action = "Raise the qdisc limit/memory limit or reduce the offered "
		"load.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Congestion; expected under overload.",
},
{
	CORE("QDISC_CONGESTED"),
	.layer = "qdisc (AQM)",
	.since = "6.14",
	.summary = "AQM (CoDel, PIE...) dropped to signal congestion",
	.meaning = "An active queue management algorithm (CoDel, fq_codel, "
		"PIE, cake) dropped the packet on purpose to tell senders to "
		"slow down, because queueing delay stayed too high.",
	.functions = L("fq_codel_dequeue", "codel_qdisc_dequeue",
		       "cake_dequeue", "pie_qdisc_enqueue"),
	.counters = NONE,
	.sysctls = L("net.ipv4.tcp_ecn"),
	.settings = "`tc -s qdisc show dev DEV` (drop_overlimit, ecn_mark).",
	.action = "Nothing: AQM keeps latency low. Enable ECN so that "
		"capable flows get marks instead of drops.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "The qdisc doing its job under congestion.",
},
{
	CORE("CAKE_FLOOD"),
	.layer = "qdisc (cake)",
	.since = "6.14",
	.summary = "cake flood protection dropped an unresponsive flow",
	.meaning = "CAKE's flood protection (BLUE) dropped traffic from a "
		"flow that does not react to congestion signals.",
	.functions = L("cake_dequeue", "cake_enqueue"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s qdisc show dev DEV` (cake per-tin stats).",
	.action = "Find the flow (often a UDP flood) and rate-limit it at "
		"its source.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Protects other flows; the flooding flow loses.",
},
{
	CORE("FQ_BAND_LIMIT"),
	.layer = "qdisc (fq)",
	.since = "6.14",
	.summary = "fq per-priority-band packet limit reached",
	.meaning = "The fq qdisc's packet limit for this priority band was "
		"reached.",
	.functions = L("fq_enqueue"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s qdisc show dev DEV` (band drops).",
	.action = "Tune fq limit/weights, or reduce load in that band.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Congestion in one priority band.",
},
{
	CORE("FQ_HORIZON_LIMIT"),
	.layer = "qdisc (fq)",
	.since = "6.14",
	.summary = "fq: departure time beyond the horizon",
	.meaning = "The packet's requested departure time (EDT, SO_TXTIME) "
		"lies further in the future than fq's horizon.",
	.functions = L("fq_enqueue"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s qdisc show dev DEV` (horizon_drops); applications "
		"or BPF programs setting skb->tstamp.",
	.action = "Fix the pacing timestamps, or raise fq 'horizon' / use "
		"'horizon_cap'.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A pacing bug in the sender.",
},
{
	CORE("FQ_FLOW_LIMIT"),
	.layer = "qdisc (fq)",
	.since = "6.14",
	.summary = "fq per-flow packet limit reached",
	.meaning = "A single flow queued more packets than fq's per-flow "
		"limit.",
	.functions = L("fq_enqueue"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s qdisc show dev DEV` (flows_plimit).",
	.action = "Raise fq flow_limit for legitimate bulk flows, or pace "
		"the sender.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "One bulk flow outrunning its share.",
},
{
	CORE("CPU_BACKLOG"),
	.layer = "core receive",
	.since = "5.18",
	.summary = "per-CPU input backlog full (netdev_max_backlog)",
	.meaning = "The per-CPU input queue (used by RPS, veth, loopback, "
		"tun and netif_rx) was full, or the RPS flow limit cut an "
		"elephant flow. The CPU doing protocol processing cannot keep "
		"up.",
	.functions = L("enqueue_to_backlog", "netif_rx_internal",
		       "skb_flow_limit"),
	.counters = L("softnet:dropped", "softnet:flow_limit_count",
		      "softnet:time_squeeze"),
	.sysctls = L("net.core.netdev_max_backlog", "net.core.netdev_budget",
		     "net.core.flow_limit_table_len",
		     "net.core.flow_limit_cpu_bitmap"),
	.settings = "/proc/net/softnet_stat per CPU (column 2 = dropped); "
		"IRQ affinity and RPS masks (/sys/class/net/DEV/queues/rx-*/"
		"rps_cpus); `mpstat -P ALL` softirq time.",
	.action = "Spread receive work over more CPUs (RSS, RPS), raise "
		"net.core.netdev_max_backlog, reduce per-packet cost "
		"(firewall rules, BPF).",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Receive capacity exceeded; bursts on container "
		"hosts (veth) are a typical case.",
},
{
	CORE("XDP"),
	.layer = "XDP (generic)",
	.since = "5.18",
	.summary = "generic XDP redirect/transmit failed",
	.meaning = "A generic (skb-mode) XDP program asked for a redirect or "
		"transmit that could not be carried out (bad target, target "
		"down). A plain XDP_DROP is reported as NOT_SPECIFIED, not as "
		"this reason.",
	.functions = L("do_xdp_generic", "generic_xdp_tx",
		       "xdp_do_generic_redirect"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`bpftool net show`; `ip link` (xdpgeneric); redirect "
		"maps and target devices.",
	.action = "Check the program's redirect targets (ifindex, devmap, "
		"cpumap) and that they are up.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A broken XDP data path.",
},
{
	CORE("TC_INGRESS"),
	.layer = "tc (ingress)",
	.since = "5.18",
	.summary = "dropped by a tc ingress filter/action or tcx",
	.meaning = "A tc ingress classifier or action (or a tcx BPF program) "
		"dropped the packet, e.g. TC_ACT_SHOT or a policer.",
	.functions = L("sch_handle_ingress", "__netif_receive_skb_core",
		       "tcf_classify"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s filter show dev DEV ingress`; `bpftool net show` "
		"(Cilium and other CNIs attach here).",
	.action = "Find the filter or program and check its policy or "
		"policing rate.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Policy or policing at work, unless unexpected.",
},
{
	CORE("UNHANDLED_PROTO"),
	.layer = "core receive / parsers",
	.since = "5.19",
	.summary = "no handler for the EtherType or protocol variant",
	.meaning = "Nothing handles the packet's EtherType (no protocol "
		"registered), or a parser met a variant it does not support: an "
		"unknown IPv6 option marked 'discard', an unknown GRE version.",
	.functions = L("__netif_receive_skb_core", "ip6_parse_tlv", "gre_rcv"),
	.counters = L("netdev:rx_nohandler"),
	.sysctls = NONE,
	.settings = "`ip -s link` (rx_nohandler); the EtherType in "
		"`whydrop watch` (LLDP 0x88cc, STP, vendor protocols).",
	.action = "Usually nothing. If a protocol should be handled, load its "
		"module or run its daemon (e.g. lldpd).",
	.severity = WD_SEV_BENIGN,
	.severity_note = "LLDP, STP and vendor frames on the wire are common.",
	.aliases = L("PTYPE_ABSENT"),
	.history = "Named PTYPE_ABSENT in 5.18.",
},
{
	CORE("SKB_CSUM"),
	.layer = "core",
	.since = "5.18",
	.summary = "checksum computation on the buffer failed",
	.meaning = "Computing or completing a checksum over the packet "
		"buffer failed (not a wrong checksum: the computation itself).",
	.functions = L("tap_get_user", "tun_get_user", "rawv6_rcv_skb"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Offload settings (`ethtool -k DEV`), VM/tap setups.",
	.action = "Rare; check the device and its offloads.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Should not happen.",
},
{
	CORE("SKB_GSO_SEG"),
	.layer = "core (GSO)",
	.since = "5.18",
	.summary = "software segmentation (GSO) failed",
	.meaning = "Segmenting a large GSO packet in software failed.",
	.functions = L("tap_handle_frame", "validate_xmit_skb",
		       "skb_gso_segment"),
	.counters = L("netdev:tx_dropped"),
	.sysctls = NONE,
	.settings = "`ethtool -k DEV` (tso/gso); packets from VMs and "
		"containers with unusual GSO types.",
	.action = "Try toggling GSO/TSO offloads on the involved devices; "
		"report with the device types.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Should not happen.",
},
{
	CORE("SKB_UCOPY_FAULT"),
	.layer = "core / tun / zerocopy",
	.since = "5.18",
	.summary = "copy from user memory faulted",
	.meaning = "Copying packet data from user memory failed (tun/tap "
		"write, zerocopy send).",
	.functions = L("tun_get_user", "tap_get_user", "skb_orphan_frags_rx"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The process writing to the tap/tun or using zerocopy.",
	.action = "An application bug (bad buffer); identify the writer.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Application bug.",
},
{
	CORE("DEV_HDR"),
	.layer = "device (tun/tap)",
	.since = "5.18",
	.summary = "invalid driver header (e.g. virtio_net_hdr)",
	.meaning = "Driver-specific metadata attached to the packet is "
		"invalid, e.g. a bad virtio_net_hdr written to a tap by a VMM.",
	.functions = L("tun_get_user", "tap_get_user"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The VMM or program writing to the tap (QEMU, "
		"Firecracker, vhost).",
	.action = "Update or fix the VMM; check offload flags negotiated "
		"with the guest.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A buggy writer.",
},
{
	CORE("DEV_READY"),
	.layer = "device",
	.since = "5.18",
	.summary = "device or queue not up/attached",
	.meaning = "The device (or the queue) is not ready: interface down, "
		"or a tun/tap queue without an attached reader.",
	.functions = L("tun_net_xmit", "tap_handle_frame", "__dev_queue_xmit"),
	.counters = L("netdev:tx_dropped"),
	.sysctls = NONE,
	.settings = "`ip link` state; whether the VM/process owning the tap "
		"is running.",
	.action = "Bring the device up or start the consumer; remove routes "
		"to dead taps.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Expected while VMs start/stop.",
},
{
	CORE("FULL_RING"),
	.layer = "device (tun/tap...)",
	.since = "5.18",
	.summary = "driver ring/queue toward the consumer is full",
	.meaning = "The driver's ring toward its consumer is full: for tun/"
		"tap the VM or process reading the device is not keeping up.",
	.functions = L("tun_net_xmit", "tap_handle_frame"),
	.counters = L("netdev:tx_dropped"),
	.sysctls = NONE,
	.settings = "`ip -s link show TAP` (TX dropped); txqueuelen of the "
		"tap; CPU of the VM's vhost/IO threads.",
	.action = "Give the consumer more CPU, enable multiqueue, raise "
		"txqueuelen.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Guest or consumer overload.",
},
{
	CORE("NOMEM"),
	.layer = "any",
	.since = "5.18",
	.summary = "memory allocation failed",
	.meaning = "A memory allocation failed while the packet was "
		"processed.",
	.functions = L("tun_get_user", "tap_get_user"),
	.counters = NONE,
	.sysctls = L("vm.min_free_kbytes"),
	.settings = "`free`, dmesg allocation failures, memory cgroup "
		"limits.",
	.action = "Find the memory pressure; raise vm.min_free_kbytes on "
		"hosts with bursts of atomic allocations.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "The host is short of memory.",
},
{
	CORE("HDR_TRUNC"),
	.layer = "any",
	.since = "5.18",
	.summary = "headers missing: packet too short to parse",
	.meaning = "A header the code needs could not be pulled into the "
		"linear data area: the packet is shorter than its headers.",
	.functions = L("vxlan_rcv", "tun_get_user", "pskb_may_pull"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Capture with `whydrop record`.",
	.action = "Identify the sender of truncated packets.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Malformed traffic.",
},
{
	CORE("TAP_FILTER"),
	.layer = "tun/tap",
	.since = "5.18",
	.summary = "refused by the tap's eBPF filter",
	.meaning = "An eBPF filter attached to the tun/tap device "
		"(TUNSETFILTEREBPF) rejected the packet.",
	.functions = L("tun_net_xmit"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The VMM's filters on the tap.",
	.action = "Check the filter program of the tap owner.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Policy at work, unless unexpected.",
},
{
	CORE("TAP_TXFILTER"),
	.layer = "tun/tap",
	.since = "5.18",
	.summary = "refused by the tap's MAC filter",
	.meaning = "The tun/tap MAC filter (TUNSETTXFILTER) rejected the "
		"packet's destination address.",
	.functions = L("tun_net_xmit"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "MAC filter of the tap owner (QEMU/guest rx-filter).",
	.action = "Check the guest's MAC/multicast filter.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Usually multicast the guest did not subscribe to.",
},
{
	CORE("ICMP_CSUM"),
	.layer = "ICMP",
	.since = "5.19",
	.summary = "bad ICMP checksum",
	.meaning = "The ICMP (or ICMPv6) checksum did not verify.",
	.functions = L("icmp_rcv", "icmpv6_rcv"),
	.counters = L("IcmpInCsumErrors", "IcmpInErrors", "Icmp6InCsumErrors",
		      "Icmp6InErrors"),
	.sysctls = NONE,
	.settings = "As for TCP_CSUM.",
	.action = "As for TCP_CSUM.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare; a steady rate means corruption.",
},
{
	CORE("INVALID_PROTO"),
	.layer = "ICMP",
	.since = "5.19",
	.summary = "ICMP against protocol rules (e.g. broadcast ping)",
	.meaning = "The packet breaks protocol rules, e.g. an ICMP echo or "
		"timestamp request sent to a broadcast address while such "
		"requests are ignored.",
	.functions = L("icmp_rcv"),
	.counters = NONE,
	.sysctls = L("net.ipv4.icmp_echo_ignore_broadcasts",
		     "net.ipv4.icmp_echo_ignore_all"),
	.settings = "Hosts sending broadcast pings.",
	.action = "Nothing; the default refuses broadcast pings (smurf "
		"protection).",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Protection at work.",
},
{
	CORE("IP_INADDRERRORS"),
	.layer = "IPv4 input routing",
	.since = "5.19",
	.summary = "not for us and not forwardable (host unreachable)",
	.meaning = "The destination is not a local address and the host "
		"does not forward it: forwarding is off, or an unreachable/"
		"blackhole-type route matched.",
	.functions = L("ip_error", "ip6_pkt_drop"),
	.counters = L("IpInAddrErrors", "Ip6InAddrErrors"),
	.sysctls = L("net.ipv4.ip_forward", "net.ipv4.conf.*.forwarding"),
	.settings = "`ip route get DST iif DEV from SRC`; who sends traffic "
		"here for other addresses (stale ARP, wrong gateway).",
	.action = "If this host should route: enable forwarding. Otherwise "
		"find the misdirected sender.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A host that is not a router receiving transit "
		"traffic is a configuration error somewhere.",
},
{
	CORE("IP_INNOROUTES"),
	.layer = "IPv4 input routing",
	.since = "5.19",
	.summary = "forwarding on, but no route to the destination",
	.meaning = "The packet should be forwarded but there is no route "
		"toward its destination (network unreachable).",
	.functions = L("ip_error", "ip6_pkt_drop"),
	.counters = L("IpExtInNoRoutes", "Ip6InNoRoutes"),
	.sysctls = L("net.ipv4.ip_forward"),
	.settings = "`ip route get DST iif DEV from SRC`; default route, "
		"VRFs, routing daemon state.",
	.action = "Add the missing route or default route on this forwarder.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Traffic through this router is blackholed.",
},
{
	CORE("IP_LOCAL_SOURCE"),
	.layer = "IPv4 input routing",
	.since = "6.13",
	.summary = "source address is one of our own",
	.meaning = "An incoming packet claims one of this host's own "
		"addresses as its source.",
	.functions = L("ip_rcv_finish_core", "ip_route_input_slow",
		       "fib_validate_source"),
	.counters = NONE,
	.sysctls = L("net.ipv4.conf.*.accept_local"),
	.settings = "Loops (packets coming back), spoofing, duplicate "
		"addresses.",
	.action = "Look for a loop or a duplicate address; set accept_local "
		"only for setups that need it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Usually a loop or spoofing.",
},
{
	CORE("IP_INVALID_SOURCE"),
	.layer = "IPv4 input routing",
	.since = "6.13",
	.summary = "martian source (multicast, broadcast, zero)",
	.meaning = "The source address is not valid for a sender: multicast, "
		"limited broadcast, or zero outside of the allowed cases.",
	.functions = L("ip_rcv_finish_core", "ip_route_input_slow"),
	.counters = NONE,
	.sysctls = L("net.ipv4.conf.all.log_martians"),
	.settings = "Set log_martians=1 to log the senders.",
	.action = "Find and fix the broken or spoofing sender.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Broken devices or spoofing.",
},
{
	CORE("IP_LOCALNET"),
	.layer = "IPv4 input routing",
	.since = "6.13",
	.summary = "127.0.0.0/8 address on a non-loopback interface",
	.meaning = "The source or destination is in 127.0.0.0/8 but the "
		"packet arrived on an interface other than loopback.",
	.functions = L("ip_rcv_finish_core", "ip_route_input_slow"),
	.counters = NONE,
	.sysctls = L("net.ipv4.conf.*.route_localnet"),
	.settings = "DNAT rules to 127.0.0.1 (they need route_localnet=1 on "
		"the ingress interface).",
	.action = "Set route_localnet on that interface if DNAT to localhost "
		"is intended; else find the sender.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Typical of DNAT-to-localhost setups missing the "
		"sysctl.",
},
{
	CORE("IP_INVALID_DEST"),
	.layer = "IPv4 input routing",
	.since = "6.13",
	.summary = "invalid destination address (0.0.0.0)",
	.meaning = "The destination address is not valid (zero).",
	.functions = L("ip_rcv_finish_core", "ip_route_input_slow"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Source in `whydrop watch`.",
	.action = "Find the broken sender.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Broken senders.",
},
{
	CORE("PKT_TOO_BIG"),
	.layer = "IP forwarding/output",
	.since = "5.19",
	.summary = "exceeds next-hop MTU and may not be fragmented",
	.meaning = "The packet is larger than the MTU of the next hop and "
		"may not be fragmented (IPv4 DF set, or IPv6). An ICMP "
		"'fragmentation needed' / 'packet too big' is sent back.",
	.functions = L("ip_forward", "ip6_forward", "ip_fragment",
		       "ip6_fragment"),
	.counters = L("IpFragFails", "Ip6FragFails", "Ip6InTooBigErrors"),
	.sysctls = L("net.ipv4.ip_no_pmtu_disc", "net.ipv4.tcp_mtu_probing"),
	.settings = "MTUs along the path (`ip link`, tunnels, overlays); "
		"firewalls dropping ICMP; MSS clamping.",
	.action = "Make MTUs consistent, let ICMP too-big through, or clamp "
		"TCP MSS on tunnels (nft `tcp option maxseg size set rt mtu`).",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Harmless when PMTU discovery works; a blackhole "
		"when the ICMP reply is filtered.",
},
{
	CORE("DUP_FRAG"),
	.layer = "IP reassembly",
	.since = "6.2",
	.summary = "duplicate IP fragment",
	.meaning = "An IP fragment duplicates one already queued for "
		"reassembly.",
	.functions = L("ip_frag_queue", "ip_defrag", "ip6_frag_queue"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Packet duplication on the path.",
	.action = "Nothing at low rates; crafted fragment floods otherwise.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "The datagram still completes from the first copy.",
},
{
	CORE("FRAG_REASM_TIMEOUT"),
	.layer = "IP reassembly",
	.since = "6.2",
	.summary = "fragments missing when reassembly timed out",
	.meaning = "Not all fragments of a datagram arrived before the "
		"reassembly timer expired; the collected ones are discarded.",
	.functions = L("ip_expire", "ip6_frag_expire",
		       "ip6frag_expire_frag_queue"),
	.counters = L("IpReasmTimeout", "IpReasmFails", "Ip6ReasmTimeout",
		      "Ip6ReasmFails", "IcmpOutTimeExcds",
		      "Icmp6OutTimeExcds"),
	.sysctls = L("net.ipv4.ipfrag_time", "net.ipv4.ipfrag_high_thresh",
		     "net.ipv6.ip6frag_time"),
	.settings = "Loss of fragments on the path; firewalls that drop "
		"non-first fragments.",
	.action = "Avoid fragmentation (PMTU, smaller UDP payloads, EDNS "
		"buffer size for DNS); fix fragment loss.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Whole datagrams are lost.",
},
{
	CORE("FRAG_TOO_FAR"),
	.layer = "IPv4 reassembly",
	.since = "6.2",
	.summary = "fragment arrived too far out of order",
	.meaning = "Too many other fragments from the same source arrived "
		"between two pieces of one datagram; the queue is dropped.",
	.functions = L("ip_frag_queue", "ip_frag_too_far"),
	.counters = L("IpReasmFails"),
	.sysctls = L("net.ipv4.ipfrag_max_dist"),
	.settings = "Heavy reordering or high fragment rates from one "
		"source.",
	.action = "Raise net.ipv4.ipfrag_max_dist (0 disables the check) "
		"for such sources; better, avoid fragmentation.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Whole datagrams are lost.",
},
{
	CORE("TCP_MINTTL"),
	.layer = "TCP",
	.since = "6.3",
	.summary = "TTL/hop limit below the socket's minimum (GTSM)",
	.meaning = "The segment's TTL (IPv4) or hop limit (IPv6) is below "
		"the socket's IP_MINTTL / IPV6_MINHOPCOUNT (GTSM, RFC 5082).",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv", "tcp_v4_err"),
	.counters = L("TcpExtTCPMinTTLDrop"),
	.sysctls = NONE,
	.settings = "BGP 'ttl-security hops' settings; number of hops between "
		"peers.",
	.action = "Make the TTL-security setting match the real hop count.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A session with a misconfigured peer cannot come "
		"up; otherwise spoofed traffic.",
},
{
	CORE("IPV6_BAD_EXTHDR"),
	.layer = "IPv6",
	.since = "6.3",
	.summary = "malformed or misplaced IPv6 extension header",
	.meaning = "An IPv6 extension header is malformed or not allowed "
		"where it is (e.g. hop-by-hop not first).",
	.functions = L("ipv6_rthdr_rcv", "ipv6_destopt_rcv",
		       "ipv6_parse_hopopts", "ip6_parse_tlv"),
	.counters = L("Ip6InHdrErrors"),
	.sysctls = NONE,
	.settings = "Source of the packets.",
	.action = "Identify the sender; crafted traffic is common.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Malformed or hostile traffic.",
},
{
	CORE("IPV6_TOO_MANY_EXTHDRS"),
	.layer = "IPv6",
	.since = "7.1",
	.summary = "more than 12 IPv6 extension headers in one packet",
	.meaning = "An IPv6 packet for this host carried a longer chain of "
		"extension headers than the kernel walks on local delivery: "
		"more than 12 (IP6_MAX_EXT_HDRS_CNT, the hop-by-hop header "
		"included). The limit bounds the parsing work a crafted chain "
		"of minimal 8-byte headers can cause in a large or reassembled "
		"packet; the ordering rules of RFC 8200 allow about 8 headers in "
		"real traffic. The helpers that only skip headers (ICMPv6 "
		"errors, netfilter, tunnels) stop at the same limit without "
		"this reason.",
	.functions = L("ip6_protocol_deliver_rcu", "ip6_input_finish"),
	.counters = L("Ip6InDiscards"),
	.sysctls = NONE,
	.settings = "The limit is a constant of the kernel, not a sysctl "
		"(net.ipv6.max_dst_opts_number and max_hbh_opts_number limit "
		"the options inside one header, another check). The sender: "
		"`whydrop watch -r IPV6_TOO_MANY_EXTHDRS`.",
	.action = "Identify the sender; ordinary stacks never send such "
		"chains. Traffic that really needs more headers cannot be let "
		"through without rebuilding the kernel.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "The drop protects the host; a steady rate means "
		"someone sends it crafted IPv6.",
	.history = "Added in 2026 by upstream commit 3744b0964d52 (\"ipv6: "
		"Implement limits on extension header parsing\", a net fix, "
		"so mainline 7.1) and backported to stable kernels: on a "
		"6.18.44 build it is 99 and every later reason moved up by one.",
},
{
	CORE("IPV6_NDISC_FRAG"),
	.layer = "IPv6 ND",
	.since = "6.3",
	.summary = "fragmented Neighbour Discovery message",
	.meaning = "A fragmented Neighbour Discovery message was refused "
		"(RFC 6980).",
	.functions = L("ndisc_rcv", "icmpv6_rcv"),
	.counters = NONE,
	.sysctls = L("net.ipv6.conf.*.suppress_frag_ndisc"),
	.settings = "Source of the ND messages.",
	.action = "Nothing; crafted ND traffic.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Protection at work.",
},
{
	CORE("IPV6_NDISC_HOP_LIMIT"),
	.layer = "IPv6 ND",
	.since = "6.3",
	.summary = "ND message with hop limit != 255",
	.meaning = "A Neighbour Discovery message without hop limit 255, so "
		"it may have come from off-link.",
	.functions = L("ndisc_rcv", "icmpv6_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Source of the ND messages.",
	.action = "Nothing; forged or routed ND.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Protection at work.",
},
{
	CORE("IPV6_NDISC_BAD_CODE"),
	.layer = "IPv6 ND",
	.since = "6.3",
	.summary = "ND message with a non-zero ICMPv6 code",
	.meaning = "A Neighbour Discovery message has a non-zero ICMPv6 "
		"code.",
	.functions = L("ndisc_rcv", "icmpv6_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Source of the ND messages.",
	.action = "Nothing; broken sender.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Malformed sender.",
},
{
	CORE("IPV6_NDISC_BAD_OPTIONS"),
	.layer = "IPv6 ND",
	.since = "6.3",
	.summary = "malformed ND options",
	.meaning = "The options of a Neighbour Discovery message are "
		"malformed (e.g. zero length).",
	.functions = L("ndisc_recv_ns", "ndisc_recv_na", "ndisc_router_discovery",
		       "ndisc_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Source of the ND messages.",
	.action = "Nothing; broken sender.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Malformed sender.",
},
{
	CORE("IPV6_NDISC_NS_OTHERHOST"),
	.layer = "IPv6 ND",
	.since = "6.3",
	.summary = "Neighbour Solicitation for an address not ours",
	.meaning = "A Neighbour Solicitation asked for a target address this "
		"host does not own.",
	.functions = L("ndisc_recv_ns", "ndisc_rcv", "icmpv6_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Neighbours with stale caches; shared segments.",
	.action = "Nothing.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Normal on shared segments.",
},
{
	CORE("QUEUE_PURGE"),
	.layer = "core",
	.since = "6.6",
	.summary = "queue flushed in bulk (socket/device teardown)",
	.meaning = "Packets freed together when a queue was flushed: a "
		"socket closed, a qdisc reset, a device went down.",
	.functions = L("skb_queue_purge_reason", "__skb_queue_purge"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "What was torn down at that moment.",
	.action = "Nothing, unless it correlates with unexpected resets.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Housekeeping.",
},
{
	CORE("TC_COOKIE_ERROR"),
	.layer = "tc",
	.since = "6.8",
	.summary = "tc extension cookie processing failed",
	.meaning = "Processing a tc extension cookie failed during "
		"classification.",
	.functions = L("tcf_classify"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc filter show`, tc/BPF programs on the device.",
	.action = "Check the tc configuration; report as a bug.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Configuration or kernel bug.",
},
{
	CORE("PACKET_SOCK_ERROR"),
	.layer = "AF_PACKET",
	.since = "6.8",
	.summary = "capture socket could not take its copy",
	.meaning = "A packet socket (tcpdump, DHCP clients, LLDP daemons) "
		"matched the packet but could not queue it, typically because "
		"its receive buffer was full. Usually only the capture's copy is "
		"lost; the traffic itself is unaffected.",
	.functions = L("packet_rcv", "tpacket_rcv"),
	.counters = NONE,
	.sysctls = L("net.core.rmem_max"),
	.settings = "tcpdump 'packets dropped by kernel'; `ss -0p` for "
		"packet sockets.",
	.action = "Give the capture a bigger buffer (tcpdump -B), a tighter "
		"filter, or a faster consumer.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Monitoring loses packets, production does not.",
},
{
	CORE("TC_CHAIN_NOTFOUND"),
	.layer = "tc",
	.since = "6.8",
	.summary = "tc action jumped to a chain that does not exist",
	.meaning = "A tc action did 'goto chain N' but chain N does not "
		"exist.",
	.functions = L("tcf_classify"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`tc -s filter show dev DEV ingress|egress` and the chains "
		"it references.",
	.action = "Create the chain or fix the goto target.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Configuration error.",
},
{
	CORE("TC_RECLASSIFY_LOOP"),
	.layer = "tc",
	.since = "6.8",
	.summary = "tc reclassification looped too often",
	.meaning = "tc reclassification repeated more times than allowed.",
	.functions = L("tcf_classify"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "tc filters with 'reclassify' actions.",
	.action = "Fix the reclassify loop in the tc rules.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Configuration error.",
},
{
	CORE("VXLAN_INVALID_HDR"),
	.layer = "tunnel (VXLAN)",
	.since = "6.13",
	.summary = "invalid VXLAN header",
	.meaning = "The VXLAN header is invalid: the I flag is not set or "
		"reserved bits/flags this device does not accept are used.",
	.functions = L("vxlan_rcv"),
	.counters = L("netdev:rx_dropped"),
	.sysctls = NONE,
	.settings = "VXLAN extensions on both ends (GBP, GPE); other "
		"traffic on UDP port 4789.",
	.action = "Make both VTEPs use the same VXLAN flavour.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Tunnel misconfiguration.",
},
{
	CORE("VXLAN_VNI_NOT_FOUND"),
	.layer = "tunnel (VXLAN)",
	.since = "6.13",
	.summary = "no VXLAN device for the received VNI",
	.meaning = "No local VXLAN device is configured for the VNI in the "
		"packet.",
	.functions = L("vxlan_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ip -d link show type vxlan` (id) on both VTEPs.",
	.action = "Create the VNI here or fix the peer's VNI.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Tunnel misconfiguration.",
},
{
	CORE("MAC_INVALID_SOURCE"),
	.layer = "L2 (VXLAN)",
	.since = "6.13",
	.summary = "inner frame has an invalid source MAC",
	.meaning = "The decapsulated frame's source MAC is invalid (zero or "
		"multicast).",
	.functions = L("vxlan_rcv", "vxlan_set_mac"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The remote VTEP and its guests.",
	.action = "Find the sender of bad frames.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Malformed inner frames.",
},
{
	CORE("VXLAN_ENTRY_EXISTS"),
	.layer = "tunnel (VXLAN FDB)",
	.since = "6.13",
	.summary = "MAC learning would override a static FDB entry",
	.meaning = "The frame's source MAC is pinned by a static or nexthop "
		"FDB entry elsewhere; learning may not move it, so the frame "
		"is dropped.",
	.functions = L("vxlan_snoop", "vxlan_set_mac"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`bridge fdb show dev VXLAN`.",
	.action = "Fix the static entry or the duplicate MAC.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A MAC moved or is duplicated.",
},
{
	CORE("NO_TX_TARGET"),
	.layer = "tunnel transmit",
	.since = "6.14",
	.summary = "tunnel has no destination for the packet",
	.meaning = "The tunnel device has nowhere to send the packet: no "
		"remote, group or matching FDB entry.",
	.functions = L("vxlan_xmit", "vxlan_xmit_one"),
	.counters = L("netdev:tx_dropped"),
	.sysctls = NONE,
	.settings = "`ip -d link show DEV` (remote/group); `bridge fdb show "
		"dev DEV`.",
	.action = "Add the remote or FDB entries (or the EVPN control plane "
		"that should install them).",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "IPv6 link-up chatter hits this on unconfigured "
		"tunnels; real traffic means a missing entry.",
	.aliases = L("VXLAN_NO_REMOTE"),
	.history = "Named VXLAN_NO_REMOTE in 6.13.",
},
{
	CORE("IP_TUNNEL_ECN"),
	.layer = "tunnel decapsulation",
	.since = "6.13",
	.summary = "inconsistent ECN bits between outer and inner",
	.meaning = "Outer and inner ECN bits are inconsistent in a way RFC "
		"6040 says to drop (e.g. outer CE, inner Not-ECT).",
	.functions = L("vxlan_rcv", "ip_tunnel_rcv", "ip6_tnl_rcv"),
	.counters = L("netdev:rx_frame_errors"),
	.sysctls = NONE,
	.settings = "Encapsulating peer; ECN-rewriting devices on the path.",
	.action = "Fix the encapsulator or the device bleaching/setting ECN.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Misbehaving encapsulator.",
},
{
	CORE("TUNNEL_TXINFO"),
	.layer = "tunnel (collect_md)",
	.since = "6.13",
	.summary = "no tunnel metadata on an 'external' tunnel",
	.meaning = "A packet without tunnel metadata was sent through a "
		"metadata-mode ('external') tunnel device.",
	.functions = L("vxlan_xmit"),
	.counters = L("netdev:tx_dropped"),
	.sysctls = NONE,
	.settings = "Routes pointing into the external device.",
	.action = "Only BPF/OVS with tunnel keys should send there; remove "
		"routes that send plain traffic into it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Harmless chatter or a routing mistake.",
},
{
	CORE("LOCAL_MAC"),
	.layer = "tunnel (VXLAN)",
	.since = "6.13",
	.summary = "inner source MAC is our own (looped frame)",
	.meaning = "The decapsulated frame's source MAC equals the local "
		"device's MAC: the frame looped back.",
	.functions = L("vxlan_rcv", "vxlan_set_mac"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Forwarding loops between VTEPs; duplicated MACs.",
	.action = "Find the loop or duplicate MAC.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A loop or duplicate address.",
},
{
	CORE("ARP_PVLAN_DISABLE"),
	.layer = "ARP",
	.since = "6.13",
	.summary = "proxy ARP back out the same port not allowed",
	.meaning = "ARP would have to proxy a request back out of the "
		"interface it came in on, which needs private-VLAN proxy ARP, "
		"and that is not enabled.",
	.functions = L("arp_process"),
	.counters = NONE,
	.sysctls = L("net.ipv4.conf.*.proxy_arp_pvlan",
		     "net.ipv4.conf.*.proxy_arp"),
	.settings = "Proxy ARP configuration on the interface.",
	.action = "Enable proxy_arp_pvlan where hosts on the same port must "
		"reach each other through this router.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Policy at work.",
	.history = "Dating approximate.",
},
{
	CORE("MAC_IEEE_MAC_CONTROL"),
	.layer = "bridge",
	.since = "6.14",
	.summary = "bridge got a MAC-control frame (e.g. PAUSE)",
	.meaning = "A frame for the IEEE MAC-control address "
		"01:80:C2:00:00:01 (flow-control PAUSE) reached a bridge, which "
		"must never forward it.",
	.functions = L("br_handle_frame"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Flow control on NICs/switches (`ethtool -a DEV`).",
	.action = "Nothing; optionally disable flow control on the link.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "PAUSE frames reaching the bridge.",
},
{
	CORE("BRIDGE_INGRESS_STP_STATE"),
	.layer = "bridge",
	.since = "6.14",
	.summary = "bridge port STP state blocks ingress",
	.meaning = "The ingress bridge port is disabled, blocking or "
		"listening in STP, so frames are not accepted.",
	.functions = L("br_handle_frame"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`bridge link show` (state); STP/RSTP daemon.",
	.action = "Expected on blocked redundant ports and during "
		"convergence; a port stuck blocking needs STP investigation.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "STP doing its job.",
},
{
	CORE("CAN_RX_INVALID_FRAME"),
	.layer = "CAN",
	.since = "6.17",
	.summary = "malformed CAN frame",
	.meaning = "A malformed CAN frame was received, or CAN data arrived "
		"on a non-CAN device.",
	.functions = L("can_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ip -s -d link show CAN`; the CAN driver.",
	.action = "Check the CAN controller, bus and driver.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Bus or driver problems.",
},
{
	CORE("CANFD_RX_INVALID_FRAME"),
	.layer = "CAN",
	.since = "6.17",
	.summary = "malformed CAN FD frame",
	.meaning = "A malformed CAN FD frame was received, or CAN FD data "
		"arrived on a device not set up for it.",
	.functions = L("canfd_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ip -s -d link show CAN` (fd on/off).",
	.action = "Check the CAN controller, bus and driver.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Bus or driver problems.",
},
{
	CORE("CANXL_RX_INVALID_FRAME"),
	.layer = "CAN",
	.since = "6.17",
	.summary = "malformed CAN XL frame",
	.meaning = "A malformed CAN XL frame was received, or CAN XL data "
		"arrived on a device not set up for it.",
	.functions = L("canxl_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ip -s -d link show CAN`.",
	.action = "Check the CAN controller, bus and driver.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Bus or driver problems.",
},
{
	CORE("PFMEMALLOC"),
	.layer = "core memory",
	.since = "6.17",
	.summary = "emergency-reserve packet for a normal socket",
	.meaning = "The packet was allocated from emergency memory reserves "
		"(the system is very low on memory) and reached a socket that "
		"may not use them.",
	.functions = L("sk_filter_trim_cap", "tcp_v4_rcv", "tcp_v6_rcv"),
	.counters = L("TcpExtPFMemallocDrop"),
	.sysctls = L("vm.min_free_kbytes"),
	.settings = "Memory pressure (`free`, PSI /proc/pressure/memory); "
		"swap over NFS/NBD.",
	.action = "Relieve memory pressure; raise vm.min_free_kbytes.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Severe memory pressure.",
	.history = "Before 6.17 reported as SOCKET_FILTER.",
},
{
	CORE("DUALPI2_STEP_DROP"),
	.layer = "qdisc (dualpi2)",
	.since = "6.17",
	.summary = "dualpi2 step threshold dropped (L4S queue)",
	.meaning = "DualPI2's step threshold in the L4S queue dropped the "
		"packet (a non-ECN packet where a mark was not possible, or an "
		"overfull L4S queue).",
	.functions = L("dualpi2_qdisc_dequeue", "dualpi2_qdisc_enqueue"),
	.counters = NONE,
	.sysctls = L("net.ipv4.tcp_ecn"),
	.settings = "`tc -s qdisc show dev DEV` (dualpi2 step parameters).",
	.action = "Check which traffic lands in the L4S queue; tune the step "
		"threshold.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "AQM at work.",
},
{
	CORE("PSP_INPUT"),
	.layer = "PSP encryption",
	.since = "6.18",
	.summary = "PSP receive-side check failed",
	.meaning = "PSP (encryption offload for TCP) receive checks failed: "
		"the packet could not be decrypted/validated by the device, or "
		"the socket's PSP policy does not accept it.",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv", "psp_dev_rcv"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "PSP device and association state (`ynl --family psp`), "
		"NIC driver statistics.",
	.action = "Check PSP key rotation and association state on both "
		"ends.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Encrypted traffic is refused.",
},
{
	CORE("PSP_OUTPUT"),
	.layer = "PSP encryption",
	.since = "6.18",
	.summary = "PSP transmit-side check failed",
	.meaning = "PSP transmit checks failed: the packet's PSP association "
		"does not belong to the output device, or encapsulation "
		"failed.",
	.functions = L("psp_validate_xmit", "mlx5e_psp_handle_tx_skb"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "Routing of PSP sockets (must leave through the PSP "
		"device); NIC driver statistics.",
	.action = "Make PSP traffic route through the device holding the "
		"association.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Encrypted traffic cannot leave.",
},
{
	CORE("RECURSION_LIMIT"),
	.layer = "tunnel / virtual dev",
	.since = "7.1",
	.summary = "transmit recursion limit: loop through devices",
	.meaning = "Transmission nested through virtual devices or tunnels "
		"deeper than allowed: a packet is looping (a tunnel routed "
		"into itself, stacked devices). The kernel logs 'Dead loop on "
		"virtual device'.",
	.functions = L("__dev_queue_xmit", "iptunnel_xmit", "ip6tunnel_xmit"),
	.counters = L("netdev:tx_errors"),
	.sysctls = NONE,
	.settings = "dmesg 'Dead loop on virtual device'; `ip route get` for "
		"the tunnel's remote address (must not route into the tunnel "
		"itself).",
	.action = "Fix the routing so the tunnel's outer packets do not go "
		"through the tunnel.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A configuration loop.",
	.history = "Mainline in 2026 (expected 7.1); backported to 6.18.y "
		"and 7.0.y with different numbers.",
},
{
	CORE("SKB_RX_HEADROOM"),
	.layer = "core receive",
	.since = "6.18.y",
	.summary = "not enough headroom in the received buffer",
	.meaning = "Seen as a stable-kernel backport (6.18.44). From its name, "
		"the received buffer lacked the headroom a receive path needed "
		"in front of the data; the exact code path is not documented "
		"here yet.",
	.functions = L("__netif_receive_skb_core"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "The drop location shown by whydrop (function+offset); "
		"the driver of the receiving device.",
	.action = "Note the location and device driver; likely a driver or "
		"tunnel bug to report upstream.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Should not happen on a healthy system.",
	.history = "Stable backport without a confirmed mainline release.",
},
{
	CORE("SKB_BAD_GSO"),
	.layer = "core transmit (GSO)",
	.since = "7.1",
	.summary = "GSO packet with headers that cannot be parsed",
	.meaning = "On transmit, a GSO packet's headers could not be pulled "
		"or are inconsistent (typically from a tap, virtio or packet "
		"socket supplying a bad virtio_net_hdr); it is dropped before "
		"reaching the driver.",
	.functions = L("qdisc_pkt_len_segs_init", "__dev_queue_xmit"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "VMs/containers injecting GSO packets (tap, "
		"AF_PACKET with PACKET_VNET_HDR).",
	.action = "Find the injecting guest or program; may be malicious.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Malformed or malicious packets from a guest.",
	.history = "Mainline in 2026, backported to stable series (present "
		"in Debian 6.12.1xx).",
},

/* ---- openvswitch (module openvswitch, subsystem since 6.6) ---- */
{
	OVS("OVS_DROP_LAST_ACTION"),
	.since = "6.6",
	.summary = "OVS flow ended without output (implicit drop)",
	.meaning = "The matched datapath flow's action list finished without "
		"sending the packet anywhere: a flow whose actions are empty "
		"or 'drop'.",
	.functions = L("do_execute_actions", "ovs_execute_actions"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK,
	.action = "Find the OpenFlow rule that produced the flow "
		"(ofproto/trace) and decide whether dropping is intended.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Usually intended policy (ACLs, default drop).",
},
{
	OVS("OVS_DROP_ACTION_ERROR"),
	.since = "6.6",
	.summary = "an OVS datapath action failed",
	.meaning = "Executing one of the flow's actions failed (e.g. pushing "
		"a header, setting a field, or output preparation).",
	.functions = L("do_execute_actions"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK,
	.action = "Trace the flow and check the failing action; check "
		"ovs-vswitchd.log.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Usually a flow programming problem.",
},
{
	OVS("OVS_DROP_EXPLICIT"),
	.since = "6.6",
	.summary = "explicit OVS drop action",
	.meaning = "The flow executed an explicit drop action.",
	.functions = L("do_execute_actions"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK,
	.action = "Find the rule (ofproto/trace) if the drop is unexpected.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Intended by the flow table.",
},
{
	OVS("OVS_DROP_EXPLICIT_WITH_ERROR"),
	.since = "6.6",
	.summary = "explicit OVS drop action, flagged as error",
	.meaning = "The flow executed an explicit drop action that "
		"ovs-vswitchd marked as an error (it could not translate the "
		"OpenFlow actions, e.g. too deep resubmits).",
	.functions = L("do_execute_actions"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK " ; ovs-vswitchd.log translation errors.",
	.action = "Fix the OpenFlow pipeline error reported by "
		"ovs-vswitchd.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Flow translation failed.",
},
{
	OVS("OVS_DROP_METER"),
	.since = "6.7",
	.summary = "OVS meter rate limit exceeded",
	.meaning = "An OpenFlow meter's band dropped the packet (rate limit "
		"exceeded).",
	.functions = L("do_execute_actions", "ovs_meter_execute"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "`ovs-ofctl -O OpenFlow13 meter-stats BRIDGE`.",
	.action = "Raise the meter rate if the traffic is legitimate.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rate limiting at work.",
},
{
	OVS("OVS_DROP_RECURSION_LIMIT"),
	.since = "6.7",
	.summary = "OVS action recursion too deep",
	.meaning = "Executing actions nested (recirculation, clone, "
		"sample) deeper than the datapath allows.",
	.functions = L("ovs_execute_actions"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK,
	.action = "Look for recirculation loops in the OpenFlow pipeline.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A pipeline loop.",
},
{
	OVS("OVS_DROP_DEFERRED_LIMIT"),
	.since = "6.7",
	.summary = "OVS deferred-action queue full",
	.meaning = "Too many deferred actions (recirculations) were queued "
		"for one packet.",
	.functions = L("add_deferred_actions", "clone_execute"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK,
	.action = "Simplify the pipeline; look for recirculation loops.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "A pipeline loop or excessive recirculation.",
},
{
	OVS("OVS_DROP_FRAG_L2_TOO_LONG"),
	.since = "6.7",
	.summary = "OVS could not fragment: L2 header too long",
	.meaning = "The packet needed fragmenting on output but its L2 "
		"header is too long for OVS to do it.",
	.functions = L("ovs_fragment", "do_output"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "MTUs of OVS ports and tunnels.",
	.action = "Make MTUs consistent so no fragmentation is needed.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "MTU mismatch.",
},
{
	OVS("OVS_DROP_FRAG_INVALID_PROTO"),
	.since = "6.7",
	.summary = "OVS could not fragment: not IPv4/IPv6",
	.meaning = "The packet needed fragmenting on output but is neither "
		"IPv4 nor IPv6.",
	.functions = L("ovs_fragment", "do_output"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = "MTUs of OVS ports and tunnels.",
	.action = "Make MTUs consistent so no fragmentation is needed.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "MTU mismatch.",
},
{
	OVS("OVS_DROP_CONNTRACK"),
	.since = "6.7",
	.summary = "OVS conntrack action failed",
	.meaning = "The ct() action failed (invalid packet for conntrack, "
		"helper or NAT failure, table full).",
	.functions = L("ovs_ct_execute"),
	.counters = NONE,
	.sysctls = L("net.netfilter.nf_conntrack_count",
		     "net.netfilter.nf_conntrack_max"),
	.settings = OVS_LOOK " ; `conntrack -S`; `ovs-appctl dpctl/dump-conntrack`.",
	.action = "Check conntrack table size and zones.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Stateful processing failed.",
},
{
	OVS("OVS_DROP_IP_TTL"),
	.since = "6.7",
	.summary = "OVS dec_ttl: TTL expired",
	.meaning = "A dec_ttl action found the TTL/hop limit expired.",
	.functions = L("do_execute_actions", "execute_dec_ttl"),
	.counters = NONE,
	.sysctls = NONE,
	.settings = OVS_LOOK,
	.action = "Look for routing loops in the virtual network.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Expected for traceroute; many mean a loop.",
},

/* ---- mac80211 (module mac80211, subsystem since 6.4) ---- */
#define M80211_ENTRY(n, ver, sum, mean, fn, act, sev, note)		\
{									\
	M80211(n),							\
	.since = ver,							\
	.summary = sum,							\
	.meaning = mean,						\
	.functions = fn,						\
	.counters = NONE,						\
	.sysctls = NONE,						\
	.settings = M80211_LOOK,					\
	.action = act,							\
	.severity = sev,						\
	.severity_note = note,						\
}
#define M_RX	L("ieee80211_rx_handlers_result", "ieee80211_invoke_rx_handlers")
#define M_KEY	"Check keys and rekeying on AP and client (supplicant/hostapd " \
		"logs); driver/firmware crypto offload bugs."
#define M_SHORT	"Truncated protected frame: radio noise, driver bug or " \
		"crafted frames."

M80211_ENTRY("RX_DROP", "6.4",
	"mac80211 dropped the frame (no specific reason)",
	"mac80211 discarded a received frame without a more specific reason "
	"(the generic 'unusable' or, before 6.17, 'monitor' value).",
	M_RX, "Correlate with the interface mode and driver; capture on a "
	"monitor interface.", WD_SEV_DEPENDS, "Generic bucket."),
M80211_ENTRY("RX_DROP_U_MIC_FAIL", "6.4",
	"Wi-Fi MIC failure (TKIP Michael / hw report)",
	"The frame's message integrity check failed (TKIP Michael MIC, or "
	"a MIC failure reported by the hardware).",
	L("ieee80211_rx_h_michael_mic_verify", "ieee80211_rx_handlers_result"),
	M_KEY, WD_SEV_PROBLEM, "Repeated failures trigger TKIP countermeasures."),
M80211_ENTRY("RX_DROP_U_REPLAY", "6.4",
	"Wi-Fi replay: packet number not increasing",
	"The frame's packet number (PN/TSC) is not newer than the last one "
	"accepted for its key: a replay or heavy reordering.",
	L("ieee80211_crypto_ccmp_decrypt", "ieee80211_crypto_gcmp_decrypt",
	  "ieee80211_crypto_tkip_decrypt"),
	"Check driver reordering/offload; repeated replays may be an "
	"attack.", WD_SEV_DEPENDS, "Some come from driver reordering."),
M80211_ENTRY("RX_DROP_U_BAD_MMIE", "6.4",
	"protected management frame with a bad MMIE",
	"A group-addressed robust management frame lacks a valid MMIE (the "
	"BIP integrity element) although management frame protection is "
	"in use.", L("ieee80211_crypto_aes_cmac_decrypt",
	"ieee80211_crypto_aes_gmac_decrypt"),
	"Check PMF (802.11w) settings on AP and client.", WD_SEV_PROBLEM,
	"PMF mismatch or forged frames."),
M80211_ENTRY("RX_DROP_U_DUP", "by 6.17",
	"duplicate Wi-Fi frame (retransmission)",
	"The frame repeats one already received (same sequence number, "
	"retry bit): the sender retransmitted because it missed our ACK.",
	L("ieee80211_rx_h_check_dup"),
	"Nothing; many point at a poor radio link.", WD_SEV_BENIGN,
	"Normal Wi-Fi retransmissions."),
M80211_ENTRY("RX_DROP_U_SPURIOUS", "by 6.17",
	"data frame from a non-associated station",
	"A data frame came from a station that is not associated (spurious "
	"frame); the AP may tell it to deauthenticate.",
	L("ieee80211_rx_h_check", "ieee80211_rx_h_data"),
	"Usually a client that lost its association; check roaming.",
	WD_SEV_BENIGN, "Common during roaming and after AP restarts."),
M80211_ENTRY("RX_DROP_U_DECRYPT_FAIL", "by 6.17",
	"Wi-Fi frame decryption failed",
	"Decryption of a protected frame failed (hardware or software).",
	L("ieee80211_rx_h_decrypt"), M_KEY, WD_SEV_PROBLEM,
	"Key mismatch, often right after a rekey."),
M80211_ENTRY("RX_DROP_U_NO_KEY_ID", "by 6.17",
	"protected frame without a usable key id",
	"A protected frame carries no usable key index, so no key can be "
	"selected.", L("ieee80211_rx_h_decrypt"), M_KEY, WD_SEV_DEPENDS,
	"Malformed or crafted frames."),
M80211_ENTRY("RX_DROP_U_BAD_CIPHER", "by 6.17",
	"frame protected with the wrong cipher",
	"The frame's protection does not match the cipher of the key "
	"selected for it.", L("ieee80211_rx_h_decrypt"), M_KEY,
	WD_SEV_PROBLEM, "Cipher mismatch between peers."),
M80211_ENTRY("RX_DROP_U_OOM", "by 6.17",
	"mac80211 out of memory while receiving",
	"A memory allocation failed while processing the received frame.",
	M_RX, "Check memory pressure.", WD_SEV_PROBLEM, "Host short of memory."),
M80211_ENTRY("RX_DROP_U_NONSEQ_PN", "by 6.17",
	"fragments with non-consecutive packet numbers",
	"Fragments of one frame do not carry consecutive packet numbers, so "
	"they are not reassembled (protection against mixed-key fragment "
	"attacks).", L("ieee80211_rx_h_defragment"), M_KEY, WD_SEV_DEPENDS,
	"Loss of fragments or an attack."),
M80211_ENTRY("RX_DROP_U_BAD_KEY_COLOR", "by 6.17",
	"fragments protected with different keys",
	"Fragments of one frame were protected with different keys "
	"(FragAttacks mitigation).", L("ieee80211_rx_h_defragment"), M_KEY,
	WD_SEV_DEPENDS, "Rekey during fragmentation, or an attack."),
M80211_ENTRY("RX_DROP_U_BAD_4ADDR", "by 6.17",
	"invalid 4-address frame",
	"A 4-address (WDS) frame is not valid for this interface's "
	"configuration.", L("ieee80211_rx_h_data", "__ieee80211_data_to_8023"),
	"Check WDS/4addr settings on both ends.", WD_SEV_DEPENDS,
	"4addr configuration mismatch."),
M80211_ENTRY("RX_DROP_U_BAD_AMSDU", "by 6.17",
	"malformed A-MSDU",
	"An aggregated A-MSDU frame is malformed, or its first subframe "
	"looks like an injected header (FragAttacks mitigation).",
	L("ieee80211_rx_h_amsdu"), "Check driver/firmware; may be an attack.",
	WD_SEV_DEPENDS, "Broken peers or attacks."),
M80211_ENTRY("RX_DROP_U_BAD_AMSDU_CIPHER", "by 6.17",
	"A-MSDU with unprotected A-MSDU flag (SPP mismatch)",
	"An A-MSDU arrived with protection that does not cover the A-MSDU "
	"flag while the connection requires it (SPP A-MSDU mismatch).",
	L("ieee80211_rx_h_amsdu"), "Check SPP A-MSDU capability on both ends.",
	WD_SEV_DEPENDS, "Capability mismatch."),
M80211_ENTRY("RX_DROP_U_INVALID_8023", "by 6.17",
	"invalid 802.3 frame from hardware decap offload",
	"A frame already converted to 802.3 by the hardware is invalid.",
	L("ieee80211_rx_8023"), "Driver/firmware issue; try disabling "
	"offload.", WD_SEV_PROBLEM, "Driver or firmware bug."),
M80211_ENTRY("RX_DROP_U_RUNT_ACTION", "by 6.17",
	"action frame too short",
	"A management action frame is too short to be valid.",
	L("ieee80211_rx_h_action"), "Nothing; broken or crafted frames.",
	WD_SEV_BENIGN, "Malformed frames."),
M80211_ENTRY("RX_DROP_U_UNPROT_ACTION", "by 6.17",
	"unprotected robust action frame (PMF required)",
	"A robust action frame arrived unprotected while management frame "
	"protection is in use.", L("ieee80211_drop_unencrypted_mgmt"),
	"Check PMF (802.11w) on both ends.", WD_SEV_DEPENDS,
	"PMF protection at work."),
M80211_ENTRY("RX_DROP_U_UNPROT_DUAL", "by 6.17",
	"unprotected dual-of-public action frame",
	"A protected dual of a public action frame arrived without "
	"protection.", L("ieee80211_drop_unencrypted_mgmt"),
	"Check PMF settings.", WD_SEV_DEPENDS, "PMF protection at work."),
M80211_ENTRY("RX_DROP_U_UNPROT_UCAST_MGMT", "by 6.17",
	"unprotected unicast management frame (PMF)",
	"A unicast robust management frame (e.g. deauth, disassoc) "
	"arrived unprotected while PMF is negotiated.",
	L("ieee80211_drop_unencrypted_mgmt"),
	"Nothing: PMF blocks spoofed deauths. If legitimate, check PMF "
	"on the AP.", WD_SEV_BENIGN, "Often spoofed deauth attempts."),
M80211_ENTRY("RX_DROP_U_UNPROT_MCAST_MGMT", "by 6.17",
	"unprotected group management frame (PMF)",
	"A group-addressed robust management frame arrived without BIP "
	"protection while PMF is in use.", L("ieee80211_drop_unencrypted_mgmt"),
	"Check PMF on the AP.", WD_SEV_BENIGN, "PMF protection at work."),
M80211_ENTRY("RX_DROP_U_UNPROT_BEACON", "by 6.17",
	"beacon without valid beacon protection",
	"Beacon protection is enabled but the beacon lacks a valid "
	"integrity element.", L("ieee80211_drop_unencrypted_mgmt"),
	"Check beacon protection support on the AP; may be a fake AP.",
	WD_SEV_DEPENDS, "Fake beacons or AP misconfiguration."),
M80211_ENTRY("RX_DROP_U_UNPROT_UNICAST_PUB_ACTION", "by 6.17",
	"unprotected unicast public action frame",
	"A unicast public action frame that must be protected arrived "
	"unprotected.", L("ieee80211_drop_unencrypted_mgmt"),
	"Check PMF settings.", WD_SEV_DEPENDS, "PMF protection at work."),
M80211_ENTRY("RX_DROP_U_UNPROT_ROBUST_ACTION", "by 6.17",
	"unprotected robust action frame",
	"A robust action frame arrived without the required protection.",
	L("ieee80211_drop_unencrypted_mgmt"), "Check PMF settings.",
	WD_SEV_DEPENDS, "PMF protection at work."),
M80211_ENTRY("RX_DROP_U_ACTION_UNKNOWN_SRC", "by 6.17",
	"action frame from an unknown station",
	"An action frame came from a station this interface does not "
	"know.", L("ieee80211_rx_h_action"), "Nothing; stray frames.",
	WD_SEV_BENIGN, "Stray frames."),
M80211_ENTRY("RX_DROP_U_REJECTED_ACTION_RESPONSE", "by 6.17",
	"rejected action frame returned by the peer",
	"The frame is a peer's rejection of an action frame we sent "
	"(category with the error bit set); nothing to process.",
	L("ieee80211_rx_h_action_return"), "Nothing.", WD_SEV_BENIGN,
	"Peer does not support a feature."),
M80211_ENTRY("RX_DROP_U_EXPECT_DEFRAG_PROT", "by 6.17",
	"unprotected fragment where protection expected",
	"A fragment arrived unprotected while the other fragments were "
	"protected (mixed plaintext/encrypted fragments).",
	L("ieee80211_rx_h_defragment"), M_KEY, WD_SEV_DEPENDS,
	"FragAttacks mitigation."),
M80211_ENTRY("RX_DROP_U_WEP_DEC_FAIL", "by 6.17",
	"WEP decryption failed",
	"WEP decryption failed (wrong key or corrupted frame).",
	L("ieee80211_crypto_wep_decrypt"), M_KEY, WD_SEV_PROBLEM,
	"Key mismatch; WEP should not be used anyway."),
M80211_ENTRY("RX_DROP_U_NO_IV", "by 6.17",
	"protected frame without IV",
	"A protected frame has no initialisation vector.",
	L("ieee80211_crypto_wep_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_NO_ICV", "by 6.17",
	"protected frame without ICV",
	"A protected frame is too short to hold its integrity check value.",
	L("ieee80211_crypto_wep_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_AP_RX_GROUPCAST", "by 6.17",
	"AP got a group-addressed frame not for it",
	"An AP interface received a group-addressed data frame that was "
	"not sent to the distribution system.",
	L("ieee80211_rx_h_data", "__ieee80211_data_to_8023"),
	"Nothing.", WD_SEV_BENIGN, "Stray frames."),
M80211_ENTRY("RX_DROP_U_SHORT_MMIC", "by 6.17",
	"TKIP frame too short for its Michael MIC",
	"A TKIP frame is too short to contain the Michael MIC.",
	L("ieee80211_rx_h_michael_mic_verify"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_MMIC_FAIL", "by 6.17",
	"TKIP Michael MIC verification failed",
	"The software Michael MIC check of a TKIP frame failed.",
	L("ieee80211_rx_h_michael_mic_verify"), M_KEY, WD_SEV_PROBLEM,
	"Key mismatch or attack; can trigger TKIP countermeasures."),
M80211_ENTRY("RX_DROP_U_SHORT_TKIP", "by 6.17",
	"frame too short for the TKIP header",
	"A TKIP-protected frame is too short for its TKIP header.",
	L("ieee80211_crypto_tkip_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_TKIP_FAIL", "by 6.17",
	"TKIP decryption failed",
	"TKIP decryption of the frame failed.",
	L("ieee80211_crypto_tkip_decrypt"), M_KEY, WD_SEV_PROBLEM,
	"Key mismatch; TKIP is deprecated."),
M80211_ENTRY("RX_DROP_U_SHORT_CCMP", "by 6.17",
	"frame too short for the CCMP header",
	"A CCMP-protected frame is too short for its CCMP header.",
	L("ieee80211_crypto_ccmp_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_SHORT_CCMP_MIC", "by 6.17",
	"frame too short for the CCMP MIC",
	"A CCMP-protected frame is too short to hold its MIC.",
	L("ieee80211_crypto_ccmp_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_SHORT_GCMP", "by 6.17",
	"frame too short for the GCMP header",
	"A GCMP-protected frame is too short for its GCMP header.",
	L("ieee80211_crypto_gcmp_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_SHORT_GCMP_MIC", "by 6.17",
	"frame too short for the GCMP MIC",
	"A GCMP-protected frame is too short to hold its MIC.",
	L("ieee80211_crypto_gcmp_decrypt"), M_SHORT, WD_SEV_DEPENDS,
	"Malformed frames."),
M80211_ENTRY("RX_DROP_U_SHORT_CMAC", "by 6.17",
	"management frame too short for BIP-CMAC",
	"A protected management frame is too short for its BIP-CMAC-128 "
	"element.", L("ieee80211_crypto_aes_cmac_decrypt"), M_SHORT,
	WD_SEV_DEPENDS, "Malformed frames."),
M80211_ENTRY("RX_DROP_U_SHORT_CMAC256", "by 6.17",
	"management frame too short for BIP-CMAC-256",
	"A protected management frame is too short for its BIP-CMAC-256 "
	"element.", L("ieee80211_crypto_aes_cmac_256_decrypt"), M_SHORT,
	WD_SEV_DEPENDS, "Malformed frames."),
M80211_ENTRY("RX_DROP_U_SHORT_GMAC", "by 6.17",
	"management frame too short for BIP-GMAC",
	"A protected management frame is too short for its BIP-GMAC "
	"element.", L("ieee80211_crypto_aes_gmac_decrypt"), M_SHORT,
	WD_SEV_DEPENDS, "Malformed frames."),
M80211_ENTRY("RX_DROP_U_UNEXPECTED_VLAN_4ADDR", "by 6.17",
	"4-address frame on an AP_VLAN not set up for it",
	"A 4-address frame arrived on an AP VLAN interface that is not in "
	"4-address mode for that station.",
	L("ieee80211_rx_h_data", "__ieee80211_data_to_8023"),
	"Check WDS/4addr configuration.", WD_SEV_DEPENDS,
	"4addr configuration mismatch."),
M80211_ENTRY("RX_DROP_U_UNEXPECTED_STA_4ADDR", "by 6.17",
	"4-address frame on a station not in 4addr mode",
	"A station interface that is not in 4-address mode got a "
	"4-address frame.", L("ieee80211_rx_h_data", "__ieee80211_data_to_8023"),
	"Check `iw dev WLAN set 4addr` on both ends.", WD_SEV_DEPENDS,
	"4addr configuration mismatch."),
M80211_ENTRY("RX_DROP_U_UNEXPECTED_VLAN_MCAST", "by 6.17",
	"multicast frame on a 4addr AP_VLAN",
	"A multicast frame arrived on a 4-address AP VLAN interface, where "
	"only unicast is expected.",
	L("ieee80211_rx_h_data", "__ieee80211_data_to_8023"),
	"Check WDS configuration.", WD_SEV_BENIGN, "Stray frames."),
M80211_ENTRY("RX_DROP_U_NOT_PORT_CONTROL", "by 6.17",
	"data before 802.1X/EAPOL port authorized",
	"A data frame arrived while the 802.1X controlled port was still "
	"closed (only EAPOL may pass before authentication).",
	L("ieee80211_rx_h_data", "ieee80211_frame_allowed"),
	"Nothing during association; persistent means the handshake never "
	"completes (check the supplicant).", WD_SEV_BENIGN,
	"Normal around connection set-up."),
M80211_ENTRY("RX_DROP_U_UNEXPECTED_4ADDR_FRAME", "6.4",
	"4-address frame from a non-4addr station",
	"A 4-address frame came from a station that does not use "
	"4-address mode.", L("ieee80211_rx_h_data"),
	"Check WDS/4addr settings.", WD_SEV_DEPENDS,
	"4addr configuration mismatch."),
M80211_ENTRY("RX_DROP_U_BAD_BCN_KEYIDX", "6.4",
	"protected beacon with an invalid key index",
	"A protected beacon uses a key index that is not valid for beacon "
	"protection.", L("ieee80211_rx_h_decrypt"),
	"Check beacon protection on the AP; may be a fake AP.",
	WD_SEV_DEPENDS, "Fake beacons or AP bug."),
M80211_ENTRY("RX_DROP_U_BAD_MGMT_KEYIDX", "6.4",
	"protected management frame with invalid key index",
	"A protected management frame uses a key index that is not valid "
	"for management frame protection.", L("ieee80211_rx_h_decrypt"),
	"Check PMF keys on both ends.", WD_SEV_DEPENDS, "PMF key mismatch."),
M80211_ENTRY("RX_DROP_U_UNKNOWN_ACTION_REJECTED", "by 6.17",
	"unknown action frame, rejection sent back",
	"An action frame of an unknown category was received; a rejection "
	"was returned to the sender.", L("ieee80211_rx_h_action_return"),
	"Nothing.", WD_SEV_BENIGN, "Peer uses a feature this side lacks."),
};

/* Old names of mac80211 reasons (the 'monitor' list removed by 6.17). */
static const struct {
	const char *old;
	const char *cur;
} catalogue_renames[] = {
	{ "RX_DROP_UNUSABLE", "RX_DROP" },
	{ "RX_DROP_MONITOR", "RX_DROP" },
	{ "RX_DROP_M_UNEXPECTED_4ADDR_FRAME", "RX_DROP_U_UNEXPECTED_4ADDR_FRAME" },
	{ "RX_DROP_M_BAD_BCN_KEYIDX", "RX_DROP_U_BAD_BCN_KEYIDX" },
	{ "RX_DROP_M_BAD_MGMT_KEYIDX", "RX_DROP_U_BAD_MGMT_KEYIDX" },
};

#undef M80211_ENTRY
#undef M_RX
#undef M_KEY
#undef M_SHORT
#undef L
#undef NONE
#undef CORE
#undef OVS
#undef M80211
