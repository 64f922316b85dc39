#!/usr/bin/env bash
# Memory that follows what exists. Prints "N passed, N failed".
#
# netns: 40 namespaces made one after another, each made to drop a known
# number of datagrams (NO_SOCKET: UDP to a closed port), then deleted, while
# top --group-by netns and serve --per-netns run with a small counting map
# (--map-size 16: a swap every 8 keys), and a second serve with the default
# one. The counts of the namespaces that are gone fold into one
# "(netns gone)" row per reason and location: their groups are bounded, the
# totals still equal the senders' sum and the namespaces' own UdpNoPorts
# counters, no serve counter goes down between scrapes, and the default map
# does not keep the gone namespaces' keys until it is half full.
#
# cgroup: bench/churn opens 6000 short-lived sockets that take drops
# (SOCKET_RCVBUFF, marked datagrams), moving to a new cgroup and namespace
# every 400, removing the old cgroup, under top --group-by cgroup: the
# swapped-out counts of removed cgroups fold into "(cgroup gone)", the
# cgroups named are those the kernel's by-socket map still holds, and the
# total equals the namespaces' own RcvbufErrors.
#
# process: two processes each make 2200 sockets drop (marked datagrams) and
# keep them until the by-socket hash is swapped, then exit, under top
# --group-by process: their rows fold into "(process exited)", the total
# equals the namespace's RcvbufErrors.
#
# iface: 20 veth pairs made, made to drop (NO_SOCKET) and deleted one after
# another in a namespace that stays, under top --group-by interface
# --map-size 16: the deleted interfaces' counts fold into "(interface
# gone)@NS", the total equals the namespace's NoPorts.
#
#   tests/system/aging.sh [WHYDROP [PART...]]   (parts: netns cgroup process iface; default all)
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
. tests/lib/harness.sh
W=${1:-build/whydrop}
[ $# -gt 0 ] && shift
PARTS=${*:-netns cgroup process iface}
N=40
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

# kernel_ids PID WHAT: how many namespaces (WHAT netns: cookies) or cgroups
# (cgroup: ids) the keys the kernel still holds for whydrop PID name
# (bpftool): netns, in its counting hashes and every CPU's runs; hash_netns,
# in its counting hashes only; cgroup, in its by-socket hashes; ifindex:
# interfaces, in its counting hashes and runs (formatted with BTF, else raw). Only those
# may still have a group of their own.
kernel_ids() {
	local id
	sed -n 's/^map_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u |
	while read -r id; do
		bpftool -j map dump id "$id" 2>/dev/null | $PY -c '
import json, sys
name, what = sys.argv[1], sys.argv[2]
def u64(raw, at):
    b = bytes(int(x, 16) for x in raw)
    return int.from_bytes(b[at:at + 8], "little")
for e in json.load(sys.stdin):
    f = e.get("formatted")
    if name == "wd_counts" and not f and what == "ifindex":
        print(int.from_bytes(bytes(int(x, 16) for x in e["key"])[4:8], "little"))
    elif name == "wd_counts" and not f and what != "cgroup":
        print(u64(e["key"], 16))
    elif name == "wd_by_socket" and not f and what == "cgroup":
        print(u64(e["key"], 24))
    elif name == "runs" and not f and what in ("netns", "ifindex"):
        for cpu in e["values"]:	# struct wd_run: seq, wd_key, n; 48 bytes each
            v = bytes(int(x, 16) for x in cpu["value"])
            for at in range(0, len(v) - 47, 48):
                if int.from_bytes(v[at + 40:at + 48], "little"):
                    k = v[at + 8:at + 40]
                    print(int.from_bytes(k[4:8] if what == "ifindex" else k[16:24], "little"))
    elif f and isinstance(f.get("values"), list) and what in ("netns", "ifindex"):
        for cpu in f["values"]:
            v = cpu.get("value")
            for slot in (v.get("slot", []) if isinstance(v, dict) else []):
                if slot.get("n") and what == "ifindex":
                    print(slot["key"]["ifindex"])
                elif slot.get("n"):
                    print(slot["key"]["netns_cookie"])' \
			"$(bpftool -j map show id "$id" | $PY -c 'import json, sys; print(json.load(sys.stdin)["name"])')" "$2"
	done | sort -u | grep -cvx 0
}

# top_done PID NAME: stop top, check it exits 0
top_done() {
	local rc
	stop "$1"
	rc=$?
	if [ "$rc" -eq 0 ]; then pass "$2 exits 0"; else fail "$2 exits 0" "exit $rc: $(tail -n 30 "$TMP/$2.err")"; fi
}

# serve_sums PAGE: "drops_total NO_SOCKET, by netns, in netns=gone, netns series"
serve_sums() {
	awk '/^whydrop_drops_total\{reason="NO_SOCKET"/ { t += $2 }
		/^whydrop_netns_drops_total\{/ { ns += $2; n++ }
		/^whydrop_netns_drops_total\{netns="gone"/ { g += $2 }
		END { print t + 0, ns + 0, g + 0, n + 0 }' "$1"
}

# no_decrease_all NAME: no counter of serve NAME went down from one page to the next
no_decrease_all() {
	local ok=0 i
	for i in $(seq 2 "$N"); do
		no_decrease "$TMP/$1.page.$((i - 1))" "$TMP/$1.page.$i" >"$TMP/dec" || { ok=$i; break; }
	done
	check "$1: no counter went down from one scrape to the next" test "$ok" -eq 0
	[ "$ok" -ne 0 ] && cat "$TMP/dec"
}

netns_part() {
	local i ns sent rc
	echo "-- $N namespaces that drop and go, top and serve running"
	FILTER="dst port $PORT"
	start top top --json -p --group-by netns --max-groups 10000 --map-size 16 -r NO_SOCKET "$FILTER"
	TOP=$LAST
	start sv serve --listen 127.0.0.1:0 --per-netns --per-interface --series-grace 1s \
		--map-size 16 -r NO_SOCKET "$FILTER"
	SV=$LAST
	# the default --map-size: never half full here, gone namespaces' keys swapped out all the same
	start sv2 serve --listen 127.0.0.1:0 --per-netns --series-grace 1s -r NO_SOCKET "$FILTER"
	SV2=$LAST
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
		scrape "$TMP/sv.err" >"$TMP/sv.page.$i"
		scrape "$TMP/sv2.err" >"$TMP/sv2.page.$i"
		[ "$i" -eq 10 ] && cp "$TMP/sv.page.$i" "$TMP/before"
		sleep 0.2
	done
	echo "   sent $SENT packets to no socket, $UDP of them datagrams; the namespaces' NoPorts: $MIB"
	check "the namespaces counted every datagram sent as NoPorts" test "$MIB" -eq "$UDP"
	# two complete scans after the last swap judge a namespace gone (5 s apart)
	for _ in $(seq 14); do
		scrape "$TMP/sv.err" >"$TMP/after"
		scrape "$TMP/sv2.err" >"$TMP/after2"
		sleep 1
	done
	LIVE=$(kernel_ids "$TOP" netns)	# nothing new is counted any more: stays so
	top_done "$TOP" top
	read -r NG GONE SUM < <(groups "$TMP/top.out")
	echo "   top: $NG namespace groups, $GONE drops in (netns gone), $SUM in all"
	check "top: NO_SOCKET by netns sums to the senders' $SENT" test "$SUM" -eq "$SENT"
	check "top: the gone namespaces' drops are folded into (netns gone)" test "$GONE" -gt 0
	# every namespace is either still in the kernel's maps, or folded
	check "top: $NG namespace groups for $N namespaces: the $LIVE still in the kernel's maps, and (netns gone)" \
		test "$NG" -le $((LIVE + 1))
	read -r TOT NS_TOT GONE_SV NS_SERIES < <(serve_sums "$TMP/after")
	echo "   serve: whydrop_drops_total $TOT, by netns $NS_TOT ($GONE_SV in netns=\"gone\", $NS_SERIES series)"
	check "serve: whydrop_drops_total NO_SOCKET equals the senders' $SENT" test "$TOT" -eq "$SENT"
	check "serve: the gone namespaces' drops are in netns=\"gone\"" test "$GONE_SV" -gt 0
	SV_LIVE=$(kernel_ids "$SV" netns)
	check "serve: whydrop_netns_drops_total: $NS_SERIES series, at most the $SV_LIVE namespaces in the kernel's maps and netns=\"gone\"" \
		test "$NS_SERIES" -le $((SV_LIVE + 1))
	check "serve: no counter went down between a scrape mid-churn and the last" \
		no_decrease "$TMP/before" "$TMP/after"
	no_decrease_all sv
	top_done "$SV" sv
	# 4 keys a namespace: once 64 keys (16 namespaces) of retired ones are
	# in the hash, it is swapped and they fold; without, all $N stay
	read -r TOT NS_TOT GONE_SV NS_SERIES < <(serve_sums "$TMP/after2")
	SV2_HASH=$(kernel_ids "$SV2" hash_netns)
	echo "   serve (default map): whydrop_drops_total $TOT ($GONE_SV in netns=\"gone\"), keys of $SV2_HASH namespaces in the kernel's hash"
	check "serve (default map): whydrop_drops_total NO_SOCKET equals the senders' $SENT" test "$TOT" -eq "$SENT"
	check "serve (default map): the retired namespaces' drops are in netns=\"gone\"" test "$GONE_SV" -gt 0
	check "serve (default map): the counting hash holds keys of $SV2_HASH namespaces, at most 16 of the $N gone" \
		test "$SV2_HASH" -le 16
	no_decrease_all sv2
	top_done "$SV2" sv2
}

CG_DIR=
# The cgroups made here go, whatever the exit.
cg_cleanup() {
	local d
	[ -n "$CG_DIR" ] && [ -d "$CG_DIR" ] || return 0
	for d in "$CG_DIR"/p*; do [ -d "$d" ] && rmdir "$d"; done
	rmdir "$CG_DIR"
}
trap 'cg_cleanup; harness_end' EXIT

# fold_groups FILE REASON GONE NAMED [SCOPE]: "groups still named, drops in
# GONE, sum" of REASON's rows in a --group-by document: named, the groups
# (GONE aside) that match the regular expression NAMED; the sum, of the rows
# that match SCOPE (default: all).
fold_groups() {
	$PY -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
reason, gone, named, scope = sys.argv[2:6]
g = [r for r in d["groups"] if r["reason"] == reason and re.search(scope, r["group"])]
n = set(r["group"] for r in g if r["group"] != gone and re.search(named, r["group"]))
print(len(n), sum(r["count"] for r in g if r["group"] == gone), sum(r["count"] for r in g))' \
		"$1" "$2" "$3" "$4" "${5:-}"
}

# fold_checks WHAT NAMED GONE SUM TOTAL LIVE: the sum is the independent
# TOTAL, what is gone was folded, and no more WHAT are named than LIVE (what
# the kernel still holds; empty: none may be)
fold_checks() {
	check "top: by $1, the sum equals the kernel's own counter, $5" test "$4" -eq "$5"
	check "top: the drops of the gone $1 are folded" test "$3" -gt 0
	check "top: $2 $1 named: at most the ${6:-0} the kernel's maps still hold" test "$2" -le "${6:-0}"
}

cgroup_part() {
	local v2 mark out drops named gone sum live
	echo "-- cgroups that drop and go (6000 sockets, a new cgroup every 400), top running"
	v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	if [ -z "$v2" ]; then
		skip "cgroups that drop and go" "no cgroup v2 hierarchy is mounted"
		return
	fi
	if [ -z "${CHURN:-}" ]; then
		CHURN=build/bench/churn
		make -s -C bench OUT=../build/bench >/dev/null || { fail "bench/churn builds"; return; }
	fi
	CG_DIR=$v2/wdage-$$
	mkdir "$CG_DIR" || { fail "a cgroup of the test's own"; return; }
	mark=$(printf '7761%04x' $(($$ & 0xffff)))	# our datagrams alone: the filter counts only them
	start topcg top --json --group-by cgroup --max-groups 10000 -r SOCKET_RCVBUFF \
		"udp and udp[8:4] = 0x$mark"
	TOPCG=$LAST
	out=$("$CHURN" -n 6000 -P 1 -b 200 -r 1500 -k 2 -c "$CG_DIR" -m "$mark") ||
		{ fail "bench/churn runs" "$out"; return; }
	drops=${out#*drops=}
	drops=${drops%% *}
	cg_cleanup	# the last cgroup too
	sleep 3	# refreshes: the last cgroup's removal told, the retired counts folded
	live=$(kernel_ids "$TOPCG" cgroup)
	top_done "$TOPCG" topcg
	read -r named gone sum < <(fold_groups "$TMP/topcg.out" SOCKET_RCVBUFF "(cgroup gone)" "wdage-$$/")
	echo "   churn: $out; top: $named of our 15 cgroups named, $gone drops in (cgroup gone), $sum in all"
	fold_checks cgroups "$named" "$gone" "$sum" "$drops" "$live"
}

# hold_sockets NS MARK: 2200 UDP sockets in NS with the smallest receive
# buffer, 4 marked datagrams each (most dropped), kept 4 s (the by-socket
# hash half full, swapped while they live: their counts go to this process's
# row), then closed; prints its pid.
hold_sockets() {
	ip netns exec "$1" $PY -c '
import os, resource, socket, sys, time
resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))
data = bytes.fromhex(sys.argv[1]) + bytes(996)
tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
socks = []
for _ in range(2200):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
for s in socks:
    for _ in range(4):
        tx.sendto(data, s.getsockname())
time.sleep(4)
print(os.getpid())' "$2"
}

process_part() {
	local ns=wdage-$$-p mark pids="" named gone sum drops
	echo "-- processes that drop and exit (2 x 2200 sockets), top --group-by process running"
	HARNESS_NS+=("$ns")
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	mark=$(printf '7762%04x' $(($$ & 0xffff)))
	start topproc top --json --group-by process --max-groups 10000 -r SOCKET_RCVBUFF \
		"udp and udp[8:4] = 0x$mark"
	TOPPROC=$LAST
	pids="$(hold_sockets "$ns" "$mark") $(hold_sockets "$ns" "$mark")"
	# shellcheck disable=SC2016
	drops=$(ip netns exec "$ns" awk '/^Udp: [0-9]/ { print $6 }' /proc/net/snmp)
	sleep 12	# two /proc scans (5 s apart) after they exited
	top_done "$TOPPROC" topproc
	read -r named gone sum < <(fold_groups "$TMP/topproc.out" SOCKET_RCVBUFF "(process exited)" \
		"\\[(${pids// /|})\\]\$")
	echo "   processes $pids: $named rows still named after them, $gone drops in (process exited), $sum in all"
	fold_checks processes "$named" "$gone" "$sum" "$drops"
}

iface_part() {
	local ns=wdage-$$-i peer=wdage-$$-j i named gone sum live mib
	echo "-- 20 interfaces that drop and go in a namespace that stays, top --group-by interface running"
	HARNESS_NS+=("$ns" "$peer")
	ip netns add "$ns"
	ip netns add "$peer"
	# the namespace is there before top starts: top keeps a socket in it to name interfaces
	start topif top --json --group-by interface --max-groups 10000 --map-size 16 -r NO_SOCKET \
		"udp dst port $PORT"
	TOPIF=$LAST
	for i in $(seq 20); do
		ip -n "$ns" link add wdva type veth peer name wdvb netns "$peer"
		ip -n "$ns" addr add 192.0.2.1/24 dev wdva
		ip -n "$peer" addr add 192.0.2.2/24 dev wdvb
		ip -n "$ns" link set wdva up
		ip -n "$peer" link set wdvb up
		ip netns exec "$peer" $PY -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(5 + int(sys.argv[2])):
    s.sendto(b"x", ("192.0.2.1", int(sys.argv[1])))
    time.sleep(0.002)' "$PORT" "$i"
		sleep 0.3
		ip -n "$ns" link del wdva
	done
	mib=$(noports "$ns")
	sleep 3	# refreshes: the last keys read, retired ones folded
	live=$(kernel_ids "$TOPIF" ifindex)
	top_done "$TOPIF" topif
	read -r named gone sum < <(fold_groups "$TMP/topif.out" NO_SOCKET "(interface gone)@$ns" \
		"@$ns\$" "@$ns\$")
	echo "   $named interfaces of $ns still named, $gone drops in (interface gone)@$ns, $sum in all; NoPorts $mib"
	fold_checks interfaces "$named" "$gone" "$sum" "$mib" "$live"
}

if ! command -v curl >/dev/null || ! command -v bpftool >/dev/null; then
	skip "aging under churn of namespaces and cgroups" "curl or bpftool is not installed"
	summary
	exit
fi
for part in $PARTS; do
	"${part}_part"
done
summary
