# shellcheck shell=bash
# Two network namespaces joined by a veth pair, as the TCP tests use them
# (tests/system/tcp.sh, tests/system/tcp_events.sh): after harness_begin with
# "$A" "$B", with VA, VB, A4, B4, A6, B6 and PEER (tcp_events_peer.py) set,
#   tcp_pair_setup
# gives VA in A and VB in B their addresses, the TCP sysctls the reset
# scenarios rely on (inside the namespaces only: a closed socket in
# FIN_WAIT2 becomes a timewait socket at once, fin_timeout <= 60 s; no reset
# on a full accept queue; SYN cookies never needed), and COOKIE_A, COOKIE_B
# (SO_NETNS_COOKIE). Then ns_cookie NS, mib NS FILE, delta NAME FILE0 FILE1,
# snap N (both namespaces' counters into A.N, B.N), dA NAME / dB NAME (a
# counter's change from snap 0 to snap 1), reset_round SMODE CMODE SIDE,
# serve NS MODE ADDR PORT N (the peer's server), app_resets FILE, and
# wd NAME ARGS... / wd_stop NAME (whydrop in the background).

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

# wd NAME ARGS...: whydrop in the background (stdout NAME.json, stderr
# NAME.err) until wd_stop NAME, which checks that it exited 0 (under ASan:
# no leak, no UBSan error).
declare -A WPID
wd() {
	local name=$1
	shift
	"$W" "$@" >"$TMP/$name.json" 2>"$TMP/$name.err" &
	WPID[$name]=$!
	PIDS+=("${WPID[$name]}")
	wait_attached "$TMP/$name.err" ||
		{ fail "$name: attached" "$(head -c 600 "$TMP/$name.err")"; return 1; }
}
wd_stop() {
	local rc
	kill -INT "${WPID[$1]}" 2>/dev/null
	wait "${WPID[$1]}"
	rc=$?
	[ "$rc" = 0 ] || fail "$1: exit 0 on SIGINT" "exit $rc: $(tail -n 5 "$TMP/$1.err")"
}
