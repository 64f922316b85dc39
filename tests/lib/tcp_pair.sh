# shellcheck shell=bash
# Two network namespaces joined by a veth pair, as the TCP tests use them
# (tests/system/tcp.sh, tcp_events.sh, tcp_record.sh):
#   tcp_pair_begin PART TAG
# runs harness_begin PART with namespaces A and B (named after TAG and the
# shell's pid), sets VA, VB, A4, B4, A6, B6, PEER (tcp_events_peer.py) and N
# (connections per family and case), then tcp_pair_setup, which
# gives VA in A and VB in B their addresses, the TCP sysctls the reset
# scenarios rely on (inside the namespaces only: a closed socket in
# FIN_WAIT2 becomes a timewait socket at once, fin_timeout <= 60 s; no reset
# on a full accept queue; SYN cookies never needed), and COOKIE_A, COOKIE_B
# (SO_NETNS_COOKIE). Then ns_cookie NS, mib NS FILE, delta NAME FILE0 FILE1,
# snap N (both namespaces' counters into A.N, B.N), dA NAME / dB NAME (a
# counter's change from snap 0 to snap 1), reset_round SMODE CMODE SIDE,
# serve NS MODE ADDR PORT N (the peer's server), app_resets FILE, and
# bg NAME BIN ARGS... / bg_stop NAME and wd NAME ARGS... / wd_stop NAME
# (a binary, whydrop, in the background).

tcp_pair_begin() {
	A=wdtcp${2}a-$$ B=wdtcp${2}b-$$ VA=wt${2}a$$ VB=wt${2}b$$
	A4=198.51.100.1 B4=198.51.100.2 A6=2001:db8:27::1 B6=2001:db8:27::2
	harness_begin "$1" "$A" "$B"
	PEER=("$PY" tests/system/tcp_events_peer.py)
	N=3
	tcp_pair_setup
}

tcp_pair_setup() {
	local ns
	ip link add "$VA" netns "$A" type veth peer name "$VB" netns "$B"
	ip -n "$A" addr add "$A4/24" dev "$VA"
	ip -n "$B" addr add "$B4/24" dev "$VB"
	ip -n "$A" addr add "$A6/64" dev "$VA" nodad
	ip -n "$B" addr add "$B6/64" dev "$VB" nodad
	ip -n "$A" link set "$VA" up
	ip -n "$B" link set "$VB" up
	for ns in "$A" "$B"; do
		ip netns exec "$ns" sysctl -qw net.ipv4.tcp_fin_timeout=60 \
			net.ipv4.tcp_abort_on_overflow=0 net.ipv4.tcp_syncookies=1
	done
	COOKIE_A=$(ip netns exec "$A" "${PEER[@]}" cookie)
	COOKIE_B=$(ip netns exec "$B" "${PEER[@]}" cookie)
}

ns_cookie() { if [ "$1" = "$A" ]; then echo "$COOKIE_A"; else echo "$COOKIE_B"; fi; }

# mib NS FILE: the namespace's Tcp and TcpExt counters, "NAME VALUE" a line.
mib() {
	ip netns exec "$1" cat /proc/net/snmp /proc/net/netstat |
		awk '$1 ~ /^(Tcp|TcpExt):$/ { if (h[$1]) { for (i = 2; i <= NF; i++)
			print substr($1, 1, length($1) - 1) h[$1, i], $i; h[$1] = 0 }
			else { h[$1] = 1; for (i = 2; i <= NF; i++) h[$1, i] = $i } }' >"$2"
}

# delta NAME FILE0 FILE1: a counter's change between two mib snapshots.
delta() {
	awk -v k="$1" 'FNR == NR && $1 == k { a = $2 } FNR != NR && $1 == k { b = $2 }
		END { print b - a }' "$2" "$3"
}

snap() { mib "$A" "$TMP/A.$1"; mib "$B" "$TMP/B.$1"; }
dA() { delta "$1" "$TMP/A.0" "$TMP/A.1"; }
dB() { delta "$1" "$TMP/B.0" "$TMP/B.1"; }

# reset_round SMODE CMODE SIDE: over IPv4 then IPv6, the peer's server in B
# in mode SMODE (none: no server) and its client in A in mode CMODE, N
# connections each; adds to app the resets SIDE's (A: the client's, B: the
# server's) own calls saw.
reset_round() {
	local smode=$1 cmode=$2 side=$3 fam addr r
	for fam in 4 6; do
		if [ "$fam" = 4 ]; then addr=$B4; else addr=$B6; fi
		[ "$smode" != none ] && { serve "$B" "$smode" "$addr" 5001 "$N" || return; }
		ip netns exec "$A" "${PEER[@]}" client "$cmode" "$addr" 5001 "$N" >"$TMP/client.out" 2>&1
		[ "$smode" != none ] && wait "$SERVER"
		if [ "$side" = A ]; then
			r=$(app_resets "$TMP/client.out")
		else
			r=$(app_resets "$TMP/server.out")
		fi
		app=$((app + ${r:-0}))
	done
}

# The cases below: each part defines trace NAME NS [ARGS...] (its tracer of
# namespace NS in the background, output in NAME.json) and trace_stop NAME,
# RST_TOTAL (a q expression: every reset sent, as the tracer totals them),
# RCVD_REASON (a q expression: the reason of a reset received) and
# check_isolated NAME COOKIE.

# rst_round NAME SIDE SMODE CMODE [ARGS...]: reset_round SMODE CMODE SIDE,
# each namespace traced (NAME.A, NAME.B, with ARGS), between snap 0 and 1.
rst_round() {
	trace "$1.A" "$A" "${@:5}" || return
	trace "$1.B" "$B" "${@:5}" || return
	snap 0
	reset_round "$3" "$4" "$2" || return
	sleep 0.3
	snap 1
	trace_stop "$1.A"
	trace_stop "$1.B"
}

# rst_case NAME SENDER REASON STATE COUNTER PEER_STATE SMODE CMODE [ARGS...]
# The server runs in B, the client in A, N times on IPv4 then IPv6. SENDER
# (A or B) sends REASON in STATE; COUNTER ("-": none) moves with it; the
# peer receives them in PEER_STATE ("-": nobody receives them).
rst_case() {
	local name=$1 sl=$2 reason=$3 state=$4 counter=$5 pstate=$6 smode=$7 cmode=$8
	local sender peer pl snd_d rcv_d sent want=$((2 * N)) app=0 r sj pj rst
	shift 8
	if [ "$sl" = A ]; then
		sender=$A peer=$B pl=B snd_d=dA rcv_d=dB
	else
		sender=$B peer=$A pl=A snd_d=dB rcv_d=dA
	fi
	rst_round "$name" "$pl" "$smode" "$cmode" "$@" || return
	sj=$TMP/$name.$sl.json pj=$TMP/$name.$pl.json
	rst=$($snd_d TcpOutRsts)
	sent=$(q "$sj" "rows('sent', '$reason', '$state', $(ns_cookie "$sender"))")
	check "$name: counted $sent resets $reason in $state = $want sent" test "$sent" = "$want"
	check "$name: every reset sent counted ($(q "$sj" "$RST_TOTAL")) = the sender's TcpOutRsts (+$rst)" \
		test "$(q "$sj" "rows('sent')")" = "$rst" -a "$(q "$sj" "$RST_TOTAL")" = "$rst"
	[ "$counter" != - ] && check "$name: = the sender's $counter (+$($snd_d "$counter"))" \
		test "$sent" = "$($snd_d "$counter")"
	[ "$pstate" != - ] && rst_received "$name" "$pstate" \
		"$(q "$pj" "rows('received', $RCVD_REASON, '$pstate', $(ns_cookie "$peer"))")"
	check_isolated "$name.A" "$COOKIE_A"
	check_isolated "$name.B" "$COOKIE_B"
}

# rst_cases: rst_case for each reset reason this kernel can be made to send
# on a connection (NO_SOCKET, TCP_ABORT_ON_CLOSE, TCP_ABORT_ON_LINGER,
# TCP_STATE, TCP_ABORT_ON_DATA, TCP_TIMEWAIT_SOCKET)
rst_cases() {
	rst_case no_socket B NO_SOCKET - - SYN_SENT none refused
	rst_case abort_on_close B TCP_ABORT_ON_CLOSE CLOSE TcpExtTCPAbortOnClose ESTABLISHED \
		abort_on_close send_wait
	rst_case abort_on_linger A TCP_ABORT_ON_LINGER CLOSE TcpExtTCPAbortOnLinger CLOSE_WAIT \
		hold linger2
	# SO_LINGER 0: tcp_disconnect() says TCP_STATE; the kernel counts it in TCPAbortOnData
	rst_case so_linger_0 A TCP_STATE CLOSE TcpExtTCPAbortOnData ESTABLISHED hold linger0
	rst_case abort_on_data A TCP_ABORT_ON_DATA CLOSE TcpExtTCPAbortOnData CLOSE_WAIT \
		send_after_eof shut_rdwr
	rst_case timewait A TCP_TIMEWAIT_SOCKET TIME_WAIT - CLOSE_WAIT send_after_eof shut_wr_close
}

# rst_received NAME PEER_STATE R (in rst_case): the peer received R resets in
# PEER_STATE = its application's own (app) = want; in ESTABLISHED or CLOSE_WAIT
# = its TcpEstabResets (rcv_d) too.
rst_received() {
	check "$1: the peer received $3 in $2 = the peer application's own resets ($app)" \
		test "$3" = "$app" -a "$3" = "$want"
	case $2 in ESTABLISHED | CLOSE_WAIT)
		check "$1: = the peer's TcpEstabResets (+$($rcv_d TcpEstabResets))" \
			test "$3" = "$($rcv_d TcpEstabResets)" ;;
	esac
}

# crafted_syns: a listener in B on port 5002, snap 0, then from A, from an
# address nobody answers for (the SYN-ACK goes nowhere; IPv4 only), two SYNs
# on each of N ports (the second inside the window of the first's pending
# request: INVALID_SYN) and an ACK no pending connection expects (TCP_FLAGS).
crafted_syns() {
	ip netns exec "$B" "$PY" -c 'import socket, sys, time
s = socket.socket(); s.bind((sys.argv[1], 5002)); s.listen(8)
print("ready", flush=True); time.sleep(5)' "$B4" >"$TMP/listener.out" &
	PIDS+=("$!")
	poll_until 5 grep -q ready "$TMP/listener.out"
	snap 0
	ip netns exec "$A" "$PY" -c 'import sys
from scapy.all import IP, TCP, conf, send
conf.verb = 0
for port in range(40001, 40001 + int(sys.argv[3])):
    for seq in (1000, 1001):
        send(IP(src=sys.argv[1], dst=sys.argv[2]) / TCP(sport=port, dport=5002, flags="S", seq=seq))
send(IP(src=sys.argv[1], dst=sys.argv[2]) / TCP(sport=40100, dport=5002, flags="A", seq=1, ack=1))' \
		198.51.100.3 "$B4" "$N"
}

# keepalive_case TABLE: B goes silent (nft table TABLE in B drops port 5001
# both ways) under A's client with a keepalive of 1 s: A's one reset
# TCP_KEEPALIVE_TIMEOUT = its TcpExtTCPAbortOnTimeout, every reset = its
# TcpOutRsts.
keepalive_case() {
	local line
	serve "$B" sink "$B4" 5001 1
	trace keepalive.A "$A"
	snap 0
	coproc KA { ip netns exec "$A" "${PEER[@]}" client keepalive "$B4" 5001 1 2>&1; }
	read -r -t 5 line <&"${KA[0]}"
	ip netns exec "$B" nft -f - <<NFT
table inet $1 {
	chain in { type filter hook input priority 0; tcp dport 5001 drop; }
	chain out { type filter hook output priority 0; tcp sport 5001 drop; }
}
NFT
	echo go >&"${KA[1]}"
	wait "$KA_PID" 2>/dev/null
	# B's end closes too: its FIN (and retransmissions, for seconds) would
	# each make A answer a reset, racing snap 1 and the tracer's exit. B's
	# output is dropped, so A's only reset is the keepalive's.
	kill "$SERVER" 2>/dev/null
	wait "$SERVER" 2>/dev/null
	sleep 1	# a loaded machine (ASan) answers late
	snap 1
	trace_stop keepalive.A
	ip netns exec "$B" nft delete table inet "$1"
	check "keepalive: 1 reset TCP_KEEPALIVE_TIMEOUT in ESTABLISHED = A's TcpExtTCPAbortOnTimeout (+$(dA TcpExtTCPAbortOnTimeout))" \
		test "$(q "$TMP/keepalive.A.json" "rows('sent', 'TCP_KEEPALIVE_TIMEOUT', 'ESTABLISHED', $COOKIE_A)")" = 1 \
		-a "$(dA TcpExtTCPAbortOnTimeout)" = 1
	check "keepalive: every reset counted = A's TcpOutRsts (+$(dA TcpOutRsts))" \
		test "$(q "$TMP/keepalive.A.json" "rows('sent')")" = "$(dA TcpOutRsts)"
}

# bulk ADDR PORT BYTES: a transfer from A to a sink in B
bulk() {
	serve "$B" sink "$1" "$2" 1 || return
	ip netns exec "$A" "${PEER[@]}" client bulk "$1" "$2" 1 "$3" >"$TMP/client.out" 2>&1
	wait "$SERVER"
}

# serve NS MODE ADDR PORT N: the peer's server in NS, once it says "ready" (SERVER: its pid).
serve() {
	rm -f "$TMP/server.out"	# not the last server's "ready"
	ip netns exec "$1" "${PEER[@]}" server "$2" "$3" "$4" "$5" >"$TMP/server.out" 2>&1 &
	SERVER=$!
	PIDS+=("$SERVER")
	for _ in $(seq 50); do grep -q ready "$TMP/server.out" && return 0; sleep 0.1; done
	fail "server $2 on $3 ready" "$(cat "$TMP/server.out")"
}

# app_resets FILE: the resets a peer application saw itself.
app_resets() { awk '$1 == "resets" { print $2 }' "$1"; }

# q FILE EXPR: a Python expression over a JSON document d (count --json, read
# --json, the driver's): rows() sums resets by direction, reason, state and
# namespace cookie, drops() drops by reason, flows() retransmits by cookie, s
# the driver's stats.
q() {
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
def rows(direction=None, reason=None, state=None, cookie=None):
    return sum(r["count"] for r in d.get("resets", [])
               if (direction is None or r["direction"] == direction)
               and (reason is None or r.get("reason") == reason)
               and (state is None or r["state"] == state)
               and (cookie is None or r.get("netns_cookie") == cookie))
def drops(reason=None):
    return sum(r["count"] for r in d["drops"] if reason is None or r["reason"] == reason)
def flows(cookie=None):
    return sum(f["retransmits"] for f in d["flows"]
               if cookie is None or f["netns_cookie"] == cookie)
s = d.get("stats")
print(eval("(" + sys.argv[2] + ")"))' "$1" "$2"
}

# bg NAME BIN ARGS...: BIN in the background (stdout NAME.json, stderr
# NAME.err, pid BGPID[NAME]) once it says it attached, until bg_stop NAME
# (SIGINT; returns its exit status).
declare -A BGPID
bg() {
	local name=$1 bin=$2
	shift 2
	"$bin" "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" &
	BGPID[$name]=$!
	PIDS+=("${BGPID[$name]}")
	wait_attached "$TMP/$name.err" ||
		{ fail "$name: attached" "$(head -c 600 "$TMP/$name.err")"; return 1; }
}
bg_stop() {
	kill -INT "${BGPID[$1]}" 2>/dev/null
	wait "${BGPID[$1]}"
}

# wd NAME ARGS...: whydrop in the background until wd_stop NAME, which checks
# that it exited 0 (under ASan: no leak, no UBSan error).
wd() { bg "$1" "$W" "${@:2}"; }
wd_stop() {
	local rc
	bg_stop "$1"
	rc=$?
	[ "$rc" = 0 ] || fail "$1: exit 0 on SIGINT" "exit $rc: $(tail -n 5 "$TMP/$1.err")"
}
