#!/usr/bin/env bash
# Command-line behaviour: help, versions, and every user error -> one clear
# message and a non-zero exit. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
W=${1:-build/whydrop}
TMP_ERR=$(mktemp)

expect_run "--version" 0 '^whydrop [0-9]+\.[0-9]+' "$W" --version
expect_run "-h" 0 'Examples' "$W" -h
for c in top watch count reasons explain; do
	expect_run "$c -h shows examples" 0 'Examples' "$W" "$c" -h
done
expect_run "unknown command" 2 "unknown command 'frobnicate'" "$W" frobnicate
expect_run "unknown option" 2 "unknown option '--bogus'" "$W" count --bogus
expect_run "option without value" 2 "needs a value" "$W" count -d
expect_run "bad duration: word" 2 "bad duration 'soon'" "$W" count -d soon
expect_run "bad duration: negative" 2 "bad duration '-5'" "$W" count -d -5
expect_run "bad duration: zero" 2 "bad duration '0'" "$W" count -d 0
expect_run "bad --rate" 2 "bad --rate" "$W" watch --rate lots
expect_run "bad --map-size" 2 "bad --map-size" "$W" count --map-size 0
expect_run "malformed filter: libpcap's message" 2 "bad filter expression: can't parse filter expression: syntax error" \
	"$W" count -d 1 tcp and and udp
expect_run "malformed filter: the column" 2 \
	"\^ here \(column 5\)" "$W" count -d 1 tcp and and udp
expect_run "unknown reason suggests the closest" 2 \
	"unknown drop reason 'NO_SOKET'.*did you mean NO_SOCKET\?.*whydrop reasons" \
	"$W" count -d 1 -r NO_SOKET
expect_run "unknown netns" 2 "no network namespace 'wd-no-such-ns'.*ip netns list" \
	"$W" count -d 1 --netns wd-no-such-ns
expect_run "unknown interface" 2 "no interface 'wdnope0'" "$W" count -d 1 -i wdnope0
expect_run "reason names: any case, prefix allowed" 0 'drops in' \
	"$W" count -d 0.2 -r skb_drop_reason_no_socket,tcp_csum

# --source dropmon (drop_monitor): this host's kernel has none (the VM test
# proves it where it exists); option errors come before anything is asked.
expect_run "bad --source" 2 "bad --source 'ebpf'" "$W" count --source ebpf
expect_run "--dropmon-mode without --source dropmon" 2 "only apply with --source dropmon" \
	"$W" count --dropmon-mode summary
expect_run "bad --dropmon-queue" 2 "bad --dropmon-queue '0'" \
	"$W" count --source dropmon --dropmon-queue 0
expect_run "dropmon: --netns refused (no namespace in its alerts)" 2 \
	"drop_monitor does not say in which network namespace.*--netns" \
	"$W" count -d 1 --source dropmon --netns /proc/self/ns/net
expect_run "dropmon summary mode: no per-packet records" 2 \
	"summary mode counts drops by location only, so per-packet records" \
	"$W" watch -d 1 --source dropmon --dropmon-mode summary
if [ -e /sys/module/drop_monitor ] ||
	ls /lib/modules/"$(uname -r)"/kernel/net/core/drop_monitor.ko* >/dev/null 2>&1; then
	echo "  skip  dropmon: no-drop_monitor message (this kernel has drop_monitor)"
else
	expect_run "dropmon: this kernel has no drop_monitor, exit 1" 1 \
		"this kernel has no drop_monitor \(CONFIG_NET_DROP_MONITOR\)" \
		"$W" count -d 1 --source dropmon
	expect_run "dropmon: the same as nobody" 1 \
		"this kernel has no drop_monitor \(CONFIG_NET_DROP_MONITOR\)" \
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$W" watch -d 1 --source dropmon
	expect_run "auto: BPF fails, no drop_monitor: the BPF error alone" 1 \
		"cannot load the BPF program on skb:kfree_skb: Operation not permitted" \
		env WHYDROP_ATTACH=fail "$W" count -d 1
	check "... and no drop_monitor message then" sh -c "! env WHYDROP_ATTACH=fail \
		$W count -d 1 2>&1 | grep -q drop_monitor"
fi

# Unprivileged: a message that says what to do, and nothing loaded.
expect_run "no privileges" 1 'needs root, or the capabilities CAP_BPF and CAP_PERFMON' \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$W" count -d 1
# Least privilege: CAP_BPF + CAP_PERFMON trace; CAP_SYSLOG adds function names.
expect_run "CAP_BPF+CAP_PERFMON only, as nobody: counts, says why locations are addresses" 0 \
	'hides kernel addresses.*CAP_SYSLOG' \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon \
	--ambient-caps=-all,+bpf,+perfmon "$W" count -d 0.2
expect_run "CAP_BPF+CAP_PERFMON+CAP_SYSLOG, as nobody: attached, names resolved" 0 'attached' \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon,+syslog \
	--ambient-caps=-all,+bpf,+perfmon,+syslog "$W" count -d 0.2
check "... and no hidden-address warning then" sh -c "! setpriv --reuid=65534 --regid=65534 \
	--clear-groups --inh-caps=-all,+bpf,+perfmon,+syslog --ambient-caps=-all,+bpf,+perfmon,+syslog \
	$W count -d 0.2 2>&1 | grep -q 'hides kernel addresses'"
expect_run "reasons works unprivileged" 0 'NO_SOCKET' \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$W" reasons
expect_run "WHYDROP_BTF unreadable: said, no quiet fallback" 1 \
	'WHYDROP_BTF=/nonexistent/vmlinux: No such file or directory' \
	env WHYDROP_BTF=/nonexistent/vmlinux "$W" reasons

# Once attached, a run keeps only what it still needs (docs/reliability.md):
# nothing for count/top, CAP_SYS_ADMIN (setns) for --netns and for the
# interface names of watch/record; the bounding set is empty, no_new_privs set.
# caps_during NAME WANT BND CMD...: the run's capabilities once it says so
# (permitted = effective = WANT; bounding BND: emptying it takes CAP_SETPCAP).
caps_during() {
	local name=$1 want=$2 bnd=$3 log pid i st=""
	shift 3
	log=$(mktemp)
	"$@" -v -d 3 >/dev/null 2>"$log" &
	pid=$!
	for i in $(seq 100); do
		grep -q "going on with" "$log" && break
		sleep 0.05
	done
	st=$(grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs):' /proc/$pid/status 2>/dev/null | awk '{printf "%s=%s ", $1, $2}')
	kill -INT $pid 2>/dev/null
	wait $pid
	check "$name" test "$st" = "CapPrm:=$want CapEff:=$want CapBnd:=$bnd CapAmb:=0000000000000000 NoNewPrivs:=1 "
	rm -f "$log"
}
Z=0000000000000000
ip netns add wdcli-priv-$$
caps_during "count, attached: no capability left" 0000000000000000 $Z "$W" count
caps_during "top, attached: no capability left" 0000000000000000 $Z "$W" top
caps_during "count --netns: CAP_SYS_ADMIN alone" 0000000000200000 $Z "$W" count --netns wdcli-priv-$$
caps_during "watch: CAP_SYS_ADMIN alone" 0000000000200000 $Z "$W" watch
caps_during "record: CAP_SYS_ADMIN alone" 0000000000200000 $Z "$W" record -w /dev/null
bnd=$(awk '$1 == "CapBnd:" {print $2}' /proc/self/status)
caps_during "CAP_BPF+CAP_PERFMON as nobody: nothing left" $Z "$bnd" \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon \
	--ambient-caps=-all,+bpf,+perfmon "$W" count
ip netns del wdcli-priv-$$

# Names from BTF and from the tracefs print fmt must agree exactly.
btf=$("$W" reasons --json)
tfs=$(WHYDROP_NO_BTF=1 "$W" reasons --json)
names() { $PY -c 'import json,sys; d=json.load(sys.stdin); print(d["source"]); [print(r["code"], r["name"]) for r in d["reasons"]]'; }
check "reasons --json from BTF" test "$(names <<<"$btf" | sed -n 1p)" = btf
check "reasons --json from tracefs" test "$(names <<<"$tfs" | sed -n 1p)" = tracefs
check "BTF and tracefs give the same numbers and names" \
	test "$(names <<<"$btf" | tail -n +2)" = "$(names <<<"$tfs" | tail -n +2)"
fmt=/sys/kernel/tracing/events/skb/kfree_skb/format
want=$(grep -o '{ [0-9]*, "NO_SOCKET" }' "$fmt" | grep -o '[0-9]*')
check "NO_SOCKET number matches this kernel's tracefs format ($want)" \
	test "$(names <<<"$btf" | awk '$2 == "NO_SOCKET" {print $1}')" = "$want"

"$W" count -d 1 >/dev/null 2>"$TMP_ERR" &
pid=$!
wait_attached "$TMP_ERR"
ids=$(prog_ids "$pid")
wait "$pid"
check "a run loads its programs ($(echo $ids))" test -n "$ids"
# shellcheck disable=SC2086
check "... and nothing of them is left after it exits" progs_gone $ids
rm -f "$TMP_ERR"
summary
