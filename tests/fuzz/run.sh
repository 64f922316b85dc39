#!/usr/bin/env bash
# Run every libFuzzer target for SECONDS each from its seed corpus, then
# replay every kept crashing input. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
secs=${1:-60}
passed=0 failed=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for bin in build/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=${bin##*/fuzz_}
	seeds=tests/fuzz/corpus/$name
	mkdir -p "$work/$name" "$work/$name.art"
	log=$work/$name.log
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$work/$name.art/" "$work/$name" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		printf '  ok    fuzz_%-10s %s executions in %ss, no finding\n' "$name" "${execs:-?}" "$secs"
	else
		failed=$((failed + 1))
		printf '  FAIL  fuzz_%-10s finding kept in %s:\n' "$name" "$work/$name.art"
		grep -m 5 -E 'ERROR|SUMMARY|runtime error' "$log" | sed 's/^/        /'
		for a in "$work/$name.art/"*; do
			[ -f "$a" ] && cp "$a" "tests/fuzz/regressions/$name-${a##*/}"
		done
	fi
	for crash in tests/fuzz/regressions/"$name"-*; do
		[ -f "$crash" ] || continue
		if "$bin" "$crash" >/dev/null 2>&1; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "  FAIL  regression input $crash"
		fi
	done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
