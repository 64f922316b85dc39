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
expect_run "-r '': names no reason, exit 2" 2 "-r '' names no reason" "$W" count -d 1 -r ''
expect_run "-r ',': names no reason, exit 2" 2 "names no reason" "$W" count -d 1 -r ,

# --netns must name a network namespace, not any file or another namespace.
expect_run "--netns /etc/passwd: not a network namespace, exit 2" 2 \
	"/etc/passwd .*not a network namespace" "$W" count -d 1 --netns /etc/passwd
expect_run "--netns /proc/self/ns/uts: not a network namespace, exit 2" 2 \
	"/proc/self/ns/uts .*not a network namespace" "$W" count -d 1 --netns /proc/self/ns/uts

# Reason numbers as `reasons --json` prints them ("code") work where names do.
# NO_SOCKET's number on this kernel, never a number written here.
"$W" reasons --json >"$TMP_ERR.reasons" 2>&1
check "reasons --json exits 0" test $? -eq 0
NO_SOCKET_CODE=$($PY -c 'import json,sys
print(next(r["code"] for r in json.load(open(sys.argv[1]))["reasons"] if r["name"] == "NO_SOCKET"))' \
	"$TMP_ERR.reasons" 2>/dev/null)
if [ -n "$NO_SOCKET_CODE" ]; then
	"$W" explain NO_SOCKET -i0 >"$TMP_ERR.byname" 2>&1
	rc_name=$?
	"$W" explain "$NO_SOCKET_CODE" -i0 >"$TMP_ERR.bycode" 2>&1
	rc_code=$?
	check "explain $NO_SOCKET_CODE (NO_SOCKET's code) exits 0 like explain NO_SOCKET" \
		test "$rc_code:$rc_name" = 0:0
	check "explain $NO_SOCKET_CODE is the NO_SOCKET entry" \
		test "$(head -n 1 "$TMP_ERR.bycode")" = "$(head -n 1 "$TMP_ERR.byname")"
	check "... whose first line names NO_SOCKET" grep -q '^NO_SOCKET: ' "$TMP_ERR.byname"
	expect_run "explain --json $NO_SOCKET_CODE: name NO_SOCKET, code $NO_SOCKET_CODE" 0 \
		"\"name\": \"NO_SOCKET\"" "$W" explain --json -i0 "$NO_SOCKET_CODE"
	expect_run "-r $NO_SOCKET_CODE (NO_SOCKET's code) is accepted" 0 'drops in' \
		"$W" count -d 0.2 -r "$NO_SOCKET_CODE"
	expect_run "-r NUMBER that this kernel lacks: exit 2" 2 "unknown drop reason '99999'" \
		"$W" count -d 1 -r 99999
else
	fail "NO_SOCKET's code from reasons --json" "$(head -c 300 "$TMP_ERR.reasons")"
fi

# Output that cannot be written is an error: one message, exit 1.
expect_run "reasons >/dev/full: exit 1, the cause" 1 \
	"^whydrop reasons: cannot write standard output: No space left on device$" \
	sh -c "'$W' reasons >/dev/full"
expect_run "explain NO_SOCKET >/dev/full: exit 1, the cause" 1 \
	"^whydrop explain: cannot write standard output: No space left on device$" \
	sh -c "'$W' explain NO_SOCKET -i0 >/dev/full"

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
	skip "dropmon: the no-drop_monitor message" "this kernel has drop_monitor"
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
# --source auto with CAP_NET_ADMIN alone tries drop_monitor; this kernel has
# none, so the answer is the same clear one (the VMs test the fallback).
expect_run "auto, CAP_NET_ADMIN only, no drop_monitor: needs root" 1 \
	'needs root, or the capabilities CAP_BPF and CAP_PERFMON' \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+net_admin \
	--ambient-caps=-all,+net_admin "$W" count -d 1
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

# Once attached, a run has no capability in effect (docs/reliability.md):
# what it reads later in a namespace was opened there at start, -p keeps
# CAP_DAC_READ_SEARCH and CAP_SYS_PTRACE permitted only (raised while it
# scans /proc); the bounding set is empty, no_new_privs set.
# caps_during NAME PRM EFF BND CMD...: the run's capabilities once it says
# so (bounding BND: emptying it takes CAP_SETPCAP).
caps_during() {
	local name=$1 prm=$2 eff=$3 bnd=$4 log pid i st=""
	shift 4
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
	check "$name" test "$st" = "CapPrm:=$prm CapEff:=$eff CapBnd:=$bnd CapAmb:=0000000000000000 NoNewPrivs:=1 "
	rm -f "$log"
}
Z=0000000000000000
SCAN=0000000000080004	# CAP_SYS_PTRACE | CAP_DAC_READ_SEARCH
ip netns add wdcli-priv-$$
caps_during "count, attached: no capability left" $Z $Z $Z "$W" count
caps_during "top, attached: no capability left" $Z $Z $Z "$W" top
caps_during "count --netns: no capability left" $Z $Z $Z "$W" count --netns wdcli-priv-$$
caps_during "top --netns: no capability left" $Z $Z $Z "$W" top --netns wdcli-priv-$$
caps_during "watch: no capability left" $Z $Z $Z "$W" watch
caps_during "watch --netns: no capability left" $Z $Z $Z "$W" watch --netns wdcli-priv-$$
caps_during "record: no capability left" $Z $Z $Z "$W" record -w /dev/null
caps_during "watch -p: /proc scanning permitted, not in effect" $SCAN $Z $Z "$W" watch -p
bnd=$(awk '$1 == "CapBnd:" {print $2}' /proc/self/status)
caps_during "CAP_BPF+CAP_PERFMON as nobody: nothing left" $Z $Z "$bnd" \
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
# The suite runner (tests/run-all.sh) adds up its parts honestly: a part's
# exit status counts, a part that ran nothing fails, skips are carried.
# runner CMD...: totals "passed failed skipped" after part CMD...
runner() { (. tests/run-all.sh && part "fake" "$@" >/dev/null && echo "$total_p $total_f $total_s"); }
fake_part() { printf 'some output\n%s\n' "$1"; return "$2"; }
check "run-all: a part's summary is added up" test "$(runner fake_part '3 passed, 1 failed' 1)" = "3 1 0"
check "run-all: exit 23 with '0 failed' (a leak report) is a failure" \
	test "$(runner fake_part '3 passed, 0 failed' 23)" = "3 1 0"
check "run-all: '0 passed, 0 failed' (ran nothing) is a failure" \
	test "$(runner fake_part '0 passed, 0 failed' 0)" = "0 1 0"
check "run-all: '2 passed, 0 failed, 4 skipped': the skips are carried" \
	test "$(runner fake_part '2 passed, 0 failed, 4 skipped' 0)" = "2 0 4"
check "run-all: no summary line is a failure" test "$(runner fake_part 'all good' 0)" = "0 1 0"
check "run-all: its last line says passed, failed and skipped" \
	grep -q '^echo "$total_p passed, $total_f failed, $total_s skipped"$' tests/run-all.sh

rm -f "$TMP_ERR" "$TMP_ERR".*
summary
