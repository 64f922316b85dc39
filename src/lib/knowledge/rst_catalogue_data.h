/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reset-reason catalogue itself: one entry per enum sk_rst_reason
 * value of 6.18 (include/net/rstreason.h), in the kernel's order, MAX left
 * out. Included by rst_catalogue.c only. Never key anything here by number.
 *
 * "since": 6.10 brought the enum with the reasons of passive resets (those
 * that mirror drop reasons) and MPTCP's; the reasons of resets TCP sends on
 * its own initiative came in 6.12 (checked in 6.12's BTF; before, those
 * resets said NOT_SPECIFIED). "Reproduced" names the scenario of
 * tests/system/tcp_events.sh that makes this kernel send it.
 */

#define L(...)	((const char *const []){ __VA_ARGS__, NULL })
#define NONE	((const char *const []){ NULL })

#define MPTCP_LOOK \
	"`ip mptcp endpoint show`, `ip mptcp limits show`, `ip mptcp monitor` " \
	"(subflow events as they happen), the path manager's log (mptcpd)"

static const struct wd_rst_entry rst_catalogue[] = {
{
	.name = "NOT_SPECIFIED",
	.since = "6.10",
	.summary = "reset without a more precise reason",
	.meaning = "Whoever sent the reset gave no reason: a reset answering a "
		"segment whose drop reason has no reset counterpart, and on 6.10 "
		"and 6.11 every reset TCP sends on its own initiative (closing "
		"with unread data, SO_LINGER 0, a keepalive timeout), which later "
		"kernels name.",
	.functions = L("tcp_v4_send_reset", "tcp_v6_send_reset", "tcp_send_active_reset"),
	.counters = L("TcpOutRsts"),
	.sysctls = NONE,
	.settings = "The reset's socket state and flow (`whydrop watch` records); "
		"on 6.10 and 6.11, the TcpExtTCPAbortOn* counter that moved with it "
		"says which active reset it was.",
	.action = "Look at the state and the flow: an established connection reset "
		"by this side means the application or the kernel gave up on it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare on 6.12 and later; on older kernels it hides every "
		"active reset, benign or not.",
	.reproduced = "",
	.history = "",
},
{
	.name = "NO_SOCKET",
	.since = "6.10",
	.summary = "segment for a port no socket owns",
	.meaning = "A TCP segment (not itself a reset) arrived for an address and "
		"port that no socket owns here: nothing listens, or the connection "
		"it belongs to is gone from this host (a restart, a connection "
		"forgotten by a NAT on the way). The segment is also dropped with "
		"the drop reason NO_SOCKET.",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv"),
	.counters = L("TcpOutRsts"),
	.sysctls = NONE,
	.settings = "`ss -lnt` in the namespace the reset came from; the address "
		"the service binds (127.0.0.1, one IP, all); DNAT and port-forward "
		"targets.",
	.action = "If the port should answer: start the service, or bind it where "
		"clients connect. If not: nothing to do.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Port scans and late segments of closed connections keep "
		"a background; a burst after a restart or deploy is an outage.",
	.reproduced = "connect() to a closed port (no_socket)",
	.history = "",
},
{
	.name = "TCP_INVALID_ACK_SEQUENCE",
	.since = "6.10",
	.summary = "handshake reply acknowledges what was never sent",
	.meaning = "While connecting (SYN_SENT), the reply acknowledged a sequence "
		"number outside what this socket has sent (not after snd_una, or "
		"after snd_nxt): a reply meant for an older connection with the "
		"same ports, a spoofed segment, or a middlebox that rewrites "
		"sequence numbers. RFC 9293 says to answer with a reset.",
	.functions = L("tcp_rcv_synsent_state_process"),
	.counters = L("TcpOutRsts"),
	.sysctls = L("net.ipv4.ip_local_port_range"),
	.settings = "A capture of the handshake; NAT or firewalls that randomize "
		"sequence numbers; clients reusing source ports fast.",
	.action = "If one path shows it steadily, look at the middlebox on it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "An occasional one is a stale reply; a steady rate on one "
		"path is a middlebox problem.",
	.reproduced = "",
	.history = "",
},
{
	.name = "TCP_RFC7323_PAWS",
	.since = "6.10",
	.summary = "handshake reply echoes a timestamp never sent",
	.meaning = "While connecting, the SYN-ACK echoed a timestamp (TSecr) that "
		"this socket did not send: not between its first SYN's and now. "
		"RFC 7323's protection against old duplicates (PAWS) rejects it.",
	.functions = L("tcp_rcv_synsent_state_process"),
	.counters = L("TcpExtPAWSActive", "TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_timestamps"),
	.settings = "Middleboxes that rewrite or strip TCP timestamps; replies to "
		"an earlier attempt with the same ports.",
	.action = "If steady on one path, fix or bypass the middlebox; turning "
		"timestamps off only hides it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare between healthy hosts.",
	.reproduced = "",
	.history = "",
},
{
	.name = "TCP_TOO_OLD_ACK",
	.since = "6.10",
	.summary = "ACK older than the window allows (SYN_RECV)",
	.meaning = "A socket still in SYN_RECV (a Fast Open connection, or a "
		"simultaneous open) got an ACK for data older than the oldest "
		"unacknowledged byte minus the largest window: RFC 5961's check "
		"against blind data injection. A socket in that state resets "
		"instead of ignoring it.",
	.functions = L("tcp_rcv_state_process", "tcp_ack"),
	.counters = L("TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_fastopen"),
	.settings = "The peer's TCP stack and the path (a capture); Fast Open "
		"clients.",
	.action = "Find the peer that sends it; disable Fast Open towards it if "
		"it mishandles it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A broken peer, or segments injected on purpose.",
	.reproduced = "",
	.history = "",
},
{
	.name = "TCP_ACK_UNSENT_DATA",
	.since = "6.10",
	.summary = "ACK for data never sent (SYN_RECV)",
	.meaning = "A socket still in SYN_RECV got an ACK for data it has not "
		"sent yet (after snd_nxt). Established sockets drop such ACKs; in "
		"this state the connection is reset.",
	.functions = L("tcp_rcv_state_process", "tcp_ack"),
	.counters = L("TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_fastopen"),
	.settings = "The peer's stack and any middlebox that rewrites sequence "
		"numbers (a capture of the handshake).",
	.action = "As for TCP_INVALID_ACK_SEQUENCE: look at what is between the "
		"hosts.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare between healthy hosts.",
	.reproduced = "",
	.history = "",
},
{
	.name = "TCP_FLAGS",
	.since = "6.10",
	.summary = "ACK to a listener that expects no handshake",
	.meaning = "The segment's flags do not fit the socket's state; the case "
		"answered with a reset is an ACK reaching a listening socket with "
		"no pending connection for it: the handshake's request was "
		"dropped or expired, a SYN cookie did not validate, or the SYN "
		"went to another host (asymmetric routing, a load balancer).",
	.functions = L("tcp_rcv_state_process"),
	.counters = L("TcpOutRsts", "TcpExtSyncookiesFailed", "TcpExtListenDrops"),
	.sysctls = L("net.ipv4.tcp_syncookies", "net.ipv4.tcp_max_syn_backlog"),
	.settings = "SYN queue drops and overflows (TcpExtListenDrops, "
		"TcpExtListenOverflows), SYN cookies, where the client's SYN went "
		"(routing, the balancer's hashing).",
	.action = "Grow the listen backlog or the SYN queue if they overflow; fix "
		"routing if the handshake is split between hosts.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A few after a listener restart are normal; a steady rate "
		"means handshakes are being lost.",
	.reproduced = "a bare ACK to a listener (tcp_flags)",
	.history = "",
},
{
	.name = "TCP_OLD_ACK",
	.since = "6.10",
	.summary = "old but in-window ACK (SYN_RECV)",
	.meaning = "A socket still in SYN_RECV got an ACK that acknowledges nothing "
		"new (older than the oldest unacknowledged byte, but inside the "
		"window). Established sockets ignore it; this state resets.",
	.functions = L("tcp_rcv_state_process"),
	.counters = L("TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_fastopen"),
	.settings = "Reordering or duplication on the path; the peer's stack.",
	.action = "Usually nothing; look at the path if it is steady.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Reordering during a Fast Open handshake can cause it.",
	.reproduced = "",
	.history = "",
},
{
	.name = "TCP_ABORT_ON_DATA",
	.since = "6.10",
	.summary = "data after this side shut down reading",
	.meaning = "New data arrived after this socket was closed or shut down for "
		"reading (FIN_WAIT1 or FIN_WAIT2 with its receive side shut): RFC "
		"1122 says the sender must learn it went nowhere. The kernel runs "
		"tcp_reset() on the socket first, so a reset is also counted as "
		"received here, in FIN_WAIT1 or FIN_WAIT2.",
	.functions = L("tcp_rcv_state_process"),
	.counters = L("TcpExtTCPAbortOnData", "TcpOutRsts"),
	.sysctls = NONE,
	.settings = "The application closing (or shutdown(SHUT_RD)) while its peer "
		"still sends: a protocol that does not agree on who stops first.",
	.action = "Drain the socket before close(), or make the peer stop sending "
		"first.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Benign when a client hangs up on a server still talking; "
		"a problem when the data mattered.",
	.reproduced = "shutdown(SHUT_RDWR), then the peer writes (abort_on_data)",
	.history = "TcpExtTCPAbortOnData also counts SO_LINGER 0 closes, which "
		"say TCP_STATE.",
},
{
	.name = "TCP_TIMEWAIT_SOCKET",
	.since = "6.12",
	.summary = "a timewait socket refuses a segment",
	.meaning = "Only the timewait socket of a connection closed here is left, "
		"and a segment arrived that it cannot take: new data after a "
		"half-close (the FIN_WAIT2 kind of timewait socket), or a SYN that "
		"may not reuse the connection's ports yet.",
	.functions = L("tcp_v4_rcv", "tcp_v6_rcv", "tcp_timewait_state_process"),
	.counters = L("TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_tw_reuse",
		     "net.ipv4.tcp_max_tw_buckets"),
	.settings = "A peer that keeps writing after this side closed; clients "
		"reconnecting from the same port at once.",
	.action = "Close only once the peer is done (or read until it closes); "
		"for reconnects, let clients pick new ports.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Usually the tail of a connection one side closed early.",
	.reproduced = "shutdown(SHUT_WR), close(), then the peer writes (timewait)",
	.history = "6.10 and 6.11 said NOT_SPECIFIED (or the drop reason's).",
},
{
	.name = "INVALID_SYN",
	.since = "6.12",
	.summary = "bad SYN for a pending connection, or queue full",
	.meaning = "A listener has a pending connection (a request socket) for "
		"the flow and a SYN arrived that is not a retransmission of the "
		"first, inside its window: RFC 9293 makes that an error. The same "
		"reset answers a handshake's last ACK when the accept queue is "
		"full and net.ipv4.tcp_abort_on_overflow is 1.",
	.functions = L("tcp_check_req"),
	.counters = L("TcpExtEmbryonicRsts", "TcpAttemptFails", "TcpOutRsts",
		      "TcpExtListenOverflows"),
	.sysctls = L("net.ipv4.tcp_abort_on_overflow"),
	.settings = "Clients (or NATs) reusing a source port within a handshake; "
		"with tcp_abort_on_overflow=1, the accept queue (`ss -lnt`: "
		"Recv-Q against Send-Q).",
	.action = "A full accept queue: make the application accept faster or "
		"raise its backlog (and net.core.somaxconn).",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "With tcp_abort_on_overflow=1 each one is a refused "
		"client.",
	.reproduced = "a second, in-window SYN for a pending request (invalid_syn)",
	.history = "6.10 and 6.11 said NOT_SPECIFIED.",
},
{
	.name = "TCP_ABORT_ON_CLOSE",
	.since = "6.12",
	.summary = "closed with received data unread",
	.meaning = "The application closed the socket while data it had received "
		"was still unread: the kernel discards it and resets, so the peer "
		"knows it was not consumed.",
	.functions = L("__tcp_close"),
	.counters = L("TcpExtTCPAbortOnClose", "TcpOutRsts"),
	.sysctls = NONE,
	.settings = "The application's protocol handling: a server that answers "
		"and closes without reading the whole request (bodies, pipelined "
		"requests), a client that closes with a response still queued.",
	.action = "Read what is left (or shut down writing and wait for the peer) "
		"before close().",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Common with HTTP servers closing early; the peer may see "
		"a truncated exchange.",
	.reproduced = "close() with the peer's data unread (abort_on_close)",
	.history = "6.10 and 6.11 said NOT_SPECIFIED.",
},
{
	.name = "TCP_ABORT_ON_LINGER",
	.since = "6.12",
	.summary = "closed in FIN_WAIT2 with TCP_LINGER2 < 0",
	.meaning = "The socket was closed after its FIN was acknowledged and "
		"before the peer's arrived (FIN_WAIT2), with the TCP_LINGER2 "
		"option negative: rather than wait for the peer, the kernel "
		"resets. (SO_LINGER 0 is TCP_STATE.)",
	.functions = L("__tcp_close"),
	.counters = L("TcpExtTCPAbortOnLinger", "TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_fin_timeout"),
	.settings = "setsockopt(TCP_LINGER2) in the application.",
	.action = "Nothing if intended; otherwise leave TCP_LINGER2 at its default.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Chosen by the application.",
	.reproduced = "TCP_LINGER2 -1, shutdown(SHUT_WR), close() (abort_on_linger)",
	.history = "6.10 and 6.11 said NOT_SPECIFIED.",
},
{
	.name = "TCP_ABORT_ON_MEMORY",
	.since = "6.12",
	.summary = "too many orphaned sockets, or TCP memory full",
	.meaning = "A socket closing without its application (an orphan) found "
		"too many orphaned sockets, or TCP over its memory limit: the "
		"kernel resets instead of finishing the close gracefully.",
	.functions = L("__tcp_close", "tcp_out_of_resources"),
	.counters = L("TcpExtTCPAbortOnMemory", "TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_max_orphans", "net.ipv4.tcp_mem"),
	.settings = "`ss -s` (orphaned), /proc/net/sockstat (mem), the kernel log "
		"(\"too many orphaned sockets\", \"out of memory -- consider "
		"tuning tcp_mem\").",
	.action = "Find what leaves so many connections closing (slow or gone "
		"peers); raise the limits only if the memory is there.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "The host is short of TCP memory or flooded with closing "
		"connections.",
	.reproduced = "",
	.history = "6.10 and 6.11 said NOT_SPECIFIED.",
},
{
	.name = "TCP_STATE",
	.since = "6.12",
	.summary = "connection torn down by the application",
	.meaning = "The socket was torn down from a state where the peer must be "
		"told: close() with SO_LINGER {1, 0}, connect(AF_UNSPEC) on a live "
		"connection (tcp_disconnect()), or a socket destroyed from outside "
		"(`ss -K`, tcp_abort()).",
	.functions = L("tcp_disconnect", "tcp_abort"),
	.counters = L("TcpExtTCPAbortOnData", "TcpOutRsts"),
	.sysctls = NONE,
	.settings = "SO_LINGER 0 in the application (load balancers and clients "
		"use it to avoid TIME_WAIT); tools that kill sockets (`ss -K`).",
	.action = "Nothing if intended; the peer sees ECONNRESET instead of an "
		"orderly close.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Chosen by the application or an administrator.",
	.reproduced = "close() with SO_LINGER {1, 0} (so_linger_0)",
	.history = "6.10 and 6.11 said NOT_SPECIFIED. The kernel counts SO_LINGER 0 "
		"closes in TcpExtTCPAbortOnData.",
},
{
	.name = "TCP_KEEPALIVE_TIMEOUT",
	.since = "6.12",
	.summary = "keepalive probes went unanswered",
	.meaning = "The connection stayed idle past the keepalive time and every "
		"probe went unanswered: the peer host is gone, or a NAT or "
		"firewall on the way forgot the connection.",
	.functions = L("tcp_keepalive_timer"),
	.counters = L("TcpExtTCPAbortOnTimeout", "TcpOutRsts"),
	.sysctls = L("net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_keepalive_intvl",
		     "net.ipv4.tcp_keepalive_probes"),
	.settings = "The path to the peer; idle timeouts of NATs and firewalls "
		"(shorter than the keepalive time, they drop the state first); "
		"TCP_KEEPIDLE/KEEPINTVL/KEEPCNT set by the application.",
	.action = "Make the keepalive time shorter than the middleboxes' idle "
		"timeout, or find why the peer vanished.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Dead peers are expected now and then; many at once is "
		"a path or middlebox problem.",
	.reproduced = "keepalive of 1 s while the peer drops everything (keepalive)",
	.history = "6.10 and 6.11 said NOT_SPECIFIED.",
},
{
	.name = "TCP_DISCONNECT_WITH_DATA",
	.since = "6.12",
	.summary = "disconnect with written data still unsent",
	.meaning = "tcp_disconnect() (SO_LINGER 0 close, connect(AF_UNSPEC)) ran "
		"on a socket in CLOSING or LAST_ACK whose written data had not all "
		"gone out: the data is dropped and the peer reset.",
	.functions = L("tcp_disconnect"),
	.counters = L("TcpExtTCPAbortOnData", "TcpOutRsts"),
	.sysctls = NONE,
	.settings = "SO_LINGER 0 on sockets that still write while closing.",
	.action = "Let the close finish (no SO_LINGER 0) when the data matters.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Data the application wrote was thrown away.",
	.reproduced = "",
	.history = "6.10 and 6.11 said NOT_SPECIFIED.",
},
{
	.name = "MPTCP_RST_EUNSPEC",
	.since = "6.10",
	.summary = "MPTCP subflow reset, no specific error",
	.meaning = "An MPTCP subflow was reset with RFC 8684's \"unspecified "
		"error\" code (also sent to the peer in the MP_TCPRST option): the "
		"subflow is no longer usable; the MPTCP connection goes on over "
		"its other subflows.",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled"),
	.settings = MPTCP_LOOK,
	.action = "Look at the subflow events around it.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Subflows come and go with paths.",
	.reproduced = "",
	.history = "",
},
{
	.name = "MPTCP_RST_EMPTCP",
	.since = "6.10",
	.summary = "MPTCP option error on a subflow",
	.meaning = "An MPTCP subflow was reset because its MPTCP options were "
		"wrong: the usual code for an invalid response, such as a failed "
		"MP_JOIN (unknown token, bad HMAC).",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled"),
	.settings = MPTCP_LOOK,
	.action = "Check the peer's MPTCP implementation and middleboxes that "
		"alter TCP options.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A middlebox or peer that mangles MPTCP options.",
	.reproduced = "",
	.history = "",
},
{
	.name = "MPTCP_RST_ERESOURCE",
	.since = "6.10",
	.summary = "no resources for an MPTCP subflow",
	.meaning = "An MPTCP subflow was reset because this host lacks the "
		"resources to keep it (RFC 8684's \"lack of resources\").",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled"),
	.settings = MPTCP_LOOK,
	.action = "Look at memory and subflow limits.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "Rare.",
	.reproduced = "",
	.history = "",
},
{
	.name = "MPTCP_RST_EPROHIBIT",
	.since = "6.10",
	.summary = "MPTCP subflow administratively prohibited",
	.meaning = "An MPTCP subflow was refused by this host's policy (RFC "
		"8684's \"administratively prohibited\"): for instance a join over "
		"the path manager's limits.",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled"),
	.settings = MPTCP_LOOK,
	.action = "Raise `ip mptcp limits` if the subflows are wanted.",
	.severity = WD_SEV_BENIGN,
	.severity_note = "Policy doing its job.",
	.reproduced = "",
	.history = "",
},
{
	.name = "MPTCP_RST_EWQ2BIG",
	.since = "6.10",
	.summary = "too much data outstanding on an MPTCP subflow",
	.meaning = "An MPTCP subflow was reset because too much data is queued on "
		"it that other subflows have meanwhile delivered: starting over "
		"is cheaper than retransmitting it.",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled"),
	.settings = MPTCP_LOOK,
	.action = "Look at the path of that subflow (loss, outage).",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A path that stalled for a while.",
	.reproduced = "",
	.history = "",
},
{
	.name = "MPTCP_RST_EBADPERF",
	.since = "6.10",
	.summary = "MPTCP subflow performs too poorly",
	.meaning = "An MPTCP subflow was reset because it performs far worse than "
		"the connection's other subflows.",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled"),
	.settings = MPTCP_LOOK,
	.action = "Look at that path's loss and delay.",
	.severity = WD_SEV_DEPENDS,
	.severity_note = "A poor path, dropped on purpose.",
	.reproduced = "",
	.history = "",
},
{
	.name = "MPTCP_RST_EMIDDLEBOX",
	.since = "6.10",
	.summary = "middlebox interference on an MPTCP subflow",
	.meaning = "An MPTCP subflow was reset because something on its path "
		"interferes with MPTCP signalling: options removed or changed, a "
		"data checksum that does not match.",
	.functions = L("mptcp_subflow_reset", "tcp_send_active_reset"),
	.counters = L("MPTcpExtMPRstTx", "TcpOutRsts"),
	.sysctls = L("net.mptcp.enabled", "net.mptcp.checksum_enabled"),
	.settings = MPTCP_LOOK,
	.action = "Find the middlebox on that path (a capture on both ends shows "
		"what changes).",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Something rewrites the traffic.",
	.reproduced = "",
	.history = "",
},
{
	.name = "ERROR",
	.since = "6.10",
	.summary = "reset for an unexpected error",
	.meaning = "The last resort: an error that fits no other reason. In 6.18 "
		"MPTCP gives it when a subflow's reset code is none of RFC 8684's "
		"(sk_rst_convert_mptcp_reason()).",
	.functions = L("sk_rst_convert_mptcp_reason"),
	.counters = L("TcpOutRsts"),
	.sysctls = NONE,
	.settings = "The flow and the kernel log around it.",
	.action = "Worth a report to the kernel's MPTCP maintainers if it repeats.",
	.severity = WD_SEV_PROBLEM,
	.severity_note = "Should not happen.",
	.reproduced = "",
	.history = "",
},
};

#undef L
#undef NONE
#undef MPTCP_LOOK
