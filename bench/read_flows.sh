#!/usr/bin/env bash
# whydrop read of recordings with many TCP flows: for each count of flows,
# a file as record --tcp writes it (tests/lib/tcp_flows_pcapng.py: per
# flow a retransmission, a reset sent and a drop), then the wall time and
# peak RSS of `read --json` by each binary given, and whether their
# outputs are the same bytes. No root, no kernel. Prints key=value lines.
#   bench/read_flows.sh [WHYDROP...]   (BENCH_FLOWS="5000 10000 20000 40000")
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
[ $# -gt 0 ] || set -- build/whydrop
[ -x /usr/bin/time ] || { echo "read_flows: needs /usr/bin/time for the peak RSS: apt-get install time" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

for n in ${BENCH_FLOWS:-5000 10000 20000 40000}; do
	python3 tests/lib/tcp_flows_pcapng.py "$n" "$TMP/f.pcapng" || exit 1
	i=0
	for w in "$@"; do
		i=$((i + 1))
		/usr/bin/time -f "%e %M" -o "$TMP/time" "$w" read --json "$TMP/f.pcapng" \
			>"$TMP/out$i" 2>/dev/null || echo "read_flows: $w failed on $n flows" >&2
		read -r s kb <"$TMP/time"
		same=$(cmp -s "$TMP/out1" "$TMP/out$i" && echo yes || echo no)
		echo "flows=$n binary=$w seconds=$s max_rss_kb=$kb same_output_as_first=$same"
	done
done
