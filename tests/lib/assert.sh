# Shared by the shell test suites: checks that count, and a closing summary.
# shellcheck shell=bash
T_PASSED=0
T_FAILED=0
T_SKIPPED=0

pass() { T_PASSED=$((T_PASSED + 1)); printf '  ok    %s\n' "$1"; }
fail() { T_FAILED=$((T_FAILED + 1)); printf '  FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '        %s\n' "$2"; return 0; }
# skip NAME WHY: a check that cannot run here; counted apart, never as passed.
skip() { T_SKIPPED=$((T_SKIPPED + 1)); printf '  skip  %s (%s)\n' "$1" "$2"; }

# check NAME CONDITION-COMMAND...
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "failed: $*"; fi
}

# expect_run NAME RC REGEX CMD...: exit status and a pattern in stdout+stderr.
expect_run() {
	local name=$1 want_rc=$2 regex=$3 out rc
	shift 3
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne "$want_rc" ]; then
		fail "$name" "exit $rc, wanted $want_rc; output: $(head -c 400 <<<"$out")"
	elif ! grep -Eq -- "$regex" <<<"$out"; then
		fail "$name" "output lacks /$regex/: $(head -c 400 <<<"$out")"
	else
		pass "$name"
	fi
}

# poll_until SECONDS CMD...: run CMD every 0.1 s until it succeeds or SECONDS
# (whole) have passed; its last status. For conditions that become true a little
# later (a counter read by a scrape, a program freed after an RCU grace
# period), instead of one look after a fixed sleep.
poll_until() {
	local deadline=$(($(date +%s%3N) + $1 * 1000)) rc
	shift
	while :; do
		"$@"
		rc=$?
		[ "$rc" -eq 0 ] || [ "$(date +%s%3N)" -ge "$deadline" ] && return "$rc"
		sleep 0.1
	done
}

# The closing line, "N passed, N failed" (", N skipped" when any were).
summary() {
	local line="$T_PASSED passed, $T_FAILED failed"

	[ "$T_SKIPPED" -gt 0 ] && line="$line, $T_SKIPPED skipped"
	echo "$line"
	[ "$T_FAILED" -eq 0 ]
}

# prog_ids PID: the IDs of the BPF programs a process holds (from its
# fdinfo), on one line: another whydrop may run on this machine at the same
# time, so never count globally.
prog_ids() {
	local fd
	for fd in /proc/"$1"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*//p' "$fd" 2>/dev/null
	done | sort -u | xargs
}

# progs_gone IDS...: all these program IDs gone from the kernel (none given:
# true)? It frees a released program after an RCU grace period: allow 3 s.
progs_gone() {
	local id i left
	for i in $(seq 30); do
		left=0
		for id in "$@"; do
			bpftool prog show id "$id" >/dev/null 2>&1 && left=1
		done
		[ "$left" -eq 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# Wait until FILE holds "attached" (whydrop's stderr), up to 10 s.
wait_attached() {
	local i
	for i in $(seq 100); do
		grep -q attached "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

PY=/usr/bin/python3
