#!/usr/bin/env bash
# Memory that follows what exists: 30 namespaces made one after another, each
# made to drop a known number of datagrams (NO_SOCKET: UDP to a closed port),
# then deleted, while top --group-by netns and serve --per-netns run with a
# small counting map (--map-size 16: a swap every 8 keys). The counts of the
# namespaces that are gone fold into one "(netns gone)" row per reason and
# location: their groups are bounded, the totals still equal the senders'
# sum and the namespaces' own UdpNoPorts counters, and no serve counter goes
# down between scrapes. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
. tests/lib/harness.sh
W=${1:-build/whydrop}
N=30
PORT=$((20000 + $$ % 20000))	# ours alone: the filter counts only it
harness_begin tests/system/aging

# scrape FILE: the page of the serve whose stderr is FILE
scrape() {
	local addr
	for _ in $(seq 50); do grep -q "listening on" "$1" && break; sleep 0.1; done
	addr=$(sed -n 's|.*listening on http://\([^/]*\)/metrics.*|\1|p' "$1")
	curl -s "http://$addr/metrics"
}

# noports NS: the namespace's own count of datagrams to no socket (IPv4 + IPv6)
noports() {
	# shellcheck disable=SC2016
	ip netns exec "$1" awk '/^Udp: [0-9]/ { n += $3 } /^Udp6NoPorts/ { n += $2 }
		END { print n + 0 }' /proc/net/snmp /proc/net/snmp6
}

# drop_in NS K: K datagrams and K SYNs to a closed port of NS's loopback, over
# IPv4 and IPv6: 4 counting keys (reason, function, namespace) per namespace,
# more than the CPUs' runs hold over 30 namespaces; prints what was sent.
drop_in() {
	ip netns exec "$1" $PY -c '
import socket, sys
k, port, n = int(sys.argv[1]), int(sys.argv[2]), 0
for af, dst in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    s = socket.socket(af, socket.SOCK_DGRAM)
    for _ in range(k):
        s.sendto(b"x", (dst, port))
        n += 1
    for _ in range(k):
        c = socket.socket(af, socket.SOCK_STREAM)
        try:
            c.connect((dst, port))
        except ConnectionRefusedError:
            n += 1
        c.close()
print(n)' "$2" "$PORT"
}

# no_decrease BEFORE AFTER: every counter of BEFORE that is in AFTER is not
# lower there (a namespace's series leave the page once it is gone for
# --series-grace), and the families without such series do not sum lower.
no_decrease() {
	$PY - "$1" "$2" <<'PYEOF'
import re, sys
def page(p):
    d = {}
    for line in open(p):
        m = re.match(r'^(whydrop_[a-z_]*_total)(\{.*\})? ([0-9]+)$', line)
        if m:
            d[(m.group(1), m.group(2) or "")] = int(m.group(3))
    return d
a, b = page(sys.argv[1]), page(sys.argv[2])
bad = []
for k, v in a.items():
    if k in b and b[k] < v:
        bad.append("%s%s %d -> %d" % (k[0], k[1], v, b[k]))
for fam in ("whydrop_drops_total", "whydrop_hidden_drops_total"):
    sa = sum(v for k, v in a.items() if k[0] == fam)
    sb = sum(v for k, v in b.items() if k[0] == fam)
    if sb < sa:
        bad.append("%s: sum %d -> %d" % (fam, sa, sb))
if bad:
    print("\n".join(bad))
    sys.exit(1)
PYEOF
}

# groups FILE: "netns groups, gone count, sum" of a --group-by netns document
groups() {
	$PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = [r for r in d["groups"] if r["reason"] == "NO_SOCKET"]
gone = sum(r["count"] for r in g if r["group"] == "(netns gone)")
print(len(set(r["group"] for r in g)), gone, sum(r["count"] for r in g))' "$1"
}

# live_netns PID: the namespaces (cookies) of the counting keys the kernel
# still holds for whydrop PID (bpftool): its counting hashes and every CPU's
# runs. Only those may still have a group of their own.
live_netns() {
	local id
	sed -n 's/^map_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u |
	while read -r id; do
		bpftool -j map dump id "$id" 2>/dev/null | $PY -c '
import json, sys
name = sys.argv[1]
def cookie(raw):
    b = bytes(int(x, 16) for x in raw)
    return int.from_bytes(b[16:24], "little")
for e in json.load(sys.stdin):
    f = e.get("formatted")
    if name == "wd_counts" and not f:
        print(cookie(e["key"]))
    elif f and isinstance(f.get("values"), list):
        for cpu in f["values"]:
            v = cpu.get("value")
            for slot in (v.get("slot", []) if isinstance(v, dict) else []):
                if slot.get("n"):
                    print(slot["key"]["netns_cookie"])' "$(bpftool -j map show id "$id" | $PY -c 'import json, sys; print(json.load(sys.stdin)["name"])')"
	done | sort -u | grep -cvx 0
}

if ! command -v curl >/dev/null || ! command -v bpftool >/dev/null; then
	skip "aging under churn of namespaces" "curl or bpftool is not installed"
	summary
	exit
fi

echo "-- $N namespaces that drop and go, top and serve running"
FILTER="dst port $PORT"
start top top --json -p --group-by netns --max-groups 10000 --map-size 16 -r NO_SOCKET "$FILTER"
TOP=$LAST
start sv serve --listen 127.0.0.1:0 --per-netns --per-interface --series-grace 1s \
	--map-size 16 -r NO_SOCKET "$FILTER"
SV=$LAST
SENT=0 UDP=0 MIB=0
for i in $(seq "$N"); do
	ns=wdage-$$-$i
	HARNESS_NS+=("$ns")
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	sent=$(drop_in "$ns" $((5 + i)))
	SENT=$((SENT + sent))
	UDP=$((UDP + sent / 2))
	MIB=$((MIB + $(noports "$ns")))
	ip netns del "$ns"
	# serve swaps and ages at its scrapes, as a Prometheus would scrape it
	scrape "$TMP/sv.err" >"$TMP/page.$i"
	[ "$i" -eq 10 ] && cp "$TMP/page.$i" "$TMP/before"
	sleep 0.2
done
echo "   sent $SENT packets to no socket, $UDP of them datagrams; the namespaces' NoPorts: $MIB"
check "the namespaces counted every datagram sent as NoPorts" test "$MIB" -eq "$UDP"
# two complete scans after the last swap judge a namespace gone (5 s apart)
for _ in $(seq 14); do scrape "$TMP/sv.err" >"$TMP/after"; sleep 1; done
LIVE=$(live_netns "$TOP")	# nothing new is counted any more: stays so
stop "$TOP"
rc=$?
if [ "$rc" -eq 0 ]; then pass "top exits 0"; else fail "top exits 0" "exit $rc: $(tail -n 30 "$TMP/top.err")"; fi
read -r NG GONE SUM < <(groups "$TMP/top.out")
echo "   top: $NG namespace groups, $GONE drops in (netns gone), $SUM in all"
check "top: NO_SOCKET by netns sums to the senders' $SENT" test "$SUM" -eq "$SENT"
check "top: the gone namespaces' drops are folded into (netns gone)" test "$GONE" -gt 0
# every namespace is either still in the kernel's maps, or folded
check "top: $NG namespace groups for $N namespaces: the $LIVE still in the kernel's maps, and (netns gone)" \
	test "$NG" -le $((LIVE + 1))
TOT=$(awk '/^whydrop_drops_total\{reason="NO_SOCKET"/ { s += $2 } END { print s + 0 }' "$TMP/after")
NS_TOT=$(awk '/^whydrop_netns_drops_total\{/ { s += $2 } END { print s + 0 }' "$TMP/after")
GONE_SV=$(awk '/^whydrop_netns_drops_total\{netns="gone"/ { s += $2 } END { print s + 0 }' "$TMP/after")
NS_SERIES=$(grep -c '^whydrop_netns_drops_total{' "$TMP/after")
echo "   serve: whydrop_drops_total $TOT, by netns $NS_TOT ($GONE_SV in netns=\"gone\", $NS_SERIES series)"
check "serve: whydrop_drops_total NO_SOCKET equals the senders' $SENT" test "$TOT" -eq "$SENT"
check "serve: the gone namespaces' drops are in netns=\"gone\"" test "$GONE_SV" -gt 0
SV_LIVE=$(live_netns "$SV")
check "serve: whydrop_netns_drops_total: $NS_SERIES series, at most the $SV_LIVE namespaces in the kernel's maps and netns=\"gone\"" \
	test "$NS_SERIES" -le $((SV_LIVE + 1))
check "serve: no counter went down between a scrape mid-churn and the last" \
	no_decrease "$TMP/before" "$TMP/after"
ok=0
for i in $(seq 2 "$N"); do
	no_decrease "$TMP/page.$((i - 1))" "$TMP/page.$i" >"$TMP/dec" || { ok=$i; break; }
done
check "serve: no counter went down from one scrape to the next" test "$ok" -eq 0
[ "$ok" -ne 0 ] && cat "$TMP/dec"
stop "$SV"
rc=$?
if [ "$rc" -eq 0 ]; then pass "serve exits 0"; else fail "serve exits 0" "exit $rc: $(tail -n 30 "$TMP/sv.err")"; fi
summary
