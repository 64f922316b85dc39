#!/usr/bin/env bash
# A filter expression counts exactly what tcpdump matches: random IPv4/IPv6
# packets (lengths to 300 bytes) are written to a pcap and, the same
# packets, sent over a veth pair into a namespace whose netdev ingress hook
# drops all of them (NETFILTER_DROP). For each expression, tcpdump -r
# counts the matches in the file and one whydrop count, filtered to that
# namespace, counts the matching drops; the two must be equal. Several
# expressions read past byte 128; one is a host chain of close to 4096
# classic instructions (the kernel's limit), one over it is refused.
# Prints "N passed, N failed".
#   tests/system/filter_tcpdump.sh [WHYDROP]   (WHYDROP_FILTER_SEED=N repeats a run)
. "$(dirname "$0")/../lib/part.sh"
NA=wdtcpd-$$-a
NB=wdtcpd-$$-b
N_PACKETS=500
SEED=${WHYDROP_FILTER_SEED:-$RANDOM$RANDOM}
harness_begin tests/system "$NA" "$NB"
command -v tcpdump >/dev/null || { fail "tcpdump is installed" "scripts/install-deps.sh test"; summary; exit 1; }
echo "-- seed $SEED (WHYDROP_FILTER_SEED=$SEED repeats this run)"

EXPRS=(
	'ip'
	'ip6'
	'tcp'
	'udp and dst port 53'
	'tcp port 443 or udp port 443'
	'icmp or icmp6'
	'tcp[tcpflags] & tcp-syn != 0'
	'net 192.0.2.0/25'
	'ip6 dst net 2001:db8:0:1::/64'
	'portrange 1000-20000'
	'len > 200'
	'less 100'
	'ip[0] & 0xf > 5'
	'ip[200] = 0x7a'
	'udp[150:2] = 0x4142'
	'tcp[140] = 0x7a or udp[140] = 0x7a'
	'ip6[250] = 0x7a'
	'ip[6:2] & 0x1fff = 0 and ip[8] > 32'
)

# veth: vA in NA sends raw frames, vB in NB drops whatever comes in
ip link add vA netns "$NA" type veth peer name vB netns "$NB"
ip netns exec "$NA" sysctl -qw net.ipv6.conf.vA.disable_ipv6=1
ip netns exec "$NB" sysctl -qw net.ipv6.conf.vB.disable_ipv6=1
ip -n "$NA" link set vA up
ip -n "$NB" link set vB up
ip netns exec "$NB" nft -f - <<NFT
table netdev wdtcpd {
	chain in {
		type filter hook ingress device vB priority 0; policy drop;
	}
}
NFT
MAC_B=$(ip -n "$NB" -o link show vB | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')

# The packets: written as a raw-IP pcap (what tcpdump reads) and as frames.
$PY - "$SEED" "$N_PACKETS" "$TMP/pkts.pcap" <<'PYEOF' || fail "scapy writes the packets"
import logging, random, sys
logging.getLogger("scapy.runtime").setLevel(logging.ERROR)	# mixed IP/IPv6 classes
from scapy.all import IP, IPv6, TCP, UDP, ICMP, IPv6ExtHdrHopByHop, \
    IPv6ExtHdrDestOpt, ICMPv6EchoRequest, Raw, wrpcap
seed, n, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rnd = random.Random(seed)

def l4(v6):
    kind = rnd.choice(["tcp", "udp", "icmp", "other"])
    port = rnd.choice([53, 443, 80, 1000, 5000, 20000, 33000, rnd.randrange(1, 65536)])
    if kind == "tcp":
        return TCP(sport=rnd.randrange(1, 65536), dport=port,
                   flags=rnd.choice(["S", "SA", "A", "PA", "R", "F"]))
    if kind == "udp":
        return UDP(sport=rnd.randrange(1, 65536), dport=port)
    if kind == "icmp":
        return ICMPv6EchoRequest() if v6 else ICMP()
    return None

def headers(v6):
    if v6:
        dst = rnd.choice(["2001:db8::2", "2001:db8:0:1::7", "2001:db8:ff::1"])
        p = IPv6(src="2001:db8::1", dst=dst, hlim=64)
        if rnd.random() < 0.25:
            p = p / rnd.choice([IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt()])
    else:
        dst = rnd.choice(["192.0.2.2", "192.0.2.200", "198.51.100.7", "203.0.113.9"])
        p = IP(src=rnd.choice(["192.0.2.1", "192.0.2.130", "198.51.100.1"]), dst=dst,
               ttl=rnd.choice([1, 32, 64, 255]), id=rnd.randrange(65536),
               flags=rnd.choice(["", "DF"]))
        if rnd.random() < 0.2:
            p.options = [b"\x01\x01\x01\x00"] * rnd.randrange(1, 5)  # NOPs, EOL
    t = l4(v6)
    if t is not None:
        return p / t
    if v6:
        p.lastlayer().nh = 59  # no next header
    else:
        p.proto = rnd.choice([47, 50, 132, 253])
    return p

pkts = []
for i in range(n):
    v6 = rnd.random() < 0.5
    h = headers(v6)
    hlen = len(h)
    # a length to 300 bytes, the payload random
    size = rnd.randrange(hlen, 301)
    pl = bytearray(rnd.getrandbits(8) for _ in range(size - hlen))
    raw = bytearray(bytes(h / Raw(bytes(pl))))
    # often the byte some expressions look for, past byte 128 (payload only)
    l4off = hlen - len(h.lastlayer()) if not isinstance(h.lastlayer(), (IP, IPv6)) else hlen
    for off in (200, l4off + 140, 250):
        if hlen <= off < len(raw) and rnd.random() < 0.4:
            raw[off] = 0x7a
    if isinstance(h.lastlayer(), UDP) and l4off + 152 <= len(raw) and rnd.random() < 0.5:
        raw[l4off + 150:l4off + 152] = b"AB"
    pkts.append((IPv6 if v6 else IP)(bytes(raw)))
wrpcap(out, pkts, linktype=101)	# LINKTYPE_RAW
PYEOF

# A host chain as long as the kernel's limit for classic BPF (BPF_MAXINSNS,
# 4096) allows: hosts no packet has, and three the packets have (first,
# middle, last). One host more is refused.
chain() {
	$PY -c 'import sys
n = int(sys.argv[1]); h = ["198.51.%d.%d" % (i // 250, i % 250 + 1) for i in range(n - 3)]
h.insert(0, "198.51.100.7"); h.insert(len(h) // 2, "192.0.2.130"); h.append("203.0.113.9")
print(" or ".join("host " + a for a in h))' "$1"
}
insns() { tcpdump -d -r "$TMP/pkts.pcap" "$1" 2>/dev/null | wc -l; }
HOSTS=1090
while [ "$HOSTS" -gt 1000 ] && [ "$(insns "$(chain "$HOSTS")")" -gt 4096 ]; do HOSTS=$((HOSTS - 1)); done
LONG=$(chain "$HOSTS")
LONG_INSNS=$(insns "$LONG")
check "a chain of $HOSTS hosts: $LONG_INSNS classic instructions (tcpdump -d), near 4096" \
	test "$LONG_INSNS" -gt 4000 -a "$LONG_INSNS" -le 4096
EXPRS+=("$LONG")
TOO_LONG=$(chain $((HOSTS + 2)))
expect_run "$((HOSTS + 2)) hosts, $(insns "$TOO_LONG") instructions: refused, exit 2, the limit said" 2 \
	"^whydrop: filter expression too long: libpcap compiles it to [0-9]+ classic BPF instructions, over the kernel's limit for classic BPF \(BPF_MAXINSNS, 4096\)" \
	"$W" count -d 1 "$TOO_LONG"
# name EXPR: an expression as a check names it (the chain: its length)
name() { if [ ${#1} -gt 80 ]; then echo "${1:0:40}... ($HOSTS hosts)"; else echo "$1"; fi; }

# tcpdump's answer for each expression
declare -A WANT
for e in "${EXPRS[@]}"; do
	WANT[$e]=$(tcpdump -nn -r "$TMP/pkts.pcap" "$e" 2>/dev/null | wc -l)
done
TOTAL=$(tcpdump -nn -r "$TMP/pkts.pcap" 2>/dev/null | wc -l)
check "tcpdump reads the $N_PACKETS packets" test "$TOTAL" -eq "$N_PACKETS"
for e in 'ip[200] = 0x7a' 'udp[150:2] = 0x4142' 'tcp[140] = 0x7a or udp[140] = 0x7a'; do
	check "'$e' (past byte 128) matches some packets: ${WANT[$e]}" test "${WANT[$e]}" -gt 0
done
check "the host chain matches some packets, not all: ${WANT[$LONG]}" \
	test "${WANT[$LONG]}" -gt 0 -a "${WANT[$LONG]}" -lt "$N_PACKETS"

# one whydrop per expression, plus one unfiltered; all attached before sending
declare -A PID_OF
i=0
for e in "" "${EXPRS[@]}"; do
	"$W" count --json --netns "$NB" -r NETFILTER_DROP ${e:+"$e"} >"$TMP/c$i.json" 2>"$TMP/c$i.err" &
	PIDS+=($!)
	PID_OF[$i]=$!
	i=$((i + 1))
done
for ((j = 0; j < i; j++)); do
	wait_attached "$TMP/c$j.err" || fail "instance $j attached" "$(cat "$TMP/c$j.err")"
done

ip netns exec "$NA" $PY - "$TMP/pkts.pcap" "$MAC_B" <<'PYEOF' || fail "the packets are sent"
import sys
from scapy.all import rdpcap, Ether, IP, IPv6, sendp, conf
conf.verb = 0
frames = []
for p in rdpcap(sys.argv[1]):
    et = 0x86dd if bytes(p)[0] >> 4 == 6 else 0x0800
    frames.append(Ether(dst=sys.argv[2], type=et) / bytes(p))
sendp(frames, iface="vA")
PYEOF
sleep 0.3
for ((j = 0; j < i; j++)); do kill -INT "${PID_OF[$j]}" 2>/dev/null; done
for ((j = 0; j < i; j++)); do
	wait "${PID_OF[$j]}" || fail "instance $j exits 0" "$(tail -n 3 "$TMP/c$j.err")"
done

total() { $PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$1" 2>/dev/null; }
check "every packet sent was dropped and counted ($N_PACKETS)" test "$(total "$TMP/c0.json")" = "$N_PACKETS"
j=1
for e in "${EXPRS[@]}"; do
	got=$(total "$TMP/c$j.json")
	check "'$(name "$e")': whydrop ${got:-?} = tcpdump ${WANT[$e]}" test "${got:-x}" = "${WANT[$e]}"
	j=$((j + 1))
done
summary
