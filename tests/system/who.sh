#!/usr/bin/env bash
# Who a drop hurts, on the real kernel: a receiver named by prctl, in its own
# cgroup (v2) and in a named network namespace, overflows its tiny SO_RCVBUF;
# its SOCKET_RCVBUFF drops must name its pid, comm, cgroup and netns, the
# NO_SOCKET drops beside them the netns only, and a TCP connection's drops
# the socket's ports. count --group-by counts each group exactly.
# Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
. tests/lib/harness.sh
W=${1:-build/whydrop}
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
cleanup_cgroup() {
	rmdir "$CG_ROOT$CG_REL" "$CG_ROOT/wdwho-$$.slice" 2>/dev/null
}
trap 'harness_end; cleanup_cgroup' EXIT

SENT=60
# The receiver joins the cgroup before it makes its socket (a socket keeps
# the cgroup it was made in), names itself, and never reads.
sh -c "echo \$\$ > '$CG_ROOT$CG_REL/cgroup.procs' && exec ip netns exec '$NS' $PY -c '
import ctypes, socket, sys, time
ctypes.CDLL(None).prctl(15, b\"wd-rcvr\", 0, 0, 0)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
s.bind((\"127.0.0.1\", 9999))
print(s.fileno(), flush=True)
time.sleep(60)'" >"$TMP/rcvr.out" &
RCVR=$!
PIDS+=("$RCVR")
for _ in $(seq 50); do [ -s "$TMP/rcvr.out" ] && break; sleep 0.1; done
# the exec'd python keeps the shell's pid
check "receiver runs in its cgroup" grep -qx "$RCVR" "$CG_ROOT$CG_REL/cgroup.procs"

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
for f in wj wt wn cn cc cp cm tp sv; do wait_attached "$TMP/$f.err" || fail "$f attached" "$(cat "$TMP/$f.err")"; done
d0=$(udp_drops)
traffic
d1=$(udp_drops)
sleep 0.5
for _ in $(seq 50); do grep -q "listening on" "$TMP/sv.err" && break; sleep 0.1; done
ADDR=$(sed -n 's|.*listening on http://\([^/]*\)/metrics.*|\1|p' "$TMP/sv.err")
curl -s "http://$ADDR/metrics" >"$TMP/metrics"
for f in wj wt wn cn cc cp cm tp sv; do v=PID_$f; kill -INT "${!v}"; wait "${!v}"; done
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
check "watch: the 3 NO_SOCKET drops name the netns" \
	test "$(q "$TMP/wj.out" "sum(x.get('netns_name') == '$NS' for x in $NO)")" -eq 3
check "watch: ... and no socket (this kernel has rx_sk: there is none)" \
	test "$(q "$TMP/wj.out" "sum('socket' in x for x in $NO)")" -eq 0
check "watch without -p: the cgroup, but no process (it could not read /proc)" \
	test "$(q "$TMP/wn.out" "len(L) == $DROPS and all('pid' not in x['socket'] and x['socket']['cgroup'] == '$CG_REL' for x in L)")" = True
check "watch text: pid, comm and cgroup on the line" \
	grep -q "netns $NS sock [0-9]* port 9999 CLOSE pid $RCVR wd-rcvr cgroup $CG_REL" "$TMP/wt.out"

# g FILE GROUP REASON: the count of one group row
g() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(r["count"] for r in d["groups"] if r["group"] == sys.argv[2] and r["reason"] == sys.argv[3]))' "$@"
}
echo "-- count --group-by: exact counts per group"
check "netns: $NS has the $DROPS SOCKET_RCVBUFF drops" test "$(g "$TMP/cn.out" "$NS" SOCKET_RCVBUFF)" -eq "$DROPS"
check "netns: ... and 3 NO_SOCKET" test "$(g "$TMP/cn.out" "$NS" NO_SOCKET)" -eq 3
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
check "serve --netns-names: the netns by name" \
	grep -qE "^whydrop_netns_drops_total\{netns=\"[0-9]+\",reason=\"NO_SOCKET\",netns_name=\"$NS\"\} 3\$" "$TMP/metrics"

echo "-- a TCP connection's drops carry the socket's ports and state"
ip netns exec "$NS" nft -f - <<'EOF'
table inet wdwho {
	chain out { type filter hook output priority 0; tcp dport 9 drop; }
}
EOF
start tj watch --json -p --netns "$NS" -r NETFILTER_DROP
wait_attached "$TMP/tj.err" || fail "tj attached" "$(cat "$TMP/tj.err")"
ip netns exec "$NS" $PY -c '
import socket
c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
c.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
c.bind(("127.0.0.1", 40123))
c.settimeout(1.2)
try:
    c.connect(("127.0.0.1", 9))
except OSError:
    pass'
sleep 0.3
kill -INT "$PID_tj"
wait "$PID_tj"
ip netns exec "$NS" nft delete table inet wdwho
check "the SYN dropped by nft names its socket: lport 40123, rport 9, SYN_SENT" \
	test "$(q "$TMP/tj.out" "len(L) > 0 and all(x['socket']['lport'] == 40123 and x['socket']['rport'] == 9 and x['socket']['state'] == 'SYN_SENT' for x in L)")" = True
check "... and its process: the python client" \
	test "$(q "$TMP/tj.out" "all(x['socket'].get('comm', '').startswith('python') for x in L)")" = True

echo "-- bad input"
expect_run "--group-by bogus: usage error" 2 "bad --group-by 'bogus'" "$W" count --group-by bogus
expect_run "--group-by on watch: usage error" 2 "only works with" "$W" watch --group-by netns

summary
