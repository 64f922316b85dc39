#!/usr/bin/env bash
# Run every unit-test binary of a build directory; prints "N passed, N failed".
set -u
build=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
passed=0 failed=0
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1)
	rc=$?
	line=$(printf '%s\n' "$out" | tail -n 1)
	p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' <<<"$line")
	f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' <<<"$line")
	if [ -z "$p" ]; then
		# crashed (sanitizer report) or printed no summary: one failure
		p=0 f=1
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	[ "$f" -ne 0 ] && printf '%s\n' "$out" | tail -n 30
	printf '  %-40s %s\n' "$(basename "$t") ($build)" "$line"
	passed=$((passed + p)) failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
