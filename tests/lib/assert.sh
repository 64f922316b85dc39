# Shared by the shell test suites: checks that count, and a closing summary.
# shellcheck shell=bash
T_PASSED=0
T_FAILED=0

pass() { T_PASSED=$((T_PASSED + 1)); printf '  ok    %s\n' "$1"; }
fail() { T_FAILED=$((T_FAILED + 1)); printf '  FAIL  %s\n' "$1"; [ -n "${2:-}" ] && printf '        %s\n' "$2"; return 0; }

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

summary() {
	echo "$T_PASSED passed, $T_FAILED failed"
	[ "$T_FAILED" -eq 0 ]
}

# IDs of the BPF programs a process holds (from its fdinfo): another whydrop
# may run on this machine at the same time, so never count globally.
prog_ids() {
	local fd
	for fd in /proc/"$1"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*//p' "$fd" 2>/dev/null
	done | sort -u
}

# All these program IDs gone from the kernel? It frees a released program
# after an RCU grace period: allow 2 s.
progs_gone() {
	local id i left
	for i in $(seq 20); do
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
