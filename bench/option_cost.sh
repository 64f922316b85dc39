#!/usr/bin/env bash
# The per-drop cost of an option of count: the UDP drop storm of
# bench/run.sh under `whydrop count` and `whydrop count OPTION...`,
# alternated, with the BPF program's own run_time_ns / run_cnt
# (kernel.bpf_stats_enabled). Prints key=value lines; asserts nothing.
# bench/run.sh calls it at the end for --stacks and --group-by cgroup.
#   bench/option_cost.sh NAME OPTION...   (as root; ROUNDS, BENCH_DURATION, WHYDROP)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
. tests/lib/assert.sh	# prog_ids, poll_until
DUR=${BENCH_DURATION:-3}
ROUNDS=${ROUNDS:-${STACKS_ROUNDS:-3}}
NAME=${1:?usage: bench/option_cost.sh NAME OPTION...}
shift
OPTS=("$@")
WHYDROP=${WHYDROP:-$ROOT/build/whydrop}
OUT=$ROOT/build/bench
STORM=$OUT/storm
NS=wdcost-bench-$$
[ "$(id -u)" -eq 0 ] || { echo "bench/option_cost.sh: needs root" >&2; exit 1; }
make -s -C bench OUT="$OUT" >&2 || { echo "bench/option_cost.sh: building storm failed" >&2; exit 1; }
[ -x "$WHYDROP" ] || { echo "bench/option_cost.sh: no $WHYDROP (run make)" >&2; exit 1; }
OLD_STATS=$(sysctl -n kernel.bpf_stats_enabled)
TMP=$(mktemp -d)
WD=
cleanup() {
	[ -n "$WD" ] && kill -INT "$WD" 2>/dev/null && wait "$WD" 2>/dev/null
	sysctl -qw kernel.bpf_stats_enabled="$OLD_STATS"
	ip netns del "$NS" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
ip netns add "$NS" && ip -n "$NS" link set lo up
sysctl -qw kernel.bpf_stats_enabled=1

# "run_time_ns run_cnt" of the programs a process holds.
stats() {
	local id t=0 c=0 line
	for id in $(prog_ids "$1"); do
		line=$(bpftool prog show id "$id" --json | $PY -c 'import json,sys
p = json.load(sys.stdin); print(p.get("run_time_ns", 0), p.get("run_cnt", 0))')
		t=$((t + ${line% *})) c=$((c + ${line#* }))
	done
	echo "$t $c"
}

# one MODE ARGS...: ns per program run over one storm.
one() {
	local s0 s1
	"$WHYDROP" count --netns "$NS" "$@" >"$TMP/out" 2>"$TMP/err" &
	WD=$!
	# attached, or gone (up to 60 s: a loaded machine verifies slowly)
	poll_until 60 eval 'grep -q attached "$TMP/err" || ! kill -0 "$WD" 2>/dev/null'
	if ! grep -q attached "$TMP/err"; then
		echo "bench/option_cost.sh: whydrop count $* did not attach:" >&2
		sed 's/^/  /' "$TMP/err" >&2
		kill -KILL "$WD" 2>/dev/null; wait "$WD"; WD=
		return 1
	fi
	s0=$(stats "$WD")
	ip netns exec "$NS" "$STORM" -d "$DUR" >/dev/null 2>&1
	s1=$(stats "$WD")
	kill -INT "$WD"; wait "$WD"; WD=
	$PY -c 'import sys
t0, c0, t1, c1 = map(int, sys.argv[1:])
if c1 == c0:
    sys.exit("bench/option_cost.sh: no BPF program run counted (kernel.bpf_stats_enabled?)")
print("%.1f %d" % ((t1 - t0) / (c1 - c0), c1 - c0))' $s0 $s1
}

plain=() with=()
for _ in $(seq "$ROUNDS"); do
	read -r ns _ < <(one) && plain+=("$ns")
	read -r ns _ < <(one "${OPTS[@]}") && with+=("$ns")
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
[ ${#plain[@]} -gt 0 ] && [ ${#with[@]} -gt 0 ] ||
	{ echo "bench/option_cost.sh: no round measured" >&2; exit 1; }
p=$(median "${plain[@]}") s=$(median "${with[@]}")
echo "# count ${OPTS[*]}, per-round BPF ns per drop: without ${plain[*]}; with ${with[*]}"
echo "${NAME}_rounds=$ROUNDS"
echo "count_ns_per_drop=$p"
echo "count_${NAME}_ns_per_drop=$s"
echo "${NAME}_extra_ns_per_drop=$($PY -c "print('%.1f' % ($s - $p))")"
