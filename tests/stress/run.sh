#!/usr/bin/env bash
# whydrop under a drop storm: count, top, watch and serve each run for
# SECONDS while both cores drop UDP datagrams into never-read sockets, one
# core from a single flow, the other with every datagram a new flow (random
# source address and port). Checks exactness against the kernel's own
# per-socket drop counters; prints the storm rate, lost records, peak RSS,
# CPU time and the latency of a command run during the storm. Numbers are
# printed, not asserted. `make stress` runs 60 s per command, `make test` 5 s.
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
	probe_latency >"$TMP/lat" &
	lat=$!
	DROPS=$(storm_pair)
	wait "$lat"
	LAT=$(cat "$TMP/lat")
	sleep 0.3
	[ "$mode" = serve ] && curl -s "http://127.0.0.1:$PORT/metrics" >"$TMP/metrics"
	RSS=$(rss_kb "$pid")
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

run count --json
n=$(json_total "$TMP/count.out")
report count "$n" -
check "count: exact under the storm ($n = $DROPS), exit $RC" test "$n" -eq "$DROPS" -a "$RC" -eq 0

run top --json	# live tables on stderr, the summary document on stdout
n=$(json_total "$TMP/top.out")
report top "$n" -
check "top: exact under the storm ($n = $DROPS), exit $RC" test "$n" -eq "$DROPS" -a "$RC" -eq 0

run watch --json
line=$(grep -E 'drops? counted' "$TMP/watch.err")
read -r seen shown missed <<<"$(sed -E 's/^whydrop: ([0-9]+) drops? counted, ([0-9]+) records? shown, ([0-9]+) not shown.*/\1 \2 \3/' <<<"$line")"
report watch "$seen" "$missed"
echo "   $line"
check "watch: exact under the storm ($seen = $DROPS), exit $RC" test "${seen:-0}" -eq "$DROPS" -a "$RC" -eq 0
check "watch: shown + not shown = counted" test $((shown + missed)) -eq "$seen"
check "watch: every record shown was written ($shown lines)" test "$(wc -l <"$TMP/watch.out")" -eq "$shown"

PORT=$((20000 + $$ % 20000))
run serve --listen "127.0.0.1:$PORT"
n=$(awk '/^whydrop_drops_total\{reason="SOCKET_RCVBUFF"/ { s += $NF } END { print s + 0 }' "$TMP/metrics")
report serve "$n" -
check "serve: scraped total exact under the storm ($n = $DROPS), exit $RC" \
	test "$n" -eq "$DROPS" -a "$RC" -eq 0

check "no program of these runs is left" progs_gone "${OURS[@]}"
echo
cat "$TMP/kv"
summary
