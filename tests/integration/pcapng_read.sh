# shellcheck shell=bash
# whydrop read's inputs: several files, the live commands' filters and a
# time range on recorded packets, --lines. Sourced by tests/integration/
# pcapng.sh (its harness, $W, $TMP, $NS with 192.0.2.1 and 2001:db8::1 on lo).
# Two recordings of known drops, in $NS and in a second namespace of its
# own; every count read gives is checked against tshark's or tcpdump's
# count of the same files with the same filter, and against the sender's.

RNS=wdpcapr-$$
RA=wdra$$
RB=wdrb$$
ip netns add "$RNS" && HARNESS_NS+=("$RNS")
ip netns exec "$RNS" tests/lib/netns_defaults.sh
ip -n "$RNS" link set lo up
ip -n "$RNS" addr add 198.51.100.1/32 dev lo
# $NS wdra -- wdrb $RNS: drops in $RNS on an interface that is not lo
ip link add "$RA" netns "$NS" type veth peer name "$RB" netns "$RNS"
for side in "$NS $RA 203.0.113.1" "$RNS $RB 203.0.113.2"; do
	set -- $side
	ip -n "$1" link set "$2" addrgenmode none	# no IPv6 autoconfiguration traffic
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$1" link set "$2" up
done
RNS_INO=$(stat -L -c %i "/run/netns/$RNS")
RNS_COOKIE=$(ip netns exec "$RNS" $PY -c 'import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])')

# rd_send NS COUNT DST PORT: one-byte UDP datagrams (IPv4 or IPv6 by DST).
rd_send() {
	ip netns exec "$1" $PY - "$2" "$3" "$4" <<'PYEOF'
import socket, sys
n, dst, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET6 if ":" in dst else socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"x", (dst, port))
PYEOF
}

# rd_nft NS: UDP to port 5555 dropped on input (NETFILTER_DROP), in NS only.
rd_nft() {
	ip netns exec "$1" nft -f - <<'NFTEOF'
table inet wdrd {
	chain in { type filter hook input priority 0; udp dport 5555 counter drop; }
}
NFTEOF
}

# rd_nft_count NS: packets the rule dropped (the kernel's count).
rd_nft_count() {
	ip netns exec "$1" nft list table inet wdrd | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p'
}

echo "== read: several files, -r, --netns, -i, an expression, as tshark and tcpdump count"
rd_nft "$NS" && rd_nft "$RNS"
check "nft tables in both namespaces" test "$(rd_nft_count "$NS")$(rd_nft_count "$RNS")" = 00
A=$TMP/rda.pcapng
B=$TMP/rdb.pcapng
start rda record -w "$A" --netns "$NS" || return 0 2>/dev/null || exit 1
RDA=$LAST
start rdb record -w "$B" --netns "$RNS" || return 0 2>/dev/null || exit 1
RDB=$LAST
RT0=$(date +%s.%N)
rd_send "$NS" 5 192.0.2.1 9		# a: NO_SOCKET, lo
rd_send "$NS" 3 2001:db8::1 7		# a: NO_SOCKET, lo, IPv6
rd_send "$NS" 4 192.0.2.1 5555		# a: NETFILTER_DROP
sleep 1.2				# a time between the two halves, for --since
RTM=$(date +%s.%N)
sleep 0.3
rd_send "$RNS" 2 198.51.100.1 9		# b: NO_SOCKET, lo
rd_send "$RNS" 6 198.51.100.1 5555	# b: NETFILTER_DROP
rd_send "$NS" 3 203.0.113.2 9		# b: NO_SOCKET on wdrb, sent over the veth
sleep 0.5
stop_ok "$RDA" "record a"
stop_ok "$RDB" "record b"
RT1=$(date +%s.%N)
check "the rules dropped 4 in $NS and 6 in $RNS (nft counters)" \
	test "$(rd_nft_count "$NS") $(rd_nft_count "$RNS")" = "4 6"

# rd_tshark DISPLAYFILTER: packets of both files tshark's filter keeps.
rd_tshark() {
	local n=0 f
	for f in "$A" "$B"; do
		n=$((n + $(tshark -r "$f" -Y "$1" 2>/dev/null | wc -l)))
	done
	echo "$n"
}

# rd_tcpdump EXPR: packets of both files tcpdump's filter keeps.
rd_tcpdump() {
	local n=0 f
	for f in "$A" "$B"; do
		n=$((n + $(tcpdump -nr "$f" "$1" 2>/dev/null | wc -l)))
	done
	echo "$n"
}

# rd_total ARGS...: read --json's total of both files; "rc=N" when it fails.
rd_total() {
	local out rc
	out=$("$W" read --json "$@" 2>"$TMP/rdtotal.err")
	rc=$?
	[ "$rc" -eq 0 ] || { echo "rc=$rc"; return; }
	sed -n 's/.*"total": \([0-9]*\),.*/\1/p' <<<"$out"
}

# rd_case NAME SENDER TSHARK|- TCPDUMP|- READ-ARGS...: read of both files
# with READ-ARGS totals SENDER, the count tshark (display filter) or tcpdump
# (pcap-filter expression) gives for the same files, and --lines prints
# that many lines.
rd_case() {
	local name=$1 want=$2 ts=$3 td=$4 got ref lines
	shift 4
	got=$(rd_total "$@" "$A" "$B")
	if [ "$ts" != - ]; then
		ref=$(rd_tshark "$ts")
	else
		ref=$(rd_tcpdump "$td")
	fi
	check "$name: read $got, tshark/tcpdump $ref, sender $want" \
		test "$got" = "$want" -a "$ref" = "$want"
	lines=$("$W" read --lines "$@" "$A" "$B" 2>/dev/null | wc -l)
	check "$name: read --lines prints $want lines (got $lines)" test "$lines" = "$want"
}
# rd_case with the expression after the files: read A B EXPR
rd_expr() {
	local name=$1 want=$2 expr=$3 got ref lines
	got=$(rd_total "$A" "$B" "$expr")
	ref=$(rd_tcpdump "$expr")
	check "$name: read $got, tcpdump $ref, sender $want" \
		test "$got" = "$want" -a "$ref" = "$want"
	lines=$("$W" read --lines "$A" "$B" "$expr" 2>/dev/null | wc -l)
	check "$name: read --lines prints $want lines (got $lines)" test "$lines" = "$want"
}

rd_case "both files" 23 "frame" -
rd_case "-r NETFILTER_DROP" 10 'frame.comment contains "reason=NETFILTER_DROP "' - \
	-r NETFILTER_DROP
rd_case "-r no_socket (any case)" 13 'frame.comment contains "reason=NO_SOCKET "' - -r no_socket
rd_case "-r SKB_DROP_REASON_NO_SOCKET,NETFILTER_DROP" 23 \
	'frame.comment matches "reason=(NO_SOCKET|NETFILTER_DROP) "' - \
	-r SKB_DROP_REASON_NO_SOCKET,NETFILTER_DROP
NS_CODE=$(tshark -r "$A" -Y 'frame.comment contains "reason=NO_SOCKET "' -T fields \
	-e frame.comment 2>/dev/null | sed -n 's/.* code=\([0-9]*\) .*/\1/p' | sort -u)
rd_case "-r $NS_CODE (NO_SOCKET's number, as recorded)" 13 \
	"frame.comment contains \" code=$NS_CODE \"" - -r "$NS_CODE"
rd_case "--netns $NS (name)" 12 "frame.comment matches \"netns_name=$NS( |\$)\"" - --netns "$NS"
rd_case "--netns $RNS_COOKIE (cookie of $RNS)" 11 \
	"frame.comment contains \" netns_cookie=$RNS_COOKIE \"" - --netns "$RNS_COOKIE"
rd_case "--netns $RNS_INO (inode of $RNS)" 11 \
	"frame.comment contains \" netns=$RNS_INO \"" - --netns "$RNS_INO"
rd_case "-i $RB" 3 "frame.comment contains \" ifname=$RB \"" - -i "$RB"
rd_case "-i lo" 20 'frame.comment contains " ifname=lo "' - -i lo
rd_expr "expression 'udp port 5555'" 10 "udp port 5555"
rd_expr "expression 'ip6'" 3 "ip6"
rd_expr "expression 'dst host 203.0.113.2'" 3 "dst host 203.0.113.2"
rd_case "-r NO_SOCKET --netns $RNS 'dst port 9'" 5 \
	"frame.comment contains \"reason=NO_SOCKET \" && frame.comment contains \" netns_cookie=$RNS_COOKIE \" && udp.dstport == 9" - \
	-r NO_SOCKET --netns "$RNS"
got=$(rd_total -r NO_SOCKET --netns "$RNS" "$A" "$B" "dst port 9")
check "... and with the expression too: read $got" test "$got" = 5
check "read of both files: the drops of each, summed (13 NO_SOCKET, 10 NETFILTER_DROP rows)" \
	$PY -c '
import json, sys
d = json.load(sys.stdin)
by = {}
for r in d["drops"]:
    by[r["reason"]] = by.get(r["reason"], 0) + r["count"]
sys.exit(not (by == {"NO_SOCKET": 13, "NETFILTER_DROP": 10} and d["total"] == 23))' \
	< <("$W" read --json "$A" "$B" 2>/dev/null)

echo "== read: files that cannot be read"
expect_run "a missing file: exit 2, named" 2 \
	"^whydrop read: cannot open $TMP/nothere.pcapng: No such file or directory$" \
	"$W" read "$A" "$TMP/nothere.pcapng"
check "... nothing on standard output" \
	test -z "$("$W" read "$A" "$TMP/nothere.pcapng" 2>/dev/null)"
expect_run "a second file that is not pcapng: exit 1, named" 1 \
	"^whydrop read: /etc/os-release: not a pcapng file" "$W" read --lines "$A" /etc/os-release
check "... nothing on standard output, not even the first file's lines" \
	test -z "$("$W" read --lines "$A" /etc/os-release 2>/dev/null)"
expect_run "-r an unknown name: exit 2, the closest" 2 "no drop reason is named 'NO_SOKET'; did you mean NO_SOCKET\\?" \
	"$W" read -r NO_SOKET "$A"
expect_run "a bad expression: exit 2, where" 2 "bad filter expression" "$W" read "$A" "udp port"
expect_run "a word neither file nor expression: exit 2" 2 "bad filter expression" \
	"$W" read "$A" nosuchfile
expect_run "- twice: exit 2" 2 "can be read only once" "$W" read - -
expect_run "--lines with --group-by: exit 2" 2 "one or the other" \
	"$W" read --lines --group-by netns "$A"

echo "== read --since/--until: by the packets' timestamps, as tshark's frame.time_epoch"
# rd_time NAME SENDER TSHARK-FILTER READ-ARGS...: as rd_case, by time.
rd_time() {
	local name=$1 want=$2 ts=$3 got ref
	shift 3
	got=$(rd_total "$@" "$A" "$B")
	ref=$(rd_tshark "$ts")
	check "$name: read $got, tshark $ref, sender $want" \
		test "$got" = "$want" -a "$ref" = "$want"
}
rfc3339() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%S.%NZ; }
MID=$(rfc3339 "$RTM")
rd_time "--since $MID (between the halves)" 11 "frame.time_epoch >= $RTM" --since "$MID"
rd_time "--until $MID" 12 "frame.time_epoch < $RTM" --until "$MID"
# the same instant with another zone: +01:30 is 90 minutes ahead of UTC
MIDZ=$(TZ=UTC-1:30 date -d "@$RTM" +%Y-%m-%dT%H:%M:%S.%N+01:30)
rd_time "--until $MIDZ (an offset)" 12 "frame.time_epoch < $RTM" --until "$MIDZ"
rd_time "--since $(rfc3339 "$RT0") --until $MID" 12 \
	"frame.time_epoch >= $RT0 && frame.time_epoch < $RTM" --since "$(rfc3339 "$RT0")" --until "$MID"
rd_time "--since 10m (relative: every packet)" 23 "frame.time_epoch >= $(date -d '10 min ago' +%s)" \
	--since 10m
rd_time "--until 10m (relative: none)" 0 "frame.time_epoch < $(date -d '10 min ago' +%s)" --until 10m
# A packet's own timestamp, to the nanosecond: --since keeps it, --until does not.
P3=$(tshark -r "$A" -T fields -e frame.time_epoch 2>/dev/null | sed -n 3p)
rd_time "--since the 3rd packet's time, to the ns ($P3): kept" 21 "frame.time_epoch >= $P3" \
	--since "$(rfc3339 "$P3")"
rd_time "--until the 3rd packet's time: left out" 2 "frame.time_epoch < $P3" \
	--until "$(rfc3339 "$P3")"
check "--since $MID: the duration is cut to the range (at most $RT1 - $RTM, to 0.1 s)" $PY -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(not (0 < d["duration_s"] <= float(sys.argv[2]) - float(sys.argv[1]) + 0.05))' "$RTM" "$RT1" \
	< <("$W" read --json --since "$MID" "$A" "$B" 2>/dev/null)
for bad in "2026-12-06T09:30:00" "2026-02-30T00:00:00Z" "yesterday" "-5m"; do
	expect_run "--since '$bad': exit 2, what it takes" 2 "bad --since '$bad': " \
		"$W" read --since "$bad" "$A"
done
expect_run "--until before --since: exit 2" 2 "--until is not after --since" \
	"$W" read --since "$MID" --until "$(rfc3339 "$RT0")" "$A"

echo "== read --lines --json: the fields watch --json printed for the same drops"
# In $RNS, with -p: a receiver that never reads overflows its SO_RCVBUF
# (SOCKET_RCVBUFF: a socket, its port, state, process), beside NO_SOCKET and
# NETFILTER_DROP drops. watch --json and record run at the same time; each
# line read prints must be watch's line of the same drop, less what a
# recording does not hold (skb_len of IP packets, cpu, ifindex beside the
# interface's name, the socket's uid and cgroup_id), with ts equal to the microsecond give or take the two
# processes' clock conversions (under 1 ms).
ip netns exec "$RNS" $PY -c '
import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
s.bind(("198.51.100.1", 9999))
print("ready", flush=True)
time.sleep(30)' >"$TMP/rdrcv.out" &
RDRCV=$!
PIDS+=("$RDRCV")
poll_until 10 test -s "$TMP/rdrcv.out"
L=$TMP/rdl.pcapng
start rdlw watch --json -p --netns "$RNS" || return 0 2>/dev/null || exit 1
RDLW=$LAST
start rdlr record -w "$L" -p --netns "$RNS" || return 0 2>/dev/null || exit 1
RDLR=$LAST
ip netns exec "$RNS" $PY -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(20):
    s.sendto(b"y" * 1000, ("198.51.100.1", 9999))'
rd_send "$RNS" 3 198.51.100.1 9
rd_send "$RNS" 2 198.51.100.1 5555
sleep 0.5
stop "$RDLR"
stop "$RDLW"
kill "$RDRCV" 2>/dev/null
"$W" read --lines --json "$L" >"$TMP/rdl.json" 2>"$TMP/rdl.err"
check "read --lines --json: exit 0" test $? -eq 0
check "read --lines --json is watch --json, field by field, less what is not recorded" $PY - \
	"$TMP/rdlw.out" "$TMP/rdl.json" <<'PYEOF'
import json, sys
from datetime import datetime
w = [json.loads(l) for l in open(sys.argv[1])]
r = [json.loads(l) for l in open(sys.argv[2])]
def t(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
reasons = {x["reason"] for x in w}
ok = len(w) == len(r) and len(w) >= 8 and {"SOCKET_RCVBUFF", "NO_SOCKET", "NETFILTER_DROP"} <= reasons
for a, b in zip(w, r):
    left = set(a) - set(b)
    ok &= left <= {"skb_len", "cpu", "ifindex"} and "cpu" in left and not set(b) - set(a)
    ok &= abs(t(a["ts"]) - t(b["ts"])) < 0.001
    if not ok:
        print("first difference: watch", a, "read", b, file=sys.stderr)
        break
    for k in set(b) - {"ts", "socket"}:
        ok &= a[k] == b[k]
    if "socket" in a:
        sa, sb = a["socket"], b["socket"]
        ok &= set(sa) - set(sb) <= {"uid", "cgroup_id"} and not set(sb) - set(sa)
        ok &= all(sa[k] == sb[k] for k in sb) and "pid" in sb and "ino" in sb
if not ok:
    print("watch", len(w), "read", len(r), reasons, file=sys.stderr)
sys.exit(not ok)
PYEOF
"$W" read --lines "$L" >"$TMP/rdl.txt" 2>/dev/null
check "read --lines (text): a line per packet, as watch's, with the reason, flow and socket" \
	grep -Eq "^[0-9:.]+Z SOCKET_RCVBUFF [^ ]+ ipv4 udp 198\\.51\\.100\\.1:[0-9]+ > 198\\.51\\.100\\.1:9999 len 1028 dev lo netns $RNS sock [0-9]+ port 9999 CLOSE pid $RDRCV " \
	"$TMP/rdl.txt"

echo "== read: a recording from another kernel keeps its reason names and numbers"
# Recording a, rewritten as a 6.1 kernel would have written it: shb_os
# "Linux 6.1.0-28-amd64", NO_SOCKET code 2 and NETFILTER_DROP code 7 (their
# numbers on 6.0 to 6.1; 3 and 12 here), other offsets in the functions.
OLD=$TMP/rd61.pcapng
$PY - "$A" "$OLD" <<'PYEOF'
import re, struct, sys
src = open(sys.argv[1], "rb").read()
assert src[8:12] == b"\x4d\x3c\x2b\x1a"     # written in this host's (little-endian) order
def opts(b):
    out, off = [], 0
    while off + 4 <= len(b):
        code, n = struct.unpack_from("<HH", b, off)
        if code == 0:
            break
        out.append((code, b[off + 4:off + 4 + n]))
        off += 4 + (n + 3) // 4 * 4
    return out
def pack_opts(o):
    b = b""
    for code, v in o:
        b += struct.pack("<HH", code, len(v)) + v + b"\0" * (-len(v) % 4)
    return b + struct.pack("<HH", 0, 0)
def block(t, body):
    n = 12 + len(body)
    return struct.pack("<II", t, n) + body + struct.pack("<I", n)
def comment(c):
    c = c.decode()
    c = re.sub(r"(reason=NO_SOCKET .*) code=3 ", r"\1 code=2 ", c)
    c = re.sub(r"(reason=NETFILTER_DROP .*) code=12 ", r"\1 code=7 ", c)
    c = re.sub(r"location=(\w+)\+0x[0-9a-f]+", r"location=\1+0x6a1", c)
    return c.encode()
out, off = b"", 0
while off < len(src):
    t, n = struct.unpack_from("<II", src, off)
    body = src[off + 8:off + n - 4]
    if t == 0x0A0D0D0A:
        o = [(c, b"Linux 6.1.0-28-amd64" if c == 3 else v) for c, v in opts(body[16:])]
        out += block(t, body[:16] + pack_opts(o))
    elif t == 6:
        cap = struct.unpack_from("<I", body, 12)[0]
        end = 20 + (cap + 3) // 4 * 4
        o = [(c, comment(v) if c == 1 else v) for c, v in opts(body[end:])]
        out += block(t, body[:end] + pack_opts(o))
    else:
        out += src[off:off + n]
    off += n
open(sys.argv[2], "wb").write(out)
PYEOF
check "a copy of recording a in a 6.1 kernel's numbering" test $? -eq 0
check "tshark reads it: 8 NO_SOCKET with code 2, 4 NETFILTER_DROP with code 7, Linux 6.1" \
	test "$(tshark -r "$OLD" -Y 'frame.comment matches "reason=NO_SOCKET .* code=2 "' 2>/dev/null | wc -l) $(tshark -r "$OLD" -Y 'frame.comment matches "reason=NETFILTER_DROP .* code=7 "' 2>/dev/null | wc -l) $(capinfos "$OLD" 2>/dev/null | grep -c 'Linux 6.1.0-28-amd64')" = "8 4 1"
check "read --json: kernel 6.1.0-28-amd64, NO_SOCKET code 2 (8), NETFILTER_DROP code 7 (4)" $PY -c '
import json, sys
d = json.load(sys.stdin)
rows = {}
for r in d["drops"]:
    rows[(r["reason"], r["code"])] = rows.get((r["reason"], r["code"]), 0) + r["count"]
sys.exit(not (d["kernel"] == "6.1.0-28-amd64" and
              rows == {("NETFILTER_DROP", 7): 4, ("NO_SOCKET", 2): 8}))' \
	< <("$W" read --json "$OLD" 2>/dev/null)
got=$(rd_total -r 7 "$OLD")
check "-r 7 is the recording's number (NETFILTER_DROP on 6.1): read $got, tshark 4" \
	test "$got" = 4
got=$(rd_total -r NETFILTER_DROP "$OLD")
check "-r NETFILTER_DROP: read $got of 4" test "$got" = 4
check "read --lines --json: the recording's names and numbers on each line" \
	test "$("$W" read --lines --json "$OLD" 2>/dev/null | grep -c '"reason": "NO_SOCKET", "code": 2,')" = 8
check "read of the 6.1 and the 6.18 recordings: both kernels, each row with its own number" $PY -c '
import json, sys
d = json.load(sys.stdin)
rows = {}
for r in d["drops"]:
    rows[(r["reason"], r["code"])] = rows.get((r["reason"], r["code"]), 0) + r["count"]
sys.exit(not (d["kernel"].split(", ")[0] == "6.1.0-28-amd64" and len(d["kernel"].split(", ")) == 2 and
              rows == {("NO_SOCKET", 2): 8, ("NETFILTER_DROP", 7): 4,
                       ("NO_SOCKET", 3): 5, ("NETFILTER_DROP", 12): 6}))' \
	< <("$W" read --json "$OLD" "$B" 2>/dev/null)
# A reason under its old name (5.17-rc's TCP_FILTER, SOCKET_FILTER since): -r
# by either name keeps it, as the catalogue's aliases say.
sed 's/reason=NETFILTER_DROP /reason=TCP_FILTER     /g' "$OLD" >"$TMP/rdold.pcapng"
n=$(tshark -r "$TMP/rdold.pcapng" -Y 'frame.comment contains "reason=TCP_FILTER "' 2>/dev/null | wc -l)
got=$(rd_total -r SOCKET_FILTER "$TMP/rdold.pcapng")
check "-r SOCKET_FILTER keeps the recording's TCP_FILTER drops: read $got, tshark $n, sent 4" \
	test "$got" = 4 -a "$n" = 4
got=$(rd_total -r tcp_filter "$TMP/rdold.pcapng")
check "-r tcp_filter (the old name itself): read $got of 4" test "$got" = 4
