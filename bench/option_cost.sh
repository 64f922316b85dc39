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
TMP=$(mktemp -d)
. bench/storm_cost.sh
storm_cost_init "$NS"

plain=() with=()
for _ in $(seq "$ROUNDS"); do
	read -r ns _ < <(storm_cost "$NS" -- whydrop count --json --netns "$NS") && plain+=("$ns")
	read -r ns _ < <(storm_cost "$NS" -- whydrop count --json --netns "$NS" "${OPTS[@]}") &&
		with+=("$ns")
done
[ ${#plain[@]} -gt 0 ] && [ ${#with[@]} -gt 0 ] ||
	{ echo "bench/option_cost.sh: no round measured" >&2; exit 1; }
p=$(median "${plain[@]}") s=$(median "${with[@]}")
echo "# count ${OPTS[*]}, per-round BPF ns per drop: without ${plain[*]}; with ${with[*]}"
echo "${NAME}_rounds=$ROUNDS"
echo "count_ns_per_drop=$p"
echo "count_${NAME}_ns_per_drop=$s"
echo "${NAME}_extra_ns_per_drop=$($PY -c "print('%.1f' % ($s - $p))")"
