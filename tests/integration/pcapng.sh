#!/usr/bin/env bash
# whydrop record/read against the real kernel and the real tshark, as root.
# Drops are made in a network namespace this script creates (UDP to closed
# ports on 192.0.2.1 and 2001:db8::1, on its loopback) and always removes,
# with its mounts and files. Prints "N passed, N failed" last.
#   tests/integration/pcapng.sh [BINARY]    (default build/whydrop)
. "$(dirname "$0")/../lib/part.sh"
NS=wdpcap-$$
harness_begin tests/integration/pcapng "$NS"
if ! command -v tshark >/dev/null || ! command -v capinfos >/dev/null; then
	echo "tests/integration/pcapng: needs tshark and capinfos (apt-get install tshark)"
	echo "0 passed, 1 failed"
	exit 1
fi

ip -n "$NS" addr add 192.0.2.1/32 dev lo
ip -n "$NS" addr add 2001:db8::1/128 dev lo nodad
NS_INO=$(stat -L -c %i "/run/netns/$NS")
# its cookie, as the kernel tells a process inside it (SO_NETNS_COOKIE)
NS_COOKIE=$(ip netns exec "$NS" $PY -c 'import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])')

# send COUNT 4|6 PORT: one-byte UDP datagrams to a closed port (NO_SOCKET).
send() {
	ip netns exec "$NS" $PY - "$@" <<'PYEOF'
import socket, sys
n, fam, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
af, dst = (socket.AF_INET, "192.0.2.1") if fam == "4" else (socket.AF_INET6, "2001:db8::1")
s = socket.socket(af, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"x", (dst, port))
PYEOF
}

# wait_file FILE: until it exists and is not empty, up to 15 s.
wait_file() {
	for _ in $(seq 150); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# "N drops counted, W written to X, M not written" adds up: N = W + M.
adds_up() {
	local re='.* \([0-9]*\) drops\? counted, \([0-9]*\) written to .*, \([0-9]*\) not written.*'
	sed -n "s/$re/\1 \2 \3/p" "$1" | { read -r n w m && [ -n "$n" ] && [ "$n" -eq $((w + m)) ]; }
}

# after_limit_ok FILE: record -c 3 stopped after writing 3; drops the
# sender made before the detach are reported as "after -c 3", and none are
# when the detach came first (the sender races the stop, so both happen).
after_limit_ok() {
	local n
	n=$(sed -n 's/.* \([0-9]*\) drops\? counted, 3 written to standard output, .*/\1/p' "$1")
	[ -n "$n" ] || return 1
	if [ "$n" -eq 3 ]; then
		! grep -q "after -c" "$1"
	else
		grep -q ", $((n - 3)) after -c 3" "$1"
	fi
}

written_of() {
	sed -n 's/.* drops\? counted, \([0-9]*\) written to .*/\1/p' "$1"
}

# ended PID SECS: give PID up to SECS to exit by itself, then stop it; RC is
# its exit status, or "stopped" when it had to be stopped.
ended() {
	poll_until "$2" sh -c '! kill -0 "$1" 2>/dev/null' _ "$1"
	RC=stopped
	kill -0 "$1" 2>/dev/null || RC=
	stop "$1"
	RC=${RC:-$?}
}

# held_progs_gone IDS: the process held programs (prog_ids, tests/lib/assert.sh),
# and none of them is loaded any more.
held_progs_gone() {
	[ $# -gt 0 ] && progs_gone "$@"
}

echo "== record + tshark + read: 5 IPv4 and 3 IPv6 drops in $NS"
F=$TMP/drops.pcapng
T0=$(date +%s.%N)
start record record -w "$F" --netns "$NS" || exit 1
REC=$LAST
start count count --json --netns "$NS" || exit 1
CNT=$LAST
send 5 4 9
send 3 6 7
sleep 0.5
stop "$REC"
RC=$?
stop "$CNT"
CRC=$?
T1=$(date +%s.%N)
check "record exits 0" [ "$RC" -eq 0 ]
check "count exits 0" [ "$CRC" -eq 0 ]
expect_run "record reports 8 counted, 8 written, 0 not written" 0 \
	"8 drops counted, 8 written to $F, 0 not written \(0 over --rate, 0 lost: ring buffer full\)" \
	cat "$TMP/record.err"
check "the file is mode 0600" [ "$(stat -c %a "$F")" = 600 ]
check "capinfos: Raw IP, nanoseconds, 8 packets" bash -c \
	"capinfos '$F' | grep -q 'Raw IP' && capinfos '$F' | grep -q 'nanoseconds' &&
	 capinfos -c -M '$F' | grep -Eq 'Number of packets: +8\$'"
tshark -r "$F" -T fields -E separator='|' -e ip.dst -e ipv6.dst -e udp.dstport -e frame.len \
	-e frame.cap_len -e frame.comment -e frame.interface_description -e frame.time_epoch \
	>"$TMP/fields" 2>"$TMP/tshark.err"
check "tshark reads 8 packets" [ "$(wc -l <"$TMP/fields")" -eq 8 ]
check "5 IPv4 to 192.0.2.1 port 9, 29 bytes (captured and original)" \
	[ "$(grep -c '^192.0.2.1||9|29|29|' "$TMP/fields")" -eq 5 ]
check "3 IPv6 to 2001:db8::1 port 7, 49 bytes" \
	[ "$(grep -c '^|2001:db8::1|7|49|49|' "$TMP/fields")" -eq 3 ]
CRE="reason=NO_SOCKET location=__udp[46]_lib_rcv\+0x[0-9a-f]+ ifname=lo netns=$NS_INO code=[0-9]+ netns_cookie=$NS_COOKIE netns_name=$NS"
check "every comment: reason, location, ifname, netns (inode, cookie, name)" \
	[ "$(cut -d'|' -f6 "$TMP/fields" | grep -Ec "^$CRE\$")" -eq 8 ]
check "the interface says it is whydrop's" \
	[ "$(cut -d'|' -f7 "$TMP/fields" | grep -c '^whydrop: kernel drops (skb:kfree_skb)$')" -eq 8 ]
check "kernel timestamps fall within the recording" $PY -c '
import sys
t0, t1 = float(sys.argv[1]), float(sys.argv[2])
ts = [float(l.split("|")[7]) for l in open(sys.argv[3])]
sys.exit(not (len(ts) == 8 and all(t0 <= t <= t1 for t in ts)))' "$T0" "$T1" "$TMP/fields"
"$W" read --json "$F" >"$TMP/read.json" 2>"$TMP/read.err"
RC=$?
check "read --json exits 0, nothing on stderr" \
	sh -c '[ "$1" -eq 0 ] && [ ! -s "$2" ]' _ "$RC" "$TMP/read.err"
check "read --json equals the parallel count --json" $PY -c '
import json, sys
r, c = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
key = lambda d: sorted((x["reason"], x["code"], x["subsystem"], x["function"], x["location"],
                        x["count"]) for x in d["drops"])
ok = r["total"] == c["total"] == 8 and key(r) == key(c) and r["kernel"] == c["kernel"]
# count may add parts of its own (kernel counters); read has the core ones
core = {"kernel", "duration_s", "total", "lost_events", "drops"}
ok = ok and r["lost_events"] == 0 and set(r) == core and core <= set(c)
ok = ok and 0 < r["duration_s"] < 60
if not ok:
    print(r, c)
sys.exit(not ok)' "$TMP/read.json" "$TMP/count.out"
expect_run "read prints count's table" 0 "NO_SOCKET +__udp4_lib_rcv\+0x[0-9a-f]+.*" "$W" read "$F"
expect_run "read table ends with the total" 0 "^8 drops in [0-9.]+ s" "$W" read "$F"
expect_run "read - reads standard input" 0 '"total": 8' bash -c "'$W' read --json - <'$F'"
tshark -r "$F" -w "$TMP/resaved.pcapng" 2>/dev/null
expect_run "a copy re-saved by tshark summarises the same" 0 '"total": 8,' \
	"$W" read --json "$TMP/resaved.pcapng"

echo "== read: a damaged block, a full disk"
# The second packet block's captured length made larger than its block: the
# reader skips that block; read says so and exits 1, and counts the other 7.
$PY - "$F" "$TMP/damaged.pcapng" <<'PYEOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
off, epbs = 0, 0
while off < len(b):
    t, n = struct.unpack_from("=II", b, off)
    if t == 6:
        epbs += 1
        if epbs == 2:
            struct.pack_into("=I", b, off + 20, 0xfffc)
    off += n
open(sys.argv[2], "wb").write(b)
sys.exit(epbs != 8)
PYEOF
check "a copy with its second packet block damaged" test $? -eq 0
"$W" read --json "$TMP/damaged.pcapng" >"$TMP/damaged.json" 2>"$TMP/damaged.err"
RC=$?
check "read of a damaged file: exit 1 (got $RC)" test "$RC" -eq 1
check "... says how many blocks were skipped, and why" grep -q \
	"damaged.pcapng: 1 malformed block skipped or read in part, the first because: block at offset [0-9]*: captured length 65532 exceeds the block" \
	"$TMP/damaged.err"
check "... and still summarises the 7 others" grep -q '"total": 7,' "$TMP/damaged.json"
expect_run "read FILE >/dev/full: exit 1, the cause" 1 \
	"^whydrop read: cannot write standard output: No space left on device$" \
	sh -c "'$W' read '$F' >/dev/full"
expect_run "read --json FILE >/dev/full: exit 1, the cause" 1 \
	"^whydrop read: cannot write standard output: No space left on device$" \
	sh -c "'$W' read --json '$F' >/dev/full"

echo "== who: read --group-by counts as count --group-by does on the same drops"
# A receiver named by prctl, in a cgroup of its own, overflows its tiny
# SO_RCVBUF (SOCKET_RCVBUFF: the drops have its socket), beside NO_SOCKET
# drops (no socket). record -p writes who in the comments; read must group
# them exactly as four counts running at the same time do.
CG_ROOT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
CG_REL=/wdpcap-$$.slice/rcv.scope
trap 'harness_end; rmdir "$CG_ROOT$CG_REL" "$CG_ROOT/wdpcap-$$.slice" 2>/dev/null' EXIT
if [ -z "$CG_ROOT" ] || ! mkdir -p "$CG_ROOT$CG_REL"; then
	fail "a cgroup v2 directory for the receiver" "cgroup2 mount: '${CG_ROOT:-none}'"
else
	start_receiver "$CG_ROOT$CG_REL" "$NS" wd-pcap-rcv 192.0.2.1
	WHO_PIDS=()
	start whorec record -w "$TMP/who.pcapng" -p --netns "$NS" && WHO_PIDS+=("$LAST")
	for by in netns interface cgroup process; do
		start "who$by" count --json --netns "$NS" --group-by "$by" && WHO_PIDS+=("$LAST")
	done
	ip netns exec "$NS" $PY -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(60):
    s.sendto(b"x" * 1000, ("192.0.2.1", 9999))
for _ in range(3):
    s.sendto(b"y", ("192.0.2.1", 9998))'
	sleep 0.5
	for p in "${WHO_PIDS[@]}"; do
		stop_ok "$p" "who: run $p"
	done
	check "who: the recording has the receiver's pid, comm, cgroup" \
		grep -q "pid=$RCVR comm=wd-pcap-rcv cgroup=$CG_REL" <(tshark -r "$TMP/who.pcapng" \
		-T fields -e frame.comment 2>/dev/null)
	for by in netns interface cgroup process; do
		"$W" read --json --group-by "$by" "$TMP/who.pcapng" >"$TMP/whoread$by.json" \
			2>"$TMP/whoread$by.err"
		check "read --group-by $by: exit 0" test $? -eq 0
		check "read --group-by $by: the groups of count --group-by $by" $PY -c '
import json, sys
r, c = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
key = lambda d: sorted((g["group"], g.get("reason"), g.get("code"), g["count"]) for g in d["groups"])
ok = r["group_by"] == c["group_by"] == sys.argv[3] and key(r) == key(c) and r["total"] == c["total"] > 3
if not ok:
    print(key(r), key(c), file=sys.stderr)
sys.exit(not ok)' "$TMP/whoread$by.json" "$TMP/who$by.out" "$by"
	done
	check "read --group-by process: the receiver's SOCKET_RCVBUFF drops, NO_SOCKET's 3 without a socket" \
		$PY -c '
import json, sys
g = {(x["group"], x["reason"]): x["count"] for x in json.load(open(sys.argv[1]))["groups"]}
ok = g.get(("wd-pcap-rcv[" + sys.argv[2] + "]", "SOCKET_RCVBUFF"), 0) > 0 and g.get(("(no socket)", "NO_SOCKET")) == 3
sys.exit(not ok)' "$TMP/whoreadprocess.json" "$RCVR"
	check "read --group-by netns: one group, the namespace's name" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not ({g["group"] for g in d["groups"]} == {sys.argv[2]}))' "$TMP/whoreadnetns.json" "$NS"
	expect_run "read --group-by cgroup (table): the receiver's cgroup" 0 \
		"^By cgroup:\$" "$W" read --group-by cgroup "$TMP/who.pcapng"
	expect_run "read --group-by process (table): wd-pcap-rcv[$RCVR]" 0 \
		"^ +[0-9]+  wd-pcap-rcv\[$RCVR\] +SOCKET_RCVBUFF\$" "$W" read --group-by process "$TMP/who.pcapng"
	expect_run "read --group-by process --max-groups 1: the rest is (other)" 0 \
		"^ +3  \(other\) +NO_SOCKET\$" "$W" read --group-by process --max-groups 1 "$TMP/who.pcapng"
	kill "$RCVR" 2>/dev/null
	wait "$RCVR" 2>/dev/null
fi

echo "== read --group-by flow|src|dst: the top talkers, as the senders sent and tshark reads"
# Three senders with their own source address and port, each a known number
# of datagrams to a closed port: flow, src and dst groups must equal what
# they sent and what tshark counts in the same file.
ip -n "$NS" addr add 192.0.2.2/32 dev lo
ip -n "$NS" addr add 2001:db8::2/128 dev lo nodad
FL=$TMP/flows.pcapng
sendfrom() {	# COUNT SRC SPORT DST DPORT
	ip netns exec "$NS" $PY - "$@" <<'PYEOF'
import socket, sys
n, src, sport, dst, dport = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
s = socket.socket(socket.AF_INET6 if ":" in src else socket.AF_INET, socket.SOCK_DGRAM)
s.bind((src, sport))
for _ in range(n):
    s.sendto(b"x", (dst, dport))
PYEOF
}
# tsh FILTER: tshark's count of the packets of the flows file it matches
tsh() {
	tshark -r "$FL" -Y "$1" 2>/dev/null | wc -l
}
if start flows record -w "$FL" --netns "$NS" -r NO_SOCKET; then
	FREC=$LAST
	sendfrom 7 192.0.2.2 41001 192.0.2.1 9
	sendfrom 4 192.0.2.1 41002 192.0.2.2 10
	sendfrom 3 2001:db8::2 41003 2001:db8::1 11
	sleep 0.5
	stop_ok "$FREC" "record (flows)"
	for by in flow src dst; do
		"$W" read --json --group-by "$by" "$FL" >"$TMP/flows-$by.json" 2>>"$TMP/flows.err"
		check "read --group-by $by: exit 0" test $? -eq 0
	done
	T1=$(tsh "ip.src==192.0.2.2 && udp.srcport==41001 && ip.dst==192.0.2.1 && udp.dstport==9")
	T2=$(tsh "ip.src==192.0.2.1 && udp.srcport==41002 && ip.dst==192.0.2.2 && udp.dstport==10")
	T3=$(tsh "ipv6.src==2001:db8::2 && udp.srcport==41003 && ipv6.dst==2001:db8::1 && udp.dstport==11")
	check "tshark counts the senders' 7, 4, 3 datagrams in the file ($T1, $T2, $T3)" \
		test "$T1,$T2,$T3" = "7,4,3"
	check "read --group-by flow: each flow's NO_SOCKET = what its sender sent and tshark reads" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = {(x["group"], x["reason"]): x["count"] for x in d["groups"]}
want = {("udp 192.0.2.2:41001 > 192.0.2.1:9", "NO_SOCKET"): 7,
        ("udp 192.0.2.1:41002 > 192.0.2.2:10", "NO_SOCKET"): 4,
        ("udp [2001:db8::2]:41003 > [2001:db8::1]:11", "NO_SOCKET"): 3}
ok = d["group_by"] == "flow" and g == want
if not ok:
    print(g)
sys.exit(not ok)' "$TMP/flows-flow.json"
	check "read --group-by src and dst: by address, as sent" $PY -c '
import json, sys
s, d = (json.load(open(f)) for f in sys.argv[1:3])
gs = {x["group"]: x["count"] for x in s["groups"]}
gd = {x["group"]: x["count"] for x in d["groups"]}
ok = gs == {"192.0.2.2": 7, "192.0.2.1": 4, "2001:db8::2": 3} and \
     gd == {"192.0.2.1": 7, "192.0.2.2": 4, "2001:db8::1": 3}
if not ok:
    print(gs, gd)
sys.exit(not ok)' "$TMP/flows-src.json" "$TMP/flows-dst.json"
	expect_run "read --group-by flow --max-groups 1 (table): the largest flow, the rest (other)" 0 \
		"^ +7  \(other\) +NO_SOCKET\$" "$W" read --group-by flow --max-groups 1 "$FL"
	HOST=$(uname -n)
	check "capinfos: the section's comment names the recording host ($HOST)" \
		bash -c "capinfos '$FL' | grep -Fq 'whydrop: host=$HOST'"
	"$W" read --json --group-by host "$FL" >"$TMP/flows-host.json" 2>>"$TMP/flows.err"
	check "read --group-by host: $HOST with the senders' 14 drops" $PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = {(x["group"], x["reason"]): x["count"] for x in d["groups"]}
sys.exit(not (g == {(sys.argv[2], "NO_SOCKET"): 14}))' "$TMP/flows-host.json" "$HOST"
fi
expect_run "count --group-by host: usage error, says to record and read" 2 \
	"whydrop read --group-by host FILE" "$W" count --group-by host -d 1

echo "== record -w - | tshark -r -"
(
	"$W" record -w - --netns "$NS" -c 3 2>"$TMP/pipe.err" |
		tshark -r - -T fields -e udp.dstport -e frame.comment >"$TMP/pipe.out" 2>/dev/null
	echo "${PIPESTATUS[*]}" >"$TMP/pipe.rc"
) &
PIDS+=($!)
if wait_attached "$TMP/pipe.err"; then
	send 5 4 9
	wait_file "$TMP/pipe.rc"
fi
check "record -c 3 and tshark both exit 0" [ "$(cat "$TMP/pipe.rc" 2>/dev/null)" = "0 0" ]
check "tshark got 3 packets to port 9 with comments" \
	[ "$(grep -Ec "^9	$CRE\$" "$TMP/pipe.out")" -eq 3 ]
check "3 written to standard output, the rest reported" after_limit_ok "$TMP/pipe.err"
check "the counts add up" adds_up "$TMP/pipe.err"

echo "== --rate: what is not written is counted and reported"
start rate record -w "$TMP/rate.pcapng" --netns "$NS" --rate 2 || exit 1
send 20 4 9
sleep 0.3
stop_ok "$LAST" "record --rate 2"
check "20 counted, at most 4 written, the rest over --rate" grep -Eq \
	"20 drops counted, [0-4] written to .*, (1[6-9]|20) not written \((1[6-9]|20) over --rate" \
	"$TMP/rate.err"
check "the counts add up" adds_up "$TMP/rate.err"
expect_run "read says the recording counted more than it wrote" 0 \
	"counted 20 drops and wrote [0-4]" "$W" read "$TMP/rate.pcapng"

echo "== record -s: whole packets from the linear data, cut short where it is paged"
# bigsend FAMILY PORT SIZE...: one UDP datagram of each SIZE to a closed
# port, payload byte i = (i * 7 + SIZE) & 255, so that each is told apart.
bigsend() {
	ip netns exec "$NS" $PY - "$@" <<'PYEOF'
import socket, sys
fam, port = sys.argv[1], int(sys.argv[2])
af, dst = (socket.AF_INET, "192.0.2.1") if fam == "4" else (socket.AF_INET6, "2001:db8::1")
s = socket.socket(af, socket.SOCK_DGRAM)
for n in map(int, sys.argv[3:]):
    s.sendto(bytes((i * 7 + n) & 255 for i in range(n)), (dst, port))
PYEOF
}

# payload_ok FIELDS SNAPLEN: each line "cap_len|len|ip_len|ipv6_plen|payload(hex)"
# of a datagram sent by bigsend: the payload is the first bytes of what was
# sent (all of them with -s 0) and, without -s, cap_len == len == IP length.
payload_ok() {
	$PY - "$@" <<'PYEOF'
import sys
snap = int(sys.argv[2])
lines = [l.rstrip("\n").split("|") for l in open(sys.argv[1]) if l.strip()]
ok = len(lines) > 0
for cap, flen, iplen, plen, hexp in lines:
    cap, flen = int(cap), int(flen)
    ip = int(iplen) if iplen else 40 + int(plen)
    hdr = 28 if iplen else 48
    n = flen - hdr
    sent = bytes((i * 7 + n) & 255 for i in range(n))
    got = bytes.fromhex(hexp)
    want_cap = min(flen, snap) if snap else flen
    good = cap == want_cap and flen == ip and got == sent[:cap - hdr]
    # the tail: the last bytes the file has are the last bytes sent
    if not snap:
        good = good and got[-16:] == sent[-16:] and len(got) == n
    if not good:
        print("bad:", cap, flen, ip, len(got), file=sys.stderr)
    ok = ok and good
sys.exit(not ok)
PYEOF
}

BIG=$TMP/big.pcapng
start big record -w "$BIG" --netns "$NS" -s 0 || exit 1
REC=$LAST
start big300 record -w "$TMP/big300.pcapng" --netns "$NS" -s 300 || exit 1
REC300=$LAST
start bigdef record -w "$TMP/bigdef.pcapng" --netns "$NS" || exit 1
RECDEF=$LAST
bigsend 4 9 1000 3000
bigsend 6 9 1000 3000
sleep 0.5
stop_ok "$REC" "record -s 0"
stop_ok "$REC300" "record -s 300"
stop_ok "$RECDEF" "record (default -s)"
for f in big bigdef big300; do
	tshark -r "$TMP/$f.pcapng" -T fields -E separator='|' -e frame.cap_len -e frame.len \
		-e ip.len -e ipv6.plen -e udp.payload >"$TMP/$f.fields" 2>/dev/null
done
check "record -s 0: 4 datagrams of 1000 and 3000 bytes (v4, v6)" \
	[ "$(wc -l <"$TMP/big.fields")" -eq 4 ]
check "... cap_len == len == IP length: 1028, 3028, 1048, 3048" \
	[ "$(cut -d'|' -f1,2 "$TMP/big.fields" | sort -n | xargs)" = \
	  "1028|1028 1048|1048 3028|3028 3048|3048" ]
check "... every payload byte as sent, the last ones too" payload_ok "$TMP/big.fields" 0
check "record without -s: the whole packet too" payload_ok "$TMP/bigdef.fields" 0
check "record -s 300: 4 packets of 300 bytes of their 1028..3048" \
	[ "$(cut -d'|' -f1 "$TMP/big300.fields" | sort -u | xargs)" = 300 ]
check "... the first 300 bytes as sent, the original length kept" \
	payload_ok "$TMP/big300.fields" 300
check "the interface's snaplen is -s: 262144 for the whole packet, else 300" bash -c \
	"capinfos '$BIG' | grep -q 'Capture length = 262144\$' &&
	 capinfos '$TMP/big300.pcapng' | grep -q 'Capture length = 300\$'"
check "no record cut short by paged data (UDP over loopback is linear)" \
	sh -c '! grep -q "cut short" "$1"' _ "$TMP/big.err"
check "read sums the long packets as count does" grep -q '"total": 4,' \
	<("$W" read --json "$BIG" 2>/dev/null)

# TCP's payload is in paged fragments, which a tracing program cannot read:
# drop a 3000-byte segment of an established loopback connection with nft.
if ! command -v nft >/dev/null; then
	fail "nft, to drop a TCP segment in the input hook" "apt-get install nftables"
else
	ip netns exec "$NS" nft -f - <<'NFT'
table inet wdpcap {
	chain input {
		type filter hook input priority 0; policy accept;
		tcp dport 7777 meta length > 1000 drop
	}
}
NFT
	check "an nft rule drops large TCP segments to port 7777" test $? -eq 0
	start paged record -w "$TMP/paged.pcapng" --netns "$NS" 'tcp port 7777' || exit 1
	PAGED=$LAST
	start paged100 record -w "$TMP/paged100.pcapng" -s 100 --netns "$NS" 'tcp port 7777' ||
		exit 1
	PAGED100=$LAST
	ip netns exec "$NS" $PY -c '
import socket, struct, time
l = socket.socket(); l.bind(("192.0.2.1", 7777)); l.listen(1)
c = socket.create_connection(("192.0.2.1", 7777)); a, _ = l.accept()
c.sendall(bytes(range(256)) * 11 + b"x" * 184)
time.sleep(0.8)
# abort (RST): no retransmission outlives the test
for s in (c, a):
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()'
	stop_ok "$PAGED" "record of the TCP drops"
	stop_ok "$PAGED100" "record -s 100 of them"
	ip netns exec "$NS" nft delete table inet wdpcap
	tshark -r "$TMP/paged.pcapng" -T fields -E separator='|' -e frame.cap_len -e frame.len \
		-e tcp.len -e frame.comment -Y 'tcp.dstport == 7777' >"$TMP/paged.fields" 2>/dev/null
	NP=$(awk -F'|' '$2 == 3052' "$TMP/paged.fields" | wc -l)
	check "the 3000-byte segment was dropped (NETFILTER_DROP), $NP time(s)" \
		[ "$NP" -ge 1 -a "$(grep -c 'reason=NETFILTER_DROP' "$TMP/paged.fields")" -eq "$NP" ]
	check "... each record cut short: cap_len 52 (the headers), len 3052" \
		[ "$(awk -F'|' '$2 == 3052 && $1 == 52' "$TMP/paged.fields" | wc -l)" -eq "$NP" ]
	check "... the summary counts them cut short by paged data" grep -q \
		", $NP written cut short: bytes in paged data" "$TMP/paged.err"
	check "... and so does the statistics block" grep -aq "cut_paged=$NP" "$TMP/paged.pcapng"
	check "-s 100: the same records, cut short below -s too, and counted" bash -c "
		[ \$(tshark -r '$TMP/paged100.pcapng' -T fields -E separator='|' -e frame.cap_len \
			-e frame.len -Y 'tcp.dstport == 7777' 2>/dev/null | grep -c '^52|3052\$') -eq $NP ] &&
		grep -q ', $NP written cut short: bytes in paged data' '$TMP/paged100.err'"
fi

echo "== BIG TCP: GSO packets over 64 KiB, whose IP length field says 0"
# A veth pair with gso/gro max sizes of 185000 (IPv4 and IPv6, by rtnetlink:
# this iproute2 cannot set the IPv4 ones) carries TCP in skbs over 64 KiB;
# an nft rule on output drops those and counts them itself. Their IPv4 total
# length (IPv6 payload length) is 0: whydrop's len, the filter's len and
# pcapng's original length must be the skb's length from its IP header on.
BA=$NS-ba BB=$NS-bb
HARNESS_NS+=("$BA" "$BB")
ip netns add "$BA" && ip netns add "$BB"
ip link add va netns "$BA" type veth peer name vb netns "$BB"
biglink() {	# biglink NS IFNAME: gso/gro max sizes 185000, IPv4 and IPv6
	ip netns exec "$1" $PY - "$2" <<'PYEOF'
import os, socket, struct, sys
idx = socket.if_nametoindex(sys.argv[1])
# IFLA_GSO_MAX_SIZE, IFLA_GRO_MAX_SIZE, IFLA_GSO_IPV4_MAX_SIZE, IFLA_GRO_IPV4_MAX_SIZE
attrs = b"".join(struct.pack("HHI", 8, t, 185000) for t in (41, 58, 63, 64))
body = struct.pack("BxHiII", 0, 0, idx, 0, 0) + attrs
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.send(struct.pack("IHHII", 16 + len(body), 16, 0x5, 1, 0) + body)	# RTM_NEWLINK, ack
err = struct.unpack("i", s.recv(4096)[16:20])[0]
sys.exit("RTM_NEWLINK: " + os.strerror(-err) if err else 0)
PYEOF
}
for x in "$BA va 1" "$BB vb 2"; do
	set -- $x
	ip -n "$1" link set lo up
	ip -n "$1" addr add "192.0.2.$3/24" dev "$2"
	ip -n "$1" addr add "2001:db8::$3/64" dev "$2" nodad
	biglink "$1" "$2" || fail "gso/gro max sizes of 185000 on $2"
	ip -n "$1" link set "$2" up
done
ip netns exec "$BA" nft -f - <<'NFT'
table inet wdbig {
	chain out {
		type filter hook output priority 0;
		meta nfproto ipv4 tcp dport 5001 meta length > 65535 counter drop
		meta nfproto ipv6 tcp dport 5001 meta length > 65535 counter drop
	}
}
NFT
# bulk DST: 1.5 s of TCP from $BA to DST:5001, received in $BB
bulk() {
	local rcv
	ip netns exec "$BB" $PY -c 'import socket
s = socket.socket(socket.AF_INET6)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("::", 5001))
s.listen()
s.settimeout(5)
try:
    c, _ = s.accept()
    c.settimeout(3)
    while c.recv(1 << 20):
        pass
except OSError:
    pass' &
	rcv=$!
	sleep 0.3
	# SO_LINGER 0: the close resets the connection, nothing left to retransmit
	ip netns exec "$BA" $PY -c 'import socket, struct, sys, time
c = socket.create_connection((sys.argv[1], 5001))
c.settimeout(0.5)
c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
t = time.time()
while time.time() - t < 1.5:
    try:
        c.send(b"b" * (1 << 20))
    except OSError:
        pass
c.close()' "$1"
	wait "$rcv"
}
BIG=()
harness_start bigc count --json --netns "$BA" -r NETFILTER_DROP 'len > 65535' && BIG+=("$LAST")
harness_start bigw watch --json --netns "$BA" -r NETFILTER_DROP && BIG+=("$LAST")
harness_start bigr record -w "$TMP/big.pcapng" --netns "$BA" -r NETFILTER_DROP && BIG+=("$LAST")
bulk 192.0.2.2
bulk 2001:db8::2
sleep 0.2
read -r n4 n6 <<<"$(ip netns exec "$BA" nft list table inet wdbig |
	sed -n 's/.*counter packets \([0-9]*\) .*/\1/p' | xargs)"
for p in "${BIG[@]}"; do stop "$p"; done
echo "   nft dropped ${n4:-?} IPv4 and ${n6:-?} IPv6 TCP skbs over 65535 bytes"
check "BIG TCP happened: nft dropped IPv4 and IPv6 skbs over 65535 bytes" \
	test "${n4:-0}" -gt 0 -a "${n6:-0}" -gt 0
nbig=$((${n4:-0} + ${n6:-0}))
check "count 'len > 65535': the $nbig drops nft counted" \
	test "$($PY -c 'import json, sys; print(json.load(open(sys.argv[1]))["total"])' "$TMP/bigc.out")" = "$nbig"
# lens FILE FAMILY: how many records, and whether each has len = skb_len > 65535
# (skb_len: skb->len at the output hook, the whole packet)
lens() {
	$PY -c 'import json, sys
L = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
L = [x for x in L if x.get("family") == sys.argv[2]]
print(len(L), all(x.get("len") == x["skb_len"] > 65535 for x in L))' "$@"
}
check "watch: $n4 IPv4 records, each len = skb_len > 65535" test "$(lens "$TMP/bigw.out" ipv4)" = "$n4 True"
check "watch: $n6 IPv6 records, each len = skb_len > 65535" test "$(lens "$TMP/bigw.out" ipv6)" = "$n6 True"
$PY -c 'import json, sys
print("\n".join(str(x["skb_len"]) for x in map(json.loads, open(sys.argv[1]))))' \
	"$TMP/bigw.out" | sort -n >"$TMP/big.wlens"
tshark -r "$TMP/big.pcapng" -T fields -e frame.len 2>/dev/null | sort -n >"$TMP/big.tlens"
check "record: tshark reads $nbig packets, each original length its skb's length" \
	bash -c "[ \$(wc -l <'$TMP/big.tlens') -eq $nbig ] && cmp -s '$TMP/big.wlens' '$TMP/big.tlens'"

echo "== rotation: -C, -W, -G as tcpdump"
# flood COUNT: COUNT datagrams of 3000 bytes (3028 on the wire, 3064 in the file)
flood() { ip netns exec "$NS" $PY -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"r" * 3000, ("192.0.2.1", 9))' "$1"; }

# packets FILE: its packet count as capinfos reads it, "x" if it cannot
packets() { capinfos -c -M "$1" 2>/dev/null | sed -n 's/^Number of packets: *\([0-9]*\)$/\1/p' |
	grep . || echo x; }

mkdir -p "$TMP/rot"
start rotC record -w "$TMP/rot/c.pcapng" -C 1 --netns "$NS" 'udp port 9' || exit 1
flood 2000
sleep 0.5
stop_ok "$LAST" "record -C 1"
NF=$(ls "$TMP/rot" | grep -c '^c\.pcapng')
check "-C 1: several files ($NF): c.pcapng, then c.pcapng1, c.pcapng2..." bash -c "
	[ $NF -ge 5 ] && [ -f '$TMP/rot/c.pcapng' ] && [ -f '$TMP/rot/c.pcapng$((NF - 1))' ] &&
	[ ! -e '$TMP/rot/c.pcapng0' ] && [ ! -e '$TMP/rot/c.pcapng$NF' ]"
SUM=0
BAD=()
for f in "$TMP"/rot/c.pcapng*; do
	n=$(packets "$f")
	if [ "$n" = x ] || ! tshark -r "$f" >/dev/null 2>&1 || [ "$(stat -c %s "$f")" -gt 1000000 ] ||
	   [ "$(stat -c %a "$f")" != 600 ] || ! "$W" read "$f" >/dev/null 2>&1; then
		BAD+=("$f")
	else
		SUM=$((SUM + n))
	fi
done
check "every file: read by capinfos, tshark and whydrop read, <= 1,000,000 bytes, 0600" \
	[ "${#BAD[@]}" -eq 0 ]
check "their packets add up to the 2000 written" bash -c "[ $SUM -eq 2000 ] &&
	grep -q '2000 drops counted, 2000 written to $NF files, the last $TMP/rot/c.pcapng$((NF - 1)), 0 not written' '$TMP/rotC.err'"
check "the last file's statistics block has the totals and files=$NF" grep -aq \
	"whydrop: counted=2000 written=2000 .* files=$NF" "$TMP/rot/c.pcapng$((NF - 1))"
check "an earlier file's, what it holds" grep -aq \
	"whydrop: file 1 of a rotated recording, written=$(packets "$TMP/rot/c.pcapng");" \
	"$TMP/rot/c.pcapng"

start rotW record -w "$TMP/rot/w.pcapng" -C 1 -W 2 --netns "$NS" 'udp port 9' || exit 1
flood 2000
sleep 0.5
stop_ok "$LAST" "record -C 1 -W 2"
check "-W 2: only w.pcapng0 and w.pcapng1 are left" \
	[ "$(cd "$TMP/rot" && ls -d w.pcapng* | xargs)" = "w.pcapng0 w.pcapng1" ]
N0=$(packets "$TMP/rot/w.pcapng0")
N1=$(packets "$TMP/rot/w.pcapng1")
NW=$(sed -n 's/.* written to \([0-9]*\) files, the last .*w.pcapng[01] (-W 2: the 2 latest kept).*/\1/p' \
	"$TMP/rotW.err")
check "... both readable; $NW files were written in turn" bash -c \
	"[ '$N0' != x ] && [ '$N1' != x ] && [ '${NW:-0}' -ge 5 ]"

start rotG record -w "$TMP/rot/g-%s.pcapng" -G 1 -W 2 --netns "$NS" 'udp port 9' || exit 1
GP=$LAST
flood 20
poll_until 8 sh -c '! kill -0 "$1" 2>/dev/null' _ "$GP"
check "-G 1 -W 2 stops by itself" sh -c '! kill -0 "$1" 2>/dev/null' _ "$GP"
stop "$GP"
check "... exit 0" test $? -eq 0
check "... saying why" grep -q "2 files written (-W 2): stopping" "$TMP/rotG.err"
GFILES=("$TMP"/rot/g-*.pcapng)
check "... after 2 files, named by strftime (g-SECONDS.pcapng)" bash -c \
	"[ ${#GFILES[@]} -eq 2 ] && ls '$TMP/rot' | grep -Eq '^g-[0-9]{10}\.pcapng$'"
check "... each a whole pcapng, 20 packets in all" bash -c \
	"[ \$(( $(packets "${GFILES[0]}") + $(packets "${GFILES[1]:-/nonexistent}") )) -eq 20 ]"

echo "== rotation: every file is opened as -w is (no symbolic link, ...)"
mkdir -p "$TMP/rotlink"
echo precious >"$TMP/victim"
ln -s "$TMP/victim" "$TMP/rotlink/l.pcapng1"
start rotL record -w "$TMP/rotlink/l.pcapng" -C 1 --netns "$NS" || exit 1
RL=$LAST
flood 600
ended "$RL" 8
check "record stops by itself at the symbolic link, exit 1 (got $RC)" test "$RC" = 1
check "... saying so" grep -q "not writing to $TMP/rotlink/l.pcapng1: it is a symbolic link" \
	"$TMP/rotL.err"
check "... the link's target is untouched" grep -qx precious "$TMP/victim"
check "... the first file is whole, with the totals" bash -c "
	[ '$(packets "$TMP/rotlink/l.pcapng")' != x ] &&
	grep -aq 'whydrop: counted=' '$TMP/rotlink/l.pcapng'"
check "... what could not be written is counted: failed to write" \
	grep -q 'failed to write' "$TMP/rotL.err"
check "... the counts add up" adds_up "$TMP/rotL.err"
mkdir -p "$TMP/full2"
if ! mount -t tmpfs -o size=64k wdpcap-full2 "$TMP/full2" 2>"$TMP/full2.mount"; then
	fail "a 64 KiB tmpfs mounted for the rotation full-disk test" "$(cat "$TMP/full2.mount")"
else
	MOUNTS+=("$TMP/full2")
	start rotfull record -w "$TMP/full2/f.pcapng" -C 20k --netns "$NS" 'udp port 9' || exit 1
	RF=$LAST
	flood 100
	ended "$RF" 10
	check "-C 20k onto a 64 KiB disk: record stops by itself, exit 1 (got $RC)" test "$RC" = 1
	check "... one clear message" [ "$(grep -c "cannot write $TMP/full2/f.pcapng[0-9]*: No space left on device; stopping" \
		"$TMP/rotfull.err")" -eq 1 ]
	check "... the counts add up" adds_up "$TMP/rotfull.err"
	SUMF=0
	for f in "$TMP"/full2/f.pcapng*; do
		n=$("$W" read --json "$f" 2>/dev/null | sed -n 's/.*"total": \([0-9]*\),.*/\1/p')
		SUMF=$((SUMF + ${n:-0}))
	done
	check "... the files hold exactly the $SUMF packets reported written" \
		grep -q " $SUMF written to [0-9]* files" "$TMP/rotfull.err"
	check "... the first file is whole" [ "$(packets "$TMP/full2/f.pcapng")" != x ]
fi
mkdir -p "$TMP/notmine"
chown 65534:65534 "$TMP/notmine"
chmod 755 "$TMP/notmine"
expect_run "rotation where uid 0 without capabilities may not create files: refused at once" \
	1 "cannot rotate files in $TMP/notmine: once attached whydrop runs without capabilities" \
	"$W" record -w "$TMP/notmine/x.pcapng" -C 1 --netns "$NS" -d 1
check "... and no file left there" [ -z "$(ls -A "$TMP/notmine")" ]

echo "== an existing file becomes 0600; an empty recording is valid"
E=$TMP/existing.pcapng
echo old >"$E"
chmod 644 "$E"
expect_run "record -d 0.3 exits 0" 0 "0 drops counted, 0 written" \
	"$W" record -w "$E" --netns "$NS" -d 0.3
check "mode is 0600 now" [ "$(stat -c %a "$E")" = 600 ]
check "tshark reads it: no packets" bash -c "tshark -r '$E' 2>/dev/null | wc -c | grep -qx 0"
expect_run "read: 0 drops" 0 '^0 drops in 0\.[0-9] s' "$W" read "$E"

echo "== unwritable destinations"
expect_run "/proc/whydrop.pcapng: clear error, exit 1" 1 \
	"^whydrop record: cannot create /proc/whydrop.pcapng: " \
	"$W" record -w /proc/whydrop.pcapng --netns "$NS" -d 1
mkdir -p "$TMP/ro"
if mount -t tmpfs -o ro,size=64k wdpcap-ro "$TMP/ro" 2>"$TMP/ro.mount"; then
	MOUNTS+=("$TMP/ro")
	expect_run "read-only file system: clear error, exit 1" 1 \
		"cannot create .*/ro/x.pcapng: Read-only file system" \
		"$W" record -w "$TMP/ro/x.pcapng" --netns "$NS" -d 1
else
	fail "a read-only tmpfs mounted for the read-only test" "$(cat "$TMP/ro.mount")"
fi
check "an unwritable file is refused before tracing starts" bash -c \
	"! '$W' record -w /proc/whydrop.pcapng -d 1 2>&1 | grep -q attached"
expect_run "tracing cannot start (bad --netns): exit 2" 2 "no network namespace" \
	"$W" record -w "$TMP/new.pcapng" --netns "$NS-nonexistent" -d 1
check "... and no file is left behind" [ ! -e "$TMP/new.pcapng" ]
echo keep >"$TMP/keep.pcapng"
"$W" record -w "$TMP/keep.pcapng" --netns "$NS-nonexistent" -d 1 2>/dev/null
check "... and an existing file is left untouched" [ "$(cat "$TMP/keep.pcapng")" = keep ]

echo "== a full disk (64 KiB tmpfs)"
mkdir -p "$TMP/full"
if ! mount -t tmpfs -o size=64k wdpcap-full "$TMP/full" 2>"$TMP/full.mount"; then
	fail "a 64 KiB tmpfs mounted for the full-disk test" "$(cat "$TMP/full.mount")"
else
	MOUNTS+=("$TMP/full")
	start full record -w "$TMP/full/f.pcapng" --netns "$NS"
	FULL=$LAST
	read -ra IDS <<<"$(prog_ids "$FULL")"
	send 3000 4 9
	for _ in $(seq 100); do kill -0 "$FULL" 2>/dev/null || break; sleep 0.1; done
	wait "$FULL"
	RC=$?
	check "record stops by itself, exit 1" [ "$RC" -eq 1 ]
	check "one clear message" [ "$(grep -c "cannot write $TMP/full/f.pcapng: No space left on device" \
		"$TMP/full.err")" -eq 1 ]
	check "the counts are still reported and add up" adds_up "$TMP/full.err"
	N=$(written_of "$TMP/full.err")
	"$W" read --json "$TMP/full/f.pcapng" >"$TMP/full.json" 2>"$TMP/full.read.err"
	check "read finds exactly the $N packets reported written" \
		grep -q "\"total\": ${N:-x}," "$TMP/full.json"
	check "read says where the file was cut" grep -q "cut short" "$TMP/full.read.err"
	check "its BPF programs (${IDS[*]}) are gone" held_progs_gone "${IDS[@]}"
fi

echo "== the reader of the pipe goes away (EPIPE)"
rm -f "$TMP/epipe.rc"
(
	"$W" record -w - --netns "$NS" 2>"$TMP/epipe.err" &
	echo $! >"$TMP/epipe.pid"
	wait $!
	echo $? >"$TMP/epipe.rc"
) | head -c 1 >/dev/null &
PIDS+=($!)
IDS=()
if wait_attached "$TMP/epipe.err"; then
	read -ra IDS <<<"$(prog_ids "$(cat "$TMP/epipe.pid")")"
	sleep 0.3
	send 5 4 9
	wait_file "$TMP/epipe.rc"
fi
check "record exits 1" [ "$(cat "$TMP/epipe.rc" 2>/dev/null)" = 1 ]
check "one clear message" grep -q "cannot write standard output: Broken pipe" "$TMP/epipe.err"
check "the counts are still reported and add up" adds_up "$TMP/epipe.err"
check "its BPF programs (${IDS[*]}) are gone" held_progs_gone "${IDS[@]}"

echo "== read: other files"
tshark -r "$F" -F pcap -w "$TMP/classic.pcap" 2>/dev/null
expect_run "classic pcap: says so, exit 1" 1 "classic pcap file, not pcapng" \
	"$W" read "$TMP/classic.pcap"
editcap -F pcapng "$TMP/classic.pcap" "$TMP/foreign.pcapng" 2>/dev/null
expect_run "pcapng without whydrop comments: summarised, what is missing said" 0 \
	"8 of 8 packets carry no whydrop comment" "$W" read "$TMP/foreign.pcapng"
expect_run "not a capture: exit 1" 1 "not a pcapng file" "$W" read /etc/os-release
expect_run "missing file: exit 2, named" 2 "cannot open $TMP/nope: No such file" "$W" read "$TMP/nope"
head -c 300 "$F" >"$TMP/cut.pcapng"
expect_run "cut file: summary of what is there, exit 1" 1 "truncated block at offset" \
	"$W" read "$TMP/cut.pcapng"

echo "== help and usage"
expect_run "record -h has examples" 0 "whydrop record -w - \| tshark -r -" "$W" record -h
expect_run "record -h says what -s can keep" 0 "0 \\(the default\\) for the whole\$" "$W" record -h
expect_run "record -h has -C, -G, -W" 0 "^  -W, --file-count FILECOUNT" "$W" record -h
# read's inputs: several files, filters, a time range, --lines
. tests/integration/pcapng_read.sh

expect_run "read -h has examples" 0 "whydrop read --json drops.pcapng" "$W" read -h
expect_run "record without -w: usage error" 2 "-w FILE is needed" "$W" record -d 1
expect_run "record -s bad: usage error" 2 "bad -s" "$W" record -w "$TMP/x" -s lots
for snap in 262145 -1 1k; do
	expect_run "record -s $snap: usage error, what -s takes" 2 \
		"bad -s '$snap': 0 \\(the whole packet\\) or 1 to 262144 bytes per packet" \
		"$W" record -w "$TMP/snap$snap.pcapng" -s "$snap" --netns "$NS" -d 1
	check "... and no file made" test ! -e "$TMP/snap$snap.pcapng"
done
for snap in 1 262144; do
	expect_run "record -s $snap is taken" 0 "0 drops counted" \
		"$W" record -w "$TMP/snap$snap.pcapng" -s "$snap" --netns "$NS" -d 0.3
done
expect_run "record -w - -C 1: usage error" 2 "not with -w -" "$W" record -w - -C 1 -d 1
expect_run "record -w - -G 1: usage error" 2 "not with -w -" "$W" record -w - -G 1 -d 1
expect_run "record -W without -C or -G: usage error" 2 "-W goes with -C or -G" \
	"$W" record -w "$TMP/w.pcapng" -W 2 -d 1
for bad in "-C 0" "-C 1x" "-G 0" "-W 0"; do
	expect_run "record $bad: usage error" 2 "bad ${bad% *} '${bad#* }'" \
		"$W" record -w "$TMP/bad.pcapng" $bad -d 1
done
check "... and no file made" test ! -e "$TMP/bad.pcapng"
expect_run "read --group-by bogus: usage error" 2 "bad --group-by 'bogus'" \
	"$W" read --group-by bogus "$F"
expect_run "read --max-groups 0: usage error" 2 "bad --max-groups '0'" \
	"$W" read --group-by netns --max-groups 0 "$F"
expect_run "read without FILE: usage error" 2 "which FILE" "$W" read
check "no sanitizer report from any run" sh -c "! grep -l -e 'Sanitizer' -e 'runtime error' '$TMP'/*.err"

summary
