#!/usr/bin/env bash
# The library half of --rules on the real kernel (tests/system/nftrace_drive.c
# drives src/lib/nftables/nftrace*.c, nftables_setup.c, nftrules.c, conntrack_stats.c
# from outside the namespaces, as a whydrop session will): whydrop's tracing
# table in and out of a namespace leaving the ruleset byte-identical (normal
# exit, the signal-safe path, SIGKILL with and without the owner flag, stale
# tables of dead owners removed, live ones kept); per-rule drop counts from
# the trace messages equal to each rule's own nft counter and the sender's
# count (rule with and without comment, a chain policy, two tables at one
# hook, iptables-nft, IPv6, the output hook, the forward hook of a router,
# conntrack's invalid state); a user's own nftrace rule and `nft monitor
# trace` unaffected and its drops not claimed; legacy iptables detected;
# NETFILTER_DROP split in the kernel by the skb's nf_trace bit (a tp_btf
# program) equal to the claimed + unclaimed drops; rule text refreshed when
# the ruleset changes; overruns under a flood counted exactly (received +
# lost = sent x messages per packet); the cost per packet printed.
# Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
. tests/lib/router.sh
D=${1:-build/system/nftrace_drive}
C=wdnft-$$-c R=wdnft-$$-r S=wdnft-$$-s F1=wdnft-$$-f1 F2=wdnft-$$-f2
harness_begin tests/system/nftrace "$C" "$R" "$S" "$F1" "$F2"

if [ ! -x "$D" ]; then
	fail "driver built" "no $D (make unit-bins)"
	summary
	exit
fi
if ! command -v nft >/dev/null; then
	fail "nft available" "install nftables (scripts/install-deps.sh test)"
	summary
	exit
fi
HAVE_IPT_NFT=0 HAVE_IPT_LEGACY=0
command -v iptables-nft >/dev/null && HAVE_IPT_NFT=1
command -v iptables-legacy >/dev/null && HAVE_IPT_LEGACY=1

# ---------------------------------------------------------------- topology
# C (client) -- R (router, forwarding on inside it) -- S (server, the rules),
# tests/lib/router.sh; F1 -- F2 a pair without IPv6 for the flood (no
# neighbour discovery traffic).
router_topology "$C" "$R" "$S"
nsx "$F1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
nsx "$F2" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
veth_link "$F1" f1 203.0.113.1/24 "$F2" f2 203.0.113.2/24

# the rules of tests/lib/router.sh, and more: the user's own nftrace rule,
# conntrack's invalid state, an output hook, a rule behind the first
# table's at the same port
router_rules "$C" "$R" "$S" "$D"
nsx "$S" nft -f - <<'EOF'
add rule inet fw input udp dport 7785 meta nftrace set 1 counter drop comment "the user's own trace"
add rule inet fw input tcp dport 7800 ct state invalid counter drop comment "invalid for conntrack"
table inet fw {
	chain output {
		type filter hook output priority 0; policy accept;
		udp dport 7792 counter drop comment "no egress to 7792"
	}
}
insert rule inet fw2 input udp dport 7777 counter drop comment "never reached: fw drops first"
EOF
[ "$HAVE_IPT_NFT" = 1 ] && nsx "$S" iptables-nft -A INPUT -p udp --dport 7781 -j DROP
[ "$HAVE_IPT_LEGACY" = 1 ] && nsx "$S" iptables-legacy -A INPUT -p udp --dport 7782 -j DROP
nsx "$F2" nft -f - <<'EOF'
table inet fw {
	chain input {
		type filter hook input priority 0; policy accept;
		udp dport 9 counter drop
	}
}
EOF
# and F1's neighbour resolved too
nsx "$F1" "$D" flood 203.0.113.2 9999 1 >/dev/null

# ---------------------------------------------------------------- helpers
# drive NAME NS ARGS...: the driver holding NS in the background; LAST is its
# pid once it printed "ready", TBL its table.
drive() {
	local name=$1 ns=$2
	shift 2
	"$D" hold "/run/netns/$ns" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	LAST=$!
	PIDS+=("$LAST")
	if ! poll_until 10 grep -q '^ready ' "$TMP/$name.out"; then
		fail "$name: tracing ready" "$(cat "$TMP/$name.err" "$TMP/$name.out")"
		return 1
	fi
	TBL=$(sed -n 's/^ready \([^ ]*\) .*/\1/p' "$TMP/$name.out")
}

# finish NAME PID: SIGINT, exit 0 and "removed" printed.
finish() {
	local rc
	kill -INT "$2" 2>/dev/null
	wait "$2"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '^removed ' "$TMP/$1.out"; then
		pass "$1: exit 0, table removed"
	else
		fail "$1: exit 0, table removed" "exit $rc: $(tail -n 5 "$TMP/$1.err")"
	fi
}

has_table() { nsx "$1" nft list tables | grep -qw "$2"; }
no_table() { ! has_table "$@"; }

# nft_text NS FAMILY TABLE HANDLE: the rule as `nft -a -s list` prints it
nft_text() {
	nsx "$1" nft -a -s list table "$2" "$3" | grep -E "# handle $4\$" |
		sed -e 's/^[[:space:]]*//' -e 's/ # handle [0-9]*$//'
}
# claim OUT FAMILY TABLE CHAIN HANDLE|policy: the driver's count (0: none)
claim() {
	local pat
	if [ "$5" = policy ]; then pat="^claim $2 $3 $4 policy count "; else pat="^claim $2 $3 $4 handle $5 count "; fi
	local v
	v=$(grep -E "$pat" "$1" | tail -n 1 | sed 's/.* count //')
	echo "${v:-0}"
}
# last_of OUT PREFIX: the rest of the last line starting with PREFIX (the final
# report's: a snapshot may have printed the same lines before)
last_of() { sed -n "s/^$2//p" "$1" | tail -n 1; }
# field OUT KEY WORD: the number after WORD on the line starting with KEY
field() { grep -E "^$2 " "$1" | tail -n 1 | sed -n "s/.* $3 \([0-9-]*\).*/\1/p"; }
# flood NS ADDR PORT COUNT: datagrams sent (and EPERM refusals in EPERM)
flood() {
	local out
	out=$(nsx "$1" "$D" flood "$2" "$3" "$4")
	EPERM=$(sed -n 's/.* eperm \([0-9]*\).*/\1/p' <<<"$out")
	NSPP=$(sed -n 's/.* ns_per_packet \([0-9]*\).*/\1/p' <<<"$out")
	CPUPP=$(sed -n 's/.* cpu_ns_per_packet \([0-9]*\).*/\1/p' <<<"$out")
	sed -n 's/^sent \([0-9]*\) .*/\1/p' <<<"$out"
}
# same_ruleset NS FILE [NFT-OPTION]: the namespace's ruleset listed as FILE holds it
same_ruleset() { nsx "$1" nft -a ${3:-} list ruleset | cmp -s - "$2"; }
snap_has() { sed -n '/^snapshot$/,/^end$/p' "$1" | grep -q "$2"; }

# ---------------------------------------------------------------- the table in and out
echo "whydrop's table, and the ruleset left as found"
nsx "$S" nft -a list ruleset >"$TMP/before"
if drive plain "$S"; then
	check "table inet $TBL present while tracing" has_table "$S" "$TBL"
	LIST=$(nsx "$S" nft list table inet "$TBL")
	eq "5 base chains at priority -2147483648" \
		"$(grep -c 'type filter hook .* priority -2147483648; policy accept;' <<<"$LIST")" 5
	eq "each marks with meta nftrace set 1 accept" \
		"$(grep -cx '[[:space:]]*meta nftrace set 1 accept' <<<"$LIST")" 5
	check "owner flag set (the kernel removes it with the socket)" grep -q 'owner 1' "$TMP/plain.out"
	finish plain "$LAST"
	check "table gone after exit" no_table "$S" "$TBL"
	check "ruleset byte-identical after install + remove" same_ruleset "$S" "$TMP/before"
fi

if drive killed_owner "$S"; then
	kill -KILL "$LAST"
	wait "$LAST" 2>/dev/null
	check "SIGKILL, owner flag: the kernel removed the table with the socket" \
		poll_until 3 no_table "$S" "$TBL"
	check "ruleset byte-identical after SIGKILL (owner)" same_ruleset "$S" "$TMP/before"
fi

if drive killed "$S" --no-owner; then
	check "no owner flag when asked" grep -q 'owner 0' "$TMP/killed.out"
	kill -KILL "$LAST"
	wait "$LAST" 2>/dev/null
	check "SIGKILL, no owner flag: the stale table stays" has_table "$S" "$TBL"
	OUT=$("$D" cleanup "/run/netns/$S")
	eq "the next run removes the dead one's table" "$OUT" "cleanup removed 1 alive 0 unknown 0 failed 0 last $TBL"
	check "stale table gone" no_table "$S" "$TBL"
	check "ruleset byte-identical after SIGKILL + cleanup" same_ruleset "$S" "$TMP/before"
fi

if drive alive "$S" --no-owner; then
	A=$LAST ATBL=$TBL
	OUT=$("$D" cleanup "/run/netns/$S")
	eq "a running whydrop's table is kept" "$OUT" "cleanup removed 0 alive 1 unknown 0 failed 0 last -"
	check "its table still there" has_table "$S" "$ATBL"
	# a table of a pid now reused (this shell's pid, another start time) and
	# one of another pid namespace (cannot tell: left)
	PIDNS=$(stat -L -c %i /proc/self/ns/pid)
	REUSED=whydrop_${PIDNS}_$$_1 OTHER=whydrop_1_1_1
	nsx "$S" nft add table inet "$REUSED"
	nsx "$S" nft add table inet "$OTHER"
	OUT=$("$D" cleanup "/run/netns/$S")
	eq "reused pid removed, other pid namespace and running one kept" "$OUT" \
		"cleanup removed 1 alive 1 unknown 1 failed 0 last $REUSED"
	nsx "$S" nft delete table inet "$OTHER"
	finish alive "$A"
	check "ruleset byte-identical after all of it" same_ruleset "$S" "$TMP/before"
fi

if drive sigsafe "$S" --no-owner --signal-safe; then
	finish sigsafe "$LAST"
	check "signal-safe removal (sendto + close) removed a table without owner" no_table "$S" "$TBL"
	check "ruleset byte-identical after signal-safe removal" same_ruleset "$S" "$TMP/before"
fi

# ---------------------------------------------------------------- which rule dropped it
echo "per-rule drops from traces = each rule's counter = the sender's count"
nsx "$S" nft -a -s list ruleset >"$TMP/s.before"
nsx "$R" nft -a -s list ruleset >"$TMP/r.before"
ip netns exec "$S" nft monitor trace >"$TMP/monitor.out" 2>&1 &
PIDS+=("$!")
MON=$!
drive srv "$S" --ifname s0 --drop-caps --bpf || { summary; exit; }
SRV=$LAST STBL=$TBL
drive rtr "$R" || { summary; exit; }
RTR=$LAST
sleep 1	# nft monitor subscribed
eq "capabilities in effect while tracing (CapEff)" \
	"$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$SRV/status")" 0000000000000000

N1=$(flood "$C" 198.51.100.2 7777 40)
N2=$(flood "$C" 198.51.100.2 7778 30)
N3=$(flood "$C" 198.51.100.2 7779 20)
N4=$(flood "$C" 198.51.100.2 7780 25)
N5=0 N9=0
[ "$HAVE_IPT_NFT" = 1 ] && N5=$(flood "$C" 198.51.100.2 7781 15)
[ "$HAVE_IPT_LEGACY" = 1 ] && N9=$(flood "$C" 198.51.100.2 7782 12)
N6=$(flood "$C" 2001:db8:2::2 7783 18)
N11A=$(flood "$C" 198.51.100.2 7790 22)
N11B=$(flood "$C" 2001:db8:2::2 7790 11)
flood "$S" 198.51.100.1 7792 14 >/dev/null
N7=$EPERM
N8=$(flood "$S" 198.51.100.2 7785 9)	# over lo: not whydrop's (--ifname s0), the user's
N10=$(flood "$S" 198.51.100.2 7777 16)	# over lo: not marked at all
N12=13	# TCP SYN+FIN: invalid for conntrack
nsx "$C" $PY -c '
from scapy.all import IP, TCP, send, conf
conf.verb = 0
send(IP(dst="198.51.100.2")/TCP(sport=40000, dport=7800, flags="SF"), count=13)' 2>/dev/null
sleep 0.5
kill -USR2 "$SRV"
poll_until 5 grep -q '^end$' "$TMP/srv.out"
finish srv "$SRV"
finish rtr "$RTR"
kill -INT "$MON" 2>/dev/null
O=$TMP/srv.out

H1=$(handle "$S" inet fw input 'dport 7777')
H2=$(handle "$S" inet fw input 'dport 7778')
H6=$(handle "$S" inet fw input 'dport 7783')
H8=$(handle "$S" inet fw input 'dport 7785')
H12=$(handle "$S" inet fw input 'dport 7800')
H7=$(handle "$S" inet fw output 'dport 7792')
H3=$(handle "$S" inet fw2 input 'dport 7779')
H0=$(handle "$S" inet fw2 input 'dport 7777')
H4=$(handle "$S" ip pol input 'dport 7780 counter')
eq "rule with comment: claimed = sent" "$(claim "$O" inet fw input "$H1")" "$N1"
eq "rule with comment: its counter = sent + the unmarked lo ones" "$(counter "$S" inet fw "$H1")" "$((N1 + N10))"
# claimed_counted NAME FAMILY TABLE CHAIN HANDLE WANT [WHAT]: the rule's claims
# and its own counter in S, both WANT (WHAT: what that is, "sent")
claimed_counted() {
	eq "$1: claimed = ${7:-sent}" "$(claim "$O" "$2" "$3" "$4" "$5")" "$6"
	eq "$1: counter = ${7:-sent}" "$(counter "$S" "$2" "$3" "$5")" "$6"
}
claimed_counted "rule without comment" inet fw input "$H2" "$N2"
claimed_counted "second table at the same hook" inet fw2 input "$H3" "$N3"
eq "second table's rule behind the first's: never claimed" "$(claim "$O" inet fw2 input "$H0")" 0
eq "second table's rule behind the first's: counter 0" "$(counter "$S" inet fw2 "$H0")" 0
eq "chain policy drop: claimed = sent" "$(claim "$O" ip pol input policy)" "$N4"
eq "chain policy drop: the counter before the policy = sent" "$(counter "$S" ip pol "$H4")" "$N4"
check "policy named as 'policy drop of chain input'" \
	grep -qx 'text ip pol input policy: policy drop of chain input' "$O"
claimed_counted "IPv6 rule" inet fw input "$H6" "$N6"
claimed_counted "output hook" inet fw output "$H7" "$N7" "the sender's EPERMs"
eq "conntrack invalid (ct state invalid drop): claimed = sent" "$(claim "$O" inet fw input "$H12")" "$N12"
eq "conntrack invalid: rule counter = sent" "$(counter "$S" inet fw "$H12")" "$N12"
eq "conntrack invalid: conntrack's own invalid counter moved by as many" "$(field "$O" ctstat invalid)" "$N12"
check "conntrack's counters read in the namespace with no capability in effect" \
	grep -q "^ctsays $N12 packets invalid for conntrack" "$O"
if [ "$HAVE_IPT_NFT" = 1 ]; then
	H5=$(handle "$S" ip filter INPUT 'dport 7781')
	eq "iptables-nft rule: claimed = sent" "$(claim "$O" ip filter INPUT "$H5")" "$N5"
	eq "iptables-nft rule: counter = sent" "$(counter "$S" ip filter "$H5")" "$N5"
	eq "iptables-nft rule text as nft prints it" "$(last_of "$O" "text ip filter $H5: ")" \
		"$(nft_text "$S" ip filter "$H5")"
else
	skip "iptables-nft rule" "no iptables-nft"
fi
for h in "$H1" "$H2" "$H6" "$H12"; do
	eq "text of inet fw handle $h = nft -a -s list" "$(last_of "$O" "text inet fw $h: ")" \
		"$(nft_text "$S" inet fw "$h")"
done
eq "comment of the rule with one" "$(last_of "$O" "comment inet fw $H1: ")" "block legacy app"
eq "no comment for the rule without" "$(grep -c "^comment inet fw $H2:" "$O")" 0
eq "the user's own nftrace rule: its drops are not claimed (foreign = sent)" \
	"$(field "$O" claims foreign)" "$N8"
eq "the user's own nftrace rule: counter = sent" "$(counter "$S" inet fw "$H8")" "$N8"
eq "the user's nft monitor trace still sees its drops" \
	"$(grep -c "udp dport 7785 meta nftrace set 1 counter packets [0-9]* bytes [0-9]* drop comment .* (verdict drop)" "$TMP/monitor.out")" "$N8"
if [ "$HAVE_IPT_LEGACY" = 1 ]; then
	check "legacy iptables in the namespace detected" grep -qx 'legacy 1 ip:filter' "$O"
	eq "legacy iptables: its own counter = sent (drops no trace names)" \
		"$(nsx "$S" iptables-legacy -L INPUT -v -x -n | awk '/dpt:7782/ { print $1 }')" "$N9"
else
	skip "legacy iptables" "no iptables-legacy"
fi
CLAIMED=$((N1 + N2 + N3 + N4 + N5 + N6 + N7 + N12))
eq "claimed in all = the drops of marked packets" "$(field "$O" claims claimed)" "$CLAIMED"
eq "BPF: NETFILTER_DROP with nf_trace = claimed + foreign + legacy (none lost)" \
	"$(field "$O" 'bpf nf_drop' traced)" "$((CLAIMED + N8 + N9))"
eq "BPF: NETFILTER_DROP without nf_trace = the unmarked lo drops" \
	"$(field "$O" 'bpf nf_drop' untraced)" "$N10"
eq "no trace lost (overruns, lost)" "$(field "$O" traces overruns)/$(field "$O" traces lost)" 0/0
eq "router: forward hook claimed = sent (IPv4 + IPv6)" \
	"$(claim "$TMP/rtr.out" inet rfw forward "$(handle "$R" inet rfw forward 'dport 7790')")" \
	"$((N11A + N11B))"
eq "router: forward rule counter = sent" \
	"$(counter "$R" inet rfw "$(handle "$R" inet rfw forward 'dport 7790')")" "$((N11A + N11B))"
check "the snapshot while running named the rule too" \
	snap_has "$O" "^comment inet fw $H1: block legacy app"
check "server ruleset (stateless) identical after tracing" same_ruleset "$S" "$TMP/s.before" -s
check "router ruleset (stateless) identical after tracing" same_ruleset "$R" "$TMP/r.before" -s
check "server: whydrop's table gone" no_table "$S" "$STBL"

# ---------------------------------------------------------------- generations, privileges
echo "rule text follows ruleset changes; lookups need CAP_NET_ADMIN"
if drive gen "$F2" --drop-caps; then
	G=$LAST
	SENT=$(flood "$F1" 203.0.113.2 9 100)
	sleep 0.3
	kill -USR2 "$G"
	poll_until 5 grep -q '^end$' "$TMP/gen.out"
	HF=$(handle "$F2" inet fw input 'dport 9')
	check "text before the change" grep -qx "text inet fw $HF: udp dport 9 counter drop" "$TMP/gen.out"
	nsx "$F2" nft replace rule inet fw input handle "$HF" udp dport 9 counter drop comment '"replaced while tracing"'
	finish gen "$G"
	check "a lookup with no capability in effect fails (nfnetlink wants CAP_NET_ADMIN)" \
		grep -q '^nocap_lookup 0 .*Operation not permitted' "$TMP/gen.out"
	eq "the handle kept by nft replace" "$(handle "$F2" inet fw input 'replaced')" "$HF"
	eq "text after the change (NEWGEN dropped the cached listing)" \
		"$(sed -n "s/^text inet fw $HF: //p" "$TMP/gen.out" | tail -n 1)" \
		'udp dport 9 counter drop comment "replaced while tracing"'
	MSGS=$(field "$TMP/gen.out" traces messages)
	eq "claimed = sent ($SENT)" "$(claim "$TMP/gen.out" inet fw input "$HF")" "$SENT"
	if [ $((MSGS % SENT)) -eq 0 ]; then
		K=$((MSGS / SENT))
		pass "trace messages per dropped packet: $K"
	else
		fail "a whole number of trace messages per packet" "$MSGS messages for $SENT packets"
		K=0
	fi
fi

# ---------------------------------------------------------------- overruns
echo "a flood into a tiny receive buffer: every lost message counted"
if [ "${K:-0}" -gt 0 ] && drive flood "$F2" --pause --rcvbuf 65536 --bpf; then
	FL=$LAST
	C0=$(counter "$F2" inet fw "$HF")
	NF=$(flood "$F1" 203.0.113.2 9 20000)
	kill -USR1 "$FL"
	sleep 0.5
	finish flood "$FL"
	O=$TMP/flood.out
	REC=$(field "$O" traces messages) LOST=$(field "$O" traces lost) CL=$(claim "$O" inet fw input "$HF")
	eq "received + lost = sent x $K messages" "$((REC + LOST))" "$((NF * K))"
	check "overruns (ENOBUFS) reported: $(field "$O" traces overruns), $LOST messages lost" \
		test "$(field "$O" traces overruns)" -ge 1 -a "$LOST" -gt 0
	eq "the rule's counter = sent" "$(($(counter "$F2" inet fw "$HF") - C0))" "$NF"
	eq "BPF: every one of them traced (nf_trace set)" "$(field "$O" 'bpf nf_drop' traced)" "$NF"
	check "0 < claimed $CL < traced $NF: the difference is 'rule unknown: trace lost'" \
		test "$CL" -gt 0 -a "$CL" -lt "$NF"
else
	skip "overruns" "no messages-per-packet figure"
fi

# ---------------------------------------------------------------- cost
echo "cost per delivered packet (2 shared cores: indicative; the best of 3 rounds)"
ip netns exec "$F2" "$D" sink 9999 >"$TMP/sink.out" &
PIDS+=("$!")
SINK=$!
poll_until 5 grep -q ready "$TMP/sink.out"
COST_N=30000
# the best of three rounds each, interleaved: other work on the machine only adds.
# The sender's CPU time includes the receive path run in its context (softirq).
best() { [ -z "$1" ] || [ "$2" -lt "$1" ] && echo "$2" || echo "$1"; }
PLAIN= TRACED= PLAIN_CPU= TRACED_CPU= READER= MPP=0
for round in 1 2 3; do
	flood "$F1" 203.0.113.2 9999 "$COST_N" >/dev/null
	PLAIN=$(best "$PLAIN" "$NSPP") PLAIN_CPU=$(best "$PLAIN_CPU" "$CPUPP")
	drive cost$round "$F2" || break
	flood "$F1" 203.0.113.2 9999 "$COST_N" >/dev/null
	TRACED=$(best "$TRACED" "$NSPP") TRACED_CPU=$(best "$TRACED_CPU" "$CPUPP")
	finish cost$round "$LAST"
	READER=$(best "$READER" "$(($(sed -n 's/^cpu_us //p' "$TMP/cost$round.out") * 1000 / COST_N))")
	MPP=$(($(field "$TMP/cost$round.out" traces messages) + $(field "$TMP/cost$round.out" traces lost)))
done
if [ -n "$TRACED" ]; then
	echo "  cost: sender CPU $PLAIN_CPU ns/packet plain, $TRACED_CPU traced" \
		"(+$((TRACED_CPU - PLAIN_CPU))); wall $PLAIN ns/packet plain, $TRACED traced;"
	echo "        trace reader $READER ns CPU/packet; $((MPP / COST_N)) trace messages/packet" \
		"(received or lost)"
fi
kill -TERM "$SINK" 2>/dev/null

summary
