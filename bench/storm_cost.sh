# shellcheck shell=bash
# Shared by bench/option_cost.sh and bench/filtered_out.sh (sourced): the
# per-drop BPF cost of one tracer over one UDP drop storm, from the tracer's
# own programs' run_time_ns / run_cnt (kernel.bpf_stats_enabled, set by
# storm_cost_init and restored on exit). The caller sets DUR, STORM, TMP.
. tests/lib/assert.sh	# prog_ids, poll_until, PY

WD=		# the tracer running, if any
OLD_STATS=$(sysctl -n kernel.bpf_stats_enabled)
STORM_NSES=()

storm_cost_cleanup() {
	local n
	[ -n "$WD" ] && kill -INT "$WD" 2>/dev/null && wait "$WD" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="$OLD_STATS"
	for n in "${STORM_NSES[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$TMP"
}

# storm_cost_init NS...: namespaces with lo up, statistics on, clean-up on exit.
storm_cost_init() {
	local n
	trap storm_cost_cleanup EXIT
	trap 'exit 1' INT TERM
	for n in "$@"; do
		ip netns add "$n" || exit 1
		STORM_NSES+=("$n")
		ip -n "$n" link set lo up || exit 1
	done
	sysctl -qw kernel.bpf_stats_enabled=1
}

# "run_time_ns run_cnt" of the programs a process holds.
prog_stats() {
	local id t=0 c=0 line
	for id in $(prog_ids "$1"); do
		line=$(bpftool prog show id "$id" --json | $PY -c 'import json,sys
p = json.load(sys.stdin); print(p.get("run_time_ns", 0), p.get("run_cnt", 0))')
		t=$((t + ${line% *})) c=$((c + ${line#* }))
	done
	echo "$t $c"
}

# start_tracer empty | whydrop ARGS...: bpftrace's empty program (attached once
# bpftool perf show lists it) or whydrop (once it says so), in WD; its JSON
# document (whydrop's, or {"total": 0}) in $TMP/out.json.
start_tracer() {
	if [ "$1" = empty ]; then
		echo '{"total": 0}' >"$TMP/out.json"
		bpftrace -e 'tracepoint:skb:kfree_skb { }' >/dev/null 2>"$TMP/err" &
		WD=$!
		poll_until 60 eval 'bpftool perf show --json 2>/dev/null | $PY -c "import json,sys
sys.exit(not any(p.get(\"pid\") == $WD and p.get(\"tracepoint\") == \"kfree_skb\"
                 for p in json.load(sys.stdin)))" || ! kill -0 "$WD" 2>/dev/null'
		kill -0 "$WD" 2>/dev/null && return 0
	else
		shift
		"$WHYDROP" "$@" >"$TMP/out.json" 2>"$TMP/err" &
		WD=$!
		# attached, or gone (up to 60 s: a loaded machine verifies slowly)
		poll_until 60 eval 'grep -q attached "$TMP/err" || ! kill -0 "$WD" 2>/dev/null'
		grep -q attached "$TMP/err" && return 0
	fi
	echo "${0##*/}: $* did not attach:" >&2
	sed 's/^/  /' "$TMP/err" >&2
	kill -KILL "$WD" 2>/dev/null; wait "$WD"; WD=
	return 1
}

# storm_cost NS STORM-ARGS -- TRACER...: "BPF-ns-per-run counted" of the
# tracer (start_tracer's arguments) over one storm in NS.
storm_cost() {
	local ns=$1 sargs=() s0 s1
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do sargs+=("$1"); shift; done
	shift
	start_tracer "$@" || return 1
	s0=$(prog_stats "$WD")
	ip netns exec "$ns" "$STORM" -d "$DUR" "${sargs[@]}" >/dev/null 2>&1
	s1=$(prog_stats "$WD")
	kill -INT "$WD"; wait "$WD"; WD=
	$PY -c 'import json,sys
t0, c0, t1, c1 = map(int, sys.argv[1:5])
if c1 == c0:
    sys.exit("no BPF program run counted (kernel.bpf_stats_enabled?)")
print("%.1f %d" % ((t1 - t0) / (c1 - c0), json.load(open(sys.argv[5])).get("total", 0)))' \
		$s0 $s1 "$TMP/out.json"
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
