#!/usr/bin/env bash
# The whole suite, as `make test` runs it after building build/ and build/asan/.
# Each part prints "N passed, N failed[, N skipped]" last; this adds them up
# and ends with "N passed, N failed, N skipped". A part is a failure too when
# it exits non-zero, prints no summary, or ran nothing ("0 passed, 0 failed").
set -u
total_p=0 total_f=0 total_s=0

# part NAME CMD...: run one part, show its output, add up its summary.
part() {
	local name=$1 log line p f s rc
	shift
	echo "== $name"
	log=$(mktemp)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	rm -f "$log"
	p=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' <<<"$line")
	f=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p' <<<"$line")
	s=$(sed -n 's/^[0-9]* passed, [0-9]* failed, \([0-9]*\) skipped.*/\1/p' <<<"$line")
	s=${s:-0}
	if [ -z "$p" ]; then
		echo "!! $name printed no summary (exit $rc): counted as one failure"
		p=0 f=1
	elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "!! $name ran nothing ($line): counted as one failure"
		f=1
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "!! $name exited $rc although its summary says 0 failed: counted as one failure"
		f=1
	fi
	total_p=$((total_p + p)) total_f=$((total_f + f)) total_s=$((total_s + s))
}

# both < lines "SCRIPT;FILE;NAME;ASAN NAME": each part with build/FILE, then
# with build/asan/FILE.
both() {
	local script file name asan
	while IFS=';' read -r script file name asan; do
		part "$name" "$script" "build/$file" </dev/null
		part "$asan" "$script" "build/asan/$file" </dev/null
	done
}

# Sourced (tests/cli/run.sh checks part() itself): the function only.
[ "${BASH_SOURCE[0]}" != "$0" ] && return 0
cd "$(dirname "$0")/.." || exit 1

part "unit tests" tests/unit/run.sh build
part "unit tests under ASan/UBSan" tests/unit/run.sh build/asan
part "command-line behaviour" tests/cli/run.sh build/whydrop
both <<'EOF'
tests/system/run.sh;whydrop;system tests (real kernel);system tests under ASan/UBSan
tests/system/filter_equal.sh;system/filter_equal;pcap filter translation = libpcap (real kernel);pcap filter translation under ASan/UBSan
tests/system/nftrace.sh;system/nftrace_drive;nftables rule tracing: traces, whydrop's table, rule text, conntrack (real kernel);nftables rule tracing under ASan/UBSan
tests/system/rules.sh;whydrop;count --rules: NETFILTER_DROP by nftables rule (real kernel);count --rules under ASan/UBSan
EOF
part "filter expressions count what tcpdump matches (real kernel)" tests/system/filter_tcpdump.sh build/whydrop
both <<'EOF'
tests/system/stacks.sh;whydrop;stacks, call sites, noise list (real kernel);stacks, call sites, noise list under ASan/UBSan
tests/system/who.sh;whydrop;who a drop hurts: process, cgroup, netns, socket (real kernel);who a drop hurts under ASan/UBSan
tests/system/aging.sh;whydrop;gone namespaces, cgroups, processes and interfaces folded, totals kept (real kernel);gone namespaces, cgroups, processes and interfaces folded under ASan/UBSan
tests/system/flows.sh;whydrop;count/top --group-by flow|src|dst: per-flow drops (real kernel);count/top --group-by flow|src|dst under ASan/UBSan
tests/system/tcp_events.sh;system/tcp_events_driver;TCP resets and retransmissions against the kernel's counters (real kernel);TCP resets and retransmissions under ASan/UBSan
tests/system/tcp.sh;whydrop;--tcp: resets and retransmissions through whydrop (real kernel);--tcp under ASan/UBSan
tests/system/tcp_record.sh;whydrop;record --tcp: resets and retransmissions in the pcapng file, read apart from drops (real kernel);record --tcp under ASan/UBSan
EOF
part "drop storm, 5 s per command (make stress: 60 s)" tests/stress/run.sh 5 build/whydrop
part "faults: closed pipe, random signals, SIGKILL, vanished interface, bpftrace" \
	tests/system/faults.sh build/whydrop
both <<'EOF'
tests/integration/serve.sh;whydrop;serve + Prometheus (real kernel);serve + Prometheus under ASan/UBSan
EOF
part "Prometheus rules and Grafana dashboard: promtool check and test, fresh" tests/fleet/run.sh build/whydrop
part "alerting: serve, Prometheus, Alertmanager, webhook; the dashboard's queries (real kernel)" \
	tests/integration/alerting.sh build/whydrop
both <<'EOF'
tests/integration/pcapng.sh;whydrop;pcapng + tshark (real kernel);pcapng + tshark under ASan/UBSan
tests/integration/record_safety.sh;whydrop;record -w and the dropmon dump hook refuse links, other users' files, directories (real kernel);record -w safety under ASan/UBSan
tests/integration/flamegraph.sh;whydrop;count and read --stacks --svg in headless Chromium (real kernel);count and read --stacks --svg under ASan/UBSan
tests/integration/counters.sh;whydrop;kernel counters next to traced reasons (real kernel);kernel counters under ASan/UBSan
tests/integration/containers.sh;whydrop;container and pod names: podman, docker, kubelet cgroups (real runtimes);container and pod names under ASan/UBSan
EOF
part "fuzzing, 10 s per target, and kept crashers" tests/fuzz/run.sh 10
part "lab documentation true to the scenarios" tests/lab/docs.sh
part "drop-reason lab (real kernel)" env WHYDROP=build/whydrop tests/lab/run.sh
part "drop-reason lab under ASan/UBSan" env WHYDROP=build/asan/whydrop tests/lab/run.sh
part "drop-reason lab on a container host: ip_forward=1, br_netfilter (make test-hostile)" \
	env WHYDROP=build/whydrop tests/lab/hostile.sh
part "other kernels in QEMU: Debian 6.1 and 6.12" tests/vm/run.sh
part "Debian package: dpkg-buildpackage, lintian, apt install in a clean bookworm chroot" \
	tests/package/run.sh
part "whydrop as a container: image from the package, a storm counted through it, the DaemonSet" \
	tests/integration/container_image.sh

echo
echo "$total_p passed, $total_f failed, $total_s skipped"
[ "$total_f" -eq 0 ]
