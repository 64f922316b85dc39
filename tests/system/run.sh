#!/usr/bin/env bash
# whydrop against the real kernel, as root: exact counts under a flood,
# lost-record accounting, the overflow bucket, filters, raw_tp fallback,
# clean detach on signals. Drops are made on loopback inside namespaces
# this script creates and always removes. Prints "N passed, N failed".
. "$(dirname "$0")/../lib/part.sh"
NS=wdsys-$$-a
NS2=wdsys-$$-b
harness_begin tests/system "$NS" "$NS2"

# send NS COUNT FAMILY PROTO PORT: datagrams/SYNs to a closed port (NO_SOCKET).
send() {
	ip netns exec "$1" $PY - "$2" "$3" "$4" "$5" <<'PYEOF'
import socket, sys
n, fam, proto, port = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[5-1])
af, dst = (socket.AF_INET, "127.0.0.1") if fam == "4" else (socket.AF_INET6, "::1")
if proto == "udp":
    s = socket.socket(af, socket.SOCK_DGRAM)
    for _ in range(n):
        s.sendto(b"x", (dst, port))
else:
    for _ in range(n):
        c = socket.socket(af, socket.SOCK_STREAM)
        try:
            c.connect((dst, port))
        except ConnectionRefusedError:
            pass
        c.close()
PYEOF
}

# start NAME ARGS...: harness_start (tests/lib/harness.sh), noting the name
# and the programs it loaded.
start() {
	LAST_NAME=$1
	harness_start "$@" || return 1
	OURS+=($(prog_ids "$LAST"))
}
OURS=()

# finish: stop the whydrop started last, which must exit 0. Under ASan a leak
# (LeakSanitizer exits 23) or a UBSan error is a non-zero exit: never ignored.
finish() {
	local rc
	stop "$LAST"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "$LAST_NAME: exit 0 on SIGINT"
	else
		fail "$LAST_NAME: exit 0 on SIGINT" "exit $rc: $(tail -n 5 "$TMP/$LAST_NAME.err")"
	fi
}

# run NAME WANT CMD...: a whydrop run in the foreground, output in
# $TMP/NAME.out and .err; its exit status must be WANT.
run() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	[ "$rc" -eq "$want" ] && return 0
	fail "$name: exit $want" "exit $rc: $(tail -n 3 "$TMP/$name.err")"
	return 1
}

# jq-free JSON query: sum of count for a reason (and optional function).
json_count() {
	$PY -c 'import json,sys
d=json.load(open(sys.argv[1])); r=sys.argv[2]; f=sys.argv[3] if len(sys.argv)>3 else None
print(sum(x["count"] for x in d["drops"] if x.get("reason")==r and (f is None or x["function"]==f)))' "$@"
}

udp_noports() {
	ip netns exec "$1" awk '/^Udp:/ { if (!h) { for (i=1;i<=NF;i++) c[$i]=i; h=1 } else print $c["NoPorts"] }' /proc/net/snmp
}

echo "-- exact counts in a namespace, other namespaces excluded"
start count count --json --netns "$NS" || true
before=$(udp_noports "$NS")
send "$NS" 123 4 udp 9 && send "$NS" 45 6 udp 9 && send "$NS" 17 4 tcp 9
send "$NS2" 50 4 udp 9
after=$(udp_noports "$NS")
finish
check "NO_SOCKET in __udp4_lib_rcv = 123" test "$(json_count "$TMP/count.out" NO_SOCKET __udp4_lib_rcv)" -eq 123
check "NO_SOCKET in __udp6_lib_rcv = 45" test "$(json_count "$TMP/count.out" NO_SOCKET __udp6_lib_rcv)" -eq 45
check "NO_SOCKET in tcp_v4_rcv = 17 SYNs" test "$(json_count "$TMP/count.out" NO_SOCKET tcp_v4_rcv)" -eq 17
check "UDP NoPorts MIB moved by the same 123" test $((after - before)) -eq 123
check "the other namespace's 50 drops are not counted" \
	test "$(json_count "$TMP/count.out" NO_SOCKET)" -eq $((123 + 45 + 17))

echo "-- reason filter"
start filt count --json --netns "$NS" -r udp_csum,no_socket || true
send "$NS" 9 4 udp 9
finish
check "-r NO_SOCKET: 9 counted" test "$(json_count "$TMP/filt.out" NO_SOCKET)" -eq 9
start filt2 count --json --netns "$NS" -r TCP_CSUM || true
send "$NS" 9 4 udp 9
finish
check "-r TCP_CSUM: NO_SOCKET drops filtered out in the kernel" \
	test "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$TMP/filt2.out")" -eq 0
# A reason's number, as `reasons --json` prints it ("code"), selects as its name does.
run codes 0 "$W" reasons --json
code=$($PY -c 'import json,sys
print(next(r["code"] for r in json.load(open(sys.argv[1]))["reasons"] if r["name"] == "NO_SOCKET"))' \
	"$TMP/codes.out")
start filtn count --json --netns "$NS" -r "${code:-none}" || true
send "$NS" 6 4 udp 9
finish
check "-r $code (NO_SOCKET's code here): 6 NO_SOCKET counted" \
	test "$(json_count "$TMP/filtn.out" NO_SOCKET)" -eq 6
check "-r $code: nothing else counted" \
	test "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$TMP/filtn.out")" -eq 6

echo "-- pcap filter expressions decide what is counted"
start pf count --json --netns "$NS" 'udp dst port 9 or (ip6 and udp)' || true
send "$NS" 40 4 udp 9 && send "$NS" 25 4 udp 10 && send "$NS" 6 6 udp 10 && send "$NS" 8 4 tcp 9
finish
check "filter: 40 IPv4 to port 9 counted" test "$(json_count "$TMP/pf.out" NO_SOCKET __udp4_lib_rcv)" -eq 40
check "filter: 6 IPv6 to port 10 counted" test "$(json_count "$TMP/pf.out" NO_SOCKET __udp6_lib_rcv)" -eq 6
check "filter: port 10 over IPv4 and TCP excluded" test "$(json_count "$TMP/pf.out" NO_SOCKET)" -eq 46
start pfw watch --json --netns "$NS" 'tcp[tcpflags] & tcp-syn != 0 and dst port 9' || true
send "$NS" 4 4 tcp 9 && send "$NS" 5 4 udp 9
sleep 0.3
finish
check "filter in watch: only the 4 SYNs shown" test "$(grep -c '"tcp_flags": "S"' "$TMP/pfw.out")" -eq 4
check "filter in watch: nothing else shown" test "$(wc -l <"$TMP/pfw.out")" -eq 4
# len is the packet's IP length, as tcpdump and tshark show it (a Linux SYN with
# options: 60), not what tcp_v4_rcv had left of the skb (skb_len, its TCP header).
check "watch --json: each SYN has len 60 (its IP length) and skb_len 40 (at tcp_v4_rcv)" \
	$PY -c 'import json,sys
l = [json.loads(x) for x in open(sys.argv[1])]
sys.exit(not (len(l) == 4 and all(x["len"] == 60 and x["skb_len"] == 40 for x in l)))' "$TMP/pfw.out"

# pcap's len is the packet's length (the IP header's), not what is left of
# the skb at the drop site (UDP has pulled its headers by then).
start pfl count --json --netns "$NS" 'len > 40' || true
ip netns exec "$NS" $PY -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for n in (1, 1, 1, 16, 16, 16, 16):
    s.sendto(b"x" * n, ("127.0.0.1", 9))'
finish
check "filter 'len > 40': the four 44-byte packets, not the 29-byte ones" \
	test "$(json_count "$TMP/pfl.out" NO_SOCKET)" -eq 4

# Past the linear data: TCP keeps a segment's payload in page fragments, which
# a tracing program cannot read. A filter that needs those bytes leaves the
# drop unmatched and says how many; one that reads only headers matches.
ip netns exec "$NS" nft -f - <<'NFT'
table inet wdsys_paged {
	chain input {
		type filter hook input priority 0;
		tcp dport 5555 meta length > 1000 drop
	}
}
NFT
start pgd_all count --json --netns "$NS" -r NETFILTER_DROP || true
P_ALL=$LAST
start pgd_hdr count --json --netns "$NS" 'tcp dst port 5555' || true
P_HDR=$LAST
start pgd_pay count --json --netns "$NS" 'tcp dst port 5555 and tcp[100] = 0x41' || true
ip netns exec "$NS" $PY -c 'import socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 5555))
srv.listen(8)
cs = []
for _ in range(3):
    c = socket.create_connection(("127.0.0.1", 5555))
    c.send(b"A" * 3000)
    cs.append(c)
time.sleep(0.05)'
# before the first retransmission (200 ms): each segment dropped once
kill -INT "$P_ALL" "$P_HDR" "$LAST" 2>/dev/null
for p in "$P_ALL" "$P_HDR"; do wait "$p"; done
finish
ip netns exec "$NS" nft delete table inet wdsys_paged
check "paged: the 3 segments dropped by nft" test "$(json_count "$TMP/pgd_all.out" NETFILTER_DROP)" -eq 3
check "paged: a header-only filter matches them" \
	test "$(json_count "$TMP/pgd_hdr.out" NETFILTER_DROP)" -eq 3
check "paged: a filter on payload bytes matches none of them" \
	test "$(json_count "$TMP/pgd_pay.out" NETFILTER_DROP)" -eq 0
check "paged: ... and counts them as unmatched for want of paged data (3)" $PY -c '
import json, sys
sys.exit(json.load(open(sys.argv[1])).get("filter_paged_unmatched") != 3)' "$TMP/pgd_pay.out"

echo "-- interface filter"
start ifl count --json --netns "$NS" -i lo || true
send "$NS" 11 4 udp 9
finish
check "-i lo: 11 counted" test "$(json_count "$TMP/ifl.out" NO_SOCKET)" -eq 11

# watch_summary FILE: "counted shown not-shown" from watch's closing line on stderr
watch_summary() {
	sed -nE 's/^whydrop: ([0-9]+) drops? counted, ([0-9]+) records? shown, ([0-9]+) not shown.*/\1 \2 \3/p' "$1"
}

echo "-- flood: shown + not shown = the kernel's count of the drops"
# "not shown" is whydrop's count minus what it showed: the sum says nothing unless the
# count is checked against one made elsewhere, the namespace's Udp NoPorts.
t0=$(date +%s%N)
start flood watch --json --netns "$NS" --rate 2000 || true
noports=$(udp_noports "$NS")
send "$NS" 30000 4 udp 9
sleep 0.5
finish
secs=$((($(date +%s%N) - t0 + 999999999) / 1000000000))
noports=$(($(udp_noports "$NS") - noports))
lines=$(grep -c '"reason": "NO_SOCKET"' "$TMP/flood.out")
read -r seen shown missed <<<"$(watch_summary "$TMP/flood.err")"
echo "   $(grep -E 'drops? counted' "$TMP/flood.err"); Udp NoPorts +$noports"
check "the kernel's count: Udp NoPorts moved by the 30000 sent" test "$noports" -eq 30000
check "counted = Udp NoPorts ($noports)" test "${seen:-0}" -eq "$noports"
check "records printed = records reported shown ($lines)" test "$lines" -eq "${shown:-x}"
check "shown + not shown = Udp NoPorts ($noports)" test $((${shown:-0} + ${missed:-0})) -eq "$noports"
check "the rate limit held back some records" test "${missed:-0}" -gt 0
# --rate is per second of the clock: a run of S seconds spans at most S + 1 of them
check "shown <= --rate 2000 x ($secs + 1) seconds spanned" test "${shown:-0}" -le $((2000 * (secs + 1)))
check "watch JSON decodes the flow" grep -q '"src": "127.0.0.1", "sport": [0-9]*, "dst": "127.0.0.1", "dport": 9' "$TMP/flood.out"
check "watch names the interface" grep -q '"ifname": "lo"' "$TMP/flood.out"

echo "-- top: every table of a refresh is one reading of the kernel"
# A storm of NO_SOCKET drops in $NS while top refreshes: the header's total,
# the --group-by netns table and the traced column of the kernel counters'
# table come from one snapshot, so they agree in every frame (read one
# after the other, they were apart by hundreds to thousands of drops); the
# summary after detach equals the namespace's Udp NoPorts.
noports=$(udp_noports "$NS")
start topf top --group-by netns --netns "$NS" -r NO_SOCKET -d 5 || true
ip netns exec "$NS" $PY -c 'import socket, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
end = time.time() + 3.5
while time.time() < end:
    for _ in range(1000):
        s.sendto(b"x", ("127.0.0.1", 9))'
finish
noports=$(($(udp_noports "$NS") - noports))
read -r frames live bad <<<"$($PY - "$TMP/topf.out" <<'PYEOF'
import re, sys
frames, cur, sect = [], None, None
for l in open(sys.argv[1]).read().split("\n"):
    if l.startswith("Summary:"):
        break
    m = re.match(r"whydrop \S+  kernel \S+  (\d+) drops? since start", l)
    if m:
        cur = {"total": int(m.group(1)), "groups": 0, "traced": None}
        frames.append(cur)
        sect = None
    elif cur is None:
        continue
    elif l.startswith("By netns:") or l.startswith("Kernel counters"):
        sect = l[0]
    elif not l.strip():
        sect = None
    elif sect == "B" and l.split()[0].isdigit():
        cur["groups"] += int(l.split()[0])
    elif sect == "K" and l.split()[1:2] == ["UdpNoPorts"]:
        cur["traced"] = int(l.split()[2]) if l.split()[2].isdigit() else None
live = [f for f in frames if f["total"]]
bad = [f for f in live if f["groups"] != f["total"] or f["traced"] != f["total"]]
print(len(frames), len(live), len(bad))
for f in bad:
    print("frame: %d in the header, %d grouped, %s traced" % (f["total"], f["groups"], f["traced"]),
          file=sys.stderr)
PYEOF
)"
summary_total=$(sed -n '/^Summary:/,$ s/^\([0-9]*\) drops\? in .*/\1/p' "$TMP/topf.out")
echo "   $frames frames, $live with drops; Udp NoPorts +$noports, the summary's total $summary_total"
check "top: frames with drops while the storm ran (${live:-0} of ${frames:-0})" test "${live:-0}" -ge 2
check "top: in each frame, the groups and the counters' traced column = the header's total" \
	test "${bad:-1}" -eq 0
check "top: the summary's total = Udp NoPorts ($noports)" \
	test "${summary_total:-0}" -eq "$noports" -a "$noports" -gt 0

echo "-- --rate 0: no limit, every drop shown"
start rate0 watch --json --netns "$NS" --rate 0 || true
noports=$(udp_noports "$NS")
send "$NS" 2000 4 udp 9
# wait (up to 10 s) until watch has printed them, then stop it
records_ge() { [ "$(grep -c '"reason": "NO_SOCKET"' "$1")" -ge "$2" ]; }
poll_until 10 records_ge "$TMP/rate0.out" 2000
finish
noports=$(($(udp_noports "$NS") - noports))
lines=$(grep -c '"reason": "NO_SOCKET"' "$TMP/rate0.out")
read -r seen shown missed <<<"$(watch_summary "$TMP/rate0.err")"
echo "   $(grep -E 'drops? counted' "$TMP/rate0.err"); Udp NoPorts +$noports"
check "--rate 0: all 2000 drops shown ($lines lines)" test "$lines" -eq 2000
check "--rate 0: counted = Udp NoPorts (+$noports for 2000 sent)" \
	test "${seen:-0}" -eq "$noports" -a "$noports" -eq 2000
check "--rate 0: records shown = lines printed" test "${shown:-x}" -eq "$lines"
check "--rate 0: shown + not shown = Udp NoPorts" test "$((${shown:-0} + ${missed:-0}))" -eq "$noports"
check "--rate 0: none over --rate" grep -q '(0 over --rate' "$TMP/rate0.err"

echo "-- a full counting map spills into the overflow bucket, no count lost"
# 96 kinds of drop: IP_NOPROTO (IP protocol 254, for experiments) in 96
# namespaces one process makes one after another (the key has the
# namespace), more than a CPU's runs hold (src/bpf/counting.h), so runs end
# in the (one-key) hash and the rest in the overflow bucket; then UDP v4/v6
# alternating and TCP in $NS. No --netns: the expression keeps out drops of
# tests running beside this one.
OPORT=47953
start ovf count --json --map-size 1 -r IP_NOPROTO,NO_SOCKET \
	"(ip proto 254 and dst host 127.83.12.8) or ((udp or tcp) and dst port $OPORT)" || true
$PY -c 'import ctypes, fcntl, socket, struct
libc = ctypes.CDLL(None, use_errno=True)
for _ in range(96):
    if libc.unshare(0x40000000):		# CLONE_NEWNET
        raise OSError(ctypes.get_errno(), "unshare")
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    flags = struct.unpack("16sH14x", fcntl.ioctl(s, 0x8913, struct.pack("16sH14x", b"lo", 0)))[1]
    fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", flags | 1))	# lo up
    r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 24, 0, 0, 64, 254, 0,
                      socket.inet_aton("127.0.0.1"), socket.inet_aton("127.83.12.8"))
    r.sendto(hdr + b"abcd", ("127.83.12.8", 0))'
ip netns exec "$NS" $PY -c 'import socket, sys
a = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
b = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for _ in range(25):
    a.sendto(b"x", ("127.0.0.1", int(sys.argv[1])))
    b.sendto(b"x", ("::1", int(sys.argv[1])))' "$OPORT"
send "$NS" 5 4 tcp "$OPORT"
finish
check "overflow: all 55 NO_SOCKET counted" test "$(json_count "$TMP/ovf.out" NO_SOCKET)" -eq 55
check "overflow: all 96 IP_NOPROTO counted" test "$(json_count "$TMP/ovf.out" IP_NOPROTO)" -eq 96
check "overflow: the bucket is reported" grep -q '"function": "(overflow)"' "$TMP/ovf.out"

echo "-- raw_tp fallback"
WHYDROP_ATTACH=raw_tp start raw count --json --netns "$NS" || true
send "$NS" 7 6 udp 9
finish
check "raw_tp: attached through the raw tracepoint" grep -q '(raw_tp)' "$TMP/raw.err"
check "raw_tp: 7 NO_SOCKET in __udp6_lib_rcv" test "$(json_count "$TMP/raw.out" NO_SOCKET __udp6_lib_rcv)" -eq 7
# A filter's match is counted and recorded by kfree_skb_matched_raw, which
# finds the skb, its device and header again in its own arguments.
WHYDROP_ATTACH=raw_tp start rawf watch --json --netns "$NS" \
	'tcp[tcpflags] & tcp-syn != 0 and dst port 9' || true
send "$NS" 3 4 tcp 9 && send "$NS" 5 4 udp 9
sleep 0.3
finish
check "raw_tp, filter in watch: the 3 SYNs alone, flow, len 60, skb_len 40, device lo" \
	$PY -c 'import json,sys
l = [json.loads(x) for x in open(sys.argv[1])]
sys.exit(not (len(l) == 3 and all(x["tcp_flags"] == "S" and x["dport"] == 9 and
	x["dst"] == "127.0.0.1" and x["len"] == 60 and x["skb_len"] == 40 and
	x["ifname"] == "lo" for x in l)))' "$TMP/rawf.out"
expect_run "-v: the flavour the probes chose, and why" 0 \
	'flavour tp_btf: the kernel loads tp_btf programs on kfree_skb, (with direct packet loads|packet bytes by bpf_probe_read_kernel)' \
	"$W" count -v -d 0.1 --netns "$NS" 'udp'

echo "-- explain shows the live MIB counter, and it moved as much as whydrop counted"
# mib NAME: UdpRcvbufErrors as explain --json shows it in the namespace.
mib() {
	run "$1" 0 ip netns exec "$NS" "$W" explain SOCKET_RCVBUFF --json --interval 0 || return
	$PY -c 'import json,sys
r=json.load(open(sys.argv[1]))["reasons"][0]
print({c["name"]: c["value"] for c in r["counter_values"]}["UdpRcvbufErrors"])' "$TMP/$1.out"
}
run explain 0 ip netns exec "$NS" "$W" explain SOCKET_RCVBUFF --interval 0
check "explain shows net.core.rmem_max live" grep -q 'net.core.rmem_max *= *[0-9]' "$TMP/explain.out"
mib_before=$(mib mib_before)
start rcv count --json --netns "$NS" -r SOCKET_RCVBUFF || true
udp_drops=$(ip netns exec "$NS" $PY - <<'PYEOF'
import socket
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
r.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
r.bind(("127.0.0.1", 5599))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(300):
    s.sendto(b"y" * 1000, ("127.0.0.1", 5599))
for line in open("/proc/net/udp"):
    f = line.split()
    if f[1].endswith(":15DF"):
        print(f[-1])
PYEOF
)
finish
mib_after=$(mib mib_after)
traced=$(json_count "$TMP/rcv.out" SOCKET_RCVBUFF)
echo "   SOCKET_RCVBUFF: whydrop $traced, /proc/net/udp drops $udp_drops, UdpRcvbufErrors +$((mib_after - mib_before))"
check "SOCKET_RCVBUFF: some of 300 datagrams dropped" test "$traced" -gt 0
check "SOCKET_RCVBUFF: whydrop = /proc/net/udp drops column" test "$traced" -eq "${udp_drops:-x}"
check "SOCKET_RCVBUFF: whydrop = UdpRcvbufErrors delta shown by explain" \
	test "$traced" -eq $((mib_after - mib_before))

echo "-- without kernel BTF: arguments only, counts by reason and location"
WHYDROP_ATTACH=nobtf start nobtf count --json -r NO_SOCKET || true
send "$NS" 13 6 udp 9
finish
check "no BTF: says what is lost" grep -q 'no BTF: by reason and location only' "$TMP/nobtf.err"
check "no BTF: 13 NO_SOCKET in __udp6_lib_rcv (no namespace filter possible)" \
	test "$(json_count "$TMP/nobtf.out" NO_SOCKET __udp6_lib_rcv)" -eq 13
expect_run "no BTF: --netns refused with the reason" 1 'need BTF' \
	env WHYDROP_ATTACH=nobtf "$W" count -d 1 --netns "$NS"

echo "-- a kernel before 5.17 (no reason in the tracepoint): location only"
# This kernel's BTF without the tracepoint's reason and rx_sk fields and without
# enum skb_drop_reason (tests/system/old_btf.c); WHYDROP_BTF makes whydrop
# relocate its program against it and take names from it.
if cc -O2 -o "$TMP/old_btf" tests/system/old_btf.c -lbpf 2>"$TMP/old_btf.err" &&
	"$TMP/old_btf" /sys/kernel/btf/vmlinux "$TMP/old.btf" 2>>"$TMP/old_btf.err"; then
	OLD=(env WHYDROP_BTF="$TMP/old.btf")
	OLD_ONCE='has no drop reason (before 5.17): counting by drop location only'
	run oldr 0 "${OLD[@]}" "$W" reasons
	check "pre-5.17: reasons says the tracepoint carries none" \
		grep -q 'carries no drop reason' "$TMP/oldr.out" "$TMP/oldr.err"
	run oldrj 0 "${OLD[@]}" "$W" reasons --json
	check "pre-5.17: reasons --json: has_reason false, no reasons" $PY -c 'import json,sys
d=json.load(open(sys.argv[1])); sys.exit(d["has_reason"] or d["reasons"] != [])' "$TMP/oldrj.out"
	OLD_START=1
	WHYDROP_BTF="$TMP/old.btf" start old count --json --netns "$NS" || OLD_START=0
	send "$NS" 7 4 udp 9
	send "$NS" 5 4 tcp 9
	finish
	check "pre-5.17: count attached" test "$OLD_START" = 1
	check "pre-5.17: says so once" test "$(grep -c "$OLD_ONCE" "$TMP/old.err")" -eq 1
	check "pre-5.17: 7 UDP at __udp4_lib_rcv, 5 TCP at tcp_v4_rcv, no reason field" \
		$PY -c 'import json,sys
d=json.load(open(sys.argv[1])); c={}
for x in d["drops"]:
    assert "reason" not in x, x
    c[x["function"]]=c.get(x["function"],0)+x["count"]
assert d.get("location_only") is True, d
sys.exit(not (c.get("__udp4_lib_rcv")==7 and c.get("tcp_v4_rcv")==5))' "$TMP/old.out"
	WHYDROP_BTF="$TMP/old.btf" start oldw watch --json --netns "$NS" || true
	send "$NS" 3 4 udp 9
	sleep 0.3
	finish
	check "pre-5.17: watch: 3 records, flows decoded, no reason" $PY -c 'import json,sys
r=[json.loads(l) for l in open(sys.argv[1])]
ok=len(r)==3 and all("reason" not in x and x["function"]=="__udp4_lib_rcv" and x["dport"]==9
                      and x["dst"]=="127.0.0.1" for x in r)
sys.exit(not ok)' "$TMP/oldw.out"
	expect_run "pre-5.17: -r refused with the reason" 2 'cannot select any' \
		"${OLD[@]}" "$W" count -d 1 -r NO_SOCKET
else
	fail "pre-5.17: a BTF without reasons made" "$(cat "$TMP/old_btf.err")"
fi

echo "-- a load that fails: the log of the flavour the probes chose"
# This kernel's BTF with struct net_device renamed (tests/system/old_btf.c):
# the program cannot relocate against it in any flavour. The probes choose
# tp_btf on this kernel; the message says so and why, and carries that
# program's verifier log, not the last flavour's tried.
if [ -x "$TMP/old_btf" ] &&
	"$TMP/old_btf" /sys/kernel/btf/vmlinux "$TMP/nodev.btf" net_device 2>"$TMP/nodev_btf.err"; then
	run nodev 1 env WHYDROP_BTF="$TMP/nodev.btf" "$W" count -d 1 --source bpf &&
		pass "load failure: exit 1"
	check "load failure: names the flavour chosen and why" \
		grep -q 'flavour tp_btf: the kernel loads tp_btf programs on kfree_skb' "$TMP/nodev.err"
	check "load failure: the tp_btf program's verifier log" \
		grep -q "prog 'kfree_skb_btf': -- BEGIN PROG LOAD LOG" "$TMP/nodev.err"
	check "load failure: it says what failed (net_device's relocation)" \
		grep -q 'failed to resolve CO-RE relocation.*struct net_device' "$TMP/nodev.err"
	check "load failure: no other flavour was tried" \
		sh -c "! grep -q 'kfree_skb_raw' '$TMP/nodev.err'"
else
	fail "load failure: a BTF without struct net_device made" "$(cat "$TMP/nodev_btf.err" 2>/dev/null)"
fi

echo "-- signals detach cleanly and still report"
for sig in TERM HUP; do
	start "sig$sig" top --json --netns "$NS" || true
	send "$NS" 3 4 udp 9
	check "SIG$sig: program attached while running" test -n "$(prog_ids "$LAST")"
	stop "$LAST" "$sig"
	check "SIG$sig: exit 0" test $? -eq 0
	check "SIG$sig: summary still printed with the 3 drops" \
		test "$(json_count "$TMP/sig$sig.out" NO_SOCKET)" -eq 3
done
check "none of the ${#OURS[@]} programs these runs loaded is left" progs_gone "${OURS[@]}"
check "no sanitizer report from any run" sh -c "! grep -l -e 'Sanitizer' -e 'runtime error' '$TMP'/*.err"

summary
