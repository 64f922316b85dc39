#!/bin/bash
# tests/lab/run.sh [NAME...]: run the drop-reason lab against the real kernel (as root).
# NAME is a reason and family (NO_SOCKET.ipv4: NO_SOCKET.ipv4.sh, or the ipv4 run of
# NO_SOCKET.ipv4.ipv6.sh) or a reason (NO_SOCKET: all its families). Prints a table and
# the closing line "N passed, N failed[, N skipped]"; exits non-zero if any scenario
# failed. Environment: WHYDROP (binary, default build/whydrop from the repo root),
# LAB_VERBOSE=1 (scenario stderr shown), LAB_KEEP=DIR (whydrop JSON of failed scenarios
# kept there, default /tmp).
set -uo pipefail
LAB_DIR=$(cd "$(dirname "$0")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
cd "$REPO_DIR" || exit 2

if [ "$(id -u)" -ne 0 ]; then
	echo "tests/lab/run.sh: the lab creates network namespaces and attaches BPF programs; run it as root" >&2
	exit 2
fi
for tool in ip nft tc /usr/bin/python3; do
	command -v "$tool" >/dev/null || { echo "tests/lab/run.sh: $tool is missing" >&2; exit 2; }
done
/usr/bin/python3 -c 'import scapy' 2>/dev/null ||
	{ echo "tests/lab/run.sh: python3-scapy is missing (apt-get install python3-scapy)" >&2; exit 2; }
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true

export WHYDROP=${WHYDROP:-build/whydrop}
# scen: "FILE FAMILY" entries. A file REASON.F1.F2.sh is one entry per family (lib.sh:
# lab_family); a file REASON.F.sh names its family itself, its entry has none.
scen=()
add_file() {	# FILE [FAMILY]: that family of FILE, else all its families
	local fams fam; fams=$(basename "$1" .sh); fams=${fams#*.}
	case $fams in
	*.*) for fam in ${fams//./ }; do
		[ -z "${2:-}" ] || [ "$fam" = "$2" ] && scen+=("$1 $fam")
	     done ;;
	*) [ -z "${2:-}" ] || [ "$fams" = "$2" ] && scen+=("$1 ") ;;
	esac
	return 0
}
if [ $# -eq 0 ]; then
	for f in "$LAB_DIR"/scenarios/*.sh; do add_file "$f"; done
else
	for n in "$@"; do
		n=${n%.sh}; n=${n##*/}
		fam=; case $n in *.*) fam=${n#*.} ;; esac
		before=${#scen[@]}
		for f in "$LAB_DIR"/scenarios/"${n%%.*}".*.sh; do
			[ -f "$f" ] && add_file "$f" "$fam"
		done
		[ ${#scen[@]} -gt "$before" ] || { echo "tests/lab/run.sh: no scenario named $n" >&2; exit 2; }
	done
fi

results=$(mktemp /tmp/wdlab-results.XXXX)
trap 'rm -f "$results" "$results.one" "$results.err"' EXIT
# `timeout` puts a scenario in its own process group, so Ctrl-C does not reach it:
# forward INT/TERM to it (its trap tears everything down) and stop after it.
cur='' interrupted=0
trap 'interrupted=1; [ -n "$cur" ] && kill -TERM "$cur" 2>/dev/null' INT TERM
start=$(date +%s)
printf '%-26s %-6s %8s %8s  %-32s %s\n' reason family expected whydrop function verdict
for entry in "${scen[@]}"; do
	f=${entry% *} fam=${entry##* }
	: >"$results.one"
	if [ -n "${LAB_VERBOSE:-}" ]; then
		LAB_FAMILY=$fam LAB_RESULTS="$results.one" timeout -k 5 90 bash "$f" &
	else
		LAB_FAMILY=$fam LAB_RESULTS="$results.one" timeout -k 5 90 bash "$f" 2>"$results.err" &
	fi
	cur=$!
	wait "$cur"; rc=$?
	while kill -0 "$cur" 2>/dev/null; do wait "$cur"; rc=$?; done
	cur=''
	[ $interrupted = 1 ] && { echo "tests/lab/run.sh: interrupted" >&2; break; }
	if ! grep -q '^RESULT' "$results.one"; then
		name=$(basename "$f" .sh)
		note="no result (exit $rc)"; [ $rc = 124 ] && note="timed out after 90 s"
		[ -s "$results.err" ] && note="$note: $(tail -n 2 "$results.err" | tr '\n' ' ')"
		printf 'RESULT\t%s\t%s\t-\t-\t-\tFAIL\t%s\n' "${name%%.*}" "${fam:-${name#*.}}" "$note" >"$results.one"
	fi
	cat "$results.one" >>"$results"
	IFS=$'\t' read -r _ reason family exp got funcs verdict note <"$results.one"
	printf '%-26s %-6s %8s %8s  %-32s %s' "$reason" "$family" "$exp" "$got" "$funcs" "$verdict"
	[ -n "$note" ] && [ "$verdict" != PASS ] && printf '  (%s)' "$note"
	printf '\n'
done
pass=$(grep -c $'\tPASS\t' "$results")
failn=$(grep -c $'\tFAIL\t' "$results")
skipn=$(grep -c $'\tSKIP\t' "$results")
reasons=$(awk -F'\t' '$7 == "PASS" { print $2 }' "$results" | sort -u | wc -l)
echo "# $reasons distinct reasons reproduced and reported right, in $(( $(date +%s) - start )) s"
line="$pass passed, $failn failed"
[ "$skipn" -gt 0 ] && line="$line, $skipn skipped"
echo "$line"
[ $interrupted = 1 ] && exit 130
[ "$failn" -eq 0 ]
