#!/usr/bin/env bash
# The cost of --rules per packet: UDP floods over veth pairs, A -- R -- B (R
# forwards, inside its own namespace), the sender's CPU time per packet
# (which includes the receive path the kernel runs in its context) and its
# wall time, with no whydrop, under `whydrop count --netns NS` and under
# `whydrop count --rules --netns NS`, for: packets delivered to a socket in
# B (traced in B), packets forwarded by R (traced in R), and packets an nft
# rule in B drops (per drop, traced in B). The best of ROUNDS rounds,
# interleaved. Prints key=value lines; asserts nothing.
#   sudo bench/rules_cost.sh   (ROUNDS=3, PACKETS=20000, WHYDROP, DRIVER)
# Needs build/whydrop and build/system/nftrace_drive (make all unit-bins).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROUNDS=${ROUNDS:-3}
N=${PACKETS:-20000}
W=${WHYDROP:-build/whydrop}
D=${DRIVER:-build/system/nftrace_drive}
A=wdrc-$$-a R=wdrc-$$-r B=wdrc-$$-b
[ "$(id -u)" -eq 0 ] || { echo "bench/rules_cost.sh: needs root" >&2; exit 1; }
for x in "$W" "$D"; do
	[ -x "$x" ] || { echo "bench/rules_cost.sh: no $x (make all unit-bins)" >&2; exit 1; }
done
TMP=$(mktemp -d)
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
	wait 2>/dev/null
	for n in "$A" "$R" "$B"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for n in "$A" "$R" "$B"; do
	ip netns add "$n"
	ip -n "$n" link set lo up
	ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
done
ip link add a0 netns "$A" type veth peer name r0 netns "$R"
ip link add r1 netns "$R" type veth peer name b0 netns "$B"
ip -n "$A" addr add 192.0.2.1/24 dev a0
ip -n "$R" addr add 192.0.2.2/24 dev r0
ip -n "$R" addr add 198.51.100.1/24 dev r1
ip -n "$B" addr add 198.51.100.2/24 dev b0
for l in "$A a0" "$R r0" "$R r1" "$B b0"; do set -- $l; ip -n "$1" link set "$2" up; done
ip -n "$A" route add default via 192.0.2.2
ip -n "$B" route add default via 198.51.100.1
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
echo 'table inet fw { chain input { type filter hook input priority 0; udp dport 9998 drop; }; }' |
	ip netns exec "$B" nft -f -
ip netns exec "$B" "$D" sink 9999 >"$TMP/sink.out" &
PIDS+=("$!")
for _ in $(seq 50); do grep -q ready "$TMP/sink.out" && break; sleep 0.1; done
ip netns exec "$A" "$D" flood 198.51.100.2 9 1 >/dev/null	# neighbours resolved

# flood PORT: "cpu_ns wall_ns" per packet of one flood
flood() {
	ip netns exec "$A" "$D" flood 198.51.100.2 "$1" "$N" |
		sed -n 's/.* ns_per_packet \([0-9]*\) cpu_ns_per_packet \([0-9]*\).*/\2 \1/p'
}
# under MODE NS PORT: one flood with no whydrop (none), count, or count --rules
under() {
	local mode=$1 ns=$2 port=$3 p
	case $mode in
	none) flood "$port"; return ;;
	count) "$W" count --netns "$ns" >/dev/null 2>"$TMP/w.err" & ;;
	rules) "$W" count --rules --netns "$ns" >/dev/null 2>"$TMP/w.err" & ;;
	esac
	p=$!
	PIDS+=("$p")
	for _ in $(seq 100); do grep -q attached "$TMP/w.err" && break; sleep 0.1; done
	flood "$port"
	kill -INT "$p"
	wait "$p"
}
best() { [ -z "$1" ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"; }

declare -A CPU WALL
for _ in $(seq "$ROUNDS"); do
	for what in "delivery $B 9999" "forwarding $R 9999" "drop $B 9998"; do
		set -- $what
		for mode in none count rules; do
			read -r c w < <(under "$mode" "$2" "$3")
			[ -n "${c:-}" ] || continue
			CPU[$1.$mode]=$(best "${CPU[$1.$mode]:-}" "$c")
			WALL[$1.$mode]=$(best "${WALL[$1.$mode]:-}" "$w")
		done
	done
done
echo "# sender CPU and wall ns per packet, best of $ROUNDS rounds of $N packets"
for what in delivery forwarding drop; do
	for mode in none count rules; do
		echo "${what}_${mode}_cpu_ns=${CPU[$what.$mode]:-}"
		echo "${what}_${mode}_wall_ns=${WALL[$what.$mode]:-}"
	done
	echo "${what}_rules_extra_cpu_ns=$(( ${CPU[$what.rules]:-0} - ${CPU[$what.count]:-0} ))"
done
