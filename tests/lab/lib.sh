# shellcheck shell=bash
# tests/lab/lib.sh: shared set-up for the drop-reason lab. Sourced by every scenario.
#
# A scenario sets REASON, FAMILY, FUNCTION, CAUSE (a phrase of what really happened, which
# the cause whydrop gives each row of REASON must name: lab_cause.py) and optionally
# WATCH=a|b (default b), RULE (the --rules mode: whydrop counts with --rules, and every
# drop of REASON must be named by that nftables rule, "inet/TABLE/CHAIN/HANDLE" or
# ".../policy", nothing unclaimed: lab_rule_check), defines
# trigger() (and optionally setup()), and ends with `lab_main` (or with a recipe below
# that defines them for a family of scenarios). trigger() states what it
# expects with `expect N` (exact: the trigger sent a known number) or, where the kernel
# cannot be made exact, with `expect_counter 'shell command printing a number'` before the
# drops happen: the command runs once before the trigger and once after whydrop has
# stopped, and the difference (a kernel counter) is the expected count.
#
# Topology made by lab_setup (names unique per run):
#   $NS_A  vA $A4/24 $A6/64  <--veth-->  vB $B4/24 $B6/64  $NS_B
# Addresses are documentation ranges only.

set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/../.." && pwd)
PY=${LAB_PYTHON:-/usr/bin/python3}
LAB_PY="$LAB_DIR/lab.py"
WHYDROP=${WHYDROP:-build/whydrop}
case "$WHYDROP" in /*) ;; *) WHYDROP="$REPO_DIR/$WHYDROP" ;; esac

# lab_family: a file for several families, REASON.F1.F2.sh (e.g. NO_SOCKET.ipv4.ipv6.sh),
# runs once per family: run.sh names it in LAB_FAMILY. Such a file sets no FAMILY, writes
# FUNCTION_<family>= / CAUSE_<family>= where they differ, and in its commands V (4 or 6, the
# family argument of lab.py), AX and BX (A's and B's address) and, in scapy expressions, IPX
# (IP or IPv6), AX and BX.
lab_family() {
	local fams; fams=$(basename "$0" .sh); fams=${fams#*.}
	case $fams in *.*) ;; *) return 0 ;; esac
	FAMILY=${LAB_FAMILY:-}
	case ".$fams." in
	*".$FAMILY."*) [ -n "$FAMILY" ] ;;
	*) false ;;
	esac || { echo "lab: $0 runs for ${fams//./ }: set LAB_FAMILY to one" >&2; exit 2; }
	case $FAMILY in
	*4) V=4 AX=$A4 BX=$B4 ;;
	*6) V=6 AX=$A6 BX=$B6 ;;
	esac
	export LAB_V=${V:-}
	[ -n "${FUNCTION:-}" ] || eval "FUNCTION=\${FUNCTION_$FAMILY:-}"
	[ -n "${CAUSE:-}" ] || eval "CAUSE=\${CAUSE_$FAMILY:-}"
}

LAB_ID=${LAB_ID:-wdlab-$$}
NS_A=$LAB_ID-a
NS_B=$LAB_ID-b
NS_C=$LAB_ID-c
A4=192.0.2.1 B4=192.0.2.2 A6=2001:db8::1 B6=2001:db8::2
MAC_A=02:00:00:00:0a:01 MAC_B=02:00:00:00:0b:02
WATCH=${WATCH:-b}
lab_family
SETTLE=${SETTLE:-0.3}
# IPv4 scenarios (ipv4, fwd4, tcp4) run without IPv6, so that no IPv6 link-up chatter can be
# dropped for the same reason (e.g. IP_INNOROUTES also exists for IPv6); a scenario may set
# NO_IPV6=0.
case ${FAMILY:-} in *4) NO_IPV6=${NO_IPV6:-1} ;; *) NO_IPV6=${NO_IPV6:-0} ;; esac
FUNCTION=${FUNCTION:-}
CAUSE=${CAUSE:-}

# shellcheck source=tests/lib/sysctl.sh
. "$REPO_DIR/tests/lib/sysctl.sh"

T=$(mktemp -d /tmp/$LAB_ID.XXXX)
export NS_A NS_B NS_C A4 B4 A6 B6 MAC_A MAC_B T LAB_DIR

_NSES=() _PIDS=() _CGROUPS=() _MOUNTS=() _CLEANUPS=()
EXPECT='' _EXPECT_CMD='' _EXPECT_BEFORE='' _SKIP='' _NOTE=''
WD_PID=

log() { [ -n "${LAB_VERBOSE:-}" ] && echo "[$REASON.$FAMILY] $*" >&2 || true; }

# --- teardown: always runs ---------------------------------------------------------------
lab_teardown() {
	local rc=${1:-$?} ns pid i
	trap - EXIT INT TERM
	set +e
	sysctl_restore		# first: a host-wide setting
	if [ -n "$WD_PID" ] && kill -0 "$WD_PID" 2>/dev/null; then
		kill -INT "$WD_PID" 2>/dev/null
		for i in $(seq 20); do kill -0 "$WD_PID" 2>/dev/null || break; sleep 0.1; done
		pkill -KILL -P "$WD_PID" 2>/dev/null	# children of a wrapper, if any
		kill -KILL "$WD_PID" 2>/dev/null
		wait "$WD_PID" 2>/dev/null
	fi
	for i in "${_CLEANUPS[@]}"; do eval "$i" >/dev/null 2>&1; done
	for pid in "${_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
	for ns in "${_NSES[@]}"; do
		# every process living in the namespace, not just the `ip netns exec` wrappers
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
	done
	for pid in "${_PIDS[@]}"; do wait "$pid" 2>/dev/null; done
	for i in "${_CGROUPS[@]}"; do
		for pid in $(cat "$i/cgroup.procs" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
		for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$i" 2>/dev/null && break; sleep 0.1; done
	done
	for ns in "${_NSES[@]}"; do ip netns del "$ns" 2>/dev/null; done
	for i in "${_MOUNTS[@]}"; do umount "$i" 2>/dev/null; done
	rm -rf "$T"
	exit $rc
}
trap lab_teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- helpers for scenarios -----------------------------------------------------------------
in_a() { ip netns exec "$NS_A" "$@"; }
in_b() { ip netns exec "$NS_B" "$@"; }
in_c() { ip netns exec "$NS_C" "$@"; }
in_ns() { local n=$1; shift; ip netns exec "$(_ns "$n")" "$@"; }
_ns() { case $1 in a) echo "$NS_A" ;; b) echo "$NS_B" ;; c) echo "$NS_C" ;; *) echo "$1" ;; esac; }

# lab.py run inside a namespace (scapy needs Debian's python3, not a pyenv one)
py_a() { in_a "$PY" "$LAB_PY" "$@"; }
py_b() { in_b "$PY" "$LAB_PY" "$@"; }

# send COUNT 'scapy expression' ... : crafted frames from $NS_A out of vA.
# In the expression: E = Ether(src=MAC_A, dst=MAC_B), A4 B4 A6 B6 MAC_A MAC_B, all of scapy.
send() { py_a send "$@"; }

# bg NAME NS cmd...: background process in a namespace, waits until it writes $T/NAME.ready
# (lab.py servers do) unless NOWAIT=1. Its pid is killed at teardown anyway.
bg() {
	local name=$1 ns; ns=$(_ns "$2"); shift 2
	if [ -n "${BG_CGROUP:-}" ]; then	# start it inside that cgroup (v1 or v2 directory)
		READY="$T/$name.ready" STATS="$T/$name.stats" sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' \
			"$BG_CGROUP" ip netns exec "$ns" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	else
		READY="$T/$name.ready" STATS="$T/$name.stats" ip netns exec "$ns" "$@" \
			>"$T/$name.out" 2>"$T/$name.err" &
	fi
	_PIDS+=($!)
	eval "BG_$name=$!"
	[ "${NOWAIT:-0}" = 1 ] && return 0
	local i
	for i in $(seq 100); do
		[ -e "$T/$name.ready" ] && return 0
		kill -0 "$!" 2>/dev/null || { cat "$T/$name.err" >&2; fail "$name exited early"; }
		sleep 0.05
	done
	fail "$name not ready after 5 s"
}
# stop NAME: SIGTERM a bg process and wait (lab.py servers then write $T/NAME.stats)
stop() {
	local pid; eval "pid=\${BG_$1}"
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
bg_py() { local name=$1 ns=$2; shift 2; bg "$name" "$ns" "$PY" "$LAB_PY" "$@"; }

expect() { EXPECT=$1; }
expect_counter() { _EXPECT_CMD=$1; _EXPECT_BEFORE=$(eval "$1"); }
skip() { _SKIP=$*; exit 0; }
fail() { echo "lab: $*" >&2; _NOTE="error: $*"; exit 1; }
note() { _NOTE=$*; }

# mib NS NAME: a kernel MIB counter as `nstat -az` names it, read in that namespace
mib() { in_ns "$1" "$PY" "$LAB_PY" mib "$2"; }

# sysctl_global KEY=VALUE (restored at teardown) and sysctl_restore: tests/lib/sysctl.sh
cleanup_cmd() { _CLEANUPS+=("$1"); }
# nft_in a|b HOOK RULE: table inet wdlab in that namespace, one base chain named after
# HOOK (input, output, forward) at priority 0 holding RULE (its handle: 2)
nft_in() {
	in_ns "$1" nft -f - <<NFT
table inet wdlab {
	chain $2 { type filter hook $2 priority 0; $3; }
}
NFT
}
# a_ignores_synack: A's nftables drops what B sends from port 8080 to port 41000 (the
# SYN-ACK of a crafted handshake), so A's kernel sends no RST: B's request stays in SYN-RECV
a_ignores_synack() { nft_in a input 'tcp sport 8080 tcp dport 41000 drop'; }
# by_family V4 V6: V4 in an IPv4 run, V6 in an IPv6 one (a field or a header of the family)
by_family() { if [ "$V" = 4 ]; then echo "$1"; else echo "$2"; fi; }
# b_iptables IPTABLES PORT: IPTABLES (iptables-nft, iptables-legacy) in B drops UDP to PORT
# on INPUT; the scenario is skipped without it
b_iptables() {
	command -v "$1" >/dev/null || skip "$1 not installed"
	in_b "$1" -A INPUT -p udp --dport "$2" -j DROP
}
# b_forwards: C's link (lab_setup_c) and B forwarding the family's packets (inside B only)
b_forwards() {
	lab_setup_c
	in_b sysctl -q -w "$(by_family net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1)"
}
# vxlan_b [LOCAL]: VXLAN device vx0 in $NS_B (VNI 100, UDP 4789, MAC 02:00:00:00:0d:ee,
# learning on) over vB, local address LOCAL (default 192.0.2.2); IPv6 off on it, so quiet
vxlan_b() {
	in_b ip link add vx0 address 02:00:00:00:0d:ee type vxlan id 100 dstport 4789 \
		local "${1:-192.0.2.2}" dev vB &&
		in_b sysctl -q -w net.ipv6.conf.vx0.disable_ipv6=1 && in_b ip link set vx0 up
}
track_cgroup() { _CGROUPS+=("$1"); }

# memcg_setup: MEMCG, a cgroup v1 memory cgroup whose memory.kmem.tcp.limit_in_bytes (64 KiB)
# is charged with every socket buffer of the tasks started in it (PROTO_MEM). cgroup v2 has
# no such limit: its memory.max takes socket memory too, but a charge made in softirq (every
# received packet) is forced past it (tests/vm proves it on 6.1 and 6.12), so nothing is
# dropped there; PROTO_MEM.tcp4/.tcp6 make the reason without any cgroup.
memcg_setup() {
	local v1=/sys/fs/cgroup/memory
	[ -f "$v1/memory.kmem.tcp.limit_in_bytes" ] ||
		skip "no cgroup v1 memory controller with kmem.tcp (cgroup v2's memory.max does not" \
			"limit receive memory: PROTO_MEM.tcp4 and .tcp6 make this reason on any layout)"
	MEMCG=$v1/$LAB_ID
	mkdir "$MEMCG"
	track_cgroup "$MEMCG"
	echo 65536 >"$MEMCG/memory.kmem.tcp.limit_in_bytes"
}

# bpf_obj NAME: compile tests/lab/bpf/NAME.c into $T/NAME.o (needs clang)
bpf_obj() {
	command -v clang >/dev/null || skip "clang not installed"
	clang -O2 -g -target bpf -c "$LAB_DIR/bpf/$1.c" -o "$T/$1.o" 2>"$T/clang.err" ||
		fail "clang: $(cat "$T/clang.err")"
}
# bpffs: a private bpffs mount for pinning, removed at teardown
bpffs() {
	[ -d "$T/bpffs" ] && return 0
	mkdir -p "$T/bpffs"
	mount -t bpf bpf "$T/bpffs"
	_MOUNTS=("$T/bpffs" "${_MOUNTS[@]}")
}

add_ns() {
	ip netns add "$1"
	_NSES+=("$1")
	# the kernel's defaults, never the host's (a new namespace copies some: ip_forward...)
	ip netns exec "$1" "$REPO_DIR/tests/lib/netns_defaults.sh" ||
		fail "could not give $1 the kernel's default sysctls"
	ip netns exec "$1" sh -c '
		ip link set lo up
		sysctl -q -w net.ipv6.conf.default.accept_ra=0 net.ipv6.conf.default.router_solicitations=0 \
			net.ipv6.conf.default.accept_dad=0 net.ipv6.conf.default.addr_gen_mode=1 \
			net.ipv6.conf.all.accept_ra=0 \
			net.ipv6.conf.default.mldv1_unsolicited_report_interval=0 \
			net.ipv6.conf.default.mldv2_unsolicited_report_interval=0 >/dev/null'
	if [ "$NO_IPV6" = 1 ]; then
		ip netns exec "$1" sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 \
			net.ipv6.conf.default.disable_ipv6=1 >/dev/null
	fi
}

lab_setup() {
	add_ns "$NS_A"
	add_ns "$NS_B"
	ip -n "$NS_A" link add vA address $MAC_A type veth peer name vB address $MAC_B netns "$NS_B"
	if declare -F pre_link >/dev/null; then pre_link; fi	# scenario hook: before addresses and link-up
	ip -n "$NS_A" addr add $A4/24 dev vA
	ip -n "$NS_B" addr add $B4/24 dev vB
	if [ "$NO_IPV6" != 1 ]; then
		ip -n "$NS_A" addr add $A6/64 dev vA nodad
		ip -n "$NS_B" addr add $B6/64 dev vB nodad 2>/dev/null || true
	fi
	ip -n "$NS_A" link set vA up
	ip -n "$NS_B" link set vB up
	# permanent neighbours: no ARP/ND traffic of our own unless a scenario wants it
	ip -n "$NS_A" neigh replace $B4 lladdr $MAC_B dev vA nud permanent
	ip -n "$NS_B" neigh replace $A4 lladdr $MAC_A dev vB nud permanent
	if [ "$NO_IPV6" != 1 ]; then
		ip -n "$NS_A" -6 neigh replace $B6 lladdr $MAC_B dev vA nud permanent
		ip -n "$NS_B" -6 neigh replace $A6 lladdr $MAC_A dev vB nud permanent 2>/dev/null || true
	fi
}

# third namespace C behind B: vBC 198.51.100.1 / 2001:db8:1::1 <-> vC 198.51.100.2 / 2001:db8:1::2
lab_setup_c() {
	add_ns "$NS_C"
	ip -n "$NS_B" link add vBC type veth peer name vC netns "$NS_C"
	ip -n "$NS_B" addr add 198.51.100.1/24 dev vBC
	ip -n "$NS_C" addr add 198.51.100.2/24 dev vC
	if [ "$NO_IPV6" != 1 ]; then
		ip -n "$NS_B" addr add 2001:db8:1::1/64 dev vBC nodad
		ip -n "$NS_C" addr add 2001:db8:1::2/64 dev vC nodad
	fi
	ip -n "$NS_B" link set vBC up
	ip -n "$NS_C" link set vC up
}

# --- whydrop ---------------------------------------------------------------------------------
wd_start() {
	local ns i; ns=$(_ns "$WATCH")
	[ -x "$WHYDROP" ] || fail "no whydrop binary at $WHYDROP (run make, or set WHYDROP)"
	local filter=(--netns "$ns")
	# WATCH=all: drops that carry no namespace at all (no device, no socket) cannot be
	# filtered by netns; such a scenario counts host-wide, filtered by reason only
	[ "$WATCH" = all ] && filter=()
	# --show-all: the lab counts every drop, expected ones too (SOCKET_CLOSE.unix...)
	# RULE: NETFILTER_DROP split by nftables rule (--rules), checked by lab_rule_check
	[ -n "${RULE:-}" ] && filter+=(--rules)
	"$WHYDROP" count --json --show-all "${filter[@]}" -d 600 >"$T/wd.json" 2>"$T/wd.err" &
	WD_PID=$!
	for i in $(seq 200); do
		grep -q attached "$T/wd.err" 2>/dev/null && return 0
		kill -0 "$WD_PID" 2>/dev/null || fail "whydrop exited before attaching: $(tr '\n' ' ' <"$T/wd.err")"
		sleep 0.05
	done
	fail "whydrop did not say 'attached' within 10 s"
}
wd_stop() {
	local i rc=0
	kill -INT "$WD_PID"
	for i in $(seq 300); do kill -0 "$WD_PID" 2>/dev/null || break; sleep 0.05; done
	kill -0 "$WD_PID" 2>/dev/null && fail "whydrop still running 15 s after SIGINT"
	wait "$WD_PID" || rc=$?
	WD_PID=
	[ "$rc" = 0 ] || fail "whydrop exited with status $rc: $(tr '\n' ' ' <"$T/wd.err")"
}

# --- the scenario driver -----------------------------------------------------------------
lab_result() {
	# one machine-readable line for run.sh: RESULT reason family expected whydrop functions verdict note
	printf 'RESULT\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$REASON" "$FAMILY" "${1:--}" "${2:--}" \
		"${3:--}" "$4" "${5:-}" >>"${LAB_RESULTS:-/dev/stdout}"
}

lab_main() {
	trap '_lab_exit' EXIT
	lab_setup
	if declare -F setup >/dev/null; then setup; fi
	wd_start
	trigger
	sleep "$SETTLE"
	wd_stop
	if [ -n "$_EXPECT_CMD" ]; then
		local after; after=$(eval "$_EXPECT_CMD")
		EXPECT=$((after - _EXPECT_BEFORE))
	fi
	[ -n "$EXPECT" ] || fail "scenario did not state an expected count"
	local got funcs
	read -r got funcs < <("$PY" - "$T/wd.json" "$REASON" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
n, fns = 0, set()
for d in doc.get('drops', []):
    if d.get('reason') == sys.argv[2]:
        # compare without compiler suffixes: foo.constprop.0 / foo.isra.0 / foo.cold are foo
        n += d['count']; fns.add(d.get('function', '?').split('.')[0])
print(n, ','.join(sorted(fns)) or '-')
EOF
	)
	_RES_GOT=$got _RES_FUNCS=$funcs
	local verdict=PASS why=
	if [ "$EXPECT" -le 0 ]; then
		verdict=FAIL why="trigger produced no drop (kernel counter/expectation is $EXPECT)"
	elif [ "$got" != "$EXPECT" ]; then
		verdict=FAIL why="count $got != expected $EXPECT"
	elif [ -n "$FUNCTION" ] && [ "$funcs" != "$FUNCTION" ]; then
		verdict=FAIL why="function $funcs != expected $FUNCTION"
	elif [ "$REASON" = NOT_SPECIFIED ] &&
	     ! "$WHYDROP" explain "$FUNCTION" 2>/dev/null | grep -q "^$FUNCTION (call site): "; then
		# a NOT_SPECIFIED drop the lab makes must be explained by its call-site entry
		verdict=FAIL why="no call-site entry for $FUNCTION (src/lib/knowledge/callsites_data.h)"
	fi
	[ "$verdict" = PASS ] && ! why=$(lab_cause_check) && verdict=FAIL
	[ "$verdict" = PASS ] && [ -n "${RULE:-}" ] && ! why=$(lab_rule_check "$got") && verdict=FAIL
	[ -n "$why" ] && _NOTE="$why"
	if [ "$verdict" = FAIL ]; then
		cp "$T/wd.json" "${LAB_KEEP:-/tmp}/wdlab-fail-$REASON.$FAMILY.json" 2>/dev/null || true
	fi
	_VERDICT=$verdict
}

# --- recipes: a family of scenarios that differ only in what they send -------------------
# Each sets setup()/trigger() and runs lab_main; the scenario states REASON, FUNCTION,
# CAUSE and calls one of these last, instead of lab_main.

# send_recipe N PACKET: A sends B N of the scapy PACKET (`lab.py send`); N drops expected.
send_recipe() {
	_RECIPE_N=$1 _RECIPE_PKT=$2
	trigger() {
		send "$_RECIPE_N" "$_RECIPE_PKT"
		expect "$_RECIPE_N"
	}
	lab_main
}

# forge_recipe N [FORGE ARGS...]: A (timestamps off) connects to B's TCP server on port
# 8080 (`lab.py tcp-server`, with the options in SERVER_OPTS if set) and forges segments
# on that connection (`lab.py forge`: --count, --send, seg() expressions with SEQ, ACK and
# WIN); N drops expected, or, N not a number, N is the command expect_counter runs.
forge_recipe() {
	_RECIPE_N=$1
	shift
	_RECIPE=("$@")
	setup() { in_a sysctl -q -w net.ipv4.tcp_timestamps=0; }
	trigger() {
		# shellcheck disable=SC2086 # SERVER_OPTS: options, a word each
		bg_py srv b tcp-server $V 8080 ${SERVER_OPTS:-}
		case $_RECIPE_N in *[!0-9]*) expect_counter "$_RECIPE_N" ;; esac
		bg_py cli a forge $V 8080 "${_RECIPE[@]}"
		case $_RECIPE_N in *[!0-9]*) ;; *) expect "$_RECIPE_N" ;; esac
	}
	lab_main
}

# handshake_recipe [HANDSHAKE ARGS...]: B listens on 8080 and never accepts (`lab.py
# tcp-server --no-accept`, with the options in SERVER_OPTS if set), A's nftables drops the
# SYN-ACKs (a_ignores_synack); A's crafted handshake (`lab.py handshake`: --ts, --tfo,
# --then, --count, seg() expressions) makes 3 drops.
handshake_recipe() {
	_RECIPE=("$@")
	setup() { a_ignores_synack; }
	trigger() {
		# shellcheck disable=SC2086 # SERVER_OPTS: options, a word each
		bg_py srv b tcp-server $V 8080 --no-accept ${SERVER_OPTS:-}
		bg_py hs a handshake $V 8080 "${_RECIPE[@]}"
		expect 3
	}
	lab_main
}

# tunnel_recipe LINK ARGS: B's tunnel device LINK (`ip link add LINK type ARGS`, IPv6 off,
# 203.0.113.1/24, a static neighbour 203.0.113.5 so no ARP); 3 datagrams B sends
# 203.0.113.5 through it are dropped.
tunnel_recipe() {
	_RECIPE_LINK=$1 _RECIPE_TYPE=$2
	setup() {
		in_b sh -c "ip link add $_RECIPE_LINK type $_RECIPE_TYPE &&
			sysctl -q -w net.ipv6.conf.$_RECIPE_LINK.disable_ipv6=1 &&
			ip link set $_RECIPE_LINK up && ip addr add 203.0.113.1/24 dev $_RECIPE_LINK &&
			ip neigh replace 203.0.113.5 lladdr 02:00:00:00:0c:05 dev $_RECIPE_LINK nud permanent"
	}
	trigger() {
		py_b udp-send 4 203.0.113.5 9 3 >/dev/null
		expect 3
	}
	lab_main
}

# listener_recipe PORT FIELDS [SERVER ARGS...]: B listens on PORT (`lab.py tcp-server`,
# SERVER ARGS such as --md5); A sends it 3 segments from port 40000, seq 1000, with the
# scapy TCP() FIELDS (flags, options); 3 drops expected.
listener_recipe() {
	_RECIPE_PORT=$1 _RECIPE_FIELDS=$2
	shift 2
	_RECIPE=("$@")
	trigger() {
		bg_py srv b tcp-server $V "$_RECIPE_PORT" "${_RECIPE[@]}"
		send 3 "E/IPX(src=AX, dst=BX)/TCP(sport=40000, dport=$_RECIPE_PORT, $_RECIPE_FIELDS, seq=1000)"
		expect 3
	}
	lab_main
}

# tap_recipe MODE: B's tap0 drops 5 frames (`lab.py tap-drop MODE`), which counts them
# itself (its failed writes, or tx_dropped); 5 drops expected.
tap_recipe() {
	_RECIPE_MODE=$1
	trigger() {
		bg_py tap b tap-drop "$_RECIPE_MODE" tap0 5
		[ "$(cat "$T/tap.stats")" = 5 ] ||
			fail "tap-drop $_RECIPE_MODE counted $(cat "$T/tap.stats") drops, not 5"
		expect 5
	}
	lab_main
}

# vxlan_recipe HEADER SRC_MAC: B's vxlan_b device gets 3 VXLAN packets with the 8-byte
# VXLAN HEADER (a Python bytes body) around an inner frame from SRC_MAC; 3 drops expected.
vxlan_recipe() {
	_RECIPE_HDR=$1 _RECIPE_MAC=$2
	setup() { vxlan_b; }
	trigger() {
		send 3 "E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=4789)/Raw(b\"$_RECIPE_HDR\")/Ether(src=\"$_RECIPE_MAC\", dst=\"02:00:00:00:0d:02\")/IP(src=\"203.0.113.1\", dst=\"203.0.113.2\")/UDP()"
		expect 3
	}
	lab_main
}

# unix_recipe MODE N: `lab.py unix MODE N` in B (an AF_UNIX drop has only the socket's
# namespace); N drops expected.
unix_recipe() {
	_RECIPE_MODE=$1 _RECIPE_N=$2
	trigger() {
		py_b unix "$_RECIPE_MODE" "$_RECIPE_N"
		expect "$_RECIPE_N"
	}
	lab_main
}

# hook_recipe: 3 UDP datagrams from A to B port 5555, for a program the scenario's setup()
# hooked on vB to drop; 3 drops expected. xdp_recipe OBJ: setup() is OBJ
# (tests/lab/bpf/OBJ.c) attached as generic XDP on vB.
hook_recipe() { send_recipe 3 'E/IP(src=A4, dst=B4)/UDP(sport=40000, dport=5555)'; }
xdp_recipe() {
	_RECIPE_OBJ=$1
	setup() {
		bpf_obj "$_RECIPE_OBJ"
		in_b ip link set dev vB xdpgeneric obj "$T/$_RECIPE_OBJ.o" sec xdp
	}
	hook_recipe
}

# lab_cause_check: the cause whydrop gives the rows names $CAUSE; else prints why, fails
lab_cause_check() {
	"$PY" "$LAB_PY" cause "$T/wd.json" "$REASON" "$CAUSE" 2>&1
}

# lab_rule_check N: --rules named all N drops by $RULE, none unclaimed or not traced
lab_rule_check() {
	"$PY" - "$T/wd.json" "$RULE" "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])).get("rules")
want, n = sys.argv[2], int(sys.argv[3])
if not d:
    sys.exit(print("--rules: no rules object") or 1)
got = {}
for ns in d["namespaces"]:
    for r in ns["by_rule"]:
        k = r["rule"]
        label = "/".join([k["family"], k["table"], k["chain"],
                          "policy" if "policy" in k else str(k["handle"])])
        got[label] = got.get(label, 0) + r["count"]
    got["unclaimed"] = got.get("unclaimed", 0) + ns["unclaimed"]
got["not_traced"] = d["not_traced"]
if got.get(want) != n or sum(got.values()) != n:
    sys.exit(print("--rules: %s, wanted %s=%d" % (got, want, n)) or 1)
EOF
}

_lab_exit() {
	local rc=$?
	set +e
	if [ -n "$_SKIP" ]; then
		lab_result "" "" "" SKIP "$_SKIP"
	elif [ -n "${_VERDICT:-}" ]; then
		lab_result "$EXPECT" "$_RES_GOT" "$_RES_FUNCS" "$_VERDICT" "$_NOTE"
		[ "$_VERDICT" = PASS ] || rc=1
	else
		lab_result "${EXPECT:-}" "" "" FAIL "${_NOTE:-scenario aborted (status $rc)}"
		rc=1
	fi
	lab_teardown "$rc"
}
