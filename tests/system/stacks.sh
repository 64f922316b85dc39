#!/usr/bin/env bash
# --stacks, the call-site catalogue and the noise list against the real kernel:
# UDP datagrams to a closed port (v4, v6) in a namespace this script creates,
# their stacks, the folded counts, watch/record carrying the frames, top's live
# stacks and its summary, a NOT_SPECIFIED drop (generic XDP_DROP, as in the
# lab) explained by its call site, and drops hidden and counted by the noise
# list. Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
NS=stacks-$$-a
NSX=stacks-$$-x
harness_begin tests/system/stacks "$NS" "$NSX"

# send NS COUNT FAMILY: UDP datagrams to closed port 9 on loopback (NO_SOCKET).
send() {
	ip netns exec "$1" $PY -c 'import socket, sys
n, fam = int(sys.argv[1]), sys.argv[2]
af, dst = (socket.AF_INET, "127.0.0.1") if fam == "4" else (socket.AF_INET6, "::1")
s = socket.socket(af, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"x", (dst, 9))' "$2" "$3"
}


# folded FILE PATTERN...: the sum of counts of folded lines matching every pattern.
folded() {
	local f=$1
	shift
	$PY - "$f" "$@" <<'PYEOF'
import re, sys
path, pats = sys.argv[1], sys.argv[2:]
n = 0
for line in open(path):
    stack, _, count = line.rstrip("\n").rpartition(" ")
    frames = stack.split(";")
    if all(any(re.fullmatch(p, fr) for fr in frames) for p in pats):
        n += int(count)
print(n)
PYEOF
}

echo "-- count --stacks --folded: UDP to a closed port, v4 and v6"
start folded count --stacks --folded --netns "$NS" || true
send "$NS" 23 4 && send "$NS" 11 6
stop "$LAST"
check "count --folded: exit 0" test $? -eq 0
# 6.18: ip_local_deliver is a tail call, its frame is ip_local_deliver_finish
check "folded v4: NO_SOCKET root, __udp4_lib_rcv and ip_local_deliver* = 23" \
	test "$(folded "$TMP/folded.out" NO_SOCKET __udp4_lib_rcv 'ip_local_deliver.*')" -eq 23
check "folded v6: __udp6_lib_rcv and ip6_input* = 11" \
	test "$(folded "$TMP/folded.out" NO_SOCKET __udp6_lib_rcv 'ip6_input.*')" -eq 11
check "folded: root frame first, leaf last (sk_skb_reason_drop or kfree_skb*)" \
	$PY -c 'import sys
for l in open(sys.argv[1]):
    fr = l.rsplit(" ", 1)[0].split(";")
    assert fr[0] == "NO_SOCKET", fr
    assert fr[-1].startswith(("sk_skb_reason_drop", "kfree_skb")), fr
    assert "__udp4_lib_rcv" in fr or "__udp6_lib_rcv" in fr, fr' "$TMP/folded.out"
check "folded: nothing else on stdout (34 drops in all)" \
	test "$(folded "$TMP/folded.out")" -eq 34

echo "-- count --stacks --json: frames, per-stack counts add up to the reason"
start cj count --stacks --json --netns "$NS" || true
send "$NS" 9 4
stop "$LAST"
check "count --stacks --json: stacks sum = drops = 9, frames innermost first" \
	$PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
st = [s for s in d["stacks"] if s["reason"] == "NO_SOCKET"]
assert sum(s["count"] for s in st) == 9 == d["total"], d
assert all(any(f.startswith("__udp4_lib_rcv+") for f in s["stack"]) for s in st), st
assert set(d["stacks_lost"]) == {"collisions", "not_stored", "counts_full"}, d' "$TMP/cj.out"

echo "-- watch --stacks: text indented, JSON \"stack\""
start wt watch --stacks --netns "$NS" || true
send "$NS" 2 4
sleep 0.3
stop "$LAST"
check "watch --stacks text: frames indented under the line" \
	grep -Eq '^    __udp4_lib_rcv\+0x' "$TMP/wt.out"
start wj watch --stacks --json --netns "$NS" || true
send "$NS" 3 6
sleep 0.3
stop "$LAST"
check "watch --stacks --json: 3 lines, each with __udp6_lib_rcv in \"stack\"" \
	$PY -c 'import json,sys
l = [json.loads(x) for x in open(sys.argv[1])]
assert len(l) == 3 and all(any(f.startswith("__udp6_lib_rcv+") for f in x["stack"]) for x in l), l' "$TMP/wj.out"
start wn watch --json --netns "$NS" || true
send "$NS" 1 4
sleep 0.3
stop "$LAST"
check "watch --json without --stacks: no \"stack\"" bash -c "! grep -q '\"stack\"' '$TMP/wn.out'"

echo "-- top --stacks: the live table shows the top stacks, the summary all of them"
start top top --stacks --netns "$NS" || true
send "$NS" 7 4
sleep 1.5	# a refresh after the drops
stop "$LAST"
check "top --stacks: exit 0" test $? -eq 0
# Live blocks end with a blank line (not a terminal), the summary follows
# "Summary:". A stack: "COUNT  REASON LOCATION", frames indented by 12 (live:
# the first 8, then "... N more frames").
check "top --stacks: live and summary stacks are the 7 NO_SOCKET drops at __udp4_lib_rcv" \
	$PY - "$TMP/top.out" <<'PYEOF2'
import re, sys
text = open(sys.argv[1]).read()
live, sep, summary = text.partition("\nSummary:\n")
assert sep, text

def stacks(block, title, header):
    assert title in block, block
    rows, cur = [], None
    for line in block.split(title, 1)[1].split("\n"):
        m = re.fullmatch(header, line)
        if m:
            cur = {"count": int(m[1]), "reason": m[2], "loc": m[3], "frames": [], "more": 0}
            rows.append(cur)
        elif cur and line.startswith(" " * 12) and line.strip().startswith("... "):
            cur["more"] = int(re.fullmatch(r" {12}\.\.\. (\d+) more frames", line)[1])
        elif cur and re.fullmatch(r" {12}\S.*", line):
            cur["frames"].append(line.strip())
        else:
            break
    return rows

# the last live refresh: after the 7 drops
blocks = [b for b in live.split("\n\n") if "Top stacks" in b]
assert blocks, live
last = blocks[-1]
lv = stacks(last, "Top stacks (innermost frame first):\n", r" *(\d+)  (\S+) (\S+)")
sm = stacks(summary, "Stacks by reason and location, innermost frame first:\n",
            r" *(\d+)  (\S+) +(\S+)")
for rows in (lv, sm):
    assert rows and sum(r["count"] for r in rows) == 7, rows
    for r in rows:
        assert r["reason"] == "NO_SOCKET" and r["loc"].startswith("__udp4_lib_rcv+0x"), r
        fr = r["frames"]
        assert fr[0].startswith(("sk_skb_reason_drop+", "kfree_skb")), fr
        assert fr[1] == r["loc"], fr
        assert any(f.startswith("ip_local_deliver") for f in fr), fr
# live: 8 frames and the count of the rest, the summary's stacks cut there
assert all(len(r["frames"]) == 8 and r["more"] > 0 for r in lv), lv
key = lambda r: (r["count"], r["frames"][:8], len(r["frames"]) + r["more"])
assert sorted(map(key, lv)) == sorted(map(key, sm)), (lv, sm)
assert all(r["more"] == 0 for r in sm), sm
assert "Stacks lost: 0 bucket collisions, 0 not stored, 0 over --map-size" in summary, summary
PYEOF2

echo "-- record --stacks: the comment carries the frames, read still parses"
start rec record --stacks -w "$TMP/s.pcapng" --netns "$NS" || true
send "$NS" 4 4
sleep 0.3
stop "$LAST"
check "record --stacks: comments hold stack=...;__udp4_lib_rcv+0x..." \
	grep -aEq 'stack=[^ ]*;__udp4_lib_rcv\+0x[0-9a-f]+;' "$TMP/s.pcapng"
expect_run "read parses a --stacks recording: 4 NO_SOCKET" 0 '"total": 4' \
	"$W" read --json "$TMP/s.pcapng"

echo "-- noise: --hide, a noise file, --show-all (the built-in list: tests/unit/test_stacks.c)"
start hide count --json --netns "$NS" --hide NO_SOCKET@__udp4_lib_rcv || true
send "$NS" 5 4 && send "$NS" 2 6
stop "$LAST"
check "--hide: the 5 v4 drops hidden and counted, the 2 v6 shown" \
	$PY -c 'import json,sys
d = json.load(open(sys.argv[1])); h = d["hidden"]
assert d["total"] == 7 and h["total"] == 5, d
assert [r["rule"] for r in h["rules"]] == ["NO_SOCKET@__udp4_lib_rcv"] and h["rules"][0]["source"] == "--hide", h
assert [(x["function"], x["count"]) for x in d["drops"]] == [("__udp6_lib_rcv", 2)], d
assert [(x["function"], x["count"]) for x in h["drops"]] == [("__udp4_lib_rcv", 5)], h' "$TMP/hide.out"
printf 'no-defaults\nhide NO_SOCKET   # closed-port probes\n' >"$TMP/noise.conf"
start nf count --netns "$NS" --noise-file "$TMP/noise.conf" || true
send "$NS" 6 4
stop "$LAST"
check "noise file: text footer says 6 hidden, the rule, FILE:LINE and why" \
	grep -Eq "^ +6  NO_SOCKET  \($TMP/noise.conf:2: closed-port probes\)" "$TMP/nf.out"
check "noise file: the hidden row is not in the table" bash -c "! grep -q '__udp4_lib_rcv' '$TMP/nf.out'"
start sa count --json --netns "$NS" --noise-file "$TMP/noise.conf" --show-all || true
send "$NS" 6 4
stop "$LAST"
check "--show-all: nothing hidden, no hidden object" \
	$PY -c 'import json,sys
d = json.load(open(sys.argv[1])); assert "hidden" not in d and d["drops"][0]["count"] == 6, d' "$TMP/sa.out"
ln -s "$TMP/noise.conf" "$TMP/link.conf"
expect_run "a noise file behind a symlink is refused, exit 2" 2 "symbolic link" \
	"$W" count -d 1 --noise-file "$TMP/link.conf"
expect_run "a bad noise file names FILE:LINE, exit 2" 2 "bad.conf:1: 'hidee' is no rule" \
	bash -c "printf 'hidee X\n' >'$TMP/bad.conf'; '$W' count -d 1 --noise-file '$TMP/bad.conf'"

echo "-- NOT_SPECIFIED from the lab's generic XDP drop: explained by its call site"
cc=$(command -v clang)
if [ -z "$cc" ] || ! $cc -O2 -g -target bpf -c tests/lab/bpf/xdp_drop.c -o "$TMP/xdp.o" 2>"$TMP/cc.err"; then
	# counted as skipped (tests/lib/assert.sh), never as passed
	why="clang is not installed"
	[ -n "$cc" ] && why="clang cannot build tests/lab/bpf/xdp_drop.c: $(head -c 200 "$TMP/cc.err")"
	skip "generic XDP drop, NOT_SPECIFIED explained by its call site" "$why"
else
	# no IPv6 on the pair: its MLD and DAD packets would meet the XDP program too
	ip netns exec "$NSX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1
	ip -n "$NSX" link add vxa type veth peer name vxb
	ip -n "$NSX" addr add 198.51.100.1/24 dev vxa
	ip -n "$NSX" link set vxa up
	ip -n "$NSX" link set vxb up
	ip -n "$NSX" link set dev vxb xdpgeneric obj "$TMP/xdp.o" sec xdp
	start xdp count --stacks --json --netns "$NSX" -r NOT_SPECIFIED || true
	ip netns exec "$NSX" $PY -c 'import socket
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW); s.bind(("vxa", 0))
import struct
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 29, 0, 0, 64, 17, 0, bytes([198,51,100,1]), bytes([198,51,100,2]))
for _ in range(3): s.send(b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + ip + b"\x9c\x40\x15\xb3\x00\x09\x00\x00x")'
	sleep 0.3
	stop "$LAST"
	# do_xdp_generic is called on receive by __netif_receive_skb_core (6.18)
	check "XDP_DROP: 3 NOT_SPECIFIED at do_xdp_generic, each stack do_xdp_generic <- __netif_receive_skb*" \
		$PY -c 'import json,re,sys
d = json.load(open(sys.argv[1]))
n = sum(x["count"] for x in d["drops"] if x["function"] == "do_xdp_generic")
assert n == 3, d
st = [s for s in d["stacks"] if s["function"] == "do_xdp_generic"]
assert sum(s["count"] for s in st) == 3, d
for s in st:
    fr = [f.split("+")[0] for f in s["stack"]]
    i = fr.index("do_xdp_generic")
    assert re.fullmatch(r"__netif_receive_skb\w*(\.\w+)*", fr[i + 1]), s' "$TMP/xdp.out"
	start xdpt count --netns "$NSX" -r NOT_SPECIFIED || true
	ip netns exec "$NSX" $PY -c 'import socket,struct
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW); s.bind(("vxa", 0))
ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 29, 0, 0, 64, 17, 0, bytes([198,51,100,1]), bytes([198,51,100,2]))
s.send(b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x01" + b"\x08\x00" + ip + b"\x9c\x40\x15\xb3\x00\x09\x00\x00x")'
	sleep 0.3
	stop "$LAST"
	hint=$("$W" explain --callsites --json | $PY -c 'import json,sys
print([c["summary"] for c in json.load(sys.stdin)["callsites"] if c["function"] == "do_xdp_generic"][0])')
	check "count's hint for it is the call-site entry ('$hint')" \
		grep -qF "do_xdp_generic+0x" "$TMP/xdpt.out"
	check "... on the same row" bash -c "grep -F 'do_xdp_generic+0x' '$TMP/xdpt.out' | grep -qF '$hint'"
	expect_run "explain do_xdp_generic prints the entry" 0 "do_xdp_generic \(call site\): $hint" \
		"$W" explain do_xdp_generic
fi

summary
