#!/usr/bin/env bash
# whydrop benchmark: a UDP drop storm (SOCKET_RCVBUFF) in a private network
# namespace, measured with no tracer, with `whydrop count`, and with the
# bpftrace one-liner. Prints a table and key=value lines; asserts nothing.
#
#   bench/run.sh                      (as root; `make bench` builds first)
#   BENCH_DURATION=3 BENCH_ROUNDS=5 BENCH_STARTS=7 bench/run.sh
#
# Environment:
#   BENCH_DURATION  seconds per storm (default 3)
#   BENCH_ROUNDS    rounds of {none, whydrop, bpftrace}, order rotated (default 5)
#   BENCH_STARTS    whydrop starts timed for start-to-attached (default 7)
#   BENCH_THREADS   sender threads (default: one per CPU)
#   WHYDROP         whydrop binary (default build/whydrop)
#   WHYDROP_PROG    name prefix of whydrop's BPF program (default kfree_skb_)
# See docs/benchmark.md for the method.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
DUR=${BENCH_DURATION:-3}
ROUNDS=${BENCH_ROUNDS:-5}
STARTS=${BENCH_STARTS:-7}
THREADS=${BENCH_THREADS:-0}
WHYDROP=${WHYDROP:-$ROOT/build/whydrop}
WHYDROP_PROG=${WHYDROP_PROG:-kfree_skb_}
BT_PROG='tracepoint:skb:kfree_skb { @[args->reason] = count(); }'
OUT=$ROOT/build/bench
NS=wdbench-$$
NS_OTHER=wdbench-$$-other

die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; }

[ "$(id -u)" -eq 0 ] || die "needs root (BPF, network namespaces, sysctl): sudo bench/run.sh"

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

HAVE_WHYDROP=1
if [ ! -x "$WHYDROP" ]; then
	note "$WHYDROP not found (run make first): whydrop columns are skipped"
	HAVE_WHYDROP=0
fi

# --- state and cleanup ---------------------------------------------------------
TMP=$(mktemp -d /tmp/wdbench.XXXXXX)
OLD_STATS=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo "")
CHILDREN=()       # pids we started and have not reaped
OUR_PROGS=()      # BPF program ids that belonged to our tracers
NS_CREATED=0
NS_OTHER_CREATED=0

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
	local rc=$? c id i left
	trap - EXIT
	trap '' INT TERM	# a second Ctrl-C must not cut the clean-up short
	for c in "${CHILDREN[@]}"; do kill_child "$c" 5; done
	[ "$NS_CREATED" = 1 ] && ip netns del "$NS" 2>/dev/null
	[ "$NS_OTHER_CREATED" = 1 ] && ip netns del "$NS_OTHER" 2>/dev/null
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
	rm -rf "$OUT/last-run" && mv "$TMP" "$OUT/last-run" 2>/dev/null || rm -rf "$TMP"
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

sysctl -qw kernel.bpf_stats_enabled=1 || die "cannot set kernel.bpf_stats_enabled"
ip netns add "$NS" || die "ip netns add $NS failed"
NS_CREATED=1
ip -n "$NS" link set lo up || die "cannot bring lo up in $NS"
ip netns add "$NS_OTHER" || die "ip netns add $NS_OTHER failed"
NS_OTHER_CREATED=1

# --- helpers -------------------------------------------------------------------
kv() { sed -n "s/^$2=//p" "$1" | head -n1; }

# A process and its descendants.
pid_tree() {
	local p c
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

storm() { # out-file
	ip netns exec "$NS" "$STORM" -d "$DUR" -t "$THREADS" >"$1" 2>"$1.err" ||
		{ cat "$1.err" >&2; die "storm failed"; }
}

# Reason code of SOCKET_RCVBUFF on this kernel, for reading bpftrace's map.
rcvbuff_code() {
	local f
	for f in /sys/kernel/tracing/events/skb/kfree_skb/format \
		/sys/kernel/debug/tracing/events/skb/kfree_skb/format; do
		[ -r "$f" ] || continue
		grep -o '{ *[0-9]*, *"SOCKET_RCVBUFF" *}' "$f" | grep -o '[0-9]*' | head -n1
		return
	done
}

# --- phases --------------------------------------------------------------------
declare -A R  # results: R[key.round]

phase_none() { # round
	local r=$1
	R[foreign.$r]=$(foreign_progs)
	storm "$TMP/none.$r"
	R[none_dps.$r]=$(kv "$TMP/none.$r" drops_per_s)
	R[none_drops.$r]=$(kv "$TMP/none.$r" drops)
	R[none_cns.$r]=$(kv "$TMP/none.$r" cpu_ns_per_datagram)
	R[none_util.$r]=$(kv "$TMP/none.$r" cpu_util)
}

# whydrop count filtered to namespace $3, results under key prefix $1, round $2
phase_wd_any() {
	local k=$1 r=$2 ns=$3 pid ids s0 s1 c0 c1 ct0 json
	"$WHYDROP" count -d $((DUR + 120)) --netns "$ns" --json \
		>"$TMP/$k.$r.json" 2>"$TMP/$k.$r.err" &
	pid=$!
	CHILDREN+=("$pid")
	ct0=$(date +%s%N)
	if ! wait_line "$TMP/$k.$r.err" attached "$pid" 15; then
		kill_child "$pid" 5
		forget_child "$pid"
		note "whydrop did not report 'attached'; its stderr:"
		sed 's/^/  /' "$TMP/$k.$r.err" >&2
		R[${k}_fail.$r]=1
		return 1
	fi
	R[${k}_attach_ms.$r]=$((($(date +%s%N) - ct0) / 1000000))
	mapfile -t ids < <(prog_ids_of "$pid")
	# only its kfree_skb_* programs (the attached one does the runs)
	local id name keep=()
	for id in "${ids[@]}"; do
		name=$(bpftool prog show id "$id" --json 2>/dev/null | jq -r '.name // ""')
		[[ $name == "$WHYDROP_PROG"* ]] && keep+=("$id")
	done
	OUR_PROGS+=("${ids[@]}")
	R[${k}_progs.$r]=${keep[*]}
	[ ${#keep[@]} -gt 0 ] || note "no $WHYDROP_PROG* program among whydrop's fds (${ids[*]})"
	R[foreign.$r]=$(foreign_progs)
	s0=$(prog_stats "${keep[@]}")
	c0=$(proc_cpu_ms "$pid")
	storm "$TMP/$k.$r.storm"
	s1=$(prog_stats "${keep[@]}")
	c1=$(proc_cpu_ms "$pid")
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		c1=$?
		forget_child "$pid"
		note "whydrop exited during the storm (status $c1); its stderr:"
		sed 's/^/  /' "$TMP/$k.$r.err" >&2
		R[${k}_fail.$r]=1
		return 1
	fi
	R[${k}_cpu_ms.$r]=$((c1 - c0))
	R[${k}_cpu_total_ms.$r]=$c1
	R[${k}_rt.$r]=$((${s1% *} - ${s0% *}))
	R[${k}_cnt.$r]=$((${s1#* } - ${s0#* }))
	kill_child "$pid" 10
	forget_child "$pid"
	R[${k}_dps.$r]=$(kv "$TMP/$k.$r.storm" drops_per_s)
	R[${k}_proc_drops.$r]=$(kv "$TMP/$k.$r.storm" drops)
	R[${k}_cns.$r]=$(kv "$TMP/$k.$r.storm" cpu_ns_per_datagram)
	R[${k}_util.$r]=$(kv "$TMP/$k.$r.storm" cpu_util)
	json=$TMP/$k.$r.json
	if ! jq -e . "$json" >/dev/null 2>&1; then
		note "whydrop printed no valid JSON on SIGINT; stdout:"
		sed 's/^/  /' "$json" >&2
		sed 's/^/  stderr: /' "$TMP/$k.$r.err" >&2
		R[${k}_fail.$r]=1
		return 1
	fi
	R[${k}_total.$r]=$(jq '.total' "$json")
	R[${k}_rcvbuff.$r]=$(jq '[.drops[] | select(.reason == "SOCKET_RCVBUFF") | .count] | add // 0' "$json")
	R[${k}_lost.$r]=$(jq '.lost_events' "$json")
	R[${k}_other.$r]=$(jq -c '[.drops[] | select(.reason != "SOCKET_RCVBUFF") | "\(.reason)@\(.function)=\(.count)"]' "$json")
}

phase_whydrop() { phase_wd_any wd "$1" "$NS"; }

# whydrop watching another (empty) namespace: every drop of the storm takes
# the early exit of the in-kernel netns filter.
phase_wdmiss() { phase_wd_any wm "$1" "$NS_OTHER"; }

# bpftrace with program $3, results under key prefix $1, round $2
phase_bt_any() {
	local k=$1 r=$2 prog=$3 pid ids s0 s1 i code
	bpftrace -e "$prog" >"$TMP/$k.$r.out" 2>"$TMP/$k.$r.err" &
	pid=$!
	CHILDREN+=("$pid")
	# attached = a perf-event tracepoint attachment held by this pid
	for ((i = 0; i < 3000; i++)); do
		bpftool perf show --json 2>/dev/null |
			jq -e --argjson p "$pid" 'any(.[]; .pid == $p and .tracepoint == "kfree_skb")' \
				>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.01
	done
	mapfile -t ids < <(prog_ids_of "$pid")
	if [ ${#ids[@]} -eq 0 ]; then
		kill_child "$pid" 5
		forget_child "$pid"
		note "bpftrace did not attach; its stderr:"
		sed 's/^/  /' "$TMP/$k.$r.err" >&2
		R[${k}_fail.$r]=1
		return 1
	fi
	OUR_PROGS+=("${ids[@]}")
	R[foreign.$r]=$(foreign_progs)
	s0=$(prog_stats "${ids[@]}")
	storm "$TMP/$k.$r.storm"
	s1=$(prog_stats "${ids[@]}")
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		forget_child "$pid"
		note "bpftrace exited during the storm; its stderr:"
		sed 's/^/  /' "$TMP/$k.$r.err" >&2
		R[${k}_fail.$r]=1
		return 1
	fi
	R[${k}_rt.$r]=$((${s1% *} - ${s0% *}))
	R[${k}_cnt.$r]=$((${s1#* } - ${s0#* }))
	kill_child "$pid" 20
	forget_child "$pid"
	R[${k}_dps.$r]=$(kv "$TMP/$k.$r.storm" drops_per_s)
	R[${k}_proc_drops.$r]=$(kv "$TMP/$k.$r.storm" drops)
	R[${k}_cns.$r]=$(kv "$TMP/$k.$r.storm" cpu_ns_per_datagram)
	R[${k}_util.$r]=$(kv "$TMP/$k.$r.storm" cpu_util)
	code=$(rcvbuff_code)
	[ -n "$code" ] && R[${k}_rcvbuff.$r]=$(sed -n "s/^@\[$code\]: //p" "$TMP/$k.$r.out")
	return 0
}

phase_bpftrace() { phase_bt_any bt "$1" "$BT_PROG"; }

# An empty program on the same tracepoint: what bpf_stats itself adds to
# run_time_ns per run (two clock reads), the floor under both programs.
phase_floor() { phase_bt_any fl "$1" 'tracepoint:skb:kfree_skb { }'; }

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
note "kernel $KERNEL, $NCPU CPUs, load $LOAD0, CPUs ${BUSY0}% busy before start; namespace $NS; ${ROUNDS}x3 storms of ${DUR}s"
FAILED=0
PHASES=(none bpftrace)
[ $HAVE_WHYDROP = 1 ] && PHASES=(none whydrop bpftrace)
for ((r = 1; r <= ROUNDS; r++)); do
	# rotate the order each round so slow drift of the machine spreads evenly
	for ((i = 0; i < ${#PHASES[@]}; i++)); do
		p=${PHASES[$(((i + r - 1) % ${#PHASES[@]}))]}
		note "round $r: $p"
		"phase_$p" "$r" || FAILED=1
	done
done

note "calibration: empty bpftrace program"
phase_floor 1 || FAILED=1
if [ $HAVE_WHYDROP = 1 ]; then
	note "whydrop filtered to another namespace"
	phase_wdmiss 1 || FAILED=1
fi

if [ $HAVE_WHYDROP = 1 ]; then
	note "start-to-attached: $STARTS starts"
	"$STARTUP" -n "$STARTS" -t 10 -- "$WHYDROP" count -d 60 --netns "$NS" --json \
		>"$TMP/startup.out" 2>"$TMP/startup.err" || FAILED=1
	sed 's/^/  /' "$TMP/startup.err" >&2
fi
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report ---------------------------------------------------------------------
# median of R[key.1..ROUNDS] (empty values skipped)
median() { local k=$1 f=${2:-%.0f} r v
	for ((r = 1; r <= ROUNDS; r++)); do
		v=${R[$k.$r]:-}; [ -n "$v" ] && echo "$v"
	done | sort -g | awk -v f="$f" '{ a[NR] = $1 } END { if (NR) printf f "\n", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# spread of a key over the rounds: (max - min) / median, in %
spread() { local k=$1 r v
	for ((r = 1; r <= ROUNDS; r++)); do
		v=${R[$k.$r]:-}; [ -n "$v" ] && echo "$v"
	done | sort -g | awk '{ a[NR] = $1 } END { if (NR > 1) { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; if (m > 0) printf "%.0f\n", (a[NR] - a[1]) * 100 / m } }'
}
sub() { num "$1" && num "$2" || { echo n/a; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f\n", a - b }'; }
sum() { local k=$1 r v s=0 n=0
	for ((r = 1; r <= ROUNDS; r++)); do
		v=${R[$k.$r]:-}; [ -n "$v" ] || continue; s=$((s + v)); n=$((n + 1))
	done
	[ $n -gt 0 ] && echo "$s"
}
num() { [[ $1 =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; }
div() { num "$1" && num "$2" || { echo n/a; return; }
	awk -v a="$1" -v b="$2" -v f="${3:-%.1f}" 'BEGIN { if (b == 0) print "n/a"; else printf f "\n", a / b }'; }
pct() { num "$1" && num "$2" || { echo n/a; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%+.1f\n", (a - b) * 100 / b }'; }
# target state: 1 met, 0 not met, - not measured
met() { case $1 in 1) echo "met" ;; 0) echo "NOT met" ;; *) echo "n/a" ;; esac; }
metkv() { case $1 in 1) echo "met" ;; 0) echo "not_met" ;; *) echo "n/a" ;; esac; }

NONE_DPS=$(median none_dps)
WD_DPS=$(median wd_dps)
BT_DPS=$(median bt_dps)
NONE_CNS=$(median none_cns %.1f)
WD_CNS=$(median wd_cns %.1f)
BT_CNS=$(median bt_cns %.1f)
WD_EXTRA=$(sub "$WD_CNS" "$NONE_CNS")
BT_EXTRA=$(sub "$BT_CNS" "$NONE_CNS")
NONE_SPREAD=$(spread none_dps)
WD_NS=$(div "$(sum wd_rt)" "$(sum wd_cnt)")
BT_NS=$(div "$(sum bt_rt)" "$(sum bt_cnt)")
RATIO=$(div "$WD_NS" "$BT_NS" %.2f)
FL_NS=$(div "${R[fl_rt.1]:-}" "${R[fl_cnt.1]:-}")
WD_NET=$(sub "$WD_NS" "$FL_NS"); WD_NET=${WD_NET#+}
BT_NET=$(sub "$BT_NS" "$FL_NS"); BT_NET=${BT_NET#+}
RATIO_NET=$(div "$WD_NET" "$BT_NET" %.2f)
WM_NS=$(div "${R[wm_rt.1]:-}" "${R[wm_cnt.1]:-}")
WD_PROC=$(sum wd_proc_drops)
WD_RCV=$(sum wd_rcvbuff)
WD_MISSING=n/a; [ -n "$WD_PROC" ] && [ -n "$WD_RCV" ] && WD_MISSING=$((WD_PROC - WD_RCV))
WD_LOST=$(sum wd_lost)
WD_CPU=$(sum wd_cpu_ms)
WD_STORM_S=$(awk -v d="$DUR" -v n="$ROUNDS" 'BEGIN { print d * n }')
WD_CPU_PCT=$(div "$WD_CPU" "$(awk -v s="$WD_STORM_S" 'BEGIN { print s * 10 }')")
START_MED=$(kv "$TMP/startup.out" median_ms 2>/dev/null)
START_MIN=$(kv "$TMP/startup.out" min_ms 2>/dev/null)
START_MAX=$(kv "$TMP/startup.out" max_ms 2>/dev/null)
BT_RCV=$(sum bt_rcvbuff)
BT_PROC=$(sum bt_proc_drops)
FOREIGN=0
for ((r = 1; r <= ROUNDS; r++)); do
	[ "${R[foreign.$r]:-0}" -gt "$FOREIGN" ] && FOREIGN=${R[foreign.$r]}
done

T_COST=-; [ "$RATIO" != n/a ] && T_COST=0 && awk -v x="$RATIO" 'BEGIN { exit !(x <= 0.5) }' && T_COST=1
T_LOST=-; [ "$WD_MISSING" != n/a ] && T_LOST=0 && [ "$WD_MISSING" = 0 ] && [ "${WD_LOST:-x}" = 0 ] && T_LOST=1
T_START=-; [ -n "$START_MED" ] && T_START=0 && awk -v x="$START_MED" 'BEGIN { exit !(x < 200) }' && T_START=1

echo
echo "whydrop benchmark: kernel $KERNEL, $NCPU CPUs, UDP drop storm (SOCKET_RCVBUFF) over loopback"
echo "in netns $NS, $(kv "$TMP/none.1" threads) pinned sender threads, sendmmsg x$(kv "$TMP/none.1" batch),"
echo "${DUR}s per storm, $ROUNDS rounds; CPUs ${BUSY0}% busy (by others) before start;"
echo "load average before $LOAD0, after $LOAD1"
[ -n "$NONE_SPREAD" ] && [ "$NONE_SPREAD" -gt 15 ] &&
	echo "WARNING: no-tracer drops/s differ by $NONE_SPREAD% between rounds: the machine is busy;" &&
	echo "         drops/s are indicative only; CPU ns per drop and BPF ns per drop vary less."
[ "$FOREIGN" -gt 0 ] &&
	echo "WARNING: $FOREIGN other kfree_skb BPF program(s) of other processes were loaded during the run;" &&
	echo "         they run on every drop too, so drops/s are lower than on a quiet machine."
echo
printf '%-34s %14s %14s %14s\n' "" "no tracer" "whydrop count" "bpftrace"
for ((r = 1; r <= ROUNDS; r++)); do
	printf '%-34s %14s %14s %14s\n' "drops/s, round $r" "${R[none_dps.$r]:-n/a}" \
		"${R[wd_dps.$r]:-n/a}" "${R[bt_dps.$r]:-n/a}"
done
printf '%-34s %14s %14s %14s\n' "drops/s, median" "${NONE_DPS:-n/a}" "${WD_DPS:-n/a}" "${BT_DPS:-n/a}"
printf '%-34s %14s %14s %14s\n' "change vs no tracer (%)" "" "$(pct "$WD_DPS" "$NONE_DPS")" "$(pct "$BT_DPS" "$NONE_DPS")"
printf '%-34s %14s %14s %14s\n' "sender CPUs busy, median" "$(median none_util %.2f)" \
	"$(median wd_util %.2f)" "$(median bt_util %.2f)"
for ((r = 1; r <= ROUNDS; r++)); do
	printf '%-34s %14s %14s %14s\n' "sender CPU ns per drop, round $r" "${R[none_cns.$r]:-n/a}" \
		"${R[wd_cns.$r]:-n/a}" "${R[bt_cns.$r]:-n/a}"
done
printf '%-34s %14s %14s %14s\n' "sender CPU ns per drop, median" "$NONE_CNS" "$WD_CNS" "$BT_CNS"
printf '%-34s %14s %14s %14s\n' "extra CPU ns per drop vs none" "" "$WD_EXTRA" "$BT_EXTRA"
for ((r = 1; r <= ROUNDS; r++)); do
	printf '%-34s %14s %14s %14s\n' "BPF ns per drop, round $r" "" \
		"$(div "${R[wd_rt.$r]:-}" "${R[wd_cnt.$r]:-}")" "$(div "${R[bt_rt.$r]:-}" "${R[bt_cnt.$r]:-}")"
done
printf '%-34s %14s %14s %14s\n' "BPF ns per drop, all rounds" "" "$WD_NS" "$BT_NS"
printf '%-34s %14s %14s %14s\n' "  minus empty-program floor ($FL_NS)" "" "$WD_NET" "$BT_NET"
printf '%-34s %14s %14s %14s\n' "  drops outside whydrop's netns" "" "$WM_NS" ""
printf '%-34s %14s %14s %14s\n' "BPF program runs counted" "" "$(sum wd_cnt)" "$(sum bt_cnt)"
echo
printf '%-44s %-16s %s\n' "measure" "value" "target"
printf '%-44s %-16s %s\n' "per-drop cost, whydrop / bpftrace" "$RATIO" "<= 0.50: $(met $T_COST)"
printf '%-44s %-16s %s\n' "  same, both minus the empty-program floor" "$RATIO_NET" ""
printf '%-44s %-16s %s\n' "SOCKET_RCVBUFF drops, /proc/net/udp" "${WD_PROC:-n/a}" ""
printf '%-44s %-16s %s\n' "SOCKET_RCVBUFF counted by whydrop" "${WD_RCV:-n/a}" ""
printf '%-44s %-16s %s\n' "lost counts (proc - whydrop)" "$WD_MISSING" "0: $(met $T_LOST)"
printf '%-44s %-16s %s\n' "whydrop lost_events" "${WD_LOST:-n/a}" "0"
printf '%-44s %-16s %s\n' "whydrop --netns <other ns>: total counted" "${R[wm_total.1]:-n/a}" "0 (the storm is not there)"
printf '%-44s %-16s %s\n' "whydrop CPU during storms (ms, % of a CPU)" "${WD_CPU:-n/a} ms ($WD_CPU_PCT%)" ""
printf '%-44s %-16s %s\n' "whydrop CPU, start to end of storm, median" "$(median wd_cpu_total_ms) ms" ""
printf '%-44s %-16s %s\n' "start-to-attached median (min..max), ms" \
	"${START_MED:-n/a} (${START_MIN:-?}..${START_MAX:-?})" "< 200: $(met $T_START)"
printf '%-44s %-16s %s\n' "bpftrace @[SOCKET_RCVBUFF] (all netns)" "${BT_RCV:-n/a}" ">= ${BT_PROC:-n/a} (proc)"
for ((r = 1; r <= ROUNDS; r++)); do
	[ -n "${R[wd_other.$r]:-}" ] && [ "${R[wd_other.$r]}" != "[]" ] &&
		echo "whydrop, round $r, other reasons in $NS: ${R[wd_other.$r]}"
done
echo
echo "# summary (key=value)"
cat <<EOF
kernel=$KERNEL
cpus=$NCPU
storm_duration_s=$DUR
rounds=$ROUNDS
threads=$(kv "$TMP/none.1" threads)
foreign_kfree_skb_progs=$FOREIGN
cpu_busy_before_pct=$BUSY0
drops_per_s_none=${NONE_DPS:-}
drops_per_s_whydrop=${WD_DPS:-}
drops_per_s_bpftrace=${BT_DPS:-}
drops_per_s_none_spread_pct=${NONE_SPREAD:-}
cpu_ns_per_drop_none=${NONE_CNS:-}
cpu_ns_per_drop_whydrop=${WD_CNS:-}
cpu_ns_per_drop_bpftrace=${BT_CNS:-}
extra_cpu_ns_per_drop_whydrop=$WD_EXTRA
extra_cpu_ns_per_drop_bpftrace=$BT_EXTRA
whydrop_ns_per_drop=$WD_NS
bpftrace_ns_per_drop=$BT_NS
cost_ratio_whydrop_bpftrace=$RATIO
empty_prog_ns_per_run=$FL_NS
whydrop_ns_per_drop_net=$WD_NET
bpftrace_ns_per_drop_net=$BT_NET
cost_ratio_net=$RATIO_NET
whydrop_ns_per_drop_other_netns=$WM_NS
whydrop_bpf_runs=$(sum wd_cnt)
bpftrace_bpf_runs=$(sum bt_cnt)
proc_udp_drops=${WD_PROC:-}
whydrop_socket_rcvbuff=${WD_RCV:-}
whydrop_lost_counts=$WD_MISSING
whydrop_lost_events=${WD_LOST:-}
whydrop_other_netns_total=${R[wm_total.1]:-}
whydrop_cpu_ms=${WD_CPU:-}
whydrop_cpu_pct=$WD_CPU_PCT
whydrop_cpu_total_ms=$(median wd_cpu_total_ms)
startup_median_ms=${START_MED:-}
startup_min_ms=${START_MIN:-}
startup_max_ms=${START_MAX:-}
target_cost_half=$(metkv $T_COST)
target_zero_lost=$(metkv $T_LOST)
target_startup_200ms=$(metkv $T_START)
EOF
# options that cost only when asked: their own script, their own namespace
bench/option_cost.sh stacks --stacks || note "bench/option_cost.sh --stacks failed"
bench/option_cost.sh group_by_cgroup --group-by cgroup ||
	note "bench/option_cost.sh --group-by cgroup failed"
exit $FAILED
