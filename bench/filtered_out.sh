#!/usr/bin/env bash
# The per-drop cost of drops whydrop's filters leave out, which every drop of
# a busy host pays while whydrop watches one namespace, interface or reason:
# the per_cpu UDP drop storm of bench/run.sh (SOCKET_RCVBUFF, one sender per
# CPU) in namespace NS under
#   empty       bpftrace's empty program on the tracepoint: the floor (bench/README.md)
#   counted     whydrop count --netns NS                 every drop counted
#   netns_out   whydrop count --netns OTHER              an empty namespace
#   reason_out  whydrop count --netns NS -r NO_SOCKET    a reason the storm has not
#   iface_out   whydrop count --netns NS -i wdfo1        a veth of NS with no traffic
# alternated round by round, with the BPF programs' own run_time_ns /
# run_cnt (kernel.bpf_stats_enabled). Prints key=value lines; asserts
# nothing, but exits 1 when a run could not be measured or a filtered-out
# run counted a drop.
#   bench/filtered_out.sh [MODE...]   (as root; ROUNDS, BENCH_DURATION, WHYDROP)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
DUR=${BENCH_DURATION:-3}
ROUNDS=${ROUNDS:-3}
WHYDROP=${WHYDROP:-$ROOT/build/whydrop}
OUT=$ROOT/build/bench
STORM=$OUT/storm
NS=wdfo-bench-$$
OTHER=wdfo-other-$$
MODES=("$@")
[ ${#MODES[@]} -gt 0 ] || MODES=(empty counted netns_out reason_out iface_out)
declare -A ARGS=(
	[empty]="empty"
	[counted]="whydrop count --json --netns $NS"
	[netns_out]="whydrop count --json --netns $OTHER"
	[reason_out]="whydrop count --json --netns $NS -r NO_SOCKET"
	[iface_out]="whydrop count --json --netns $NS -i wdfo1"
)
for m in "${MODES[@]}"; do
	[ -n "${ARGS[$m]:-}" ] ||
		{ echo "bench/filtered_out.sh: unknown mode '$m' (${!ARGS[*]})" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "bench/filtered_out.sh: needs root" >&2; exit 1; }
make -s -C bench OUT="$OUT" >&2 || { echo "bench/filtered_out.sh: building storm failed" >&2; exit 1; }
[ -x "$WHYDROP" ] || { echo "bench/filtered_out.sh: no $WHYDROP (run make)" >&2; exit 1; }
TMP=$(mktemp -d)
. bench/storm_cost.sh
storm_cost_init "$NS" "$OTHER"
ip -n "$NS" link add wdfo0 type veth peer name wdfo1 || exit 1

declare -A NSP COUNTED
FAILED=0
for _ in $(seq "$ROUNDS"); do
	for m in "${MODES[@]}"; do
		# shellcheck disable=SC2086 # the mode's arguments are words
		if read -r ns n < <(storm_cost "$NS" -- ${ARGS[$m]}); then
			NSP[$m]+="$ns " COUNTED[$m]=$((${COUNTED[$m]:-0} + n))
		else
			FAILED=1
		fi
	done
done
echo "# per_cpu storm, BPF ns per drop, each round: $(for m in "${MODES[@]}"; do
	printf '%s %s; ' "$m" "${NSP[$m]:-}"; done)"
echo "filtered_out_rounds=$ROUNDS"
for m in "${MODES[@]}"; do
	# shellcheck disable=SC2086 # the rounds' values are words
	echo "${m}_ns_per_drop=$([ -n "${NSP[$m]:-}" ] && median ${NSP[$m]})"
	[ "$m" = empty ] && continue
	echo "${m}_counted=${COUNTED[$m]:-}"
	if [[ $m == *_out ]] && [ "${COUNTED[$m]:-0}" -ne 0 ]; then
		echo "bench/filtered_out.sh: $m counted ${COUNTED[$m]} drops, expected none" >&2
		FAILED=1
	fi
done
exit $FAILED
