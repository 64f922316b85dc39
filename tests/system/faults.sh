#!/usr/bin/env bash
# whydrop under faults, as root: a closed output pipe, signals at random
# moments (also before the handlers exist), SIGKILL, the watched interface
# deleted, another tracer on the same tracepoint. Each must end with a clear
# message or carry on correctly, and leave nothing attached in the kernel.
# Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
. tests/lib/harness.sh
W=${1:-build/whydrop}
NS=wdflt-$$
NS2=wdflt2-$$
harness_begin tests/system/faults "$NS" "$NS2"
ip -n "$NS" link add wdf0 type veth peer name wdf1
ip -n "$NS" addr add 192.0.2.1/24 dev wdf0
ip -n "$NS" addr add 192.0.2.2/24 dev wdf1
ip -n "$NS" link set wdf0 up
ip -n "$NS" link set wdf1 up

# udp N [DST]: N datagrams to a closed port (NO_SOCKET), loopback by default.
udp() {
	ip netns exec "$NS" $PY -c 'import socket,sys
s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])): s.sendto(b"x", (sys.argv[2], 9))' "$1" "${2:-127.0.0.1}"
}

echo "-- a closed pipe: watch | head -1"
( udp_loop() { for _ in $(seq 40); do udp 20; sleep 0.05; done; }; udp_loop ) &
feeder=$!
start=$(date +%s%N)
timeout 20 "$W" watch --netns "$NS" 2>"$TMP/pipe.err" | head -1 >"$TMP/pipe.out"
rc=${PIPESTATUS[0]}
ms=$(( ($(date +%s%N) - start) / 1000000 ))
kill "$feeder" 2>/dev/null
wait "$feeder" 2>/dev/null
check "head got one record" test "$(wc -l <"$TMP/pipe.out")" -eq 1
check "watch ended by itself ($ms ms), exit $rc (1: a write failed, as for every output error)" test "$rc" -eq 1
check "its summary counts the records it could not write, with the cause" grep -q 'not written: Broken pipe' "$TMP/pipe.err"

echo "-- signals at random moments, before and after attaching"
bad=0 leftover=0
for i in $(seq 12); do
	sig=$(shuf -n1 -e INT TERM HUP)
	cmd=$(shuf -n1 -e count top watch)
	"$W" "$cmd" --netns "$NS" >/dev/null 2>"$TMP/sig.err" &
	pid=$!
	sleep "0.$(shuf -i 0-30 -n1 | xargs printf '%02d')"
	ids=$(prog_ids "$pid")
	kill "-$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	# 0 after a clean detach; killed by the signal itself only before the
	# handlers were installed, when nothing was loaded yet.
	if [ "$rc" -ne 0 ] && { [ -n "$ids" ] || [ "$rc" -lt 128 ]; }; then
		bad=$((bad + 1))
		echo "   $cmd SIG$sig: exit $rc: $(tail -1 "$TMP/sig.err")"
	fi
	# shellcheck disable=SC2086
	progs_gone $ids || leftover=$((leftover + 1))
done
check "12 random signals: every exit clean" test "$bad" -eq 0
check "12 random signals: none left a program attached" test "$leftover" -eq 0

echo "-- SIGKILL: the kernel detaches what a dead process held"
"$W" count --netns "$NS" >/dev/null 2>"$TMP/kill.err" &
pid=$!
wait_attached "$TMP/kill.err"
ids=$(prog_ids "$pid")
check "program loaded while running" test -n "$ids"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 0.2
# shellcheck disable=SC2086
check "after SIGKILL the program is gone" progs_gone $ids

echo "-- the watched interface is deleted"
"$W" count --json --netns "$NS" -i wdf1 >"$TMP/del.out" 2>"$TMP/del.err" &
pid=$!
PIDS+=("$pid")
wait_attached "$TMP/del.err"
ip netns exec "$NS" $PY -c 'import socket
s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 25, b"wdf0")
for _ in range(5): s.sendto(b"x", ("192.0.2.2", 9))'
sleep 0.2
ip -n "$NS" link del wdf0
sleep 0.3
check "still running after the interface vanished" kill -0 "$pid"
kill -INT "$pid"
wait "$pid"
check "exit 0 and a report" test $? -eq 0
check "report is JSON with the drops seen before" \
	$PY -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/del.out"

echo "-- a record names its interface even when it is gone before user space looks"
ip link add wdf4 netns "$NS" type veth peer name wdf5 netns "$NS2"
ip -n "$NS" addr add 198.51.100.1/24 dev wdf4
ip -n "$NS2" addr add 198.51.100.2/24 dev wdf5
ip -n "$NS" link set wdf4 up
ip -n "$NS2" link set wdf5 up
"$W" watch --json --netns "$NS2" >"$TMP/gone.out" 2>"$TMP/gone.err" &
pid=$!
PIDS+=("$pid")
wait_attached "$TMP/gone.err"
kill -STOP "$pid"	# the records wait in the ring buffer meanwhile
udp 3 198.51.100.2
ip -n "$NS" link del wdf4
kill -CONT "$pid"
sleep 0.5
kill -INT "$pid"
wait "$pid"
check "watch exits 0" test $? -eq 0
check "3 records, each named wdf5 (the name at the drop)" test "$($PY -c 'import json,sys
d=[json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(sum(1 for x in d if x.get("dport") == 9 and x.get("ifname") == "wdf5"))' "$TMP/gone.out")" = 3

echo "-- another tracer on the same tracepoint (bpftrace)"
if command -v bpftrace >/dev/null; then
	bpftrace -e 'tracepoint:skb:kfree_skb /args->reason == 3/ { @n = count(); }' \
		>"$TMP/bt.out" 2>&1 &
	bt=$!
	PIDS+=("$bt")
	for _ in $(seq 100); do grep -q Attaching "$TMP/bt.out" && break; sleep 0.1; done
	"$W" count --json --netns "$NS" -r NO_SOCKET >"$TMP/both.out" 2>"$TMP/both.err" &
	pid=$!
	wait_attached "$TMP/both.err"
	udp 77
	kill -INT "$pid"
	wait "$pid"
	n=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$TMP/both.out")
	check "whydrop counts 77 exactly while bpftrace is attached too" test "$n" -eq 77
	kill -INT "$bt"
	wait "$bt" 2>/dev/null
	check "bpftrace saw them too" grep -Eq '@n: [0-9]+' "$TMP/bt.out"
else
	fail "bpftrace missing" "scripts/install-deps.sh test installs it"
fi

summary
