# shellcheck shell=bash
# Sourced by tests/integration/serve.sh: series that retire, and expected
# drops apart. Uses its helpers (serve, stopped, promql, wait_promql, check)
# and its namespace $NS.
#
# 30 short-lived cgroups (made in a cgroup of this test's own in the v2
# hierarchy), three at a time, each holding a receiver with a 1-byte
# SO_RCVBUF that takes a known number of drops (its own count: the drops
# column of /proc/net/udp), then killed and removed before any scrape saw
# it, under --max-series 4 (three series and the fold) and --series-grace
# 2s: each must appear under its path with its receiver's count, leave the
# page after the grace period (not before), and make room for the next
# three; the fold stays 0 and the per-reason total whole. The same with 30
# namespaces made and deleted (their own count: Udp NoPorts). Scraped by
# curl and by the real Prometheus serve.sh starts. Then the drops serve's
# own scrapes cause (QUEUE_PURGE at sk_stream_kill_queues, one per
# connection) are hidden as top and count hide them, unless --show-all.

RT_GRACE=2
RT_CG_ROOT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
RT_CG=${RT_CG_ROOT:+$RT_CG_ROOT/wdserve-$$}
RT_CG_REL=/wdserve-$$
RT_PORT=$((30000 + $$ % 20000))	# the namespaces' drops: UDP to this port only,
RT_MARK=$(printf '7764%04x' $(($$ & 0xffff)))	# starting with these 4 bytes (others' storms)
RT_CG_ADDR=
RT_NS_ADDR=
RT_RCVRS=()

# Everything made here goes, whatever the exit: receivers by pid, cgroups, namespaces.
retire_cleanup() {
	local p d n
	for p in "${RT_RCVRS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	if [ -n "$RT_CG" ] && [ -d "$RT_CG" ]; then
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			for d in "$RT_CG"/c*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
			rmdir "$RT_CG" 2>/dev/null && break
			sleep 0.1
		done
	fi
	for n in $(ip netns list | awk -v p="wdsc-$$-" 'index($1, p) == 1 { print $1 }'); do
		ip netns del "$n" 2>/dev/null
	done
}

# retire_start: the two exporters of the churn, scraped by serve.sh's
# Prometheus too (its configuration reloaded once its own checks are done).
retire_start() {
	if [ -z "$RT_CG" ]; then
		fail "a cgroup v2 hierarchy is mounted" "none in /proc/self/mountinfo"
	elif serve cgchurn --listen 127.0.0.1:0 --netns "$NS" --per-cgroup --max-series 4 \
		--series-grace "${RT_GRACE}s" -r SOCKET_RCVBUFF; then
		RT_CG_ADDR=$ADDR
		RT_CG_PID=$LAST
	fi
	serve nschurn --listen 127.0.0.1:0 --per-netns --max-series 4 \
		--series-grace "${RT_GRACE}s" "udp port $RT_PORT and udp[8:4] = 0x$RT_MARK" &&
		RT_NS_ADDR=$ADDR &&
		RT_NS_PID=$LAST
	retire_prom_reload
}

# retire_prom_reload: the churn jobs added to Prometheus's configuration (SIGHUP).
retire_prom_reload() {
	local p prom=""
	for p in "${PIDS[@]}"; do
		[ "$(readlink "/proc/$p/exe" 2>/dev/null)" = "$PROM" ] && prom=$p
	done
	[ -n "$prom" ] || { fail "churn: Prometheus runs"; return; }
	retire_prom_jobs >>"$TMP/prometheus.yml"
	kill -HUP "$prom"
	[ -z "$RT_CG_ADDR" ] || check "Prometheus scrapes the cgroup churn's exporter" \
		[ "$(wait_promql 'up{job="cgchurn"}' 1 20)" = 1 ]
	[ -z "$RT_NS_ADDR" ] || check "Prometheus scrapes the namespace churn's exporter" \
		[ "$(wait_promql 'up{job="nschurn"}' 1 20)" = 1 ]
}

# retire_stop: both exporters end cleanly (exit 0: under ASan, no leak).
retire_stop() {
	local p
	for p in ${RT_CG_PID:-} ${RT_NS_PID:-}; do
		kill -TERM "$p" 2>/dev/null
		wait "$p"
		check "churn exporter $p: exit 0 on SIGTERM" test $? -eq 0
	done
}

# retire_prom_jobs: Prometheus scrape jobs for them (YAML, under scrape_configs).
retire_prom_jobs() {
	local job addr
	for job in cgchurn nschurn; do
		[ "$job" = cgchurn ] && addr=$RT_CG_ADDR || addr=$RT_NS_ADDR
		[ -n "$addr" ] || continue
		printf '  - job_name: %s\n    scrape_interval: 1s\n    scrape_timeout: 1s\n' "$job"
		printf '    static_configs:\n      - targets: [%s]\n' "'$addr'"
	done
}

# rt_value PAGE METRIC LABELS: the value of one series in a saved page, "" if none.
rt_value() {
	# the netns_cookie label is left out of the match: the test knows namespaces by inode
	sed 's/,netns_cookie="[^"]*"//' "$1" | awk -v m="$2{$3}" '$1 == m { print $2 }'
}

# rt_sum PAGE PATTERN: the sum of the lines matching PATTERN.
rt_sum() {
	awk -v p="$2" '$0 ~ p { s += $NF } END { print s + 0 }' "$1"
}

# rt_rcv DIR PORT: a receiver with a 1-byte SO_RCVBUF in cgroup DIR and $NS; never reads.
rt_rcv() {
	sh -c "echo \$\$ > '$1/cgroup.procs' && exec ip netns exec '$NS' $PY -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
s.bind((\"127.0.0.1\", int(sys.argv[1])))
print(\"ready\", flush=True)
time.sleep(120)' $2" >"$TMP/rcv-$2.out" &
	RT_RCVRS+=($!)
	RT_BATCH+=($!)
}

# rt_udp_drops PORT: the receiver's own drop count, /proc/net/udp's drops column.
rt_udp_drops() {
	ip netns exec "$NS" awk -v p="$(printf ':%04X' "$1")" \
		'substr($2, length($2) - 4) == p { print $NF }' /proc/net/udp
}

# rt_send NS PORT:COUNT:SIZE...: datagrams to 127.0.0.1 in NS, $RT_MARK first.
rt_send() {
	local ns=$1
	shift
	ip netns exec "$ns" $PY - "$RT_MARK" "$@" <<'PYEOF'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
mark = bytes.fromhex(sys.argv[1])
for arg in sys.argv[2:]:
    port, n, size = (int(x) for x in arg.split(":"))
    for _ in range(n):
        s.sendto((mark + b"x" * size)[:max(size, 4)], ("127.0.0.1", port))
PYEOF
}

# rt_absent URL PATTERN: no line of the page matches.
rt_absent() {
	! curl -s "$1" | grep -q -- "$2"
}

# rt_wait_gone URL PATTERN START_MS: poll until the series are gone; prints ms since START_MS.
rt_wait_gone() {
	local i
	for i in $(seq 150); do
		if rt_absent "$1" "$2"; then
			echo $(($(date +%s%3N) - $3))
			return 0
		fi
		sleep 0.1
	done
	echo -1
}

# rt_check_batch PAGE METRIC JOB LABEL REASON B WANT GONE: the three series of batch B
# (i = 3B+1..3B+3), selected by the caller's sel[i] and named tag[i], each with the
# count WANT[i] (the name of the caller's array) on the saved page and in PromQL; the
# fold (LABEL="other") still 0; then the series matching GONE leave $url, ms after
# the caller's t0. Adds to the caller's named, promok, fold_ok, gone_ok and bad.
rt_check_batch() {
	local page=$1 metric=$2 job=$3 label=$4 reason=$5 b=$6 gone=$8 j i
	local -n want=$7
	for j in 1 2 3; do
		i=$((b * 3 + j))
		if [ "$(rt_value "$page" "$metric" "${sel[i]},reason=\"$reason\"")" = "${want[i]}" ]; then
			named=$((named + 1))
		else
			bad="$bad ${tag[i]}(want ${want[i]})"
		fi
		[ "$(wait_promql "$metric{job=\"$job\",${sel[i]}}" "${want[i]}" 4)" = "${want[i]}" ] &&
			promok=$((promok + 1))
	done
	[ "$(rt_value "$page" "$metric" "$label=\"other\",reason=\"other\"")" = 0 ] &&
		fold_ok=$((fold_ok + 1))
	ms=$(rt_wait_gone "$url" "$gone" "$t0")
	[ "$ms" -ge $((RT_GRACE * 1000)) ] && gone_ok=$((gone_ok + 1))
}

# rt_batch_verdicts WHAT WHEN: the caller's promok, fold_ok and gone_ok over the 10
# batches of 3 (WHAT: cgroup or namespace; WHEN the series were to leave the page).
rt_batch_verdicts() {
	check "PromQL saw each series with its count: $promok of 30" [ "$promok" = 30 ]
	check "the fold stayed 0: every later $1 got a series ($fold_ok of 10 batches)" [ "$fold_ok" = 10 ]
	check "dead series left the page $2, not before ($gone_ok of 10 batches)" [ "$gone_ok" = 10 ]
}

# rt_totals PAGE JOB REASON WHOSE TOTAL: REASON's total on the page and in PromQL
# (JOB) is TOTAL, WHOSE own count.
rt_totals() {
	local sum; sum=$(rt_sum "$1" "^whydrop_drops_total\\{reason=\"$3\"")
	check "the per-reason total stays whole: $3 $sum == $4 $5" [ "$sum" = "$5" ]
	check "PromQL: sum(whydrop_drops_total{job=\"$2\"}) == $5" \
		[ "$(wait_promql "sum(whydrop_drops_total{job=\"$2\",reason=\"$3\"})" "$5" 5)" = "$5" ]
}

retire_cgroups() {
	local b j i port want total=0 named=0 promok=0 gone_ok=0 fold_ok=0 dropped=0 t0 ms
	local page=$TMP/cgchurn.txt url=http://$RT_CG_ADDR/metrics bare=0 bad=""
	local -a d sel tag
	echo "-- 30 short-lived cgroups under --max-series 4: series named, counted, retired"
	[ -n "$RT_CG_ADDR" ] || { fail "cgroup churn: its exporter runs"; return; }
	mkdir -p "$RT_CG" || { fail "cgroup churn: a cgroup of the test's own"; return; }
	for b in $(seq 0 9); do
		RT_BATCH=()
		for j in 1 2 3; do
			i=$((b * 3 + j))
			mkdir "$RT_CG/c$i"
			sel[i]="cgroup=\"$RT_CG_REL/c$i\"" tag[i]=c$i
			rt_rcv "$RT_CG/c$i" $((RT_PORT + i))
		done
		for j in 1 2 3; do
			i=$((b * 3 + j))
			poll_until 5 test -s "$TMP/rcv-$((RT_PORT + i)).out"
		done
		rt_send "$NS" $((RT_PORT + b * 3 + 1)):$((b * 3 + 6)):1000 \
			$((RT_PORT + b * 3 + 2)):$((b * 3 + 7)):1000 $((RT_PORT + b * 3 + 3)):$((b * 3 + 8)):1000
		for j in 1 2 3; do
			i=$((b * 3 + j))
			d[i]=$(rt_udp_drops $((RT_PORT + i)))
			[ "${d[i]:-0}" -gt 0 ] && dropped=$((dropped + 1))
			total=$((total + ${d[i]:-0}))
		done
		kill "${RT_BATCH[@]}" 2>/dev/null
		wait "${RT_BATCH[@]}" 2>/dev/null
		t0=$(date +%s%3N)
		for j in 1 2 3; do
			poll_until 5 rmdir "$RT_CG/c$((b * 3 + j))" 2>/dev/null
		done
		# first scrape after the cgroups are gone: named and counted all the same
		curl -s "$url" >"$page"
		cat "$page" >>"$TMP/cgchurn.all"
		rt_check_batch "$page" whydrop_cgroup_drops_total cgchurn cgroup SOCKET_RCVBUFF "$b" d \
			"cgroup=\"$RT_CG_REL/c"
		echo "   cgroups c$((b * 3 + 1))..c$((b * 3 + 3)): drops ${d[b * 3 + 1]} ${d[b * 3 + 2]} ${d[b * 3 + 3]}, series gone ${ms} ms after their removal"
	done
	bare=$(grep -c '^whydrop_cgroup_drops_total{cgroup="cgroup [0-9]*"' "$TMP/cgchurn.all")
	check "every receiver dropped (its own count > 0): $dropped of 30" [ "$dropped" = 30 ]
	check "each cgroup's series under its path with its receiver's count, scraped once it was removed: $named of 30${bad:+ (wrong:$bad)}" \
		[ "$named" = 30 ]
	check "no series named by a bare id (\"cgroup NNN\"): $bare" [ "$bare" = 0 ]
	rt_batch_verdicts cgroup "after --series-grace ${RT_GRACE}s"
	curl -s "$url" >"$page"
	check "whydrop_series_retired_total{metric=\"whydrop_cgroup_drops_total\"} 30" \
		grep -qx 'whydrop_series_retired_total{metric="whydrop_cgroup_drops_total"} 30' "$page"
	rt_totals "$page" cgchurn SOCKET_RCVBUFF "the receivers'" "$total"
	check "PromQL: no series of a removed cgroup is current (stale once retired)" \
		[ "$(wait_promql "absent(whydrop_cgroup_drops_total{job=\"cgchurn\",cgroup=~\"$RT_CG_REL/.*\"})" 1 5)" = 1 ]
	rmdir "$RT_CG" 2>/dev/null
}

retire_netns() {
	local b j i n want total=0 named=0 promok=0 gone_ok=0 fold_ok=0 t0 ms bad=""
	local page=$TMP/nschurn.txt url=http://$RT_NS_ADDR/metrics
	local -a k ino sel tag
	echo "-- 30 short-lived namespaces under --max-series 4: series counted, retired"
	[ -n "$RT_NS_ADDR" ] || { fail "namespace churn: its exporter runs"; return; }
	for b in $(seq 0 9); do
		for j in 1 2 3; do
			i=$((b * 3 + j))
			n=wdsc-$$-$i
			ip netns add "$n"
			ip -n "$n" link set lo up
			t0=$(date +%s%3N)	# a series retires once silent for the grace period too
			rt_send "$n" "$RT_PORT:$((i + 4)):4"
			k[i]=$(ip netns exec "$n" awk '/^Udp:/ { getline; print $3 }' /proc/net/snmp)
			ino[i]=$(stat -L -c %i "/run/netns/$n")
			sel[i]="netns=\"${ino[i]}\"" tag[i]=ns$i
			total=$((total + ${k[i]:-0}))
		done
		for j in 1 2 3; do ip netns del "wdsc-$$-$((b * 3 + j))"; done
		curl -s "$url" >"$page"
		rt_check_batch "$page" whydrop_netns_drops_total nschurn netns NO_SOCKET "$b" k \
			"netns=\"\(${ino[b * 3 + 1]}\|${ino[b * 3 + 2]}\|${ino[b * 3 + 3]}\)\""
		echo "   namespaces $((b * 3 + 1))..$((b * 3 + 3)) (inodes ${ino[b * 3 + 1]} ${ino[b * 3 + 2]} ${ino[b * 3 + 3]}): NoPorts ${k[b * 3 + 1]} ${k[b * 3 + 2]} ${k[b * 3 + 3]}, gone ${ms} ms after their last drop"
	done
	check "each namespace's series with its own count (Udp NoPorts), scraped once it was deleted: $named of 30${bad:+ (wrong:$bad)}" \
		[ "$named" = 30 ]
	rt_batch_verdicts namespace "--series-grace ${RT_GRACE}s after their last drop"
	curl -s "$url" >"$page"
	rt_totals "$page" nschurn NO_SOCKET "the namespaces'" "$total"
	retire_netns_alive
}

# A namespace that is still there keeps its series, silent past the grace
# period; deleted, it goes. Its name is trusted once two scans in a row
# found it (scrapes scan at most once a second): it was there before it dropped.
retire_netns_alive() {
	local n=wdsc-$$-live url=http://$RT_NS_ADDR/metrics k ino t0 ms
	ip netns add "$n"
	ip -n "$n" link set lo up
	ino=$(stat -L -c %i "/run/netns/$n")
	for _ in 1 2; do sleep 1.1; curl -s -o /dev/null "$url"; done
	rt_send "$n" "$RT_PORT:3:4"
	k=$(ip netns exec "$n" awk '/^Udp:/ { getline; print $3 }' /proc/net/snmp)
	for _ in 1 2 3 4; do sleep 1.1; curl -s -o /dev/null "$url"; done
	curl -s "$url" >"$TMP/nsalive.txt"
	check "a namespace still there keeps its series, silent for twice --series-grace ($k drops)" \
		[ "$(rt_value "$TMP/nsalive.txt" whydrop_netns_drops_total "netns=\"$ino\",reason=\"NO_SOCKET\"")" = "$k" ]
	t0=$(date +%s%3N)
	ip netns del "$n"
	ms=$(rt_wait_gone "$url" "netns=\"$ino\"" "$t0")
	check "... deleted, its series goes after --series-grace (${ms} ms)" \
		[ "$ms" -ge $((RT_GRACE * 1000)) ]
}

# rt_purges PAGE: QUEUE_PURGE at sk_stream_kill_queues, hidden and shown ("-": none).
rt_purges() {
	local h s
	h=$(rt_value "$1" whydrop_hidden_drops_total 'reason="QUEUE_PURGE",layer="core",function="sk_stream_kill_queues",rule="QUEUE_PURGE@sk_stream_kill_queues"')
	s=$(rt_value "$1" whydrop_drops_total 'reason="QUEUE_PURGE",layer="core",function="sk_stream_kill_queues"')
	echo "${h:--} ${s:--}"
}

# rt_between V LO HI: V is a number from LO to HI.
rt_between() {
	[[ "$1$2$3" =~ ^[0-9]+$ ]] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# rt_tracer_start: an independent count of the drops in $NS, by bpftrace
# (tests/lab/bpftrace-count.py: the same tracepoint, its own program).
rt_tracer_start() {
	tests/lab/bpftrace-count.py count --json --netns "$NS" >"$TMP/tracer.json" \
		2>"$TMP/tracer.err" &
	RT_TRACER=$!
	PIDS+=("$RT_TRACER")
	poll_until 30 grep -q attached "$TMP/tracer.err"
}

# rt_tracer_purges: its count of QUEUE_PURGE at sk_stream_kill_queues, once stopped.
rt_tracer_purges() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum(x["count"] for x in d["drops"]
          if x["reason"] == "QUEUE_PURGE" and x["function"] == "sk_stream_kill_queues"))' \
		"$TMP/tracer.json" 2>/dev/null
}

# rt_scrape_purges NAME N: N scrapes inside $NS counted by the tracer too,
# then one page (its own connection purges after it): "hidden shown traced".
rt_scrape_purges() {
	local i traced
	if ! rt_tracer_start; then
		echo "- - -"
		return
	fi
	for i in $(seq "$2"); do ip netns exec "$NS" curl -s -o /dev/null "http://$ADDR/metrics"; done
	sleep 0.5	# a connection's purge comes as it is torn down
	kill -INT "$RT_TRACER" 2>/dev/null
	wait "$RT_TRACER"	# not in a $(...): it is this shell's child
	traced=$(rt_tracer_purges)
	ip netns exec "$NS" curl -s "http://$ADDR/metrics" >"$TMP/$1.txt"
	echo "$(rt_purges "$TMP/$1.txt") ${traced:--}"
}

retire_noise() {
	local r
	echo "-- the drops serve's own scrapes cause: hidden as top and count hide them"
	IN_NS=$NS
	serve noise --listen 127.0.0.1:0 --netns "$NS" && {
		read -r -a r <<<"$(rt_scrape_purges noise 25)"
		check "25 scrapes: QUEUE_PURGE@sk_stream_kill_queues in whydrop_hidden_drops_total ('${r[0]}') == bpftrace's count ('${r[2]}')" \
			[ "${r[0]}" = "${r[2]}" ]
		check "... about one per scrape (20 to 50)" rt_between "${r[2]}" 20 50
		check "... and not in whydrop_drops_total" \
			sh -c "! grep -q '^whydrop_drops_total{reason=\"QUEUE_PURGE\"' '$TMP/noise.txt'"
		check "HELP of whydrop_hidden_drops_total says it is apart from whydrop_drops_total" \
			grep -q '^# HELP whydrop_hidden_drops_total .*Not in whydrop_drops_total' "$TMP/noise.txt"
		stopped noise
	}
	serve showall --listen 127.0.0.1:0 --netns "$NS" --show-all && {
		read -r -a r <<<"$(rt_scrape_purges showall 25)"
		check "--show-all: they are in whydrop_drops_total ('${r[1]}') == bpftrace's count ('${r[2]}')" \
			rt_between "${r[1]}" "${r[2]}" "${r[2]}"
		check "--show-all: none hidden" \
			sh -c "! grep -q '^whydrop_hidden_drops_total{reason=\"QUEUE_PURGE\"' '$TMP/showall.txt'"
		stopped showall
	}
	IN_NS=
}

# The by-socket map's loss, said as the code does it (swapped once half full).
retire_lost_help() {
	serve losthelp --listen 127.0.0.1:0 --netns "$NS" --per-cgroup && {
		curl -s "http://$ADDR/metrics" >"$TMP/losthelp.txt"
		check "HELP of whydrop_cgroup_drops_lost_total: lost between two scrapes, not 'never emptied'" \
			sh -c "grep '^# HELP whydrop_cgroup_drops_lost_total' '$TMP/losthelp.txt' |
				grep -q 'between two scrapes' && ! grep -q 'never emptied' '$TMP/losthelp.txt'"
		stopped losthelp
	}
}
