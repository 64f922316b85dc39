#!/bin/sh
# Runs inside the test VM (busybox sh), started by /init with the results
# channel on fd 3. It builds two network namespaces joined by a veth pair,
#   wda: va 192.0.2.1/24 2001:db8::1/64  <==>  wdb: vb 192.0.2.2/24 2001:db8::2/64
# triggers each drop reason a known number of times from wda into wdb, and
# records, per scenario, what `whydrop count --json --netns wdb` counted and
# what the kernel's own tracepoint saw (tracefs, whole system). It asserts
# nothing: tests/vm/check.py does that on the host.
#
# Result format on fd 3 (one item per line, raw output between markers):
#   @@KV key value
#   @@BEGIN section ... @@END section rc=N
#   @@SCEN name reason expected function_hint
set -u
# shellcheck disable=SC2317 # scenario functions are called by name
T=/sys/kernel/tracing
WD=/bin/whydrop
HAVE_WD=0
[ -x $WD ] && HAVE_WD=1

# busybox-static runs its own applets first (FEATURE_PREFER_APPLETS): the
# real iproute2 must be called by path.
ip() { /usr/sbin/ip "$@"; }
out() { echo "$@" >&3; }
kv() { out "@@KV $1 $2"; }
# sect NAME CMD...: run CMD, its stdout+stderr become section NAME.
sect() {
	_n=$1
	shift
	out "@@BEGIN $_n"
	"$@" >&3 2>&1
	_rc=$?
	out "@@END $_n rc=$_rc"
	return $_rc
}
ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
A() { ip netns exec wda "$@"; }
B() { ip netns exec wdb "$@"; }

# ---------------------------------------------------------------- whydrop
# wd_start OUT ERR CMD...: start whydrop (CMD) in the background, wait for
# "attached" on its stderr (at most 120 s under TCG).
WD_PID=
wd_start() {
	_o=$1 _e=$2
	shift 2
	_t0=$(ms)
	# truncate first: the child's own redirections may run after our first grep
	: >"$_o"
	: >"$_e"
	wdpkt sigdfl "$@" >"$_o" 2>"$_e" &
	WD_PID=$!
	_i=0
	while ! grep -q attached "$_e" 2>/dev/null; do
		if ! kill -0 $WD_PID 2>/dev/null; then
			wait $WD_PID
			echo "whydrop exited before attaching: rc=$?" >>"$_e"
			WD_PID=
			return 1
		fi
		_i=$((_i + 1))
		if [ $_i -gt 1200 ]; then
			echo "whydrop did not attach within 120 s" >>"$_e"
			kill -KILL $WD_PID
			wait $WD_PID
			WD_PID=
			return 1
		fi
		usleep 100000
	done
	WD_ATTACH_MS=$(($(ms) - _t0))
	return 0
}
wd_stop() {
	[ -n "$WD_PID" ] || return 1
	kill -INT $WD_PID
	_i=0
	while kill -0 $WD_PID 2>/dev/null; do
		_i=$((_i + 1))
		if [ $_i -gt 300 ]; then
			echo "whydrop did not exit within 30 s of SIGINT" >&2
			kill -KILL $WD_PID
			break
		fi
		usleep 100000
	done
	wait $WD_PID
	_rc=$?
	WD_PID=
	return $_rc
}

# beside WORK KEY OUT ERR CMD...: with a BPF count already started (WD_PID),
# CMD started beside it (wd_start OUT ERR CMD...), WORK (a function) run
# while both count, CMD stopped (its exit status as kv whydrop_rc.KEY unless
# KEY is -), then the BPF count; returns the BPF count's exit status.
beside() {
	_work=$1 _key=$2 _pb=$WD_PID
	shift 2
	if wd_start "$@"; then
		_pd=$WD_PID
		$_work
		WD_PID=$_pd
		wd_stop
		_rc=$?
		[ "$_key" = - ] || kv "whydrop_rc.$_key" $_rc
	fi
	WD_PID=$_pb
	wd_stop
}

# ---------------------------------------------------------------- tracefs
trace_on() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/skb/kfree_skb/enable
	echo 1 >$T/tracing_on
}
# Count what the tracepoint saw, by "reason location" (location is a
# symbol on 6.12+, a hashed pointer on 6.1).
trace_off() {
	echo 0 >$T/events/skb/kfree_skb/enable
	sed -n 's/.*location=\([^ ]*\) .*reason: \([A-Z0-9_]*\).*/\2 \1/p' $T/trace |
		sed 's/+0x[0-9a-f]*\/0x[0-9a-f]*$//' | sort | uniq -c
}

# ---------------------------------------------------------------- network
setup_net() {
	ip netns add wda && ip netns add wdb &&
	ip link add va netns wda type veth peer name vb netns wdb &&
	A ip link set lo up && B ip link set lo up &&
	A ip addr add 192.0.2.1/24 dev va &&
	A ip addr add 2001:db8::1/64 dev va nodad &&
	B ip addr add 192.0.2.2/24 dev vb &&
	B ip addr add 2001:db8::2/64 dev vb nodad &&
	A ip link set va up && B ip link set vb up || return 1
	# Static neighbours: no ARP/ND traffic, no first-packet queueing.
	_ma=$(A cat /sys/class/net/va/address)
	_mb=$(B cat /sys/class/net/vb/address)
	A ip neigh replace 192.0.2.2 lladdr "$_mb" dev va nud permanent &&
	A ip neigh replace 2001:db8::2 lladdr "$_mb" dev va nud permanent &&
	B ip neigh replace 192.0.2.1 lladdr "$_ma" dev vb nud permanent &&
	B ip neigh replace 2001:db8::1 lladdr "$_ma" dev vb nud permanent || return 1
	A ip -br addr && B ip -br addr && B ip -br link
}

# ---------------------------------------------------------------- scenarios
# Each scenario: NAME REASON COUNT FUNCTION(S) and functions sc_NAME (trigger),
# optional pre_NAME / post_NAME. Distinct counts make mix-ups visible.
pre_none() { :; }
post_none() { :; }

sc_no_socket_v4() { A wdpkt tcp 192.0.2.1 192.0.2.2 40001 9 S 7; }
sc_no_socket_v6() { A wdpkt tcp 2001:db8::1 2001:db8::2 40002 9 S 11; }
sc_no_socket_udp4() { A wdpkt udp 192.0.2.1 192.0.2.2 40003 9 13; }
sc_tcp_csum() { A wdpkt tcp 192.0.2.1 192.0.2.2 40004 9 S 17 badsum; }

pre_netfilter_drop() {
	B nft -f - <<-'EOF'
	table inet wdtest {
		chain input {
			type filter hook input priority 0; policy accept;
			udp dport 7 counter drop
		}
	}
	EOF
}
sc_netfilter_drop() { A wdpkt udp 192.0.2.1 192.0.2.2 40005 7 19; }
post_netfilter_drop() {
	sect nft.netfilter_drop B nft list ruleset
	B nft delete table inet wdtest
}

# --rules (rules.netfilter_drop runs the scenario above so): a chain's policy
# drop, every UDP datagram to port 8 falling through to it.
pre_netfilter_policy() {
	B nft -f - <<-'EOF'
	table ip wdpol {
		chain input {
			type filter hook input priority 0; policy drop;
			meta l4proto != udp accept
			udp dport != 8 accept
			counter
		}
	}
	EOF
}
sc_netfilter_policy() { A wdpkt udp 192.0.2.1 192.0.2.2 40006 8 29; }
post_netfilter_policy() {
	sect nft.netfilter_policy B nft list ruleset
	B nft delete table ip wdpol
}

LPID=
pre_tcp_flags() {
	# by path, not through a function: $! must be the helper itself
	/usr/sbin/ip netns exec wdb wdpkt listen 192.0.2.2 80 >/tmp/listen.out 2>&1 &
	LPID=$!
	_i=0
	while ! grep -q ready /tmp/listen.out; do
		_i=$((_i + 1)); [ $_i -gt 100 ] && return 1; usleep 50000
	done
}
sc_tcp_flags() { A wdpkt tcp 192.0.2.1 192.0.2.2 40006 80 SF 23; }
post_tcp_flags() { kill -TERM $LPID; wait $LPID; }

SPID=
RCVBUFF_SENT=200
pre_socket_rcvbuff() {
	/usr/sbin/ip netns exec wdb wdpkt udpsink 192.0.2.2 5000 0 >/tmp/sink.out 2>&1 &
	SPID=$!
	_i=0
	while ! grep -q ready /tmp/sink.out; do
		_i=$((_i + 1)); [ $_i -gt 100 ] && return 1; usleep 50000
	done
}
sc_socket_rcvbuff() { A wdpkt udp 192.0.2.1 192.0.2.2 40007 5000 $RCVBUFF_SENT 1000; }
post_socket_rcvbuff() {
	sect proc_udp.socket_rcvbuff B cat /proc/net/udp
	# drops column (last) of the socket bound to port 5000 (0x1388)
	_d=$(B cat /proc/net/udp | awk '$2 ~ /:1388$/ { print $NF }')
	kill -TERM $SPID
	wait $SPID
	sect sink.socket_rcvbuff cat /tmp/sink.out
	kv rcvbuff.sent $RCVBUFF_SENT
	kv rcvbuff.proc_drops "${_d:-none}"
}

# cgroup v2's memory.max and a UDP receiver: does it limit socket memory as cgroup v1's
# memory.kmem.tcp.limit_in_bytes does (the lab's PROTO_MEM.ipv4/.ipv6)? cgroup2 mounted with
# the memory controller (the test host binds it to v1); a sink with an 8 MB SO_RCVBUFFORCE,
# so the socket buffer is never the limit, in a cgroup whose memory.max is what it uses +
# 64 KiB; 1000 datagrams of 1000 bytes. check.py asserts what docs/lab.md says: no: each
# charge a received packet makes (softirq, GFP_ATOMIC) is forced past memory.max (a "max"
# event), nothing is dropped, and whydrop counts no PROTO_MEM, as the tracepoint.
CG2=/sys/fs/cgroup
MPID=
PROTOMEM_SENT=1000
udp_mib() { B awk -v k="$1" '/^Udp:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 }
	else print $c[k] }' /proc/net/snmp; }
pre_proto_mem_v2() {
	mkdir -p $CG2 && mount -t cgroup2 cgroup2 $CG2 && grep -qw memory $CG2/cgroup.controllers &&
		echo +memory >$CG2/cgroup.subtree_control && mkdir $CG2/wdmem || return 1
	sh -c "echo \$\$ >$CG2/wdmem/cgroup.procs &&
		exec /usr/sbin/ip netns exec wdb wdpkt udpsink 192.0.2.2 5001 -8000000" \
		>/tmp/memsink.out 2>&1 &
	MPID=$!
	_i=0
	while ! grep -q ready /tmp/memsink.out; do
		_i=$((_i + 1)); [ $_i -gt 100 ] && return 1; usleep 50000
	done
	echo $(($(cat $CG2/wdmem/memory.current) + 65536)) >$CG2/wdmem/memory.max || return 1
	PROTOMEM_ERR0=$(udp_mib MemErrors)
	cat /tmp/memsink.out $CG2/wdmem/memory.current $CG2/wdmem/memory.max
}
sc_proto_mem_v2() { A wdpkt udp 192.0.2.1 192.0.2.2 40017 5001 $PROTOMEM_SENT 1000; }
post_proto_mem_v2() {
	# drops column (last) of the socket bound to port 5001 (0x1389)
	_d=$(B cat /proc/net/udp | awk '$2 ~ /:1389$/ { print $NF }')
	_e=$(($(udp_mib MemErrors) - ${PROTOMEM_ERR0:-0}))
	sect memcg.memcg_v2 grep -H . $CG2/wdmem/memory.current $CG2/wdmem/memory.max \
		$CG2/wdmem/memory.events
	[ -n "$MPID" ] && kill -TERM $MPID && wait $MPID
	sect sink.memcg_v2 cat /tmp/memsink.out
	rmdir $CG2/wdmem
	umount $CG2
	kv memcg_v2.sent $PROTOMEM_SENT
	kv memcg_v2.proc_drops "${_d:-none}"
	kv memcg_v2.memerrors "$_e"
}

# run_scenario NAME REASON COUNT FUNCS [PREFIX [ENV [FILTER]]]
# COUNT "proc" means: the kernel's own counter decides (SOCKET_RCVBUFF).
# FILTER defaults to "--netns wdb"; "" counts in every namespace.
run_scenario() {
	_name=$1 _reason=$2 _count=$3 _func=$4 _pfx=${5:-} _env=${6:-}
	_filter=${7---netns wdb}
	_id=$_pfx$_name
	out "@@SCEN $_id $_reason $_count $_func"
	pre=pre_$_name post=post_$_name
	type $pre >/dev/null 2>&1 || pre=pre_none
	type $post >/dev/null 2>&1 || post=post_none
	sect pre.$_id $pre || return 1
	trace_on
	_wd=0
	if [ $HAVE_WD = 1 ]; then
		# shellcheck disable=SC2086 # $_env: zero or more VAR=value
		if wd_start /tmp/c.json /tmp/c.err env $_env \
			$WD count --json $_filter -d 600; then
			_wd=1
			kv attach_ms.$_id $WD_ATTACH_MS
		fi
	fi
	_t0=$(ms)
	sect trigger.$_id sc_$_name
	usleep 500000
	if [ $_wd = 1 ]; then
		wd_stop
		kv whydrop_rc.$_id $?
	fi
	kv trigger_ms.$_id $(($(ms) - _t0))
	sect trace.$_id trace_off
	if [ $HAVE_WD = 1 ]; then
		sect count.$_id cat /tmp/c.json
		sect stderr.$_id cat /tmp/c.err
	fi
	$post
}

# ---------------------------------------------------------------- drop_monitor
# --source dropmon against the BPF backend on the same traffic: both count at
# once, every namespace, filtered to packets for wdb (the RSTs going back to
# wda are NO_SOCKET drops too). Then its errors, a watch through the
# automatic fallback, and that SIGTERM leaves nothing running.
DM_FILTER="dst host 192.0.2.2 or dst host 2001:db8::2"
DM_KO=/lib/modules/$(uname -r)/kernel/net/core/drop_monitor.ko

# As nobody with a few capabilities: util-linux setpriv, which run.sh must
# copy into the initramfs (busybox's cannot change the uid); without it the
# checks that need it are skipped.
SETPRIV=/usr/bin/setpriv
as_nobody() {
	_caps=$1
	shift
	$SETPRIV --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all$_caps \
		--ambient-caps=-all$_caps "$@"
}

# --source auto without BPF's capabilities. CAP_NET_ADMIN alone: auto must
# try drop_monitor (these kernels want CAP_SYS_ADMIN to join its group, so
# it says what each way lacks). CAP_NET_ADMIN and CAP_SYS_ADMIN with the BPF
# load forced to fail (CAP_SYS_ADMIN allows BPF): drop_monitor, as nobody,
# beside the BPF backend as root, on the same drops.
dropmon_privileges() {
	if ! $SETPRIV --help 2>&1 | grep -q -- --reuid; then
		kv dm.setpriv missing
		return 0
	fi
	kv dm.setpriv ok
	# kallsyms' addresses for nobody too: rows are compared by location
	_pp=$(cat /proc/sys/kernel/perf_event_paranoid)
	_kr=$(cat /proc/sys/kernel/kptr_restrict)
	echo 1 >/proc/sys/kernel/perf_event_paranoid
	echo 0 >/proc/sys/kernel/kptr_restrict
	sect dm.netadmin as_nobody ,+net_admin $WD count -d 1 "$DM_FILTER"
	sect dm.sysadmin_bpf as_nobody ,+net_admin,+sys_admin $WD count -d 0.5
	wd_start /tmp/dpb.json /tmp/dpb.err $WD count --json -d 600 "$DM_FILTER" || return 1
	beside dm_priv_v4v6 dm_priv /tmp/dpd.json /tmp/dpd.err env WHYDROP_ATTACH=fail \
		$SETPRIV --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all,+net_admin,+sys_admin --ambient-caps=-all,+net_admin,+sys_admin \
		$WD count --json -d 600 "$DM_FILTER"
	echo "$_pp" >/proc/sys/kernel/perf_event_paranoid
	echo "$_kr" >/proc/sys/kernel/kptr_restrict
	sect dm.priv_bpf cat /tmp/dpb.json
	sect dm.priv_dropmon cat /tmp/dpd.json
	sect stderr.dm_priv cat /tmp/dpd.err
}

# dm_burst NAME SPORT: section trigger.NAME, 3000 datagrams from wda's SPORT
# to port 9, held by netem and released in softirq batches, which
# drop_monitor's worker cannot interrupt (it kept up with a plain send loop
# on 6.1)
dm_burst() {
	A /usr/sbin/tc qdisc add dev va root netem delay 300ms limit 10000
	sect "trigger.$1" A wdpkt udp 192.0.2.1 192.0.2.2 "$2" 9 3000
	usleep 800000
	A /usr/sbin/tc qdisc del dev va root
}
dm_serve_queue_scraped() {
	dm_burst dm_serve_queue 40018
	# under TCG the kernel may still be at the burst: scrape until the
	# drops and losses (both read at the scrape) stop moving
	_prev= _i=0
	while [ $_i -lt 15 ]; do
		_i=$((_i + 1))
		usleep 1000000
		wget -qO- http://127.0.0.1:9465/metrics >/tmp/dsq.prom 2>&1
		_now=$(grep -E '^whydrop_(drops|lost_events)_total' /tmp/dsq.prom |
			awk '{ s += $NF } END { print s + 0 }')
		[ "$_now" = "$_prev" ] && break
		_prev=$_now
	done
	kv dm.serve_queue_scrapes $_i
	sect dm.serve_queue_metrics cat /tmp/dsq.prom
}
# serve's metrics show drop_monitor's losses while it runs: the burst of the
# queue test below (--dropmon-queue 10), scraped before serve stops, beside
# the BPF backend counting the same drops.
dropmon_serve_losses() {
	wd_start /tmp/dsqb.json /tmp/dsqb.err $WD count --json -r NO_SOCKET -d 600 \
		'udp dst port 9' || return 1
	beside dm_serve_queue_scraped dm_serve_queue /tmp/dsq.out /tmp/dsq.err \
		$WD serve --source dropmon --dropmon-queue 10 \
		-r NO_SOCKET --listen 127.0.0.1:9465 'udp dst port 9'
	sect dm.serve_queue_bpf cat /tmp/dsqb.json
	sect stderr.dm_serve_queue cat /tmp/dsq.err
}
# what the runs beside BPF (beside) count
dm_priv_v4v6() {
	sect trigger.dm_priv4 sc_no_socket_v4
	sect trigger.dm_priv6 sc_no_socket_v6
	usleep 500000
}
dm_busy_v4v6nf() {
	sect dm.busy $WD count --source dropmon -d 1
	sect trigger.dm_v4 sc_no_socket_v4
	sect trigger.dm_v6 sc_no_socket_v6
	sect trigger.dm_nf sc_netfilter_drop
	usleep 500000
}
dm_queue_burst() { dm_burst dm_queue 40017; }
dm_summary_udp4() {
	sect trigger.dm_summary sc_no_socket_udp4
	usleep 500000
}
dropmon_scenarios() {
	# not loaded: no autoload here (the kernel would modprobe NET_DM's alias)
	_mp=$(cat /proc/sys/kernel/modprobe)
	echo /bin/false >/proc/sys/kernel/modprobe
	sect dm.notloaded $WD count --source dropmon -d 1
	echo "$_mp" >/proc/sys/kernel/modprobe
	sect dm.insmod insmod $DM_KO || return 1
	sect dm.netns A $WD count --source dropmon -d 1
	# A container: its own network and PID namespaces, so its PID 1 shares
	# its network namespace; then a PID namespace alone (the host's network
	# namespace), where drop_monitor answers.
	sect dm.netns_pidns A unshare -p -f --mount-proc $WD count --source dropmon -d 1
	sect dm.pidns unshare -p -f --mount-proc $WD count --source dropmon -d 0.5
	dropmon_privileges

	pre_netfilter_drop
	wd_start /tmp/dmb.json /tmp/dmb.err $WD count --json -d 600 "$DM_FILTER" || return 1
	beside dm_busy_v4v6nf dm_dropmon /tmp/dmd.json /tmp/dmd.err \
		$WD count --json --source dropmon -d 600 "$DM_FILTER"
	kv whydrop_rc.dm_bpf $?
	# not post_netfilter_drop: its section belongs to the netfilter_drop scenario
	sect nft.dm B nft list ruleset
	B nft delete table inet wdtest
	sect dm.count_bpf cat /tmp/dmb.json
	sect dm.count_dropmon cat /tmp/dmd.json
	sect stderr.dm_dropmon cat /tmp/dmd.err

	# BPF "cannot load" (forced): watch falls back to drop_monitor, once said.
	if wd_start /tmp/dmw.json /tmp/dmw.err env WHYDROP_ATTACH=fail \
		WHYDROP_DROPMON_DUMP=/tmp/dm.hex $WD watch --json "$DM_FILTER"; then
		sect trigger.dm_watch4 A wdpkt tcp 192.0.2.1 192.0.2.2 40013 9 S 3
		sect trigger.dm_watch6 A wdpkt udp 2001:db8::1 2001:db8::2 40014 9 2
		usleep 500000
		wd_stop
		kv whydrop_rc.dm_watch $?
	fi
	sect dm.watch cat /tmp/dmw.json
	sect stderr.dm_watch cat /tmp/dmw.err
	# the kernel's packet alerts, for tests/unit/fixtures/dropmon/
	sect dm.hex cat /tmp/dm.hex

	# SIGTERM must STOP the trace: a new listener can then configure it.
	if wd_start /tmp/dmt.out /tmp/dmt.err $WD count --source dropmon -d 600; then
		kill -TERM $WD_PID
		wait $WD_PID
		kv whydrop_rc.dm_term $?
		WD_PID=
	fi
	sect dm.after_term $WD count --source dropmon -d 1

	# A burst beyond drop_monitor's per-CPU queue (10 here): what it could not
	# hold must come back as losses, received + lost = BPF's exact count.
	# Both count only the burst: drop_monitor's packet mode never sees a
	# drop whose skb has no MAC header yet (a local packet), BPF does.
	wd_start /tmp/dqb.json /tmp/dqb.err $WD count --json -r NO_SOCKET -d 600 \
		'udp dst port 9' || return 1
	beside dm_queue_burst - /tmp/dqd.json /tmp/dqd.err $WD count --json --source dropmon \
		--dropmon-queue 10 -r NO_SOCKET -d 600 'udp dst port 9'
	sect dm.queue_bpf cat /tmp/dqb.json
	sect dm.queue cat /tmp/dqd.json
	sect stderr.dm_queue cat /tmp/dqd.err

	# Summary mode (counts by location) beside BPF on the same 13 datagrams.
	# --show-all: a location-only row is never matched by the noise list, so
	# BPF would hide an expected drop (an MLD report at ip6_mc_input) that
	# summary mode shows.
	wd_start /tmp/dsb.json /tmp/dsb.err $WD count --json --show-all -d 600 || return 1
	beside dm_summary_udp4 - /tmp/dss.json /tmp/dss.err $WD count --json --show-all \
		--source dropmon --dropmon-mode summary -d 600
	sect dm.summary_bpf cat /tmp/dsb.json
	sect dm.summary cat /tmp/dss.json
	sect stderr.dm_summary cat /tmp/dss.err

	# record to pcapng, read back; serve as nobody (CAP_NET_ADMIN kept for STOP).
	if wd_start /tmp/dmr.out /tmp/dmr.err $WD record --source dropmon -w /tmp/dm.pcapng \
		"$DM_FILTER"; then
		sect trigger.dm_record A wdpkt udp 192.0.2.1 192.0.2.2 40015 9 4
		usleep 500000
		wd_stop
	fi
	sect stderr.dm_record cat /tmp/dmr.err
	sect dm.read $WD read --json /tmp/dm.pcapng
	ip link set lo up
	if wd_start /tmp/dmv.out /tmp/dmv.err $WD serve --source dropmon \
		--listen 127.0.0.1:9464 "$DM_FILTER"; then
		sect trigger.dm_serve A wdpkt udp 192.0.2.1 192.0.2.2 40016 9 6
		# under TCG drop_monitor's alerts may arrive late: wait (5 s at
		# most) until a scrape shows the 6, then take the scrape checked
		_i=0
		while [ $_i -lt 10 ]; do
			_i=$((_i + 1))
			usleep 500000
			wget -qO- http://127.0.0.1:9464/metrics 2>/dev/null |
				grep -q '^whydrop_drops_total{.*reason="NO_SOCKET".*} 6$' && break
		done
		sect dm.metrics wget -qO- http://127.0.0.1:9464/metrics
		wd_stop
		kv whydrop_rc.dm_serve $?
	fi
	sect stderr.dm_serve cat /tmp/dmv.err
	sect dm.after_serve $WD count --source dropmon -d 0.5
	dropmon_serve_losses

	# SIGKILL cannot STOP: the next whydrop finds it running, sees that its
	# owner is a dead whydrop, stops it and goes on.
	if wd_start /tmp/dmk.out /tmp/dmk.err $WD count --source dropmon -d 600; then
		kill -KILL $WD_PID
		wait $WD_PID
		WD_PID=
	fi
	sect dm.after_kill $WD count --source dropmon -d 0.5
	sect dm.after_recovery $WD count --source dropmon -d 0.5
}

# ---------------------------------------------------------------- call sites
# NOT_SPECIFIED and the generic reasons only name the function that freed the
# packet. A short everyday workload, counted in every namespace with stacks:
# wdpkt sockmix (sockets closed with unread data, a Unix datagram socket
# reconnected, TCP resets) over lo in wdb, 3 UDP datagrams to a closed port,
# and an interface taken down with packets queued. check.py asserts that
# `whydrop explain FUNCTION` answers for every function it reports.
#
# The interface (own namespaces wdc/wdd): netem holds 5 datagrams and refuses
# 3 more (a full qdisc), 3 wait on a neighbour that never resolves
# (198.51.100.77); then the link goes down and is deleted.
ifdown_queued() {
	ip netns add wdc && ip netns add wdd &&
	ip link add vc netns wdc type veth peer name vd netns wdd &&
	ip -n wdc addr add 198.51.100.1/24 dev vc &&
	ip -n wdd addr add 198.51.100.2/24 dev vd &&
	ip -n wdc link set vc up && ip -n wdd link set vd up || return 1
	_m=$(ip netns exec wdd cat /sys/class/net/vd/address)
	ip -n wdc neigh replace 198.51.100.2 lladdr "$_m" dev vc nud permanent &&
	ip netns exec wdc /usr/sbin/tc qdisc add dev vc root netem delay 2s limit 5 ||
		return 1
	ip netns exec wdc wdpkt udp 198.51.100.1 198.51.100.2 40021 9 8
	ip netns exec wdc wdpkt udp 198.51.100.1 198.51.100.77 40022 9 3
	usleep 300000
	ip netns exec wdc /usr/sbin/tc -s qdisc show dev vc
	ip -n wdc link set vc down && ip -n wdc link del vc &&
	ip netns del wdc && ip netns del wdd
}
callsite_workload() {
	# the generic reasons this kernel has: QUEUE_PURGE (6.6+), SOCKET_CLOSE
	# (what NOT_SPECIFIED at unix_release_sock became: 6.14, and 6.12.118)
	_r=NOT_SPECIFIED
	for _g in QUEUE_PURGE SOCKET_CLOSE; do
		grep -q "\"$_g\"" $T/events/skb/kfree_skb/format && _r=$_r,$_g
	done
	kv callsite_reasons $_r
	_t0=$(ms)
	# QDISC_DROP too: how this kernel reports the full qdisc
	wd_start /tmp/cs.json /tmp/cs.err $WD count --json --show-all --stacks \
		-r $_r,QDISC_DROP -d 600 || return 1
	sect cs.sockmix4 B wdpkt sockmix 192.0.2.2 6000
	sect cs.sockmix6 B wdpkt sockmix 2001:db8::2 6010
	sect cs.udp_closed A wdpkt udp 192.0.2.1 192.0.2.2 40020 9 3
	sect cs.ifdown ifdown_queued
	# UDP sockets are destroyed after an RCU grace period
	usleep 1000000
	wd_stop
	kv whydrop_rc.callsites $?
	sect cs.count cat /tmp/cs.json
	sect stderr.cs cat /tmp/cs.err
	for _f in $(grep -o '"function": "[^"]*"' /tmp/cs.json | cut -d'"' -f4 | sort -u); do
		sect "cs.explain.$_f" $WD explain --json --interval 0 "$_f"
	done
	kv callsites_ms $(($(ms) - _t0))
}

# ---------------------------------------------------------------- module BTF
# Subsystem reasons (openvswitch, mac80211) are named from the module's own
# BTF, /sys/kernel/btf/MODULE, which exists only while it is loaded: reasons
# --json before and after loading lib/modules/later.order (run.sh).
module_btf() {
	kv later_wanted "$(cat /lib/modules/later.wanted 2>/dev/null)"
	[ -s /lib/modules/later.order ] || return 0
	_t0=$(ms)
	sect reasons.premod $WD reasons --json
	# a softdep that does not fit the CPU (crc32c-intel) may fail: the
	# modules wanted must be loaded in the end
	sect modload sh -c 'while read -r m; do insmod /lib/modules/later/$m; done \
		</lib/modules/later.order; for m in $(cat /lib/modules/later.wanted); do
		grep -q "^$m " /proc/modules || { echo "$m not loaded"; exit 1; }; done'
	sect btf.mod ls /sys/kernel/btf
	sect reasons.mod $WD reasons --json
	sect reasons.mod.text $WD reasons
	kv modules_ms $(($(ms) - _t0))
}

# ---------------------------------------------------------------- openvswitch
# With openvswitch loaded (module_btf) on a kernel with its drop reasons
# (6.6+), its datapath drops packets with OPENVSWITCH:OVS_DROP_LAST_ACTION:
# wdovs makes a datapath and has it execute frames with no action, and says
# how many the kernel acknowledged. -r selects the reason as count prints it
# and, for watch, as `whydrop reasons` lists it, in lower case.
ovs_drops() {
	grep -q "^openvswitch " /proc/modules || return 0
	$WD reasons | grep -q " OVS_DROP_LAST_ACTION " || return 0
	kv ovs_tried 1
	if wd_start /tmp/ovs.json /tmp/ovs.err $WD count --json \
		-r OPENVSWITCH:OVS_DROP_LAST_ACTION; then
		sect ovs.exec wdovs 7
		usleep 300000
		wd_stop
		kv whydrop_rc.ovs $?
	fi
	sect ovs.count cat /tmp/ovs.json
	sect stderr.ovs cat /tmp/ovs.err
	if wd_start /tmp/ovsw.json /tmp/ovsw.err $WD watch --json -r ovs_drop_last_action; then
		sect ovs.exec_watch wdovs 3
		usleep 300000
		wd_stop
		kv whydrop_rc.ovs_watch $?
	fi
	sect ovs.watch cat /tmp/ovsw.json
	sect stderr.ovs_watch cat /tmp/ovsw.err
	# drop_monitor sends such reasons by name alone: refused, not counted as 0
	sect ovs.dropmon $WD count --source dropmon -r OPENVSWITCH:OVS_DROP_LAST_ACTION -d 0.5
}

# ---------------------------------------------------------------- main
# whydrop.mode=modules (run.sh): only the module-BTF check.
MODE=$(sed -n 's/.*whydrop\.mode=\([a-z]*\).*/\1/p' /proc/cmdline)
kv kernel "$(uname -r)"
kv mode "${MODE:=full}"
kv nproc "$(nproc)"
kv have_whydrop $HAVE_WD
kv boot_ms "$(ms)"
sect format cat $T/events/skb/kfree_skb/format
sect btf ls /sys/kernel/btf
sect modules cat /proc/modules
if [ "$MODE" = modules ]; then
	if [ $HAVE_WD = 1 ]; then
		sect version $WD --version
		sect reasons.btf $WD reasons --json
		sect reasons.nobtf env WHYDROP_NO_BTF=1 $WD reasons --json
		module_btf
		ovs_drops
	fi
	kv end_ms "$(ms)"
	exit 0
fi
sect setup_net setup_net || { kv setup_net failed; exit 1; }

if [ $HAVE_WD = 1 ]; then
	sect version $WD --version
	_t0=$(ms)
	sect reasons.btf $WD reasons --json
	kv reasons_ms.btf $(($(ms) - _t0))
	sect reasons.nobtf env WHYDROP_NO_BTF=1 $WD reasons --json
fi

run_scenario no_socket_v4 NO_SOCKET 7 tcp_v4_rcv
run_scenario no_socket_v6 NO_SOCKET 11 tcp_v6_rcv
run_scenario no_socket_udp4 NO_SOCKET 13 __udp4_lib_rcv
run_scenario tcp_csum TCP_CSUM 17 tcp_v4_rcv
run_scenario netfilter_drop NETFILTER_DROP 19 nf_hook_slow,nft_do_chain
run_scenario tcp_flags TCP_FLAGS 23 tcp_rcv_state_process
run_scenario socket_rcvbuff SOCKET_RCVBUFF proc __udp_queue_rcv_skb,udp_queue_rcv_one_skb

if [ $HAVE_WD = 1 ]; then
	# The BTF-less path: names come from the tracefs format.
	run_scenario tcp_flags TCP_FLAGS 23 tcp_rcv_state_process nobtf. WHYDROP_NO_BTF=1
	run_scenario no_socket_v6 NO_SOCKET 11 tcp_v6_rcv nobtf. WHYDROP_NO_BTF=1
	# Without the namespace filter (the VM is otherwise quiet): tells a
	# naming/counting problem from a namespace-attribution one.
	run_scenario tcp_flags TCP_FLAGS 23 tcp_rcv_state_process allns. "" ""
	# --rules: NETFILTER_DROP named by the rule, and by a chain's policy (6.1
	# frees nftables' drops in nf_hook_slow: the join must not depend on it)
	run_scenario netfilter_drop NETFILTER_DROP 19 nf_hook_slow,nft_do_chain rules. "" \
		"--rules --netns wdb"
	run_scenario netfilter_policy NETFILTER_DROP 29 nf_hook_slow,nft_do_chain rules. "" \
		"--rules --netns wdb"

	# A kernel without BTF as user space sees it: /sys/kernel/btf hidden
	# under an empty tmpfs. Names come from tracefs, the program reads only
	# the tracepoint's arguments (so every namespace), watch is refused.
	if mount -t tmpfs nobtf /sys/kernel/btf; then
		sect reasons.hidden $WD reasons --json
		run_scenario tcp_flags TCP_FLAGS 23 tcp_rcv_state_process hiddenbtf. "" ""
		sect hiddenbtf.watch $WD watch -d 1
		umount /sys/kernel/btf
	fi

	# watch: per-packet decode of the flow.
	if wd_start /tmp/w.json /tmp/w.err $WD watch --json --netns wdb; then
		kv attach_ms.watch $WD_ATTACH_MS
		sect trigger.watch4 A wdpkt tcp 192.0.2.1 192.0.2.2 40009 9 S 3
		sect trigger.watch6 A wdpkt udp 2001:db8::1 2001:db8::2 40010 9 2
		usleep 500000
		wd_stop
		kv whydrop_rc.watch $?
	fi
	sect watch cat /tmp/w.json
	sect stderr.watch cat /tmp/w.err

	# who: the receiver's SOCKET_RCVBUFF drops name its socket where the
	# tracepoint has rx_sk (6.11+), and say "unknown" where it has not.
	if pre_socket_rcvbuff && wd_start /tmp/ws.json /tmp/ws.err $WD watch --json --netns wdb \
		-r SOCKET_RCVBUFF; then
		sect trigger.watch_sock A wdpkt udp 192.0.2.1 192.0.2.2 40015 5000 20 1000
		usleep 500000
		wd_stop
	fi
	[ -n "$SPID" ] && kill -TERM $SPID && wait $SPID
	sect watch_sock cat /tmp/ws.json
	sect stderr.watch_sock cat /tmp/ws.err

	# who, counted: --group-by cgroup loads the by-socket hash (in a one-slot
	# array of maps) and every SOCKET_RCVBUFF drop lands in a group.
	if pre_socket_rcvbuff && wd_start /tmp/gc.json /tmp/gc.err $WD count --json \
		--netns wdb --group-by cgroup -r SOCKET_RCVBUFF; then
		sect trigger.group_cgroup A wdpkt udp 192.0.2.1 192.0.2.2 40016 5000 20 1000
		usleep 500000
		wd_stop
		kv whydrop_rc.group_cgroup $?
	fi
	[ -n "$SPID" ] && kill -TERM $SPID && wait $SPID
	sect group_cgroup cat /tmp/gc.json
	sect stderr.group_cgroup cat /tmp/gc.err

	# cgroup v2's memory.max does not limit a receiver's socket memory (above)
	if sect pre.memcg_v2 pre_proto_mem_v2; then
		trace_on
		if wd_start /tmp/mv.json /tmp/mv.err $WD count --json --netns wdb -r PROTO_MEM; then
			sect trigger.memcg_v2 sc_proto_mem_v2
			usleep 500000
			wd_stop
			kv whydrop_rc.memcg_v2 $?
		fi
		sect trace.memcg_v2 trace_off
	fi
	post_proto_mem_v2
	sect count.memcg_v2 cat /tmp/mv.json
	sect stderr.memcg_v2 cat /tmp/mv.err

	# --tcp: 3 connections to a closed port (resets: sent by B, with their
	# reason from 6.10 on; received by A) and 3 MB through netem loss on
	# A's veth (retransmissions), against the namespaces' own counters.
	sect tcp.mib0.a A cat /proc/net/snmp
	sect tcp.mib0.b B cat /proc/net/snmp
	if wd_start /tmp/t.json /tmp/t.err $WD count --tcp --json; then
		A /usr/sbin/tc qdisc add dev va root netem loss 10%
		B wdpkt tcpsink 192.0.2.2 5001 >/tmp/tsink.out 2>&1 &
		_sink=$!
		usleep 300000
		sect trigger.tcp_send A wdpkt tcpsend 192.0.2.2 5001 3000000
		wait $_sink
		A /usr/sbin/tc qdisc del dev va root
		sect trigger.tcp_refused A wdpkt refused 192.0.2.2 9 3
		usleep 500000
		sect tcp.mib1.a A cat /proc/net/snmp
		sect tcp.mib1.b B cat /proc/net/snmp
		wd_stop
		kv whydrop_rc.tcp $?
	fi
	sect tcp.count cat /tmp/t.json
	sect stderr.tcp cat /tmp/t.err

	dropmon_scenarios
	callsite_workload

	# A module unloaded under a running watch (every namespace): the veth
	# pair is deleted and veth.ko removed; whydrop must carry on (drops on
	# lo after it) and exit cleanly. Last: the pair is gone afterwards.
	if wd_start /tmp/m.json /tmp/m.err $WD watch --json; then
		sect trigger.unload_before A wdpkt udp 192.0.2.1 192.0.2.2 40011 9 5
		usleep 300000
		sect unload sh -c '/usr/sbin/ip netns exec wda /usr/sbin/ip link del va &&
			rmmod veth && ! grep -q "^veth " /proc/modules'
		sect trigger.unload_after A wdpkt udp 127.0.0.1 127.0.0.1 40012 9 4
		usleep 500000
		wd_stop
		kv whydrop_rc.unload $?
	fi
	sect unload.watch cat /tmp/m.json
	sect stderr.unload cat /tmp/m.err
	module_btf
	ovs_drops
fi
kv end_ms "$(ms)"
exit 0
