#!/usr/bin/env bash
# count --stacks --svg and read --stacks --svg rendered by a real browser (Debian's chromium,
# headless): a drop storm in a namespace of the test's own, counted with
# --folded and --svg in the same run; the DOM Chromium built (after the
# SVG's script ran) must hold exactly the frames and counts of the folded
# lines, which must equal the namespace's own MIB counters and what was
# sent; zooming (#f=ID) and searching (#s=REGEX) are checked in the DOM;
# a screenshot must not be blank. Also: --svg refuses what record -w
# refuses, before tracing. read --stacks of a recording made with record
# --stacks during a second storm (count --stacks counting it too): its
# folded lines and the DOM of its SVG equal the MIB and count's; a recording
# without stacks is refused with exit 2. Usage: tests/integration/flamegraph.sh [BINARY].
# Prints "N passed, N failed".
. "$(dirname "$0")/../lib/part.sh"
NS=wdflame-$$
CHECK=tests/integration/flame_check.py
harness_begin tests/integration/flamegraph "$NS"
if ! command -v chromium >/dev/null; then
	echo "installing chromium (Debian package)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		chromium >/dev/null 2>&1 ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends chromium >/dev/null; }
fi
if ! command -v chromium >/dev/null; then
	echo "tests/integration/flamegraph: chromium is missing (apt-get install chromium)"
	echo "0 passed, 1 failed"
	exit 1
fi

# chromium ARGS... URL: headless, nothing from the network, a new profile each time.
chrome() {
	local profile
	profile=$(mktemp -d "$TMP/chromium.XXXXXX")
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" "$@" 2>>"$TMP/chromium.err"
}

# mib NAME: a counter of the namespace, named as nstat names it: /proc/net/snmp's
# "Udp: ... NoPorts" is UdpNoPorts; /proc/net/snmp6 has Udp6NoPorts as such.
mib() {
	ip netns exec "$NS" cat /proc/net/snmp /proc/net/snmp6 | awk -v want="$1" '
		NF == 2 && $1 == want { print $2 }
		/^[A-Za-z0-9]+: / {
			p = substr($1, 1, length($1) - 1)
			if (!(p in seen)) { seen[p] = 1; for (i = 2; i <= NF; i++) h[p, i] = $i; next }
			for (i = 2; i <= NF; i++) if (p h[p, i] == want) print $i
		}'
}

# The storm: UDP to a closed port over IPv4 and IPv6, SYNs to a closed port,
# IP datagrams of a protocol nobody handles (raw, protocols 150..159).
N4=1200 N6=300 NT=40 NP=60
storm() {
	ip netns exec "$NS" $PY tests/lib/refused.py "${3:-$NT}"
	ip netns exec "$NS" $PY - "${1:-$N4}" "${2:-$N6}" "${4:-$NP}" <<'PYEOF'
import socket, struct, sys
n4, n6, npr = map(int, sys.argv[1:])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(n4):
    s.sendto(b"x", ("127.0.0.1", 9))
s6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
for _ in range(n6):
    s6.sendto(b"x", ("::1", 9))
r = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
for i in range(npr):
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 24, 0, 0, 64, 150 + i % 10, 0,
                      socket.inet_aton("127.0.0.1"), socket.inet_aton("127.0.0.1"))
    r.sendto(hdr + b"abcd", ("127.0.0.1", 0))
PYEOF
}

echo "-- a drop storm counted with --folded and --svg in one run"
SVG=$TMP/drops.svg
declare -A before
for c in UdpNoPorts Udp6NoPorts TcpOutRsts IpInUnknownProtos; do before[$c]=$(mib $c); done
start count count --netns "$NS" --stacks --folded --svg "$SVG" || { summary; exit 1; }
storm
sleep 0.5
stop "$LAST"
rc=$?
check "count --stacks --folded --svg: exit 0 (got $rc)" [ "$rc" = 0 ]
declare -A delta
for c in UdpNoPorts Udp6NoPorts TcpOutRsts IpInUnknownProtos; do
	delta[$c]=$(($(mib $c) - ${before[$c]}))
done
echo "   the namespace's MIB: UdpNoPorts +${delta[UdpNoPorts]}, Udp6NoPorts +${delta[Udp6NoPorts]}," \
	"TcpOutRsts +${delta[TcpOutRsts]}, IpInUnknownProtos +${delta[IpInUnknownProtos]}" \
	"(sent $N4, $N6, $NT, $NP)"
check "the MIB counted what was sent (independent of whydrop)" \
	[ "${delta[UdpNoPorts]} ${delta[Udp6NoPorts]} ${delta[TcpOutRsts]} ${delta[IpInUnknownProtos]}" = "$N4 $N6 $NT $NP" ]
check "the SVG file exists" test -s "$SVG"
check "... created mode 0600" [ "$(stat -c %a "$SVG")" = 600 ]
check "... an SVG document" grep -q '^<svg version="1.1" xmlns="http://www.w3.org/2000/svg"' "$SVG"
check "... fetches nothing: no URL but the SVG namespace" \
	[ "$(grep -o 'https\?://[^"]*' "$SVG" | sort -u)" = "http://www.w3.org/2000/svg" ]

# folded_sum REGEX: the drops of the folded lines that match
folded_sum() { awk -v re="$1" '$0 ~ re { s += $NF } END { print s + 0 }' "$TMP/count.out"; }
f4=$(folded_sum '^NO_SOCKET;.*;__udp4_lib_rcv;')
f6=$(folded_sum '^NO_SOCKET;.*;__udp6_lib_rcv;')
ft=$(folded_sum '^NO_SOCKET;.*;tcp_v4_rcv;')
fp=$(folded_sum '^IP_NOPROTO;')
echo "   --folded: NO_SOCKET at __udp4_lib_rcv $f4, __udp6_lib_rcv $f6, tcp_v4_rcv $ft; IP_NOPROTO $fp"
check "--folded = the MIB: $f4 $f6 $ft $fp" \
	[ "$f4 $f6 $ft $fp" = "${delta[UdpNoPorts]} ${delta[Udp6NoPorts]} ${delta[TcpOutRsts]} ${delta[IpInUnknownProtos]}" ]

echo "-- Chromium's DOM of the SVG, after its script ran"
chrome --dump-dom "file://$SVG" >"$TMP/dom.svg"
check "chromium --dump-dom gave a document" test -s "$TMP/dom.svg"
out=$($PY $CHECK frames "$TMP/count.out" "$TMP/dom.svg")
rc=$?
echo "   $out" | tail -n 5
check "every frame and count in the DOM = the folded lines' (widths = count/total, titles: count and share)" \
	[ "$rc" = 0 ]
# the reasons and the functions the MIB speaks for, read back from the DOM
d4=$($PY $CHECK count "$TMP/dom.svg" "all;NO_SOCKET" 2>/dev/null)
dp=$($PY $CHECK count "$TMP/dom.svg" "all;IP_NOPROTO" 2>/dev/null)
check "DOM: NO_SOCKET frame = UdpNoPorts + Udp6NoPorts + TcpOutRsts ($d4)" \
	[ "$d4" = $((delta[UdpNoPorts] + delta[Udp6NoPorts] + delta[TcpOutRsts])) ]
check "DOM: IP_NOPROTO frame = IpInUnknownProtos ($dp)" [ "$dp" = "${delta[IpInUnknownProtos]}" ]

echo "-- zoom and search, as a click and Ctrl-F do (the URL fragment calls the same code)"
zpath=$(grep -m 1 '^NO_SOCKET;.*;__udp4_lib_rcv;' "$TMP/count.out" | sed 's/;__udp4_lib_rcv;.*/;__udp4_lib_rcv/')
zid=$($PY - "$TMP/dom.svg" "all;$zpath" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
by = {g.get("id"): g for g in root.iter(S + "g") if g.get("class", "").startswith("fr")}
def path(g):
    names = []
    while g is not None:
        names.append(g.find(S + "title").text.split("\n")[0])
        g = by.get(g.get("data-p"))
    return ";".join(reversed(names))
print(next((i for i, g in by.items() if path(g) == sys.argv[2]), ""))
PYEOF
)
chrome --dump-dom "file://$SVG#f=$zid" >"$TMP/zoom.svg"
out=$($PY $CHECK zoomed "$TMP/zoom.svg" "all;$zpath")
rc=$?
echo "   $out" | tail -n 3
check "zoom into __udp4_lib_rcv ($zid): it fills the width, ancestors dimmed, the rest hidden" [ "$rc" = 0 ]
chrome --dump-dom "file://$SVG#s=^__udp[46]_lib_rcv\$" >"$TMP/search.svg"
want=$(awk -v a="$((f4 + f6))" -v t="$((f4 + f6 + ft + fp))" 'BEGIN { printf "Matched: %.2f%% of all", 100 * a / t }')
got=$($PY $CHECK matched "$TMP/search.svg")
check "search ^__udp[46]_lib_rcv\$: '$got' ($want)" [ "$got" = "$want" ]

echo "-- a screenshot"
height=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' "$SVG")
chrome --hide-scrollbars --window-size="1200,$height" --screenshot="$TMP/drops.png" "file://$SVG" >/dev/null
check "chromium --screenshot made a PNG" test -s "$TMP/drops.png"
out=$($PY $CHECK png "$TMP/drops.png")
rc=$?
echo "   $out"
check "the screenshot is not blank (colours, the reasons' red)" [ "$rc" = 0 ]
if [ -n "${FLAME_KEEP:-}" ]; then
	cp "$TMP/drops.png" "$SVG" "$FLAME_KEEP"/ && echo "   kept in $FLAME_KEEP"
fi

echo "-- read --stacks of a recording made with record --stacks (count --stacks beside it)"
R4=700 RP=90
REC=$TMP/storm.pcapng
for c in UdpNoPorts IpInUnknownProtos; do before[$c]=$(mib $c); done
start record record --netns "$NS" --stacks -w "$REC" || { summary; exit 1; }
RECPID=$LAST
start count2 count --netns "$NS" --stacks --folded || { summary; exit 1; }
storm "$R4" 0 0 "$RP"
sleep 0.5
stop "$LAST"
rc=$?
check "count --stacks --folded beside it: exit 0 (got $rc)" [ "$rc" = 0 ]
stop "$RECPID"
rc=$?
check "record --stacks -w: exit 0 (got $rc)" [ "$rc" = 0 ]
for c in UdpNoPorts IpInUnknownProtos; do delta[$c]=$(($(mib $c) - ${before[$c]})); done
echo "   the namespace's MIB: UdpNoPorts +${delta[UdpNoPorts]}," \
	"IpInUnknownProtos +${delta[IpInUnknownProtos]} (sent $R4, $RP); record: $(tail -n 1 "$TMP/record.err")"
check "the MIB counted what was sent" \
	[ "${delta[UdpNoPorts]} ${delta[IpInUnknownProtos]}" = "$R4 $RP" ]
RSVG=$TMP/read.svg
"$W" read --stacks --folded --svg "$RSVG" "$REC" >"$TMP/read.folded" 2>"$TMP/read.err"
rc=$?
check "read --stacks --folded --svg: exit 0 (got $rc)" [ "$rc" = 0 ]
# rsum REGEX: the drops of read's folded lines that match
rsum() { awk -v re="$1" '$0 ~ re { s += $NF } END { print s + 0 }' "$TMP/read.folded"; }
r4=$(rsum '^NO_SOCKET;.*;__udp4_lib_rcv;')
rp=$(rsum '^IP_NOPROTO;')
rall=$(rsum .)
echo "   read --folded: NO_SOCKET at __udp4_lib_rcv $r4, IP_NOPROTO $rp, all lines $rall"
check "read --folded = the MIB: $r4 $rp (all lines: $rall)" \
	[ "$r4 $rp $rall" = "${delta[UdpNoPorts]} ${delta[IpInUnknownProtos]} $((delta[UdpNoPorts] + delta[IpInUnknownProtos]))" ]
check "read --folded = count --stacks --folded of the same storm, line for line" \
	cmp -s "$TMP/read.folded" "$TMP/count2.out"
check "read's SVG: created mode 0600, fetches nothing" \
	sh -c "[ \$(stat -c %a '$RSVG') = 600 ] && [ \"\$(grep -o 'https\?://[^\"]*' '$RSVG' | sort -u)\" = http://www.w3.org/2000/svg ]"
chrome --dump-dom "file://$RSVG" >"$TMP/read-dom.svg"
out=$($PY $CHECK frames "$TMP/read.folded" "$TMP/read-dom.svg")
rc=$?
echo "   $out" | tail -n 3
check "read's SVG in Chromium's DOM: every frame and count = read's folded lines" [ "$rc" = 0 ]
d4=$($PY $CHECK count "$TMP/read-dom.svg" "all;NO_SOCKET" 2>/dev/null)
dp=$($PY $CHECK count "$TMP/read-dom.svg" "all;IP_NOPROTO" 2>/dev/null)
da=$($PY $CHECK count "$TMP/read-dom.svg" "all" 2>/dev/null)
check "read's DOM: NO_SOCKET $d4 = UdpNoPorts, IP_NOPROTO $dp = IpInUnknownProtos, all $da" \
	[ "$d4 $dp $da" = "${delta[UdpNoPorts]} ${delta[IpInUnknownProtos]} $((delta[UdpNoPorts] + delta[IpInUnknownProtos]))" ]
check "read's subtitle says it was recorded" grep -q "$da drops with their kernel stacks, recorded over" "$RSVG"
start plain record --netns "$NS" -w "$TMP/plain.pcapng" || { summary; exit 1; }
storm 20 0 0 0
sleep 0.3
stop "$LAST"
expect_run "read --stacks of a recording without stacks: exit 2, said" 2 \
	'whydrop read: --stacks: the 20 drops read have no kernel stack .*record --stacks' \
	"$W" read --stacks --svg "$TMP/none.svg" "$TMP/plain.pcapng"
check "... no SVG left behind" test ! -e "$TMP/none.svg"

echo "-- --svg FILE: the checks of record -w, before tracing"
D=$TMP/out
mkdir -p "$D"
echo precious >"$D/victim"
ln -s "$D/victim" "$D/link"
expect_run "a symbolic link is refused, exit 1" 1 'whydrop count: not writing to .*symbolic link' \
	"$W" count -d 1 --stacks --svg "$D/link"
check "... its target untouched" grep -qx precious "$D/victim"
echo theirs >"$D/theirs"
chown 65534:65534 "$D/theirs"
expect_run "another user's file is refused, exit 1" 1 'not writing to .*another user' \
	"$W" count -d 1 --stacks --svg "$D/theirs"
mkdir "$D/dir"
expect_run "a directory is refused, exit 1" 1 'not writing to .*directory' \
	"$W" count -d 1 --stacks --svg "$D/dir"
echo "old" >"$D/mine.svg"
chmod 644 "$D/mine.svg"
expect_run "the caller's own file is rewritten" 0 'attached' \
	"$W" count -d 0.3 --stacks --svg "$D/mine.svg" --netns "$NS"
check "... as an SVG, made 0600" \
	sh -c "grep -q '</svg>' '$D/mine.svg' && ! grep -q '^old' '$D/mine.svg' && [ \$(stat -c %a '$D/mine.svg') = 600 ]"
expect_run "a run that cannot trace leaves no file" 2 "no network namespace" \
	"$W" count -d 1 --stacks --svg "$D/never.svg" --netns "wd-none-$$"
check "... none" test ! -e "$D/never.svg"
check "no sanitizer report" sh -c "! grep -q Sanitizer '$TMP'/*.err"

summary
