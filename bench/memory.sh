#!/usr/bin/env bash
# Memory that does not grow with the host's history: `top --group-by process`,
# `top --group-by cgroup` and `serve --per-cgroup --per-netns` run side by side
# while bench/churn opens short-lived sockets that take drops (SOCKET_RCVBUFF,
# counted by socket), moving to a new network namespace and a new cgroup every
# 10 batches of 200. After 10^4, 10^5 and 10^6 sockets (or the totals given),
# once the churn paused: each command's RSS, the CPU a `top` refresh costs
# (CPU time over 5 quiet seconds, one refresh a second), the time of a
# serve scrape (median of 5) and the CPU serve spends per scrape (all its
# threads over 10 scrapes: less sensitive to other load than the time).
# Prints a table and key=value lines; asserts nothing. serve is scraped
# every 0.5 s throughout.
#
#   bench/memory.sh [TOTAL...]         (as root; default 10000 100000 1000000)
#
# Environment: WHYDROP (default build/whydrop), MEMORY_RATE sockets a second
# (default 1800: the by-socket hash, 4096 keys read once a second, has room for
# them, none lost), MEMORY_PROCS generator processes (default 2).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
W=${WHYDROP:-build/whydrop}
RATE=${MEMORY_RATE:-1800}
PROCS=${MEMORY_PROCS:-2}
TOTALS=("$@")
[ ${#TOTALS[@]} -gt 0 ] || TOTALS=(10000 100000 1000000)
CHURN=build/bench/churn
TMP=$(mktemp -d /tmp/wdmem-XXXXXX)
V2=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
CG=${V2:+$V2/wdmem-$$}
PIDS=()

cleanup() {
	local p d
	[ -n "${SCRAPER:-}" ] && kill "$SCRAPER" 2>/dev/null	# a background loop ignores SIGINT
	for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	if [ -n "$CG" ] && [ -d "$CG" ]; then
		for d in "$CG"/p*; do [ -d "$d" ] && rmdir "$d"; done
		rmdir "$CG"
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

make -s -C bench OUT=../build/bench >/dev/null || exit 1
[ -n "$CG" ] && mkdir "$CG"

attached() {	# attached FILE: wait for "attached" on stderr
	local i
	for i in $(seq 200); do
		grep -q attached "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "not attached: $(cat "$1")" >&2
	return 1
}
start() {	# start NAME ARGS...: whydrop ARGS in the background
	local name=$1
	shift
	"$W" "$@" -r SOCKET_RCVBUFF >/dev/null 2>"$TMP/$name.err" &
	PIDS+=($!)
	eval "PID_$name=$!"
}
start top_process top --group-by process
start top_cgroup top --group-by cgroup
start serve serve --listen 127.0.0.1:0 --per-cgroup --per-netns --series-grace 10s
for n in top_process top_cgroup serve; do attached "$TMP/$n.err" || exit 1; done
for i in $(seq 100); do	# after "attached": it listens once privileges are dropped
	ADDR=$(sed -n 's|.*listening on http://\([^/]*\)/metrics.*|\1|p' "$TMP/serve.err")
	[ -n "$ADDR" ] && break
	sleep 0.1
done
[ -n "$ADDR" ] || { echo "serve is not listening: $(cat "$TMP/serve.err")" >&2; exit 1; }
( while :; do curl -s -o /dev/null "http://$ADDR/metrics"; sleep 0.5; done ) &
SCRAPER=$!

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# ms of CPU per second (one refresh a second) over 5 quiet seconds
refresh_ms() {
	local t0 t1 hz
	hz=$(getconf CLK_TCK)
	t0=$(cpu_ticks "$1")
	sleep 5
	t1=$(cpu_ticks "$1")
	echo $(((t1 - t0) * 1000 / hz / 5))
}
serve_cpu_ns() { awk '{ s += $1 } END { printf "%.0f\n", s }' /proc/"$PID_serve"/task/*/schedstat; }
serve_scrapes() { curl -s "http://$ADDR/metrics" | awk '/^whydrop_scrapes_total/ { print $2 }'; }
# µs of CPU serve's threads spent per scrape, over 10 scrapes (and the
# background loop's), from schedstat (ns) and whydrop_scrapes_total
scrape_cpu_us() {
	local t0 t1 n0 n1
	n0=$(serve_scrapes)
	t0=$(serve_cpu_ns)
	for _ in $(seq 10); do curl -s -o /dev/null "http://$ADDR/metrics"; done
	t1=$(serve_cpu_ns)
	n1=$(serve_scrapes)	# the page counts itself, after t1
	echo $(((t1 - t0) / 1000 / (n1 - n0 - 1)))
}
scrape_ms() {	# the median of 5 scrapes, ms
	local i
	for i in 1 2 3 4 5; do
		curl -s -o /dev/null -w '%{time_total}\n' "http://$ADDR/metrics"
	done | sort -n | awk 'NR == 3 { printf "%.1f\n", $1 * 1000 }'
}

done_n=0
printf '%-10s %-9s %14s %14s %14s %16s %16s %12s %14s\n' sockets churn_s \
	top_proc_rss top_cg_rss serve_rss top_proc_ms top_cg_ms scrape_ms scrape_cpu_us
for total in "${TOTALS[@]}"; do
	n=$((total - done_n))
	[ "$n" -gt 0 ] || continue
	out=$("$CHURN" -n "$n" -P "$PROCS" -b 200 -r "$RATE" -k 10 ${CG:+-c "$CG"}) || {
		echo "the churn failed" >&2
		exit 1
	}
	secs=${out##*seconds=}
	done_n=$total
	sleep 3	# refreshes and scrapes: the last sockets read and swapped out
	r1=$(rss_kb "$PID_top_process") r2=$(rss_kb "$PID_top_cgroup") r3=$(rss_kb "$PID_serve")
	m1=$(refresh_ms "$PID_top_process") m2=$(refresh_ms "$PID_top_cgroup")
	s=$(scrape_ms)
	c=$(scrape_cpu_us)
	printf '%-10s %-9s %11s KiB %11s KiB %11s KiB %16s %16s %12s %14s\n' "$total" "$secs" \
		"$r1" "$r2" "$r3" "$m1" "$m2" "$s" "$c"
	echo "memory_${total}_churn_seconds=$secs memory_${total}_top_process_rss_kb=$r1" \
		"memory_${total}_top_cgroup_rss_kb=$r2 memory_${total}_serve_rss_kb=$r3" \
		"memory_${total}_top_process_refresh_ms=$m1 memory_${total}_top_cgroup_refresh_ms=$m2" \
		"memory_${total}_serve_scrape_ms=$s memory_${total}_serve_scrape_cpu_us=$c" >>"$TMP/kv"
done
lost=$(curl -s "http://$ADDR/metrics" | awk '/^whydrop_cgroup_drops_lost_total/ { print $NF }')
echo "serve: whydrop_cgroup_drops_lost_total ${lost:-?} (drops not grouped: the by-socket hash was full)"
cat "$TMP/kv"
