#!/usr/bin/env bash
# Who a drop hurts, on the real kernel: a receiver named by prctl, in its own
# cgroup (v2) and in a named network namespace, overflows its tiny SO_RCVBUF;
# its SOCKET_RCVBUFF drops must name its pid, comm, cgroup and netns, the
# NO_SOCKET drops beside them the netns only, and a TCP connection's drops
# the socket's ports and state. count --group-by counts each group exactly.
# A namespace is called as --netns gave it (a second ip netns name, a
# /proc/PID/ns/net path), and an unnamed one by the container living in it
# (a docker-shaped cgroup made here). More new sockets between two reads
# than the kernel's by-socket map holds (4096) are reported as lost by
# count, top and serve; sockets over many reads are retired, none lost.
# 30 namespaces made and deleted one after another (the kernel reuses their
# inodes) get a row each, keyed by cookie, equal to their own NoPorts.
# Prints "N passed, N failed".
. "$(dirname "$0")/../lib/part.sh"
NS=wdwho-$$
harness_begin tests/system/who "$NS"

CG_ROOT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
CG_REL=/wdwho-$$.slice/rcv.scope
if [ -z "$CG_ROOT" ]; then
	fail "a cgroup v2 hierarchy is mounted" "none in /proc/self/mountinfo"
	summary
	exit
fi
mkdir -p "$CG_ROOT$CG_REL"
# a container's cgroup, shaped as docker's systemd driver makes it
CID=$($PY -c 'import hashlib, sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())' "wdwho-$$")
CG_CTR=/wdwho-$$.slice/docker-$CID.scope
mkdir -p "$CG_ROOT$CG_CTR"
cleanup_cgroup() {
	local p
	# what is left in the container's cgroup was started here: end it by pid
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		for p in $(cat "$CG_ROOT$CG_CTR/cgroup.procs" 2>/dev/null); do kill -KILL "$p"; done
		rmdir "$CG_ROOT$CG_CTR" 2>/dev/null || [ ! -d "$CG_ROOT$CG_CTR" ] && break
		sleep 0.1
	done
	rmdir "$CG_ROOT$CG_REL" "$CG_ROOT/wdwho-$$.slice" 2>/dev/null
}
trap 'harness_end; cleanup_cgroup' EXIT

# the namespace's inode and cookie, as the kernel tells them to a process in it
NS_INO=$(stat -L -c %i "/run/netns/$NS")
NS_COOKIE=$(ip netns exec "$NS" $PY -c 'import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
print(struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0])')

SENT=60
# The receiver joins the cgroup before it makes its socket, names itself, and
# never reads.
start_receiver "$CG_ROOT$CG_REL" "$NS" wd-rcvr 127.0.0.1
check "receiver runs in its cgroup" grep -qx "$RCVR" "$CG_ROOT$CG_REL/cgroup.procs"
# A second ip netns name for the receiver's namespace; it sorts after $NS.
NSA=$NS-a
ip netns attach "$NSA" "$RCVR"
HARNESS_NS+=("$NSA")
NSPATH=/proc/$RCVR/ns/net

# The "container": an unnamed namespace (unshare -n) whose processes live in
# the docker-shaped cgroup; it sends 5 datagrams to a closed port once told.
cat >"$TMP/ctr.sh" <<EOF
sh '$PWD/tests/lib/netns_defaults.sh' || exit 1
ip link set lo up
stat -L -c %i /proc/self/ns/net
while [ ! -e "$TMP/go" ]; do sleep 0.05; done
$PY -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(5):
    s.sendto(b"z", ("127.0.0.1", 9))'
exec sleep 60
EOF
sh -c "echo \$\$ > '$CG_ROOT$CG_CTR/cgroup.procs' && exec unshare -n sh '$TMP/ctr.sh'" >"$TMP/ctr.out" &
CTR=$!
PIDS+=("$CTR")
for _ in $(seq 50); do [ -s "$TMP/ctr.out" ] && break; sleep 0.1; done
CTR_NS=$(head -n 1 "$TMP/ctr.out")
check "the container runs in its own namespace and docker-shaped cgroup" \
	bash -c "[ -n '$CTR_NS' ] && grep -qx '$CTR' '$CG_ROOT$CG_CTR/cgroup.procs'"

# The kernel's own count of the receiver's drops: /proc/net/udp "drops".
udp_drops() {
	ip netns exec "$NS" awk '$2 ~ /:270F$/ { print $NF }' /proc/net/udp
}

traffic() {
	ip netns exec "$NS" $PY -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range('"$SENT"'):
    s.sendto(b"x" * 1000, ("127.0.0.1", 9999))
for _ in range(3):
    s.sendto(b"y", ("127.0.0.1", 9998))'
}

start() {
	local name=$1
	shift
	"$W" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	PIDS+=($!)
	eval "PID_$name=$!"
}

echo "-- watch: the receiver's drops name its process, cgroup and netns"
start wj watch --json -p --netns "$NS" -r SOCKET_RCVBUFF,NO_SOCKET
start wt watch -p --netns "$NS" -r SOCKET_RCVBUFF
start wn watch --json --netns "$NS" -r SOCKET_RCVBUFF
start cn count --json --netns "$NS" --group-by netns
start cc count --json --netns "$NS" --group-by cgroup
start cp count --json --netns "$NS" --group-by process
start cm count --json --netns "$NS" --group-by process --max-groups 1
start tp top --json --netns "$NS" --group-by cgroup
start sv serve --listen 127.0.0.1:0 --netns "$NS" --per-netns --netns-names --per-cgroup
# the namespace as given: a path, the second ip netns name
start wpath watch --json --netns "$NSPATH" -r SOCKET_RCVBUFF
start walias watch --json --netns "$NSA" -r NO_SOCKET
start cpath count --json --netns "$NSPATH" --group-by netns
start calias count --json --netns "$NSA" --group-by interface -r NO_SOCKET
start svpath serve --listen 127.0.0.1:0 --netns "$NSPATH" --per-netns --netns-names
# every namespace: the container's is named by its workload
start wall watch --json -r NO_SOCKET
start call count --json --group-by netns -r NO_SOCKET
ALL="wj wt wn cn cc cp cm tp sv wpath walias cpath calias svpath wall call"
for f in $ALL; do wait_attached "$TMP/$f.err" || fail "$f attached" "$(cat "$TMP/$f.err")"; done
d0=$(udp_drops)
traffic
d1=$(udp_drops)
touch "$TMP/go"
sleep 0.5
# scrape FILE: the page of the serve whose stderr is FILE
scrape() {
	local addr
	for _ in $(seq 50); do grep -q "listening on" "$1" && break; sleep 0.1; done
	addr=$(sed -n 's|.*listening on http://\([^/]*\)/metrics.*|\1|p' "$1")
	curl -s "http://$addr/metrics"
}
scrape "$TMP/sv.err" >"$TMP/metrics"
scrape "$TMP/svpath.err" >"$TMP/metrics.path"
for f in $ALL; do v=PID_$f; kill -INT "${!v}"; wait "${!v}"; done
kill -TERM "$CTR"
wait "$CTR" 2>/dev/null
DROPS=$((d1 - d0))
echo "   the kernel dropped $DROPS of $SENT datagrams for the receiver (/proc/net/udp)"
check "the receiver's socket dropped some" test "$DROPS" -gt 0

# q FILE EXPR: evaluate a Python expression over the JSON lines of FILE (as L)
q() {
	$PY -c 'import json, sys
L = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(eval(sys.argv[2]))' "$@"
}
RB='[x for x in L if x["reason"] == "SOCKET_RCVBUFF"]'
NO='[x for x in L if x["reason"] == "NO_SOCKET"]'
check "watch: every SOCKET_RCVBUFF drop shown" test "$(q "$TMP/wj.out" "len($RB)")" -eq "$DROPS"
check "watch: each names pid $RCVR" \
	test "$(q "$TMP/wj.out" "all(x['socket'].get('pid') == $RCVR for x in $RB)")" = True
check "watch: ... and comm wd-rcvr" \
	test "$(q "$TMP/wj.out" "all(x['socket'].get('comm') == 'wd-rcvr' for x in $RB)")" = True
check "watch: ... and cgroup $CG_REL" \
	test "$(q "$TMP/wj.out" "all(x['socket'].get('cgroup') == '$CG_REL' for x in $RB)")" = True
check "watch: ... and the socket's port and inode" \
	test "$(q "$TMP/wj.out" "all(x['socket']['lport'] == 9999 and x['socket']['ino'] > 0 for x in $RB)")" = True
check "watch: ... and the netns by name" \
	test "$(q "$TMP/wj.out" "all(x.get('netns_name') == '$NS' for x in $RB)")" = True
check "watch: ... by its inode and cookie ($NS_INO, $NS_COOKIE)" \
	test "$(q "$TMP/wj.out" "all(x.get('netns') == $NS_INO and x.get('netns_cookie') == $NS_COOKIE for x in $RB)")" = True
check "watch: the 3 NO_SOCKET drops name the netns" \
	test "$(q "$TMP/wj.out" "sum(x.get('netns_name') == '$NS' for x in $NO)")" -eq 3
check "watch: ... and no socket (this kernel has rx_sk: there is none)" \
	test "$(q "$TMP/wj.out" "sum('socket' in x for x in $NO)")" -eq 0
check "watch without -p: the cgroup, but no process (it could not read /proc)" \
	test "$(q "$TMP/wn.out" "len(L) == $DROPS and all('pid' not in x['socket'] and x['socket']['cgroup'] == '$CG_REL' for x in L)")" = True
check "watch text: pid, comm and cgroup on the line (no peer: no rport)" \
	grep -q "netns $NS sock [0-9]* port 9999 CLOSE pid $RCVR wd-rcvr cgroup $CG_REL" "$TMP/wt.out"

echo "-- the namespace as --netns gave it; an unnamed one by its container"
check "watch --netns $NSPATH: each drop says netns_name $NSPATH" \
	test "$(q "$TMP/wpath.out" "len(L) == $DROPS and all(x.get('netns_name') == '$NSPATH' for x in L)")" = True
check "watch --netns $NSA (a second name): netns_name $NSA on the 3 drops" \
	test "$(q "$TMP/walias.out" "len(L) == 3 and all(x.get('netns_name') == '$NSA' for x in L)")" = True
check "... while watch --netns $NS says $NS: each as it was given" \
	test "$(q "$TMP/wj.out" "sorted(set(x.get('netns_name') for x in L))")" = "['$NS']"
check "watch of every namespace: the container's 5 drops name docker:${CID:0:12}" \
	test "$(q "$TMP/wall.out" "sum(x.get('netns') == $CTR_NS and x.get('netns_name') == 'docker:${CID:0:12}' for x in L)")" -eq 5

# g FILE GROUP REASON: the count of one group row
g() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(r["count"] for r in d["groups"] if r["group"] == sys.argv[2] and r["reason"] == sys.argv[3]))' "$@"
}
echo "-- count --group-by: exact counts per group"
check "netns: $NS has the $DROPS SOCKET_RCVBUFF drops" test "$(g "$TMP/cn.out" "$NS" SOCKET_RCVBUFF)" -eq "$DROPS"
check "netns: ... and 3 NO_SOCKET" test "$(g "$TMP/cn.out" "$NS" NO_SOCKET)" -eq 3
check "netns, --netns $NSPATH: the group is the path, $DROPS SOCKET_RCVBUFF" \
	test "$(g "$TMP/cpath.out" "$NSPATH" SOCKET_RCVBUFF)" -eq "$DROPS"
check "interface, --netns $NSA: lo@$NSA, 3 NO_SOCKET" \
	test "$(g "$TMP/calias.out" "lo@$NSA" NO_SOCKET)" -eq 3
check "netns of every namespace: docker:${CID:0:12} has the container's 5 NO_SOCKET" \
	test "$(g "$TMP/call.out" "docker:${CID:0:12}" NO_SOCKET)" -eq 5
check "cgroup: rcv.scope has the $DROPS drops" test "$(g "$TMP/cc.out" rcv.scope SOCKET_RCVBUFF)" -eq "$DROPS"
check "cgroup: NO_SOCKET drops have no socket" test "$(g "$TMP/cc.out" "(no socket)" NO_SOCKET)" -eq 3
check "process: wd-rcvr[$RCVR] has the $DROPS drops" \
	test "$(g "$TMP/cp.out" "wd-rcvr[$RCVR]" SOCKET_RCVBUFF)" -eq "$DROPS"
check "process: group_by says process" grep -q '"group_by": "process"' "$TMP/cp.out"
check "--max-groups 1: the largest group kept" \
	test "$(g "$TMP/cm.out" "wd-rcvr[$RCVR]" SOCKET_RCVBUFF)" -eq "$DROPS"
check "--max-groups 1: the rest is (other), still counted" \
	test "$(g "$TMP/cm.out" "(other)" NO_SOCKET)" -eq 3
check "top --group-by cgroup: the summary groups as count does" \
	test "$(g "$TMP/tp.out" rcv.scope SOCKET_RCVBUFF)" -eq "$DROPS"
check "top --group-by cgroup: the live table shows the group" grep -q "By cgroup:" "$TMP/tp.err"

echo "-- serve: opt-in netns_name and cgroup labels"
check "serve --per-cgroup: rcv.scope's $DROPS drops" \
	grep -qx "whydrop_cgroup_drops_total{cgroup=\"rcv.scope\",reason=\"SOCKET_RCVBUFF\"} $DROPS" "$TMP/metrics"
check "serve --per-cgroup: socket-less drops as cgroup=\"none\"" \
	grep -qx 'whydrop_cgroup_drops_total{cgroup="none",reason="NO_SOCKET"} 3' "$TMP/metrics"
check "serve --netns-names: the netns by inode, cookie and name" \
	grep -qx "whydrop_netns_drops_total{netns=\"$NS_INO\",netns_cookie=\"$NS_COOKIE\",reason=\"NO_SOCKET\",netns_name=\"$NS\"} 3" "$TMP/metrics"
check "serve --netns $NSPATH --netns-names: netns_name is the path" \
	grep -qx "whydrop_netns_drops_total{netns=\"$NS_INO\",netns_cookie=\"$NS_COOKIE\",reason=\"NO_SOCKET\",netns_name=\"$NSPATH\"} 3" "$TMP/metrics.path"
check "serve --per-cgroup: the by-socket map had room: 0 lost" \
	grep -qx "whydrop_cgroup_drops_lost_total 0" "$TMP/metrics"

echo "-- a TCP connection's drops carry the socket's ports and state"
ip netns exec "$NS" nft -f - <<'EOF'
table inet wdwho {
	chain out { type filter hook output priority 0; tcp dport 9 drop; }
}
EOF
start tj watch --json -p --netns "$NS" -r NETFILTER_DROP
start tt watch -p --netns "$NS" -r NETFILTER_DROP
start tr record -w "$TMP/tcp.pcapng" -p --netns "$NS" -r NETFILTER_DROP
for f in tj tt tr; do wait_attached "$TMP/$f.err" || fail "$f attached" "$(cat "$TMP/$f.err")"; done
# -p: a socket made after a watcher's /proc scan at start is found by a
# rescan, at most once a second: the first SYN leaves a second after it is made.
ip netns exec "$NS" $PY -c '
import socket, time
c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
c.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
c.bind(("127.0.0.1", 40123))
time.sleep(1.1)
c.settimeout(1.2)
try:
    c.connect(("127.0.0.1", 9))
except OSError:
    pass'
sleep 0.3
for f in tj tt tr; do v=PID_$f; kill -INT "${!v}"; wait "${!v}"; done
ip netns exec "$NS" nft delete table inet wdwho
SYNS=$(q "$TMP/tj.out" "len(L)")
check "the SYN dropped by nft names its socket: lport 40123, rport 9, SYN_SENT" \
	test "$(q "$TMP/tj.out" "len(L) > 0 and all(x['socket']['lport'] == 40123 and x['socket']['rport'] == 9 and x['socket']['state'] == 'SYN_SENT' for x in L)")" = True
check "... and its process: the python client" \
	test "$(q "$TMP/tj.out" "all(x['socket'].get('comm', '').startswith('python') for x in L)")" = True
check "watch text: the $SYNS SYNs' lines say port 40123 rport 9 SYN_SENT and the process" \
	test "$(grep -cE "netns $NS sock [0-9]+ port 40123 rport 9 SYN_SENT pid [0-9]+ python" "$TMP/tt.out")" -eq "$SYNS"
check "record: the $SYNS comments say lport=40123 rport=9 state=SYN_SENT" \
	test "$(grep -aoE "netns_name=$NS sock=[0-9]+ lport=40123 rport=9 state=SYN_SENT pid=[0-9]+ comm=python" "$TMP/tcp.pcapng" | wc -l)" -eq "$SYNS"
expect_run "read: the recording still summarises, $SYNS drops by the client process" 0 \
	"\"group\": \"python[^\"]*\", \"reason\": \"NETFILTER_DROP\", \"code\": [0-9]+, \"count\": $SYNS" \
	"$W" read --json --group-by process "$TMP/tcp.pcapng"

# burst N: N new sockets in the namespace, one datagram each (dropped by wdfull)
burst() {
	ip netns exec "$NS" $PY -c '
import socket, sys
for _ in range(int(sys.argv[1])):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.sendto(b"q", ("127.0.0.1", 7))
    except OSError:
        pass
    s.close()' "$1"
}
# grouped FILE: "total grouped lost" of the one summary in FILE
grouped() {
	q "$1" "' '.join(str(v) for x in L for v in (x['total'], sum(r['count'] for r in x['groups']), x.get('groups_lost', 0)))"
}
# cg_sums FILE: "sum of whydrop_cgroup_drops_total, whydrop_drops_total, lost"
cg_sums() {
	awk '/^whydrop_cgroup_drops_total\{/ { c += $NF } /^whydrop_drops_total\{/ { d += $NF }
		/^whydrop_cgroup_drops_lost_total / { l = $NF } END { print c, d, l }' "$1"
}

echo "-- more than 4096 new sockets between two reads of the by-socket map: the rest said lost"
ip netns exec "$NS" nft -f - <<'EOF'
table inet wdfull {
	chain out { type filter hook output priority 0; udp dport 7 drop; }
}
EOF
start fc count --json --netns "$NS" --group-by cgroup -r NETFILTER_DROP
start ft top --json --netns "$NS" --group-by process -r NETFILTER_DROP
start fs serve --listen 127.0.0.1:0 --netns "$NS" --per-cgroup -r NETFILTER_DROP
for f in fc ft fs; do wait_attached "$TMP/$f.err" || fail "$f attached" "$(cat "$TMP/$f.err")"; done
# 4500 sockets at once for a map of 4096 (src/bpf/sock_owner.h). serve reads
# the map only when scraped: exactly 404 lost. count and top read it every
# second: a read that falls in the burst after 2048 sockets retires them (0 lost).
burst 4500
sleep 1.5	# a refresh of top's live tables
scrape "$TMP/fs.err" >"$TMP/metrics.full"
for f in fc ft fs; do v=PID_$f; kill -INT "${!v}"; wait "${!v}"; done
check "serve --per-cgroup: whydrop_cgroup_drops_lost_total 404" \
	grep -qx "whydrop_cgroup_drops_lost_total 404" "$TMP/metrics.full"
check "... whydrop_cgroup_drops_total sums to 4096, whydrop_drops_total to 4500" \
	test "$(cg_sums "$TMP/metrics.full")" = "4096 4500 404"
read -r t g l <<<"$(grouped "$TMP/fc.out")"
check "count: 4500 drops, grouped + groups_lost = 4500, lost 404 or 0 ($g + $l)" \
	test "$t,$((g + l)),$l" = 4500,4500,404 -o "$t,$((g + l)),$l" = 4500,4500,0
read -r t g l <<<"$(grouped "$TMP/ft.out")"
check "top --group-by process: the same in its summary ($g + $l)" \
	test "$t,$((g + l)),$l" = 4500,4500,404 -o "$t,$((g + l)),$l" = 4500,4500,0
if [ "$l" != 0 ]; then
	check "top: the live table says the $l not grouped" \
		grep -q "^$l drops not grouped: the by-socket map was full" "$TMP/ft.err"
else
	check "top: no live table says drops not grouped (none lost)" \
		bash -c "! grep -q 'drops not grouped' '$TMP/ft.err'"
fi

echo "-- 6000 sockets over many reads: closed sockets retired, nothing lost"
start gc count --json --netns "$NS" --group-by cgroup -r NETFILTER_DROP
start gt top --json --netns "$NS" --group-by process -r NETFILTER_DROP
start gs serve --listen 127.0.0.1:0 --netns "$NS" --per-cgroup -r NETFILTER_DROP
for f in gc gt gs; do wait_attached "$TMP/$f.err" || fail "$f attached" "$(cat "$TMP/$f.err")"; done
# 1500 at a time, a read between: no generation ever holds more than 3000
# (a swap at 2048), and 6000 > 4096 sockets in all.
for i in 1 2 3 4; do
	burst 1500
	scrape "$TMP/gs.err" >"$TMP/metrics.gen$i"
	sleep 2	# count and top read each second
done
for f in gc gt gs; do v=PID_$f; kill -INT "${!v}"; wait "${!v}"; done
ip netns exec "$NS" nft delete table inet wdfull
check "serve --per-cgroup, scraped after each 1500: 1500, 3000, 4500, 6000, none lost" \
	test "$(for i in 1 2 3 4; do cg_sums "$TMP/metrics.gen$i"; done | tr '\n' ,)" = \
	"1500 1500 0,3000 3000 0,4500 4500 0,6000 6000 0,"
check "count --group-by cgroup: 6000 drops, 6000 grouped, 0 lost" \
	test "$(grouped "$TMP/gc.out")" = "6000 6000 0"
check "top --group-by process: 6000 drops, 6000 grouped, 0 lost" \
	test "$(grouped "$TMP/gt.out")" = "6000 6000 0"

echo "-- nothing dropped yet: empty group tables, not a crash (UBSan: qsort of NULL)"
expect_run "count --group-by cgroup, no drop: exit 0, no groups" 0 '"groups": \[\]' \
	"$W" count --json --netns "$NS" --group-by cgroup -r NO_SOCKET -d 1
"$W" top --json --netns "$NS" --group-by process -r NO_SOCKET -d 1.5 >"$TMP/te.out" 2>"$TMP/te.err"
rc=$?
check "top --group-by process, no drop for a refresh: exit 0, an empty live table" \
	bash -c "[ $rc -eq 0 ] && grep -q '^By process:' '$TMP/te.err'"
check "... and no groups in the summary" grep -q '"groups": \[\]' "$TMP/te.out"
start se serve --listen 127.0.0.1:0 --netns "$NS" --per-cgroup -r NO_SOCKET
wait_attached "$TMP/se.err" || fail "se attached" "$(cat "$TMP/se.err")"
scrape "$TMP/se.err" >"$TMP/metrics.empty"
kill -INT "$PID_se"
wait "$PID_se"
rc=$?
check "serve --per-cgroup, no drop: a page with 0 lost, exit 0" \
	bash -c "[ $rc -eq 0 ] && grep -qx 'whydrop_cgroup_drops_lost_total 0' '$TMP/metrics.empty'"

echo "-- 30 namespaces one after another: the kernel reuses inodes, counts stay apart"
# Namespace i takes i NO_SOCKET drops; its cookie (SO_NETNS_COOKIE) and its
# Udp NoPorts counter are read inside it before it is deleted. A count of
# every namespace must give each cookie its own row, equal to its NoPorts.
start cr count --json --group-by netns --max-groups 10000 -r NO_SOCKET
wait_attached "$TMP/cr.err" || fail "cr attached" "$(cat "$TMP/cr.err")"
: >"$TMP/reuse.txt"
for i in $(seq 30); do
	n=$NS-r$i
	HARNESS_NS+=("$n")
	ip netns add "$n" && ip -n "$n" link set lo up
	ino=$(stat -L -c %i "/run/netns/$n")
	ip netns exec "$n" $PY -c '
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"r", ("127.0.0.1", 9))
cookie = struct.unpack("Q", s.getsockopt(socket.SOL_SOCKET, 71, 8))[0]
snmp = [l.split() for l in open("/proc/net/snmp") if l.startswith("Udp:")]
print(cookie, snmp[1][snmp[0].index("NoPorts")])' "$i" | sed "s/^/$i $ino /" >>"$TMP/reuse.txt"
	ip netns del "$n"
	sleep 0.3	# the namespace is freed after a grace period: its inode comes back
done
kill -INT "$PID_cr"
wait "$PID_cr"
inodes=$(cut -d' ' -f2 "$TMP/reuse.txt" | sort -u | wc -l)
echo "   30 namespaces had $inodes distinct inodes"
check "30 namespaces made, each its cookie and NoPorts read" test "$(wc -l <"$TMP/reuse.txt")" -eq 30
check "each namespace's NoPorts counter says its i drops" \
	test "$(awk '$1 != $4' "$TMP/reuse.txt" | wc -l)" -eq 0
if [ "$inodes" -lt 30 ]; then
	pass "the kernel reused inodes ($inodes for 30 namespaces)"
else
	skip "the kernel reused inodes" "none reused this time: the rows below prove less"
fi
# rows FILE: "cookie inode count" of each group of the count
rows() {
	q "$1" "'\\n'.join('%d %d %d' % (r.get('netns_cookie', 0), r.get('netns', 0), r['count']) for x in L for r in x['groups'])"
}
rows "$TMP/cr.out" >"$TMP/rows.txt"
check "count --group-by netns: one row per namespace, 30 rows for the 30 cookies" \
	test "$(awk 'NR == FNR { c[$3] = 1; next } ($1 in c)' "$TMP/reuse.txt" "$TMP/rows.txt" | wc -l)" -eq 30
check "... each row's count is its namespace's NoPorts, and its inode is the namespace's" \
	test "$(awk 'NR == FNR { want[$3] = $4 " " $2; next } ($1 in want) && want[$1] == $3 " " $2' \
		"$TMP/reuse.txt" "$TMP/rows.txt" | wc -l)" -eq 30

echo "-- bad input"
expect_run "--group-by bogus: usage error" 2 "bad --group-by 'bogus'" "$W" count --group-by bogus
expect_run "--group-by on watch: usage error" 2 "applies to commands that print a count table" "$W" watch --group-by netns

summary
