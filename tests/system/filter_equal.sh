#!/usr/bin/env bash
# The pcap filter translator (src/lib/filter/cbpf_ebpf.c) against libpcap in the
# running kernel: tests/system/filter_equal.c (built by `make all unit-bins`,
# into build/system/, or build/asan/system/ by `make asan`) runs every
# translated filter under BPF_PROG_TEST_RUN on random IPv4/IPv6 packets and
# compares its verdict with pcap_offline_filter(), checks the paged-data
# accounting, and loads each filter as tp_btf for kfree_skb, the longest
# one near 512 classic instructions included. Builds nothing.
#   tests/system/filter_equal.sh [BINARY]   (WHYDROP_FILTER_SEED=N repeats a run)
# Prints "N passed, N failed"; testing nothing is a failure.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
BIN=${1:-build/system/filter_equal}

if [ "$(id -u)" -ne 0 ]; then
	echo "tests/system/filter_equal: needs root (BPF_PROG_TEST_RUN, pointers in maps)"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -x "$BIN" ]; then
	fail "$BIN is built" "make all unit-bins (or make asan) builds it"
	summary
	exit 1
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$BIN" >"$out" 2>&1
rc=$?
# its own lines, but its summary becomes part of ours
grep -Ev '^[0-9]+ passed, [0-9]+ failed' "$out"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$out" | tail -n 1)
p=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' <<<"$line")
f=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p' <<<"$line")
if [ -z "$p" ]; then
	fail "$BIN printed its summary" "exit $rc (crashed, or a sanitizer stopped it)"
else
	T_PASSED=$((T_PASSED + p))
	T_FAILED=$((T_FAILED + f))
	[ "$p" -gt 0 ] || fail "$BIN tested something" "$line"
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || fail "$BIN exit status" "exit $rc with $line"
fi
summary
