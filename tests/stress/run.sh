#!/usr/bin/env bash
# whydrop under a drop storm: count, top, watch and serve each run for
# SECONDS while both cores drop UDP datagrams into never-read sockets, one
# core from a single flow, the other with every datagram a new flow (random
# source address and port). Checks exactness against the kernel's own
# per-socket drop counters; prints and bounds the storm rate, lost records,
# peak RSS, CPU time and the latency of a command run during the storm. Then
# socket churn: many short-lived sockets taking drops under the commands that
# keep counts by socket, exact, with memory that must not grow per socket.
# The bounds and why they are what they are: docs/reliability.md.
# `make stress` runs 60 s per command, `make test` 5 s.
# Usage: tests/stress/run.sh [SECONDS] [BINARY]
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
. tests/lib/harness.sh
D=${1:-60}
W=${2:-build/whydrop}
NS=wdstress-$$
STORM=build/bench/storm
OURS=()
harness_begin tests/stress "$NS"

make -s -C bench OUT=../build/bench >/dev/null || { echo "0 passed, 1 failed"; exit 1; }

# storm_pair: one same-flow sender (port 9) and one random-flow sender
# (port 10), one per core, for $D seconds; prints total drops.
storm_pair() {
	ip netns exec "$NS" "$STORM" -d "$D" -t 1 -p 9 >"$TMP/s1" 2>&1 &
	local a=$!
	ip netns exec "$NS" "$STORM" -d "$D" -t 1 -p 10 -R >"$TMP/s2" 2>&1 &
	local b=$!
	wait "$a" "$b"
	echo $(( $(sed -n 's/^drops=//p' "$TMP/s1") + $(sed -n 's/^drops=//p' "$TMP/s2") ))
}

# probe_latency: worst wall time (ms) of `ip -n NS link show` during the storm.
probe_latency() {
	local worst=0 t0 ms
	for _ in $(seq $((D * 2))); do
		t0=$(date +%s%N)
		ip -n "$NS" link show lo >/dev/null
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		[ "$ms" -gt "$worst" ] && worst=$ms
		sleep 0.5
	done
	echo "$worst"
}

rss_kb() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status"; }
rss_now_kb() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$1/status"; }
cpu_ms() {
	local tck
	tck=$(getconf CLK_TCK)
	awk -v t="$tck" '{ print int(($14 + $15) * 1000 / t) }' "/proc/$1/stat"
}

# run MODE ARGS...: whydrop MODE under the storm; sets the result variables.
run() {
	local mode=$1 pid lat
	shift
	"$W" "$mode" --netns "$NS" -r SOCKET_RCVBUFF "$@" >"$TMP/$mode.out" 2>"$TMP/$mode.err" &
	pid=$!
	PIDS+=("$pid")
	wait_attached "$TMP/$mode.err" || { fail "$mode attached" "$(cat "$TMP/$mode.err")"; return 1; }
	OURS+=($(prog_ids "$pid"))
	RSS0=$(rss_now_kb "$pid")
	CPU0=$(cpu_ms "$pid")	# start-up (BTF, kallsyms) left out of the cost per drop
	probe_latency >"$TMP/lat" &
	lat=$!
	DROPS=$(storm_pair)
	wait "$lat"
	LAT=$(cat "$TMP/lat")
	sleep 0.3
	[ "$mode" = serve ] && curl -s "http://127.0.0.1:$PORT/metrics" >"$TMP/metrics"
	RSS=$(rss_kb "$pid")
	RSS1=$(rss_now_kb "$pid")
	CPU=$(cpu_ms "$pid")
	kill -INT "$pid"
	wait "$pid"
	RC=$?
}

json_total() { $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$1"; }

printf '%-6s %12s %12s %10s %12s %9s %9s %8s\n' MODE "STORM DROPS" "WHYDROP" "DROPS/S" \
	"NOT SHOWN" "PEAK RSS" "CPU" "LATENCY"
report() {
	printf '%-6s %12s %12s %10s %12s %8sK %7sms %6sms\n' "$1" "$DROPS" "$2" \
		$((DROPS / D)) "$3" "$RSS" "$CPU" "$LAT"
	echo "stress_$1_drops=$DROPS stress_$1_counted=$2 stress_$1_rate=$((DROPS / D))" \
	     "stress_$1_not_shown=$3 stress_$1_rss_kb=$RSS stress_$1_cpu_ms=$CPU" \
	     "stress_$1_latency_ms=$LAT" >>"$TMP/kv"
}

# The bounds (docs/reliability.md): generous for a 2-core machine shared with other
# work, each many times what is measured here, yet far below what a leak, a per-drop
# cost in user space or a stalled machine gives.
PEAK_MAX_KB=$((64 * 1024))	# peak RSS of a plain build (measured: 24-28 MiB)
GROW_MAX_KB=$((16 * 1024))	# RSS from attached to the storm's end (watch: +2 MiB ring)
NS_PER_DROP=500			# user-space CPU per drop once attached (measured: 4-5 ns)
MS_PER_S=20			# ... plus this per second run: refreshes, scrapes
US_PER_RECORD=50		# ... plus, for watch, per record shown (measured: 4 us)
LAT_MAX_MS=2000			# worst `ip link show` during the storm (measured: 14-35 ms)
# RSS growth over the churn: flat within 1 MiB (issue 25's bound; measured 232-388 KiB
# over 12000 sockets, a constant of the allocator, not per socket). The leak it
# guards against, ~230 bytes a socket, is 2.7 MiB over 12000.
SOCK_GROW_MAX_KB=1024
REFRESH_MAX_MS=200		# CPU of a top refresh after the churn (measured: 2-14 ms)
# a sanitizer build has shadow memory and slow paths: its time and memory are not bounded
SANITIZED=0
ldd "$W" 2>/dev/null | grep -q 'libasan\|libubsan' && SANITIZED=1

# bounds MODE [RECORDS]: the run just made stays within them.
bounds() {
	local mode=$1 records=${2:-0} cpu=$((CPU - CPU0)) allow
	allow=$((DROPS * NS_PER_DROP / 1000000 + D * MS_PER_S + records * US_PER_RECORD / 1000))
	check "$mode: the machine answered within ${LAT_MAX_MS} ms during the storm (worst ${LAT} ms)" \
		test "${LAT:-99999}" -le "$LAT_MAX_MS"
	if [ "$SANITIZED" = 1 ]; then
		skip "$mode: memory and CPU bounds" "a sanitizer build: shadow memory, slow paths"
		return
	fi
	check "$mode: peak RSS ${RSS} KiB <= $PEAK_MAX_KB KiB" test "${RSS:-0}" -le "$PEAK_MAX_KB"
	check "$mode: RSS grew $((RSS1 - RSS0)) KiB from attach to the end of the storm (<= $GROW_MAX_KB)" \
		test $((RSS1 - RSS0)) -le "$GROW_MAX_KB"
	check "$mode: CPU once attached ${cpu} ms <= ${allow} ms ($NS_PER_DROP ns x $DROPS drops + $MS_PER_S ms/s$([ "$records" -gt 0 ] && echo " + $US_PER_RECORD us x $records records"))" \
		test "$cpu" -le "$allow"
}

run count --json
n=$(json_total "$TMP/count.out")
report count "$n" -
check "count: exact under the storm ($n = $DROPS), exit $RC" test "$n" -eq "$DROPS" -a "$RC" -eq 0
bounds count

run top --json	# live tables on stderr, the summary document on stdout
n=$(json_total "$TMP/top.out")
report top "$n" -
check "top: exact under the storm ($n = $DROPS), exit $RC" test "$n" -eq "$DROPS" -a "$RC" -eq 0
bounds top

run watch --json
line=$(grep -E 'drops? counted' "$TMP/watch.err")
read -r seen shown missed <<<"$(sed -E 's/^whydrop: ([0-9]+) drops? counted, ([0-9]+) records? shown, ([0-9]+) not shown.*/\1 \2 \3/' <<<"$line")"
report watch "$seen" "$missed"
echo "   $line"
check "watch: exact under the storm ($seen = $DROPS), exit $RC" test "${seen:-0}" -eq "$DROPS" -a "$RC" -eq 0
# not shown is whydrop's count minus what it showed: compared with the kernel's count
check "watch: shown + not shown = the kernel's count ($DROPS)" \
	test $((${shown:-0} + ${missed:-0})) -eq "$DROPS"
check "watch: every record shown was written ($shown lines)" test "$(wc -l <"$TMP/watch.out")" -eq "$shown"
bounds watch "${shown:-0}"

PORT=$((20000 + $$ % 20000))
run serve --listen "127.0.0.1:$PORT"
n=$(awk '/^whydrop_drops_total\{reason="SOCKET_RCVBUFF"/ { s += $NF } END { print s + 0 }' "$TMP/metrics")
report serve "$n" -
check "serve: scraped total exact under the storm ($n = $DROPS), exit $RC" \
	test "$n" -eq "$DROPS" -a "$RC" -eq 0
bounds serve

# --- socket churn ---------------------------------------------------------------------------
# churn N: N short-lived UDP sockets in $NS, 500 at a time, each with the smallest receive
# buffer and sent 4 datagrams of 1000 bytes (most dropped: SOCKET_RCVBUFF), then closed.
churn() {
	ip netns exec "$NS" $PY - "$1" <<'PYEOF'
import socket, sys, time
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(0, int(sys.argv[1]), 500):
    socks = []
    for _ in range(500):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
        s.bind(("127.0.0.1", 0))
        for _ in range(4):
            tx.sendto(b"x" * 1000, s.getsockname())
        socks.append(s)
    time.sleep(0.15)
    for s in socks:
        s.close()
PYEOF
}
rcvbuf_errors() {
	ip netns exec "$NS" awk '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 }
		else print $c["RcvbufErrors"] }' /proc/net/snmp
}
# churn_run NAME ARGS...: whydrop ARGS (counts by socket) through WARM sockets, then
# SOCKS more; RSS after each; the drops grouped + lost = the kernel's RcvbufErrors.
WARM=3000 SOCKS=$((D >= 60 ? 60000 : 12000))
# refresh_cpu_ms PID: ms of CPU a second (top refreshes once a second) over 3 quiet seconds
refresh_cpu_ms() {
	local t0 t1 hz
	hz=$(getconf CLK_TCK)
	t0=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
	sleep 3
	t1=$(awk '{ print $14 + $15 }' "/proc/$1/stat")
	echo $(((t1 - t0) * 1000 / hz / 3))
}
churn_run() {
	local name=$1 pid r0 r1 e0 e ms
	shift
	e0=$(rcvbuf_errors)
	"$W" "$@" --json --netns "$NS" -r SOCKET_RCVBUFF >"$TMP/$name.out" 2>"$TMP/$name.err" &
	pid=$!
	PIDS+=("$pid")
	wait_attached "$TMP/$name.err" || { fail "$name attached" "$(cat "$TMP/$name.err")"; return 1; }
	OURS+=($(prog_ids "$pid"))
	churn "$WARM"
	sleep 1.2	# a refresh: the warm-up's sockets read and swapped out
	r0=$(rss_now_kb "$pid")
	churn "$SOCKS"
	sleep 1.2
	r1=$(rss_now_kb "$pid")
	ms=$(refresh_cpu_ms "$pid")
	kill -INT "$pid"
	wait "$pid"
	check "$name: exit 0 after SIGINT" test $? -eq 0
	e=$(($(rcvbuf_errors) - e0))
	check "$name: grouped + groups_lost = total = the kernel's UdpRcvbufErrors ($e)" $PY -c '
import json, sys
d = json.load(open(sys.argv[1])); e = int(sys.argv[2])
grouped = sum(g["count"] for g in d.get("groups", []))
sys.exit(not (e > 0 and d["total"] == e and grouped + d.get("groups_lost", 0) == e))' \
		"$TMP/$name.out" "$e"
	echo "   $name: RSS $r0 KiB after $WARM sockets, $r1 KiB after $SOCKS more:" \
		"$(((r1 - r0) * 1024 / SOCKS)) bytes per socket"
	echo "   $name: a refresh after them costs $ms ms of CPU (<= $REFRESH_MAX_MS)"
	echo "stress_churn_${name}_rss_growth_kb=$((r1 - r0)) stress_churn_${name}_sockets=$SOCKS" \
		"stress_churn_${name}_refresh_ms=$ms" >>"$TMP/kv"
	if [ "$SANITIZED" = 1 ]; then
		skip "$name: RSS per socket" "a sanitizer build: its allocator keeps freed memory"
		skip "$name: CPU of a refresh" "a sanitizer build: its slow paths"
		return
	fi
	check "$name: RSS grew $((r1 - r0)) KiB over $SOCKS short-lived sockets (<= $SOCK_GROW_MAX_KB KiB)" \
		test $((r1 - r0)) -le "$SOCK_GROW_MAX_KB"
	check "$name: a refresh after $SOCKS short-lived sockets costs $ms ms of CPU (<= $REFRESH_MAX_MS)" \
		test "$ms" -le "$REFRESH_MAX_MS"
}
echo "-- socket churn: $WARM, then $SOCKS short-lived sockets taking drops"
churn_run churn_process top --group-by process
churn_run churn_cgroup top --group-by cgroup

check "no program of these runs is left" progs_gone "${OURS[@]}"
echo
cat "$TMP/kv"
summary
