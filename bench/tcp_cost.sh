#!/usr/bin/env bash
# The cost of --tcp: `whydrop count --tcp` and `whydrop count` over (a) a TCP
# transfer between two namespaces, S -- R, with an nft rule in R dropping
# one data segment in 10 (a high retransmission rate, in S), and (b) a reset
# storm (connects to a closed port over lo, in namespace X). From each BPF
# program's own run_time_ns / run_cnt (kernel.bpf_stats_enabled, set and
# restored by bench/storm_cost.sh): ns per event of the reset sent, reset
# received, retransmit, state-change catch-up and per-flow TCP drop
# programs and of the drop program with and without --tcp, and the events
# per second. Exit 1 when
# whydrop's retransmits or resets sent differ from the namespace's
# TcpRetransSegs / TcpOutRsts. Prints key=value lines.
#   sudo bench/tcp_cost.sh   (BENCH_DURATION=3, WHYDROP)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
DUR=${BENCH_DURATION:-3}
WHYDROP=${WHYDROP:-build/whydrop}
S=wdtc-$$-s R=wdtc-$$-r X=wdtc-$$-x
[ "$(id -u)" -eq 0 ] || { echo "bench/tcp_cost.sh: needs root" >&2; exit 1; }
[ -x "$WHYDROP" ] || { echo "bench/tcp_cost.sh: no $WHYDROP (run make)" >&2; exit 1; }
TMP=$(mktemp -d)
. bench/storm_cost.sh	# storm_cost_init, start_tracer, WD, PY
storm_cost_init "$S" "$R" "$X"
FAILED=0

ip link add s0 netns "$S" type veth peer name r0 netns "$R" || exit 1
ip -n "$S" addr add 192.0.2.1/24 dev s0
ip -n "$R" addr add 192.0.2.2/24 dev r0
ip -n "$S" link set s0 up
ip -n "$R" link set r0 up
echo 'table inet wdtc { chain input { type filter hook input priority 0;
	tcp dport 5001 numgen random mod 10 == 0 drop; }; }' | ip netns exec "$R" nft -f - || exit 1

# snmp NS FIELD: a Tcp counter of namespace NS.
snmp() {
	ip netns exec "$1" awk -v f="$2" '/^Tcp:/ { if (!n++) { for (i = 1; i <= NF; i++) c[$i] = i }
		else print $c[f] }' /proc/net/snmp
}

# settle NS FIELD: wait until the counter stops moving (up to 10 s).
settle() {
	local a b
	a=$(snmp "$1" "$2")
	for _ in $(seq 20); do
		sleep 0.5
		b=$(snmp "$1" "$2")
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}

# "name run_time_ns run_cnt" per program the tracer holds.
prog_table() {
	local id
	for id in $(prog_ids "$WD"); do
		bpftool prog show id "$id" --json | $PY -c 'import json,sys
p = json.load(sys.stdin); print(p.get("name", "?"), p.get("run_time_ns", 0), p.get("run_cnt", 0))'
	done
}

# Per program kind: "kind ns_per_event events_per_s" from two prog_tables.
prog_diff() {
	$PY - "$1" "$2" "$3" <<'EOF'
import sys
def load(f):
    return {l.split()[0]: tuple(map(int, l.split()[1:])) for l in open(f) if l.strip()}
a, b, secs = load(sys.argv[1]), load(sys.argv[2]), float(sys.argv[3])
kinds = (("rst_sent", "reset_sent"), ("rst_recv", "reset_received"),
         ("retrans", "retransmit"), ("synack", "synack_retransmit"),
         ("state", "state_change"),
         ("kfree_skb_tcp", "tcp_drop"), ("kfree_skb", "drop"))
out = {}
for name, (t1, c1) in b.items():
    t0, c0 = a.get(name, (0, 0))
    kind = next((k for p, k in kinds if name.startswith(p)), None)
    if kind is None:
        continue
    t, c = out.get(kind, (0, 0))
    out[kind] = (t + t1 - t0, c + c1 - c0)
for kind, (t, c) in out.items():
    print(kind, "%.1f" % (t / c) if c else "n/a", "%.0f" % (c / secs))
EOF
}

# transfer: DUR seconds of TCP from S to R:5001, until R has read it all.
transfer() {
	ip netns exec "$R" $PY -c 'import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("192.0.2.2", 5001)); s.listen(1); print("ready", flush=True)
c, _ = s.accept()
while c.recv(1 << 16):
    pass
c.close()' >"$TMP/sink.out" &
	local sink=$!
	poll_until 10 grep -q ready "$TMP/sink.out"
	ip netns exec "$S" $PY -c 'import socket, sys, time
c = socket.create_connection(("192.0.2.2", 5001)); buf = bytes(1 << 16)
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    c.sendall(buf)
c.shutdown(socket.SHUT_WR)
while c.recv(1 << 16):
    pass' "$DUR"
	wait "$sink"
}

# resets: DUR seconds of connects to a closed port of X's lo.
resets() {
	ip netns exec "$X" $PY tests/lib/refused.py --for "$DUR"
}

# measure NAME LOAD NS FIELD JQ ARGS...: whydrop count ARGS over LOAD; prints
# the programs' key=value lines; with --tcp, checks whydrop's total (the
# Python expression JQ over its JSON document j) against FIELD of NS.
measure() {
	local name=$1 load=$2 ns=$3 field=$4 expr=$5 k0 k1 t0 t1 got
	shift 5
	start_tracer whydrop count --json --netns "$ns" "$@" || { FAILED=1; return; }
	k0=$(snmp "$ns" "$field")
	prog_table >"$TMP/p0"
	t0=$(date +%s.%N)
	"$load"
	t1=$(date +%s.%N)
	settle "$ns" "$field"
	prog_table >"$TMP/p1"
	k1=$(snmp "$ns" "$field")
	kill -INT "$WD"; wait "$WD"; WD=
	prog_diff "$TMP/p0" "$TMP/p1" "$($PY -c "print($t1 - $t0)")" |
		while read -r kind ns_ev eps; do
			echo "${name}_${kind}_ns_per_event=$ns_ev"
			echo "${name}_${kind}_events_per_s=$eps"
		done
	echo "${name}_${field}=$((k1 - k0))"
	echo "${name}_${field}_per_s=$($PY -c "print('%.0f' % ($((k1 - k0)) / ($t1 - $t0)))")"
	case " $* " in *" --tcp "*) ;; *) return ;; esac
	got=$($PY -c "import json; j = json.load(open('$TMP/out.json')); print($expr)")
	echo "${name}_whydrop=$got"
	if [ "$got" != "$((k1 - k0))" ]; then
		echo "bench/tcp_cost.sh: $name: whydrop counted $got, $field $((k1 - k0))" >&2
		FAILED=1
	fi
}

RETR='j["tcp"]["retransmits"]'
RSTS='sum(r["count"] for r in j["resets"] if r["direction"] == "sent")'
echo "# BPF ns per event, events per second over $DUR s; shared machine: noisy"
measure retrans_tcp transfer "$S" RetransSegs "$RETR" --tcp
measure retrans_plain transfer "$S" RetransSegs "$RETR"
measure rst_tcp resets "$X" OutRsts "$RSTS" --tcp
measure rst_plain resets "$X" OutRsts "$RSTS"
exit "$FAILED"
