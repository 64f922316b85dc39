#!/usr/bin/env bash
# whydrop serve against the real kernel and a real Prometheus server (Debian's
# `prometheus`): drops made in a namespace this script creates are scraped and
# the PromQL answer must be the exact count. Also: HTTP methods and paths, the
# cardinality cap, least privilege while serving (no capability, not root),
# usage errors, clean detach on SIGTERM. Everything started is torn down.
# Usage: tests/integration/serve.sh [BINARY]. Prints "N passed, N failed".
. "$(dirname "$0")/../lib/part.sh"
. tests/lib/prometheus.sh
NS=wdserve-$$
PROM=/usr/bin/prometheus
harness_begin tests/integration/serve "$NS"
# series that retire, expected drops apart: tests/integration/serve_retire.sh
. tests/integration/serve_retire.sh
trap 'harness_end; retire_cleanup' EXIT
if [ ! -x "$PROM" ] || ! command -v curl >/dev/null; then
	echo "installing prometheus and curl (Debian packages)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		prometheus curl >/dev/null 2>&1 ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends prometheus curl >/dev/null; }
fi
if [ ! -x "$PROM" ]; then
	echo "tests/integration/serve: $PROM is missing (apt-get install prometheus)"
	echo "0 passed, 1 failed"
	exit 1
fi


# udp NS COUNT FAMILY: datagrams to a closed port on loopback (NO_SOCKET).
udp() {
	ip netns exec "$1" $PY - "$2" "$3" <<'PYEOF'
import socket, sys
n, fam = int(sys.argv[1]), sys.argv[2]
af, dst = (socket.AF_INET, "127.0.0.1") if fam == "4" else (socket.AF_INET6, "::1")
s = socket.socket(af, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"x", (dst, 9))
PYEOF
}

# tcp NS COUNT: SYNs to a closed port on loopback (NO_SOCKET in tcp_v4_rcv).
tcp() { ip netns exec "$1" $PY tests/lib/refused.py "$2"; }


# serve NAME ARGS...: start whydrop serve (inside network namespace $IN_NS
# when set), wait for its address; sets LAST and ADDR.
serve() {
	local name=$1 i pre=()
	shift
	[ -n "${IN_NS:-}" ] && pre=(ip netns exec "$IN_NS")
	"${pre[@]}" "$W" serve "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	LAST=$!
	PIDS+=("$LAST")
	for i in $(seq 150); do
		ADDR=$(sed -n 's|.*listening on http://\([^/]*\)/metrics.*|\1|p' "$TMP/$name.err")
		[ -n "$ADDR" ] && return 0
		kill -0 "$LAST" 2>/dev/null || break
		sleep 0.1
	done
	fail "$name: serving" "$(cat "$TMP/$name.err")"
	return 1
}

# stopped NAME: stop the serve started last (SIGTERM); it must exit 0 (under
# ASan a leak or UBSan report would not).
stopped() {
	stop "$LAST" TERM
	check "$1: exit 0 on SIGTERM" test $? -eq 0
}

http_code() {
	curl -s -o /dev/null -w '%{http_code}' "$@"
}


# wait_promql EXPR WANT SECONDS: until the query returns WANT; prints the last value.
wait_promql() {
	local v="" i
	for i in $(seq $(($3 * 4))); do
		v=$(promql "$1")
		[ "$v" = "$2" ] && break
		sleep 0.25
	done
	echo "$v"
}

# prog_ids PID: the BPF programs a process holds (from its fdinfo).
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u
}

# metric URL NAME: the value of an unlabelled metric on the page, "" if none.
metric() {
	curl -s "$1" | awk -v m="$2" '$1 == m { print $2 }'
}

# drops_sum URL: the sum of whydrop_drops_total on the page.
drops_sum() {
	curl -s "$1" | awk '/^whydrop_drops_total\{/ { s += $2 } END { print s + 0 }'
}

# sum_is URL N: the page's whydrop_drops_total add up to N.
sum_is() {
	[ "$(drops_sum "$1")" = "$2" ]
}

prom_ready() {
	[ "$(http_code "http://$PADDR/-/ready")" = 200 ]
}

# gone IDS...: none of these programs is loaded any more.
gone() {
	local id
	[ $# -gt 0 ] || return 1
	for id in "$@"; do
		bpftool prog show id "$id" >/dev/null 2>&1 && return 1
	done
	return 0
}

no_sanitizer_report() {
	! grep -q 'Sanitizer' "$TMP"/*.err
}

status_field() {
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

echo "-- whydrop serve scraped by a real Prometheus"
serve main --listen 127.0.0.1:0 --netns "$NS" --per-interface --per-netns || {
	summary
	exit 1
}
MAIN=$LAST
WADDR=$ADDR
check "listens on loopback (127.0.0.1:PORT)" grep -Eq '^127\.0\.0\.1:[0-9]+$' <<<"$WADDR"

# Least privilege while answering the network.
check "serving with CapEff 0" [ "$(status_field "$MAIN" CapEff)" = 0000000000000000 ]
check "serving with CapPrm 0" [ "$(status_field "$MAIN" CapPrm)" = 0000000000000000 ]
check "serving as a non-root uid" [ "$(status_field "$MAIN" Uid)" != 0 ]
check "serving with no_new_privs" [ "$(status_field "$MAIN" NoNewPrivs)" = 1 ]
check "every thread (the HTTP one too) with CapEff 0" \
	[ "$(cat /proc/"$MAIN"/task/*/status | awk '$1 == "CapEff:" && $2 != "0000000000000000"' | wc -l)" = 0 ]
MAIN_PROGS=$(prog_ids "$MAIN")
check "holds its kfree_skb program" grep -q kfree_skb_ <(for i in $MAIN_PROGS; do bpftool prog show id "$i"; done)
# KPROG: the id of the program it attached to skb:kfree_skb (kfree_skb_btf or _raw)
KPROG=$(for i in $MAIN_PROGS; do bpftool prog show id "$i" --json; echo; done | $PY -c '
import json, sys
for line in sys.stdin:
    if line.strip() and json.loads(line).get("name", "").startswith("kfree_skb"):
        print(json.loads(line)["id"])' | head -n 1)
# recursion_misses ID: the kernel's count of runs of that program it had to skip
# (bpftool prints the field only when it is not 0)
recursion_misses() {
	bpftool prog show id "$1" --json | $PY -c 'import json, sys
print(json.load(sys.stdin).get("recursion_misses", 0))'
}
# between V LO HI: V is a number from LO to HI
between() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

start_prometheus
check "prometheus is ready on $PADDR" poll_until 20 prom_ready
up=$(wait_promql 'up{job="whydrop"}' 1 20)
check "prometheus scrapes whydrop (up == 1)" [ "$up" = 1 ]

udp "$NS" 37 4
udp "$NS" 5 6
tcp "$NS" 4
v=$(wait_promql 'sum(whydrop_drops_total{reason="NO_SOCKET"})' 46 20)
check "PromQL: sum(whydrop_drops_total{reason=\"NO_SOCKET\"}) == 46 exactly (got '$v')" [ "$v" = 46 ]
v=$(promql 'whydrop_drops_total{reason="NO_SOCKET",function="__udp4_lib_rcv"}')
check "PromQL: NO_SOCKET in __udp4_lib_rcv == 37 (got '$v')" [ "$v" = 37 ]
v=$(promql 'whydrop_drops_total{reason="NO_SOCKET",function="__udp6_lib_rcv"}')
check "PromQL: NO_SOCKET in __udp6_lib_rcv == 5 (got '$v')" [ "$v" = 5 ]
v=$(promql 'sum(whydrop_drops_total{reason="NO_SOCKET",function="tcp_v4_rcv"})')
check "PromQL: NO_SOCKET in tcp_v4_rcv == 4 (got '$v')" [ "$v" = 4 ]
v=$(promql 'count(whydrop_drops_total{reason="NO_SOCKET",layer="TCP/UDP"})')
check "PromQL: layer label from the catalogue (TCP/UDP) (got '$v')" [ "$v" = 3 ]
ino=$(stat -L -c %i "/run/netns/$NS")
v=$(promql "sum(whydrop_netns_drops_total{netns=\"$ino\",reason=\"NO_SOCKET\"})")
check "PromQL: per-netns counter == 46 (got '$v')" [ "$v" = 46 ]
v=$(promql "sum(whydrop_interface_drops_total{netns=\"$ino\",interface=\"lo\"})")
check "PromQL: per-interface counter names lo, == 46 (got '$v')" [ "$v" = 46 ]
version=$("$W" --version | awk '{ print $2; exit }')
attach=$(sed -n 's/.*attached to skb:kfree_skb (\([^)]*\)).*/\1/p' "$TMP/main.err" | head -n 1)
v=$(promql "whydrop_build_info{version=\"$version\",kernel=\"$(uname -r)\",attach=\"$attach\"}")
check "PromQL: whydrop_build_info{version=\"$version\" (--version), kernel=\"$(uname -r)\" (uname -r), attach=\"$attach\" (its stderr)} == 1 (got '$v')" \
	[ "$v" = 1 ]
# Lost events are the recursion misses of the program it attached, as the kernel counts
# them: read before and after the page, the page's value must lie between (0 when both are).
if [ -z "$KPROG" ]; then
	fail "whydrop_lost_events_total = the program's recursion_misses" "no kfree_skb program among $MAIN_PROGS"
else
	m0=$(recursion_misses "$KPROG")
	v=$(metric "http://$WADDR/metrics" whydrop_lost_events_total)
	m1=$(recursion_misses "$KPROG")
	check "whydrop_lost_events_total ($v) = recursion_misses of program $KPROG (bpftool: $m0..$m1)" \
		between "$v" "$m0" "$m1"
	# scraped at some moment since it started: from 0 to what the kernel says now
	v=$(promql whydrop_lost_events_total)
	m1=$(recursion_misses "$KPROG")
	check "PromQL: whydrop_lost_events_total ($v), as scraped, within recursion_misses (0..$m1)" \
		between "$v" 0 "$m1"
fi
check "PromQL: whydrop_series_folded == 0 under the cap" \
	[ "$(promql 'whydrop_series_folded{metric="whydrop_drops_total"}')" = 0 ]

echo "-- HTTP"
U=http://$WADDR
check "GET /metrics: 200" [ "$(http_code "$U/metrics")" = 200 ]
check "Content-Type is the text exposition format 0.0.4" \
	grep -qi '^content-type: text/plain; version=0.0.4' <(curl -s -D - -o /dev/null "$U/metrics")
check "HELP and TYPE lines" grep -q '^# TYPE whydrop_drops_total counter$' <(curl -s "$U/metrics")
check "HEAD /metrics: 200, no body" [ "$(curl -s -I -o /dev/null -w '%{http_code}:%{size_download}' "$U/metrics")" = 200:0 ]
check "POST /metrics: 405" [ "$(http_code -X POST -d x=1 "$U/metrics")" = 405 ]
check "PUT /metrics: 405" [ "$(http_code -X PUT -d x=1 "$U/metrics")" = 405 ]
check "DELETE /: 405" [ "$(http_code -X DELETE "$U/")" = 405 ]
check "405 says Allow: GET, HEAD" grep -qi '^allow: GET, HEAD' <(curl -s -D - -o /dev/null -X POST "$U/metrics")
check "GET /nope: 404" [ "$(http_code "$U/nope")" = 404 ]
check "GET /: 200" [ "$(http_code "$U/")" = 200 ]
check "still serving after the bad requests" [ "$(http_code "$U/metrics")" = 200 ]
# A client that goes away mid-request must not hurt the exporter.
$PY -c 'import socket, sys
h, p = sys.argv[1].rsplit(":", 1)
s = socket.create_connection((h, int(p))); s.send(b"GET /metr"); s.close()' "$WADDR"
check "survives a client leaving mid-request" [ "$(http_code "$U/metrics")" = 200 ]

echo "-- bounded cardinality (--max-series 2)"
serve capped --listen 127.0.0.1:0 --netns "$NS" --max-series 2 && {
	udp "$NS" 9 4
	udp "$NS" 3 6
	tcp "$NS" 2
	check "the 14 drops are counted (polled, 10 s at most)" \
		poll_until 10 sum_is "http://$ADDR/metrics" 14
	curl -s "http://$ADDR/metrics" >"$TMP/capped.txt"
	n=$(grep -c '^whydrop_drops_total{' "$TMP/capped.txt")
	check "two series: the largest and the fold (got $n)" [ "$n" = 2 ]
	check "largest kept: udp4, 9" grep -q '^whydrop_drops_total{reason="NO_SOCKET",layer="TCP/UDP",function="__udp4_lib_rcv"} 9$' "$TMP/capped.txt"
	check "the rest folded into reason=\"other\": 5" grep -q '^whydrop_drops_total{reason="other",layer="other",function="other"} 5$' "$TMP/capped.txt"
	check "whydrop_series_folded == 2" grep -q '^whydrop_series_folded{metric="whydrop_drops_total"} 2$' "$TMP/capped.txt"
	stopped capped
}

echo "-- a long run with churning keys: the counting hash is swapped, nothing overflows"
# 96 kinds of drop (IP_NOPROTO in as many namespaces: the key has the
# namespace), 12 new ones between scrapes, against a counting hash of 16
# keys: without generations (src/core/map_counts.c) they would spill into the
# overflow bucket; a count with no read between the batches shows that they
# do. No --netns (the namespaces are many): the expression keeps out drops
# of tests running beside this one.
CHURN_F="ip proto 254 and dst host 127.83.12.7"
CHURN_NS=()
for k in $(seq 0 95); do CHURN_NS+=("$NS-c$k"); done
HARNESS_NS+=("${CHURN_NS[@]}")	# torn down with the rest, whatever happens
printf 'netns add %s\n' "${CHURN_NS[@]}" | ip -b -
noproto() {	# noproto FIRST N REPEAT [pin]: IP_NOPROTO drops in namespaces FIRST..
	$PY - "$NS-c" "$@" <<'PYEOF'
import ctypes, fcntl, os, socket, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
pre, first, n, rep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
if len(sys.argv) > 5:	# one CPU: the drops go through that CPU's runs only
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 24, 0, 0, 64, 254, 0,
                  socket.inet_aton("127.0.0.1"), socket.inet_aton("127.83.12.7"))
for k in range(first, first + n):
    fd = os.open("/run/netns/%s%d" % (pre, k), os.O_RDONLY)
    if libc.setns(fd, 0x40000000):		# CLONE_NEWNET
        raise OSError(ctypes.get_errno(), "setns")
    os.close(fd)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    flags = struct.unpack("16sH14x", fcntl.ioctl(s, 0x8913, struct.pack("16sH14x", b"lo", 0)))[1]
    fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", flags | 1))	# lo up
    r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    for _ in range(rep):
        r.sendto(hdr + b"abcd", ("127.83.12.7", 0))
PYEOF
}
noproto_sum() {	# noproto_sum URL: IP_NOPROTO drops in the page
	curl -s "$1" | awk '/^whydrop_drops_total\{reason="IP_NOPROTO"/ {s += $NF} END {print s + 0}'
}
noproto_at_least() { [ "$(noproto_sum "$1")" -ge "$2" ]; }
noproto_is() { [ "$(noproto_sum "$1")" -eq "$2" ]; }
"$W" count --json --map-size 16 -r IP_NOPROTO "$CHURN_F" >"$TMP/churn_count.json" \
	2>"$TMP/churn_count.err" &
CHURN_COUNT=$!
PIDS+=("$CHURN_COUNT")
wait_attached "$TMP/churn_count.err" || fail "churn: count attached" "$(cat "$TMP/churn_count.err")"
serve churn --listen 127.0.0.1:0 --map-size 16 -r IP_NOPROTO "$CHURN_F" && {
	for b in 0 1 2 3 3 4 5 6 7; do	# a batch twice: old keys come back
		noproto $((b * 12)) 12 2
		poll_until 10 noproto_at_least "http://$ADDR/metrics" $(((b + 1) * 24)) || true
	done
	check "churn: all 9 x 24 IP_NOPROTO counted (polled)" \
		poll_until 10 noproto_is "http://$ADDR/metrics" 216
	curl -s "http://$ADDR/metrics" >"$TMP/churn.txt"
	check "churn: nothing went to the overflow bucket" \
		grep -q '^whydrop_overflow_drops_total 0$' "$TMP/churn.txt"
	stopped churn
}
kill -INT "$CHURN_COUNT"
wait "$CHURN_COUNT"
check "churn, control: a count never read in between overflowed" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["total"] == 216 and any(x["function"] == "(overflow)" for x in d["drops"])))' \
	"$TMP/churn_count.json"

echo "-- churn through the runs: keys waiting there count in the swap decision"
# On one CPU, 96 keys in batches of 8 fill its 32 runs; then 7 new keys
# evict 7 runs into a fresh hash of 16 (7 < 8: half full only counting the
# 32 keys still in the runs), then 14 more evict 14: 21 keys for 16 places
# unless the scrape between the two swapped. A scrape between batches.
for k in $(seq 96 212); do CHURN_NS+=("$NS-c$k"); HARNESS_NS+=("$NS-c$k"); done
printf 'netns add %s\n' "${CHURN_NS[@]:96}" | ip -b -
serve runs --listen 127.0.0.1:0 --map-size 16 -r IP_NOPROTO "$CHURN_F" && {
	sent=0
	for b in $(seq 0 11) A B; do
		case $b in
		A) first=96 n=7 ;;
		B) first=103 n=14 ;;
		*) first=$((96 + 21 + b * 8)) n=8 ;;
		esac
		noproto "$first" "$n" 2 pin
		sent=$((sent + 2 * n))
		poll_until 10 noproto_at_least "http://$ADDR/metrics" "$sent" || true
	done
	check "runs: all $sent IP_NOPROTO counted (polled)" \
		poll_until 10 noproto_is "http://$ADDR/metrics" "$sent"
	curl -s "http://$ADDR/metrics" >"$TMP/runs.txt"
	check "runs: nothing went to the overflow bucket" \
		grep -q '^whydrop_overflow_drops_total 0$' "$TMP/runs.txt"
	stopped runs
}

echo "-- IPv6 listen address"
serve v6 --listen '[::1]:0' --netns "$NS" && {
	check "listens on [::1]" grep -Eq '^\[::1\]:[0-9]+$' <<<"$ADDR"
	check "GET http://[::1]:PORT/metrics: 200" [ "$(http_code "http://$ADDR/metrics")" = 200 ]
	stopped v6
}

echo "-- HEAD reads nothing: no scrape, no render"
serve head --listen 127.0.0.1:0 --netns "$NS" && {
	U=http://$ADDR/metrics
	s1=$(metric "$U" whydrop_scrapes_total)
	check "GET: whydrop_scrapes_total counts this page (1, got '$s1')" [ "$s1" = 1 ]
	for _ in 1 2 3 4 5; do curl -s -I -o /dev/null "$U"; done
	curl -s -I -D "$TMP/head.hdr" -o /dev/null "$U"
	s2=$(metric "$U" whydrop_scrapes_total)
	check "6 HEADs between two GETs: whydrop_scrapes_total 1 then 2 (got '$s2')" [ "$s2" = 2 ]
	check "HEAD: 200 with the content type of a GET" \
		grep -qi '^content-type: text/plain; version=0.0.4' "$TMP/head.hdr"
	check "HEAD: no Content-Length claimed (its page was not rendered)" \
		sh -c "! grep -qi '^content-length' '$TMP/head.hdr'"
	stopped head
	check "on exit: 2 scrapes, the HEADs not among them" \
		grep -q 'stopped after 2 scrapes; detached' "$TMP/head.err"
}

echo "-- --listen on every address: a warning; on loopback: none"
WARN='warning: --listen .* listens on every address of this machine: whoever can reach it reads the metrics'
check "127.0.0.1:PORT: no warning" sh -c "! grep -q 'warning' '$TMP/main.err'"
check "[::1]:PORT: no warning" sh -c "! grep -q 'warning' '$TMP/v6.err'"
# in a namespace of its own (lo only): nothing outside can reach the wildcard
IN_NS=$NS
for l in :0 0.0.0.0:0 '[::]:0'; do
	serve "any$l" --listen "$l" && {
		check "--listen $l: one warning that the metrics are open to the network" \
			test "$(grep -c -- "$WARN" "$TMP/any$l.err")" -eq 1
		check "--listen $l: the warning names the address as given" \
			grep -qF -- "warning: --listen $l listens" "$TMP/any$l.err"
		port=${ADDR##*:}
		check "--listen $l: answers on 127.0.0.1:$port" \
			[ "$(ip netns exec "$NS" curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")" = 200 ]
		stopped "--listen $l"
	}
done
IN_NS=

echo "-- errors"
expect_run "port in use: one message, exit 1" 1 'cannot listen on 127\.0\.0\.1:[0-9]+: Address already in use' \
	"$W" serve --listen "$WADDR"
expect_run "bad address: usage error, exit 2" 2 "bad --listen '300\.1\.1\.1:9464'" \
	"$W" serve --listen 300.1.1.1:9464
expect_run "IPv6 without brackets: exit 2" 2 "bad --listen" "$W" serve --listen ::1:9464
expect_run "bad --max-series: exit 2" 2 "bad --max-series" "$W" serve --max-series 0
expect_run "-h shows examples" 0 'Examples:' "$W" serve -h

retire_start
retire_cgroups
retire_netns
retire_lost_help
retire_stop
retire_noise

echo "-- clean exit"
stop "$MAIN" TERM
rc=$?
check "SIGTERM: exit 0 (got $rc)" [ "$rc" = 0 ]
check "says it detached" grep -q 'detached' "$TMP/main.err"
# shellcheck disable=SC2086
check "its program is gone from the kernel (bpftool; polled, 5 s at most)" poll_until 5 gone $MAIN_PROGS
serve sigint --listen 127.0.0.1:0 && {
	ids=$(prog_ids "$LAST")
	stop "$LAST" INT
	check "SIGINT: exit 0" [ $? = 0 ]
	# shellcheck disable=SC2086
	check "its program is gone after SIGINT (polled, 5 s at most)" poll_until 5 gone $ids
}
check "no sanitizer report" no_sanitizer_report

summary
