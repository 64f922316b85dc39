#!/usr/bin/env bash
# whydrop benchmark: the per-drop BPF cost of three tracers of skb:kfree_skb --
# `whydrop count`, the bpftrace one-liner and an empty tracepoint program (the
# floor) -- in four UDP drop storms, each in its own network namespace;
# whydrop's exactness against the kernel's own counters; its start-up time.
# Prints one table per storm, a summary table, then key=value lines. Asserts
# nothing, but exits non-zero when a storm produced no drops, a tracer failed
# to attach or died, or a BPF program of ours stayed loaded.
#
#   bench/run.sh                                  (as root; `make bench` builds first)
#   BENCH_DURATION=1 BENCH_ROUNDS=1 bench/run.sh  (a quick look)
#
# Environment:
#   BENCH_DURATION         seconds per storm (default 3)
#   BENCH_ROUNDS           rounds; in each, every tracer sees every storm, the order
#                          of the tracers and of the storms rotated each round (3)
#   BENCH_STORMS           storms to run (default: one_sender per_cpu closed_port alternating)
#   BENCH_THREADS          sender threads of the per-CPU storms (default: one per CPU)
#   BENCH_NO_TRACER        1: also run each storm with no tracer at all (default 0)
#   BENCH_STARTS           starts timed for start-to-attached, per command (default 7)
#   BENCH_FILTER           filter expression of the filtered starts ('udp dst port 9')
#   BENCH_CONCURRENT       filtered instances started at once (default 16)
#   BENCH_CONCURRENT_RUNS  how many times that is done (median; default 1)
#   BENCH_OPTIONS          0: skip the option costs (--stacks, --group-by cgroup, the filter)
#                          and the cost of drops the filters leave out (bench/filtered_out.sh)
#   WHYDROP                whydrop binary (default build/whydrop; copied at start)
#   WHYDROP_PROG           name prefix of whydrop's BPF program (default kfree_skb_)
# See bench/README.md for the method and every key=value line.
# The tables and the key=value lines are computed and printed by bench/report.sh.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
DUR=${BENCH_DURATION:-3}
ROUNDS=${BENCH_ROUNDS:-3}
STARTS=${BENCH_STARTS:-7}
THREADS=${BENCH_THREADS:-0}
NO_TRACER=${BENCH_NO_TRACER:-0}
FILTER=${BENCH_FILTER:-udp dst port 9}
CONC=${BENCH_CONCURRENT:-16}
CONC_RUNS=${BENCH_CONCURRENT_RUNS:-1}
OPTIONS=${BENCH_OPTIONS:-1}
WHYDROP=${WHYDROP:-$ROOT/build/whydrop}
WHYDROP_PROG=${WHYDROP_PROG:-kfree_skb_}
read -r -a STORMS <<<"${BENCH_STORMS:-one_sender per_cpu closed_port alternating}"
BT_PROG='tracepoint:skb:kfree_skb { @[args->reason] = count(); }'
EMPTY_PROG='tracepoint:skb:kfree_skb { }'
OUT=$ROOT/build/bench
NSB=wdbench-$$
NS_OTHER=$NSB-other

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: [${SECONDS}s] $*" >&2; }
# the tables, the summary and the key=value lines: compute_results, print_*
# shellcheck source=report.sh
. "$ROOT/bench/report.sh" || die "cannot read $ROOT/bench/report.sh"

[ "$(id -u)" -eq 0 ] || die "needs root (BPF, network namespaces, sysctl): sudo bench/run.sh"

# --- the storms --------------------------------------------------------------------
# name -> storm arguments, the drop reason, what it is, the kernel's counter
declare -A S_ARGS S_REASON S_WHAT S_COUNTER
S_ARGS[one_sender]="-t 1"
S_ARGS[per_cpu]="-t $THREADS"
S_ARGS[closed_port]="-m closed -t $THREADS"
S_ARGS[alternating]="-A -t $THREADS"
S_REASON[one_sender]=SOCKET_RCVBUFF
S_REASON[per_cpu]=SOCKET_RCVBUFF
S_REASON[closed_port]=NO_SOCKET
S_REASON[alternating]=SOCKET_RCVBUFF
S_WHAT[one_sender]="UDP into a never-read socket (minimum SO_RCVBUF), one sender thread"
S_WHAT[per_cpu]="UDP into a never-read socket (minimum SO_RCVBUF), one sender per CPU"
S_WHAT[closed_port]="UDP to a port with no socket (__udp4_lib_rcv), one sender per CPU"
S_WHAT[alternating]="each sender alternates IPv4 127.0.0.1 and IPv6 ::1 datagrams into
  never-read sockets: consecutive drops on a CPU differ in whydrop's key (L3 protocol,
  location); one sender per CPU"
S_COUNTER[one_sender]="/proc/net/udp drops of the socket"
S_COUNTER[per_cpu]="/proc/net/udp drops of the socket"
S_COUNTER[closed_port]="UdpNoPorts+Udp6NoPorts of its netns"
S_COUNTER[alternating]="/proc/net/udp+udp6 drops of the sockets"
for s in "${STORMS[@]}"; do
	[ -n "${S_ARGS[$s]:-}" ] || die "unknown storm '$s' in BENCH_STORMS (one_sender per_cpu closed_port alternating)"
done
[ ${#STORMS[@]} -gt 0 ] || die "BENCH_STORMS is empty"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive integer"
[[ $DUR =~ ^[0-9]*\.?[0-9]+$ ]] || die "BENCH_DURATION must be a number of seconds"
TRACERS=(empty whydrop bpftrace)
[ "$NO_TRACER" = 1 ] && TRACERS=(none "${TRACERS[@]}")
declare -A T_TITLE=([none]="no tracer" [empty]="empty program" [whydrop]="whydrop count" [bpftrace]="bpftrace")

# --- tools -------------------------------------------------------------------
need_pkgs=()
command -v bpftrace >/dev/null || need_pkgs+=(bpftrace)
command -v jq >/dev/null || need_pkgs+=(jq)
command -v bpftool >/dev/null || need_pkgs+=(bpftool)
command -v ip >/dev/null || need_pkgs+=(iproute2)
command -v gcc >/dev/null || need_pkgs+=(gcc)
command -v make >/dev/null || need_pkgs+=(make)
if [ ${#need_pkgs[@]} -gt 0 ]; then
	note "installing ${need_pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -q && apt-get install -y -q "${need_pkgs[@]}"; } >&2 ||
		die "apt-get install ${need_pkgs[*]} failed"
fi
make -s -C bench OUT="$OUT" >&2 || die "building bench helpers failed"
STORM=$OUT/storm
STARTUP=$OUT/startup

# --- state and cleanup ---------------------------------------------------------
TMP=$(mktemp -d /tmp/wdbench.XXXXXX)
OLD_STATS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo "")
CHILDREN=()       # pids we started and have not reaped
OUR_PROGS=()      # BPF program ids that belonged to our tracers
NSES=()           # namespaces we created
FAILED=0
FAILURES=()

fail() { FAILED=1; FAILURES+=("$*"); note "$*"; }

kill_child() { # pid [timeout_s]: SIGINT, wait, then SIGKILL
	local pid=$1 t=${2:-10} i
	kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return; }
	kill -INT "$pid" 2>/dev/null
	for ((i = 0; i < t * 20; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		note "pid $pid ignored SIGINT for ${t}s, killing it"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}

forget_child() {
	local pid=$1 c keep=()
	for c in "${CHILDREN[@]}"; do [ "$c" = "$pid" ] || keep+=("$c"); done
	CHILDREN=("${keep[@]}")
}

cleanup() {
	local rc=$? c id i n left=()
	trap - EXIT
	trap '' INT TERM	# a second Ctrl-C must not cut the clean-up short
	for c in "${CHILDREN[@]}"; do kill_child "$c" 5; done
	for n in "${NSES[@]}"; do ip netns del "$n" 2>/dev/null; done
	[ -n "$OLD_STATS" ] && sysctl -qw kernel.bpf_stats_enabled="$OLD_STATS"
	# Programs are freed after their last reference goes (RCU): give it 3 s.
	for ((i = 0; i < 30; i++)); do
		left=()
		for id in "${OUR_PROGS[@]}"; do
			bpftool prog show id "$id" >/dev/null 2>&1 && left+=("$id")
		done
		[ ${#left[@]} -eq 0 ] && break
		sleep 0.1
	done
	if [ ${#left[@]} -gt 0 ]; then
		note "BPF programs still loaded after exit: ${left[*]}"
		[ $rc -eq 0 ] && rc=1
	fi
	# keep the raw outputs of the last run for a closer look
	rm -f "$TMP/whydrop"
	rm -rf "$OUT/last-run" && mv "$TMP" "$OUT/last-run" 2>/dev/null || rm -rf "$TMP"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The binary under test, copied once: others may rebuild build/whydrop during
# the run. Wait for it (up to a minute) when it is missing or being written.
WD=$TMP/whydrop
HAVE_WHYDROP=0
for ((i = 0; i < 60; i++)); do
	if [ -x "$WHYDROP" ] && [ $(($(date +%s) - $(stat -c %Y "$WHYDROP"))) -ge 2 ] &&
		cp "$WHYDROP" "$WD" 2>/dev/null && "$WD" --version >/dev/null 2>&1; then
		HAVE_WHYDROP=1
		break
	fi
	[ $i -eq 0 ] && note "waiting for $WHYDROP (missing, being rebuilt, or not runnable)"
	sleep 1
done
[ $HAVE_WHYDROP = 1 ] || fail "$WHYDROP not found or not runnable: whydrop columns are empty"
WD_VERSION=$("$WD" --version 2>/dev/null | head -n1)

sysctl -qw kernel.bpf_stats_enabled=1 || die "cannot set kernel.bpf_stats_enabled"
for n in "${STORMS[@]/#/$NSB-}" "$NS_OTHER"; do
	ip netns add "$n" || die "ip netns add $n failed"
	NSES+=("$n")
	ip -n "$n" link set lo up || die "cannot bring lo up in $n"
done

# --- helpers -------------------------------------------------------------------
kv() { sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n1; }
# a key of the first storm output of a storm that has it (any tracer, round)
storm_kv() { local f; for f in "$TMP"/*."$1".*.storm; do [ -s "$f" ] && { kv "$f" "$2"; return; }; done; }

# A process and its descendants.
pid_tree() {
	local p
	echo "$1"
	for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		pid_tree "$p"
	done
}

# BPF program ids held open by a process or its descendants (fds' fdinfo).
prog_ids_of() {
	local pid fd
	for pid in $(pid_tree "$1"); do
		for fd in /proc/"$pid"/fd/*; do
			[ "$(readlink "$fd" 2>/dev/null)" = "anon_inode:bpf-prog" ] || continue
			awk '/^prog_id:/ { print $2 }' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null
		done
	done | sort -un
}

# "run_time_ns run_cnt" summed over program ids.
prog_stats() {
	local id t=0 c=0 line
	for id in "$@"; do
		line=$(bpftool prog show id "$id" --json 2>/dev/null |
			jq -r '"\(.run_time_ns // 0) \(.run_cnt // 0)"') || continue
		t=$((t + ${line% *}))
		c=$((c + ${line#* }))
	done
	echo "$t $c"
}

# utime+stime of a process and its live descendants, in ms.
proc_cpu_ms() {
	local pid stat hz ticks=0
	hz=$(getconf CLK_TCK)
	for pid in $(pid_tree "$1"); do
		stat=$(cat /proc/"$pid"/stat 2>/dev/null) || continue
		stat=${stat##*) }
		ticks=$((ticks + $(awk '{ print $12 + $13 }' <<<"$stat")))
	done
	echo $((ticks * 1000 / hz))
}

# Wait until a file has a line matching a pattern (or the process dies).
wait_line() { # file pattern pid timeout_s
	local i
	for ((i = 0; i < $4 * 100; i++)); do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.01
	done
	return 1
}

# kfree_skb BPF programs not ours: they run on every drop of the storm too.
foreign_progs() {
	local ours=" ${OUR_PROGS[*]} "
	bpftool prog show --json 2>/dev/null |
		jq -r '.[] | select((.name // "") | startswith("kfree_skb")) | .id' |
		while read -r id; do [[ $ours == *" $id "* ]] || echo "$id"; done | wc -l
}

# Another bench run (or anyone) may turn the statistics off under us.
STATS_RESET=0
ensure_stats() {
	[ "$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null)" = 1 ] && return
	note "kernel.bpf_stats_enabled was turned off by someone else: setting it to 1 again"
	sysctl -qw kernel.bpf_stats_enabled=1
	STATS_RESET=$((STATS_RESET + 1))
}

run_storm() { # storm out-file
	# shellcheck disable=SC2086 # the storm's arguments are words
	ip netns exec "$NSB-$1" "$STORM" -d "$DUR" ${S_ARGS[$1]} >"$2" 2>"$2.err"
}

# Reason code of a reason on this kernel, for reading bpftrace's map.
reason_code() {
	local f
	for f in /sys/kernel/tracing/events/skb/kfree_skb/format \
		/sys/kernel/debug/tracing/events/skb/kfree_skb/format; do
		[ -r "$f" ] || continue
		grep -o "{ *[0-9]*, *\"$1\" *}" "$f" | grep -o '[0-9]*' | head -n1
		return
	done
}

# --- tracers ---------------------------------------------------------------------
declare -A R  # results: R[tracer.storm.measure.round] and others

# start_whydrop KEY ARGS...: whydrop count ARGS in the background; sets T_PID and
# T_IDS (its kfree_skb_* programs). Output in $TMP/KEY.json and KEY.err.
start_whydrop() {
	local k=$1 id name ids=()
	shift
	T_PID='' T_IDS=()
	[ $HAVE_WHYDROP = 1 ] || return 1
	"$WD" count "$@" >"$TMP/$k.json" 2>"$TMP/$k.err" &
	T_PID=$!
	CHILDREN+=("$T_PID")
	if ! wait_line "$TMP/$k.err" attached "$T_PID" 60; then
		kill_child "$T_PID" 5
		forget_child "$T_PID"
		note "whydrop ($k) did not report 'attached'; its stderr:"
		sed 's/^/  /' "$TMP/$k.err" >&2
		return 1
	fi
	mapfile -t ids < <(prog_ids_of "$T_PID")
	OUR_PROGS+=("${ids[@]}")
	# only its kfree_skb_* programs (the attached one does the runs)
	for id in "${ids[@]}"; do
		name=$(bpftool prog show id "$id" --json 2>/dev/null | jq -r '.name // ""')
		[[ $name == "$WHYDROP_PROG"* ]] && T_IDS+=("$id")
	done
	[ ${#T_IDS[@]} -gt 0 ] && return 0
	note "no $WHYDROP_PROG* program among whydrop's fds (${ids[*]})"
	kill_child "$T_PID" 5
	forget_child "$T_PID"
	return 1
}

# start_bpftrace KEY PROGRAM: attached once bpftool lists its perf-event
# attachment to kfree_skb; sets T_PID and T_IDS.
start_bpftrace() {
	local k=$1 i
	T_PID='' T_IDS=()
	bpftrace -e "$2" >"$TMP/$k.out" 2>"$TMP/$k.err" &
	T_PID=$!
	CHILDREN+=("$T_PID")
	for ((i = 0; i < 6000; i++)); do
		bpftool perf show --json 2>/dev/null |
			jq -e --argjson p "$T_PID" 'any(.[]; .pid == $p and .tracepoint == "kfree_skb")' \
				>/dev/null && break
		kill -0 "$T_PID" 2>/dev/null || break
		sleep 0.01
	done
	mapfile -t T_IDS < <(prog_ids_of "$T_PID")
	OUR_PROGS+=("${T_IDS[@]}")
	[ ${#T_IDS[@]} -gt 0 ] && kill -0 "$T_PID" 2>/dev/null && return 0
	kill_child "$T_PID" 5
	forget_child "$T_PID"
	note "bpftrace ($k) did not attach; its stderr:"
	sed 's/^/  /' "$TMP/$k.err" >&2
	return 1
}

start_tracer() { # tracer round
	case $1 in
	none) T_PID='' T_IDS=() ;;
	whydrop)
		# its full key, no filter; --group-by netns only splits the output by
		# namespace (same BPF program) so each storm's count can be checked
		start_whydrop "whydrop.$2" -d "$WD_SECS" --json --show-all \
			--group-by netns --max-groups 10000 ;;
	bpftrace) start_bpftrace "bpftrace.$2" "$BT_PROG" ;;
	empty) start_bpftrace "empty.$2" "$EMPTY_PROG" ;;
	esac
}

# Counts of whydrop's JSON for each storm's namespace.
whydrop_results() { # round
	local r=$1 json=$TMP/whydrop.$1.json s ns reason
	if ! jq -e '.groups' "$json" >/dev/null 2>&1; then
		fail "whydrop, round $r: no valid JSON document with groups on SIGINT"
		sed 's/^/  stdout: /' "$json" | head -n 20 >&2
		sed 's/^/  stderr: /' "$TMP/whydrop.$r.err" >&2
		return 1
	fi
	R[whydrop.lost_events.$r]=$(jq '.lost_events // 0' "$json")
	for s in "${STORMS[@]}"; do
		[ -n "${R[whydrop.$s.drops.$r]:-}" ] || continue
		ns=$NSB-$s reason=${S_REASON[$s]}
		R[whydrop.$s.counted.$r]=$(jq --arg g "$ns" --arg r "$reason" \
			'[.groups[] | select(.group == $g and .reason == $r) | .count] | add // 0' "$json")
		R[whydrop.$s.other.$r]=$(jq -r --arg g "$ns" --arg r "$reason" \
			'[.groups[] | select(.group == $g and .reason != $r) | "\(.reason)=\(.count)"] | join(" ")' "$json")
	done
}

# One tracer attached through every storm of a round (storm order rotated).
session() { # tracer round
	local t=$1 r=$2 s i n=${#STORMS[@]} s0 s1 c0=0 c1 out drops f st
	if ! start_tracer "$t" "$r"; then
		fail "$t did not attach (round $r)"
		return 1
	fi
	for ((i = 0; i < n; i++)); do
		s=${STORMS[$(((i + r - 1) % n))]}
		note "round $r, ${T_TITLE[$t]}: storm $s"
		ensure_stats
		f=$(foreign_progs)
		[ "$f" -gt "${R[foreign]:-0}" ] && R[foreign]=$f
		s0=$(prog_stats "${T_IDS[@]}")
		[ "$t" = whydrop ] && c0=$(proc_cpu_ms "$T_PID")
		out=$TMP/$t.$s.$r.storm
		run_storm "$s" "$out"
		st=$?
		s1=$(prog_stats "${T_IDS[@]}")
		[ "$t" = whydrop ] && c1=$(proc_cpu_ms "$T_PID") &&
			R[whydrop.$s.cpu_ms.$r]=$((c1 - c0))
		if [ -n "$T_PID" ] && ! kill -0 "$T_PID" 2>/dev/null; then
			wait "$T_PID" 2>/dev/null
			st=$?
			forget_child "$T_PID"
			fail "$t exited during storm $s (round $r, status $st)"
			sed 's/^/  /' "$TMP/$t.$r.err" >&2
			return 1
		fi
		if [ $st -ne 0 ]; then
			fail "storm $s failed under $t (round $r, status $st)"
			sed 's/^/  /' "$out.err" >&2
			continue
		fi
		drops=$(kv "$out" drops)
		[ "${drops:-0}" -gt 0 ] 2>/dev/null || fail "storm $s produced no drops under $t (round $r)"
		R[$t.$s.drops.$r]=$drops
		R[$t.$s.dps.$r]=$(kv "$out" drops_per_s)
		R[$t.$s.cns.$r]=$(kv "$out" cpu_ns_per_datagram)
		R[$t.$s.util.$r]=$(kv "$out" cpu_util)
		[ "$t" = none ] && continue
		R[$t.$s.rt.$r]=$((${s1% *} - ${s0% *}))
		R[$t.$s.cnt.$r]=$((${s1#* } - ${s0#* }))
		if [ "${R[$t.$s.cnt.$r]}" -gt 0 ]; then
			R[$t.$s.ns.$r]=$(awk -v a="${R[$t.$s.rt.$r]}" -v b="${R[$t.$s.cnt.$r]}" \
				'BEGIN { printf "%.1f\n", a / b }')
		else
			fail "$t: no BPF program run counted during storm $s (round $r)"
		fi
	done
	[ -z "$T_PID" ] && return 0
	[ "$t" = whydrop ] && R[whydrop.session_cpu_ms.$r]=$(proc_cpu_ms "$T_PID")
	# bpftrace prints its map on SIGINT; the empty program has nothing to say
	kill_child "$T_PID" "$([ "$t" = empty ] && echo 5 || echo 20)"
	forget_child "$T_PID"
	[ "$t" = whydrop ] && whydrop_results "$r"
	return 0
}

# whydrop watching another (empty) namespace during one storm: every drop
# takes the early exit of the in-kernel netns filter.
phase_other_netns() {
	local s=$1 s0 s1 out=$TMP/other_netns.storm
	if ! start_whydrop other_netns -d "$WD_SECS" --json --netns "$NS_OTHER"; then
		fail "whydrop --netns $NS_OTHER did not attach"
		return 1
	fi
	ensure_stats
	s0=$(prog_stats "${T_IDS[@]}")
	run_storm "$s" "$out" || fail "storm $s failed (whydrop on another netns)"
	s1=$(prog_stats "${T_IDS[@]}")
	kill_child "$T_PID" 20
	forget_child "$T_PID"
	R[other.storm]=$s
	R[other.rt]=$((${s1% *} - ${s0% *}))
	R[other.cnt]=$((${s1#* } - ${s0#* }))
	R[other.total]=$(jq '.total' "$TMP/other_netns.json" 2>/dev/null)
	[ -n "${R[other.total]}" ] || fail "whydrop --netns $NS_OTHER printed no JSON"
}

# Options that cost only when asked: their own script, their own namespace.
# One row of the summary each.
declare -A OPT	# OPT[NAME.plain], OPT[NAME.with], OPT[NAME.extra]
phase_options() {
	local spec a
	[ "$OPTIONS" = 1 ] || return 0
	[ $HAVE_WHYDROP = 1 ] || return 0
	# NAME|OPTION|...: a filter expression is one argument with spaces
	for spec in "stacks|--stacks" "group_by_cgroup|--group-by|cgroup" \
		"filter|$FILTER"; do
		IFS='|' read -r -a a <<<"$spec"
		note "option cost: ${a[*]:1}"
		if WHYDROP=$WD ROUNDS=$ROUNDS BENCH_DURATION=$DUR bench/option_cost.sh "${a[@]}" \
			>"$TMP/option.${a[0]}.out" 2>"$TMP/option.${a[0]}.err"; then
			OPT[${a[0]}.plain]=$(kv "$TMP/option.${a[0]}.out" count_ns_per_drop)
			OPT[${a[0]}.with]=$(kv "$TMP/option.${a[0]}.out" "count_${a[0]}_ns_per_drop")
			OPT[${a[0]}.extra]=$(kv "$TMP/option.${a[0]}.out" "${a[0]}_extra_ns_per_drop")
		else
			sed 's/^/  /' "$TMP/option.${a[0]}.err" >&2
			fail "bench/option_cost.sh ${a[*]} failed"
		fi
		printf '%-58s %-24s\n' "whydrop count ${a[*]:1}: BPF ns per drop (without)" \
			"$(na "${OPT[${a[0]}.with]:-}") ($(na "${OPT[${a[0]}.plain]:-}"))"
	done
	phase_filtered_out
	phase_rules
	phase_tcp
}

# --tcp (bench/tcp_cost.sh): BPF ns per event of each --tcp program and of
# the drop program with and without it, over retransmissions and resets;
# fails when whydrop's counts differ from TcpRetransSegs / TcpOutRsts.
phase_tcp() {
	local k
	note "--tcp: BPF ns per event (bench/tcp_cost.sh)"
	if ! WHYDROP=$WD BENCH_DURATION=$DUR bench/tcp_cost.sh >"$TMP/tcp.out" 2>"$TMP/tcp.err"; then
		sed 's/^/  /' "$TMP/tcp.err" >&2
		fail "bench/tcp_cost.sh failed"
	fi
	for k in retrans_tcp_retransmit retrans_tcp_tcp_drop retrans_tcp_drop retrans_plain_drop \
		rst_tcp_reset_sent rst_tcp_reset_received rst_tcp_tcp_drop rst_tcp_drop rst_plain_drop; do
		printf '%-58s %-24s\n' "$k: BPF ns/event, events/s" \
			"$(kv "$TMP/tcp.out" "${k}_ns_per_event"), $(kv "$TMP/tcp.out" "${k}_events_per_s")"
	done
}

# --rules (bench/rules_cost.sh): the sender's CPU per packet delivered,
# forwarded and dropped by a rule, without whydrop, under count, under
# count --rules. Needs the trace driver of make unit-bins as its sender.
phase_rules() {
	local w
	note "--rules: sender CPU ns per packet (bench/rules_cost.sh)"
	if [ ! -x build/system/nftrace_drive ]; then
		note "--rules: skipped, no build/system/nftrace_drive (make unit-bins)"
		return 0
	fi
	if ! WHYDROP=$WD ROUNDS=$ROUNDS bench/rules_cost.sh >"$TMP/rules.out" 2>"$TMP/rules.err"; then
		sed 's/^/  /' "$TMP/rules.err" >&2
		fail "bench/rules_cost.sh failed"
		return 0
	fi
	for w in delivery forwarding drop; do
		printf '%-58s %-24s\n' "$w: sender CPU ns/packet none, count, count --rules" \
			"$(kv "$TMP/rules.out" "${w}_none_cpu_ns"), $(kv "$TMP/rules.out" "${w}_count_cpu_ns"), $(kv "$TMP/rules.out" "${w}_rules_cpu_ns")"
	done
}

# Drops the filters leave out (bench/filtered_out.sh): one row each.
FO_MODES=(counted netns_out reason_out iface_out)
declare -A FO	# FO[MODE.ns], FO[MODE.counted]
phase_filtered_out() {
	local m
	note "filtered out: ${FO_MODES[*]}"
	if WHYDROP=$WD ROUNDS=$ROUNDS BENCH_DURATION=$DUR bench/filtered_out.sh "${FO_MODES[@]}" \
		>"$TMP/filtered_out.out" 2>"$TMP/filtered_out.err"; then
		for m in "${FO_MODES[@]}"; do
			FO[$m.ns]=$(kv "$TMP/filtered_out.out" "${m}_ns_per_drop")
			FO[$m.counted]=$(kv "$TMP/filtered_out.out" "${m}_counted")
		done
	else
		sed 's/^/  /' "$TMP/filtered_out.err" >&2
		fail "bench/filtered_out.sh failed"
	fi
	declare -A what=([counted]="every drop counted" [netns_out]="--netns of another namespace"
		[reason_out]="-r of a reason not in the storm" [iface_out]="-i of an idle interface")
	for m in "${FO_MODES[@]}"; do
		printf '%-58s %-24s\n' "whydrop count, ${what[$m]} (per_cpu): BPF ns per drop" \
			"$(na "${FO[$m.ns]:-}") ($(na "${FO[$m.counted]:-}") counted)"
	done
}

# --- run ------------------------------------------------------------------------
KERNEL=$(uname -r)
NCPU=$(nproc)
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
# CPU busy (all CPUs, %) over one second before we start: others' load
cpu_busy_pct() {
	local a b
	a=$(head -n1 /proc/stat); sleep 1; b=$(head -n1 /proc/stat)
	awk -v a="$a" -v b="$b" 'BEGIN { na = split(a, x); split(b, y); t = 0
		for (i = 2; i <= na; i++) t += y[i] - x[i]
		idle = (y[5] - x[5]) + (y[6] - x[6])
		if (t > 0) printf "%.0f\n", (t - idle) * 100 / t; else print 0 }'
}
BUSY0=$(cpu_busy_pct)
T_START=$(date +%s)
# whydrop's -d: longer than a whole session, which SIGINT ends
d=${DUR%.*}
WD_SECS=$((${#STORMS[@]} * (${d:-0} + 10) + 120))
note "kernel $KERNEL, $NCPU CPUs, load $LOAD0, CPUs ${BUSY0}% busy before start"
note "${ROUNDS} rounds x ${#TRACERS[@]} tracers x ${#STORMS[@]} storms of ${DUR}s; namespaces $NSB-*"
for ((r = 1; r <= ROUNDS; r++)); do
	# rotate the order each round so slow drift of the machine spreads evenly
	for ((i = 0; i < ${#TRACERS[@]}; i++)); do
		t=${TRACERS[$(((i + r - 1) % ${#TRACERS[@]}))]}
		[ "$t" = whydrop ] && [ $HAVE_WHYDROP = 0 ] && continue
		session "$t" "$r"
	done
done

if [ $HAVE_WHYDROP = 1 ]; then
	s=${STORMS[0]}
	for x in "${STORMS[@]}"; do [ "$x" = per_cpu ] && s=per_cpu; done
	note "whydrop filtered to another namespace, storm $s"
	phase_other_netns "$s"

	note "start-to-attached: $STARTS starts unfiltered, $STARTS with '$FILTER', $CONC at once"
	"$STARTUP" -n "$STARTS" -t 60 -- "$WD" count -d 600 --json \
		>"$TMP/startup.out" 2>"$TMP/startup.err" ||
		fail "start-up timing: whydrop count failed to attach ($(kv "$TMP/startup.out" failures) of $STARTS)"
	"$STARTUP" -n "$STARTS" -t 60 -- "$WD" count -d 600 --json "$FILTER" \
		>"$TMP/startup_filtered.out" 2>"$TMP/startup_filtered.err" ||
		fail "start-up timing: whydrop count '$FILTER' failed to attach ($(kv "$TMP/startup_filtered.out" failures) of $STARTS)"
	"$STARTUP" -n "$CONC_RUNS" -c "$CONC" -t 600 -- "$WD" count -d 3600 --json "$FILTER" \
		>"$TMP/startup_concurrent.out" 2>"$TMP/startup_concurrent.err" ||
		fail "start-up timing: $CONC instances of whydrop count '$FILTER' at once: not all attached"
	for f in startup startup_filtered startup_concurrent; do
		sort -u "$TMP/$f.err" | head -n 20 | sed 's/^/  /' >&2
	done
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report (bench/report.sh) ---------------------------------------------------
compute_results
print_tables
print_summary
phase_options
print_failures
T_END=$(date +%s)
print_kv
exit $FAILED
