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
CMDS="top watch count record serve reasons explain read"
for c in $CMDS; do
	expect_run "$c -h: usage, options and examples" 0 "^Usage: whydrop (\[)?$c" "$W" "$c" -h
	check "... $c --help is the same as whydrop help $c" \
		test "$("$W" "$c" --help)" = "$("$W" help "$c")"
	check "... $c -h lists -h, -j or its refusal, -v" sh -c "'$W' $c -h | grep -q -- '-h, --help' &&
		'$W' $c -h | grep -q -- '-v, --verbose'"
done
expect_run "unknown command" 2 "unknown command 'frobnicate'" "$W" frobnicate
expect_run "help of no command: exit 2" 2 "whydrop help: no command 'frob'" "$W" help frob

echo "-- one option table: every option known to every command, refused where it does not apply"
# The table, as the generated completion has it: each command's options.
"$W" help --bash-completion >"$TMP_ERR.compl"
opts_of() { sed -n "/^\t$1)\$/{n;s/^\t\topts=\"\(.*\)\" ;;\$/\1/p}" "$TMP_ERR.compl"; }
ALL_OPTS=$(for c in $CMDS; do opts_of "$c"; done | tr ' ' '\n' | sort -u)
check "the table has options for every command" test "$(echo "$ALL_OPTS" | wc -l)" -gt 40
# A value each option with an argument takes (the rest are flags).
value_of() {
	case $1 in
	-d|--duration|--interval|--series-grace) echo 1 ;;
	-r|--reason|--hide) echo NO_SOCKET ;;
	--netns|--noise-file|-w|--write|--user|--svg|--host-root|--docker-root) echo x ;;
	-i|--interface) echo lo ;;
	--group-by) echo netns ;;
	--source) echo bpf ;;
	--dropmon-mode) echo packet ;;
	--listen) echo :1 ;;
	--fail-on) echo 'NO_SOCKET>0' ;;
	-s|--snaplen) echo 0 ;;
	-c|--count|-C|--file-size|-G|--rotate-seconds|-W|--file-count|--rate|--map-size|\
	--max-groups|--stack-map-size|--dropmon-queue|--max-series|--since|--until) echo 5 ;;
	esac
}
bad_accept="" bad_refuse=""
for c in $CMDS; do
	mine=" $(opts_of "$c") "
	for o in $ALL_OPTS; do
		v=$(value_of "$o")
		out=$("$W" "$c" "$o" ${v:+"$v"} -h 2>&1)
		rc=$?
		if [[ $mine == *" $o "* ]]; then
			# taken: parsing goes on to -h, which prints the help
			[ "$rc" -eq 0 ] && grep -q '^Usage: ' <<<"$out" || bad_accept+=" $c:$o($rc)"
		else
			# refused before -h, naming the command and where it applies
			[ "$rc" -eq 2 ] && grep -Eq "^whydrop $c: (-. \()?--[a-z-]+\)? applies to .* \(([a-z]+(, )?)+\)" <<<"$out" ||
				bad_refuse+=" $c:$o($rc)"
		fi
	done
done
check "every command takes the options its table row lists${bad_accept:+ (not:$bad_accept)}" test -z "$bad_accept"
check "... and refuses every other, exit 2, saying where it applies${bad_refuse:+ (not:$bad_refuse)}" \
	test -z "$bad_refuse"
expect_run "count --rate: refused, says why" 2 \
	"^whydrop count: --rate applies to commands that print records \(watch, record\); counting is never rate-limited$" \
	"$W" count -d 1 --rate 5
expect_run "top --rate: refused" 2 "^whydrop top: --rate applies to commands that print records" "$W" top -d 1 --rate 5

# count --fail-on: thresholds parsed before anything is attached; each mistake one
# message saying what to write, exit 2 (a crossed threshold is exit 3: tests/integration/counters.sh)
expect_run "count --fail-on: thresholds of every kind taken" 0 '^Usage: whydrop count' \
	"$W" count --fail-on ' NO_SOCKET>=1/s, unexpected>0 ,any>5,skb_drop_reason_tcp_csum>0.5/s' -h
expect_run "--fail-on: a misspelt reason, with the closest" 2 \
	"^whydrop count: --fail-on: unknown reason 'NO_SOKET'; did you mean 'NO_SOCKET'\?: a reason as .whydrop reasons. names it, unexpected .* or any" \
	"$W" count -d 1 --fail-on 'NO_SOKET>5'
expect_run "--fail-on: a reason without a threshold" 2 \
	"^whydrop count: --fail-on: 'NO_SOCKET' is no threshold: write REASON>N \(a count\) or REASON>N/s \(a rate\)" \
	"$W" count -d 1 --fail-on NO_SOCKET
expect_run "--fail-on: < refused, says why" 2 "^whydrop count: --fail-on: 'NO_SOCKET<5': only > and >= compare" \
	"$W" count -d 1 --fail-on 'NO_SOCKET<5'
expect_run "--fail-on: a threshold that is no number" 2 \
	"^whydrop count: --fail-on: 'NO_SOCKET>ten': the threshold must be a number of drops" \
	"$W" count -d 1 --fail-on 'NO_SOCKET>ten'
expect_run "--fail-on: a count is whole" 2 "the threshold must be a number of drops \(0, 100\) or a rate" \
	"$W" count -d 1 --fail-on 'NO_SOCKET>1.5'
expect_run "--fail-on: empty" 2 "^whydrop count: --fail-on needs at least one threshold" \
	"$W" count -d 1 --fail-on ''
expect_run "--fail-on: a trailing comma" 2 "an empty threshold after the last comma" \
	"$W" count -d 1 --fail-on 'NO_SOCKET>5,'
expect_run "--fail-on: not with --counters-only" 2 \
	"^whydrop count: --fail-on checks the traced counts: it does not go with --counters-only" \
	"$W" count -d 1 --counters-only --fail-on 'any>0'
expect_run "--fail-on: not with --folded" 2 "does not go with --folded \(no report\)" \
	"$W" count -d 1 --stacks --folded --fail-on 'any>0'
expect_run "top --fail-on: refused, points at count" 2 \
	"^whydrop top: --fail-on applies to the command that counts for a while \(count\); .whydrop count -d T --fail-on SPEC. checks one run" \
	"$W" top -d 1 --fail-on 'any>0'
expect_run "serve --fail-on: refused, points at the alerting rules" 2 \
	"^whydrop serve: --fail-on applies .*; serve's alerts are in contrib/prometheus/whydrop-rules.yml" \
	"$W" serve --fail-on 'any>0'
expect_run "serve --json: refused, says it answers Prometheus" 2 \
	"^whydrop serve: --json applies to commands with JSON output .*; serve answers in the Prometheus text format" \
	"$W" serve -d 1 --json
expect_run "serve --explain: refused" 2 "^whydrop serve: --explain applies to commands that print a summary" \
	"$W" serve -d 1 --explain
expect_run "serve --rate: refused" 2 "^whydrop serve: --rate applies to" "$W" serve -d 1 --rate 5
expect_run "record -j: refused, points at read --json" 2 \
	"^whydrop record: -j \(--json\) applies to commands with JSON output.*whydrop read --json FILE" \
	"$W" record -d 1 -j -w /dev/null
expect_run "-i is --interface in explain too: refused, names --interval" 2 \
	"^whydrop explain: -i \(--interface\) applies to commands that trace drops .*; explain's sampling interval is --interval SECS" \
	"$W" explain -i 0 NO_SOCKET
expect_run "explain --interval 0: the sampling interval" 0 '^NO_SOCKET: ' "$W" explain --interval 0 NO_SOCKET
expect_run "explain --interval bad" 2 "bad --interval 'soon'" "$W" explain --interval soon NO_SOCKET
expect_run "an ambiguous abbreviation names the candidates" 2 \
	"ambiguous option '--inter': --interval, --interface" "$W" explain --inter 0 NO_SOCKET
expect_run "-j everywhere it has JSON: reasons -j" 0 '"reasons": \[' "$W" reasons -j
expect_run "-v in reasons: where the names come from" 0 '^whydrop reasons: [0-9]+ reasons from BTF \(/sys/kernel/btf/vmlinux\)' \
	"$W" reasons -v
expect_run "-v in reasons without BTF: from tracefs" 0 '^whydrop reasons: [0-9]+ reasons from tracefs \(.*/events/skb/kfree_skb/format\)' \
	env WHYDROP_NO_BTF=1 "$W" reasons -v
expect_run "-v in explain: where the names come from" 0 '^whydrop explain: [0-9]+ reasons from BTF' \
	"$W" explain -v --interval 0 NO_SOCKET

echo "-- explain rst:NAME: reset reasons apart from drop reasons"
expect_run "explain rst:TCP_ABORT_ON_CLOSE (any case): the entry and its number here" 0 \
	'reason number here: [0-9]+ \(0x[0-9a-f]+\), named from BTF' \
	"$W" explain --interval 0 rst:tcp_abort_on_close
expect_run "explain rst:... without BTF: named from tcp_send_reset's format" 0 \
	'reason number here: [0-9]+ \(0x[0-9a-f]+\), named from tracefs' \
	env WHYDROP_NO_BTF=1 "$W" explain --interval 0 rst:INVALID_SYN
expect_run "explain rst:misspelt: exit 2, the closest reset reason" 2 \
	"^whydrop: unknown reset reason 'rst:TCP_ABORT_ON_CLOSEE'; did you mean 'rst:TCP_ABORT_ON_CLOSE'\\?" \
	"$W" explain rst:TCP_ABORT_ON_CLOSEE
expect_run "explain a reset reason without rst:: exit 2, its name with the scheme" 2 \
	"the reset reason is 'rst:TCP_ABORT_ON_CLOSE'" "$W" explain TCP_ABORT_ON_CLOSE
expect_run "explain --json rst:NO_SOCKET NO_SOCKET: the drop reason and the reset reason apart" 0 \
	'"reasons": \[\{"name": "NO_SOCKET", "subsystem".*"resets": \[\{"name": "NO_SOCKET", "kind": "rst"' \
	"$W" explain --json --interval 0 rst:NO_SOCKET NO_SOCKET

echo "-- whydrop EXPRESSION is whydrop top EXPRESSION; a misspelt command is said"
expect_run "whydrop 'udp port 53' runs top with that filter" 0 '^Summary:' "$W" 'udp port 53' -d 0.3
expect_run "whydrop udp port 53 (words) runs top" 0 '^Summary:' "$W" udp port 53 -d 0.3
expect_run "whydrop -d 0.3 udp runs top" 0 '^Summary:' "$W" -d 0.3 udp
expect_run "whydrop wath: did you mean watch" 2 \
	"^whydrop: unknown command 'wath'; did you mean 'watch'\?" "$W" wath -d 1
expect_run "whydrop wath -h: the misspelt command, not top's help" 2 "did you mean 'watch'\?" "$W" wath -h
expect_run "whydrop udp -h: top's help" 0 '^Usage: whydrop \[top\]' "$W" udp -h
expect_run "whydrop reason: did you mean reasons" 2 "did you mean 'reasons'\?" "$W" reason -d 1
expect_run "whydrop cuont --rate 5: the misspelt command first" 2 "did you mean 'count'\?" "$W" cuont -d 1 --rate 5
expect_run "whydrop frobnicate: no command, and libpcap's word on it as a filter" 2 \
	"unknown command 'frobnicate'.*as top's filter expression, bad filter expression" "$W" frobnicate -d 1

echo "-- generated docs are fresh: man page COMMANDS/OPTIONS and the bash completion"
"$W" help --man >"$TMP_ERR.man"
awk '/^\.\\" BEGIN GENERATED OPTIONS/ { p = 1 } p { print } /^\.\\" END GENERATED OPTIONS/ { p = 0 }' \
	docs/whydrop.8 >"$TMP_ERR.man.have"
check "docs/whydrop.8's COMMANDS and OPTIONS are the option table's (else: make docs)" \
	cmp -s "$TMP_ERR.man" "$TMP_ERR.man.have"
check "contrib/whydrop.bash-completion is the option table's (else: make docs)" \
	cmp -s "$TMP_ERR.compl" contrib/whydrop.bash-completion
check "the man page has no groff warning" sh -c "! LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings \
	-E UTF-8 -l -Tutf8 -Z docs/whydrop.8 2>&1 >/dev/null | grep -q ."
for want in '\-\-counters\-only' '\-\-per\-interface' '\-\-per\-netns' '\-\-max\-series' \
	'\fB\-s\fR, \fB\-\-snaplen' '\fB\-v\fR, \fB\-\-verbose' '.SH KERNEL COUNTERS' \
	'.BR pcap\-filter (7),' '.BR tcpdump (8),' '.BR tshark (1),'; do
	check "the man page has $want" grep -qF -- "$want" docs/whydrop.8
done
# The completion offers what the table says, command by command.
complete_words() {	# complete_words WORD...: what bash completes for the last word
	(. contrib/whydrop.bash-completion
	COMP_WORDS=(whydrop "$@"); COMP_CWORD=$(($# )); _whydrop; echo "${COMPREPLY[*]}")
}
check "completion: watch --ra offers --rate" test "$(complete_words watch --ra)" = "--rate"
check "completion: count --ra offers nothing (count has no --rate)" test -z "$(complete_words count --ra)"
check "completion: explain --in offers --interval only" test "$(complete_words explain --in)" = "--interval"
check "completion: --source offers auto bpf dropmon" test "$(complete_words count --source '')" = "auto bpf dropmon"
check "completion: first word: the commands" \
	test "$(complete_words '')" = "top watch count record serve reasons explain read help"
expect_run "unknown option" 2 "unknown option '--bogus'" "$W" count --bogus
expect_run "option without value" 2 "needs a value" "$W" count -d
expect_run "bad duration: word" 2 "bad duration 'soon'" "$W" count -d soon
expect_run "bad duration: negative" 2 "bad duration '-5'" "$W" count -d -5
expect_run "bad duration: zero" 2 "bad duration '0'" "$W" count -d 0
echo "-- durations as systemd.time and sleep users write them; one parser for -d, --interval, -G"
for d in 10 2.5 90s 1.5m 500ms 1h30m '1h 30min' 2m30s 1d; do
	expect_run "-d '$d' is taken" 0 '^Usage: whydrop count' "$W" count -d "$d" -h
done
for d in 0x10 1e3 -5 +5 nan inf '' 5x 1h30 '5 ' 1M; do
	# -h after it: a value taken by mistake shows the help, it never runs
	expect_run "-d '$d' is refused" 2 \
		"^whydrop count: bad duration '${d//+/\\+}': give seconds \(10, 2.5\) or numbers with units" \
		"$W" count -d "$d" -h
done
expect_run "-d 0.0001: below the millisecond, refused" 2 \
	"bad duration '0.0001': shorter than 1 ms" "$W" count -d 0.0001 -h
expect_run "-d 366d: refused" 2 "bad duration '366d': longer than 365 days" "$W" count -d 366d -h
expect_run "--interval 1.5m is taken" 0 '^Usage: whydrop explain' "$W" explain --interval 1.5m -h
expect_run "--interval 0 (no rate) is taken" 0 '^Usage: whydrop explain' "$W" explain --interval 0 -h
expect_run "--interval 0x10 is refused" 2 "bad --interval '0x10': give seconds" \
	"$W" explain NO_SOCKET --interval 0x10 -h
expect_run "--interval 1e1 is refused" 2 "bad --interval '1e1': give seconds" \
	"$W" explain NO_SOCKET --interval 1e1 -h
expect_run "--interval 2h is refused" 2 "bad --interval '2h': longer than an hour" \
	"$W" explain NO_SOCKET --interval 2h -h
expect_run "-G 1h is taken" 0 '^Usage: whydrop record' "$W" record -G 1h -h
expect_run "-G 0x10 is refused" 2 "bad -G '0x10': give seconds" "$W" record -w /dev/null -G 0x10 -h
expect_run "-G 1.5 is refused: whole seconds" 2 "bad -G '1.5': whole seconds only" \
	"$W" record -w /dev/null -G 1.5 -h
# -d 0.05 ends about then: from "attached" on stderr to the exit, measured
# here; generous for a loaded machine, and the traced time at least -d.
"$W" count --json -d 0.05 >"$TMP_ERR.d.json" 2>"$TMP_ERR.d.err" &
dpid=$!
for _ in $(seq 200); do grep -q attached "$TMP_ERR.d.err" && break; sleep 0.01; done
t_att=$(date +%s%N)
wait "$dpid"
drc=$?
t_end=$(date +%s%N)
d_ms=$(((t_end - t_att) / 1000000))
d_s=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["duration_s"])' "$TMP_ERR.d.json" 2>/dev/null)
echo "   count -d 0.05: ${d_ms} ms from attached to exit, duration_s ${d_s:-?}"
check "count -d 0.05: exit 0" test "$drc" -eq 0
check "count -d 0.05 ends within 3 s of attaching (${d_ms} ms)" test "$d_ms" -lt 3000
check "count -d 0.05 traced for 0.05 s at least (duration_s ${d_s:-?})" \
	$PY -c 'import sys; sys.exit(not float(sys.argv[1]) >= 0.05)' "${d_s:-0}"
rm -f "$TMP_ERR.d.json" "$TMP_ERR.d.err"
expect_run "bad --rate" 2 "bad --rate" "$W" watch --rate lots
expect_run "bad --map-size" 2 "bad --map-size" "$W" count --map-size 0
expect_run "--svg without --stacks: usage error" 2 "^whydrop count: --svg goes with --stacks ..whydrop count --stacks --svg FILE." \
	"$W" count -d 1 --svg "$TMP_ERR.svg"
check "... and no file made" test ! -e "$TMP_ERR.svg"
expect_run "read --svg without --stacks: usage error" 2 "^whydrop read: --svg goes with --stacks ..whydrop read --stacks --svg FILE." \
	"$W" read --svg "$TMP_ERR.svg" /dev/null
check "... and no file made" test ! -e "$TMP_ERR.svg"
expect_run "read --folded without --stacks: usage error" 2 "^whydrop read: --folded goes with --stacks" \
	"$W" read --folded /dev/null
expect_run "read --stacks --lines: usage error, one or the other" 2 "^whydrop read: --lines prints each packet with its recorded stack already" \
	"$W" read --stacks --lines /dev/null
expect_run "--svg -: usage error, a file name is needed" 2 "^whydrop count: --svg '-': give the flame graph's file name" \
	"$W" count -d 1 --stacks --svg -
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
expect_run "reason names: any case, prefix allowed" 0 'drops? in' \
	"$W" count -d 0.2 -r skb_drop_reason_no_socket,tcp_csum
expect_run "-r '': names no reason, exit 2" 2 "-r '' names no reason" "$W" count -d 1 -r ''
expect_run "-r ',': names no reason, exit 2" 2 "names no reason" "$W" count -d 1 -r ,

# --netns must name a network namespace, not any file or another namespace.
expect_run "--netns /etc/passwd: not a network namespace, exit 2" 2 \
	"/etc/passwd .*not a network namespace" "$W" count -d 1 --netns /etc/passwd
expect_run "--netns /proc/self/ns/uts: not a network namespace, exit 2" 2 \
	"/proc/self/ns/uts .*not a network namespace" "$W" count -d 1 --netns /proc/self/ns/uts

echo "-- live: lengths as tcpdump's, singular and plural, top fits the terminal"
NSL=wdcli-live-$$
ip netns add "$NSL" && ip netns exec "$NSL" tests/lib/netns_defaults.sh && ip -n "$NSL" link set lo up
trap 'ip netns del "$NSL" 2>/dev/null' EXIT
udp_drops() {	# udp_drops N: N one-byte datagrams to a closed port in $NSL (NO_SOCKET)
	ip netns exec "$NSL" $PY -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"x", ("127.0.0.1", 9))' "$1"
}
live() {	# live NAME N ARGS...: whydrop ARGS (which end by -d), N drops once attached
	local name=$1 n=$2 pid
	shift 2
	"$W" "$@" >"$TMP_ERR.$name.out" 2>"$TMP_ERR.$name.err" &
	pid=$!
	wait_attached "$TMP_ERR.$name.err"
	udp_drops "$n"
	wait "$pid"
}
live w1 1 watch -d 1.5 --netns "$NSL"
check "watch: len is the IP length (20 + 8 + 1 = 29), no skb_len beside it" \
	grep -Eq '^[0-9:.]+Z NO_SOCKET __udp4_lib_rcv\+0x[0-9a-f]+ ipv4 udp 127\.0\.0\.1:[0-9]+ > 127\.0\.0\.1:9 len 29 dev lo ' \
	"$TMP_ERR.w1.out"
check "watch: 1 drop counted, 1 record shown (singular)" \
	grep -q '^whydrop: 1 drop counted, 1 record shown, 0 not shown' "$TMP_ERR.w1.err"
live wj 2 watch --json -d 1.5 --netns "$NSL"
check "watch --json: \"len\": 29 (IP length), \"skb_len\": 9 (what __udp4_lib_rcv had left)" \
	test "$(grep -c '"len": 29, "skb_len": 9,' "$TMP_ERR.wj.out")" -eq 2
check "watch: 2 drops counted, 2 records shown (plural)" \
	grep -q '^whydrop: 2 drops counted, 2 records shown, 0 not shown' "$TMP_ERR.wj.err"
live r1 1 record -w "$TMP_ERR.r1.pcapng" -d 1.5 --netns "$NSL"
check "record: 1 drop counted, 1 written (singular)" \
	grep -q '^whydrop: 1 drop counted, 1 written to ' "$TMP_ERR.r1.err"
expect_run "read -v: what the file holds, in the singular" 0 \
	"r1.pcapng: 1 section, 1 interface, 1 packet \(1 with a whydrop comment\), 1 statistics block, 0 blocks of other types skipped; written by whydrop" \
	"$W" read -v "$TMP_ERR.r1.pcapng"
live c1 1 count -d 1.5 --netns "$NSL"
check "count: '1 drop in' (singular)" grep -Eq '^1 drop in [0-9.]+ s$' "$TMP_ERR.c1.out"
live c2 2 count -d 1.5 --netns "$NSL"
check "count: '2 drops in' (plural)" grep -Eq '^2 drops in [0-9.]+ s$' "$TMP_ERR.c2.out"
# top on a terminal (script(1) gives it a pty) cuts every line of its live
# frames to the width: the hint goes first, then the location. The summary
# on exit is the count table, whole. Piped, nothing is cut.
top_pty() {	# top_pty NAME STTY [ENV]: top in a pty of that size, drops meanwhile
	local name=$1 size=$2 env=${3:-} i
	(for i in 1 2 3 4 5 6 7 8; do udp_drops 2; sleep 0.3; done) &
	script -qec "stty $size; $env '$W' top -d 2.6 --netns $NSL" /dev/null >"$TMP_ERR.$name" 2>&1
	wait
	# the live frames: escape sequences and carriage returns out, up to the
	# summary, without the messages on stderr (whydrop: attached ...)
	sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g' -e 's/\r$//' "$TMP_ERR.$name" | sed '/^Summary:/,$d' |
		grep -v '^whydrop: ' >"$TMP_ERR.$name.frames"
}
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$1"; }
top_pty t60 "cols 60 rows 50"
check "top in a 60-column terminal: a NO_SOCKET row drawn" grep -q ' NO_SOCKET ' "$TMP_ERR.t60.frames"
check "... no line of its frames wider than 60 (widest: $(widest "$TMP_ERR.t60.frames"))" \
	test "$(widest "$TMP_ERR.t60.frames")" -le 60
check "... the row cut in its location, the hint gone" \
	grep -Eq '^ +[0-9]+ +[0-9.]+  NO_SOCKET +__udp4_lib_[a-z]*$' "$TMP_ERR.t60.frames"
check "... the summary on exit is whole (hint and all)" \
	grep -q 'NO_SOCKET .*__udp4_lib_rcv+0x[0-9a-f]* *no UDP socket on this port' "$TMP_ERR.t60"
top_pty t0 "cols 0 rows 50" "COLUMNS=50"
check "top in a terminal that tells no width: \$COLUMNS (50; widest: $(widest "$TMP_ERR.t0.frames"))" \
	sh -c "grep -q ' NO_SOCKET ' '$TMP_ERR.t0.frames' && test $(widest "$TMP_ERR.t0.frames") -le 50"
top_pty t80 "cols 0 rows 50" "env -u COLUMNS"
check "... and without \$COLUMNS either: 80 (widest: $(widest "$TMP_ERR.t80.frames"))" \
	sh -c "grep -q ' NO_SOCKET ' '$TMP_ERR.t80.frames' && test $(widest "$TMP_ERR.t80.frames") -le 80"
live tpipe 2 top -d 1.5 --netns "$NSL"
check "top into a pipe: nothing cut (the row keeps its hint)" \
	grep -Eq '^ +[0-9]+ +[0-9.]+  NO_SOCKET +__udp4_lib_rcv\+0x[0-9a-f]+ +no UDP socket on this port \(ICMP port unreachable\)$' \
	"$TMP_ERR.tpipe.out"
ip netns del "$NSL"

# Reason numbers as `reasons --json` prints them ("code") work where names do.
# NO_SOCKET's number on this kernel, never a number written here.
"$W" reasons --json >"$TMP_ERR.reasons" 2>&1
check "reasons --json exits 0" test $? -eq 0
NO_SOCKET_CODE=$($PY -c 'import json,sys
print(next(r["code"] for r in json.load(open(sys.argv[1]))["reasons"] if r["name"] == "NO_SOCKET"))' \
	"$TMP_ERR.reasons" 2>/dev/null)
if [ -n "$NO_SOCKET_CODE" ]; then
	"$W" explain NO_SOCKET --interval 0 >"$TMP_ERR.byname" 2>&1
	rc_name=$?
	"$W" explain "$NO_SOCKET_CODE" --interval 0 >"$TMP_ERR.bycode" 2>&1
	rc_code=$?
	check "explain $NO_SOCKET_CODE (NO_SOCKET's code) exits 0 like explain NO_SOCKET" \
		test "$rc_code:$rc_name" = 0:0
	check "explain $NO_SOCKET_CODE is the NO_SOCKET entry" \
		test "$(head -n 1 "$TMP_ERR.bycode")" = "$(head -n 1 "$TMP_ERR.byname")"
	check "... whose first line names NO_SOCKET" grep -q '^NO_SOCKET: ' "$TMP_ERR.byname"
	expect_run "explain --json $NO_SOCKET_CODE: name NO_SOCKET, code $NO_SOCKET_CODE" 0 \
		"\"name\": \"NO_SOCKET\"" "$W" explain --json --interval 0 "$NO_SOCKET_CODE"
	expect_run "-r $NO_SOCKET_CODE (NO_SOCKET's code) is accepted" 0 'drops? in' \
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
	sh -c "'$W' explain NO_SOCKET --interval 0 >/dev/full"

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
# A kernel without BTF (WHYDROP_ATTACH=nobtf: the flavour chosen when the kernel's
# BTF cannot be read): --tcp reads sockets by CO-RE, so every command that takes
# it refuses it, naming BTF, before anything is loaded or written (docs/tcp.md).
# The message's lines joined, to match it whole.
for c in "count -d 1" "watch -d 1" "top -d 1" "record -d 1 -w $TMP_ERR.nobtf" \
	"serve --listen 127.0.0.1:0"; do
	expect_run "no kernel BTF: ${c%% *} --tcp refused, naming BTF, exit 1" 1 \
		'this kernel has no BTF .*CONFIG_DEBUG_INFO_BTF=y.* --tcp, .* need BTF' \
		bash -c 'env WHYDROP_ATTACH=nobtf "$0" "$@" 2>&1 | tr "\n" " "; exit "${PIPESTATUS[0]}"' \
		"$W" ${c%% *} --tcp ${c#* }
done
check "no kernel BTF: record --tcp wrote no file" test ! -e "$TMP_ERR.nobtf"

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
ip netns add wdcli-priv-$$ && ip netns exec wdcli-priv-$$ tests/lib/netns_defaults.sh
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
