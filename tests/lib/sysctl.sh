# Host-wide sysctls a test changes, and puts back after it: one helper for
# tests/lib/harness.sh (system, stress, integration) and the lab
# (tests/lab/lib.sh). Sourcing it starts with nothing to put back.
#   sysctl_global KEY=VALUE   change KEY, remembering the value it had
#   sysctl_restore            put back every change now, newest first
# Each change is also written to a journal under /run (one file per test
# process): a test killed before it could restore (SIGKILL, a stopped CI job)
# would otherwise leave the host changed for every test after it, e.g.
# net.core.netdev_max_backlog at 4 dropping the next test's traffic. Sourcing
# this file puts back what the journals of dead processes hold.
# shellcheck shell=bash
_SYSCTLS=()
SYSCTL_JOURNAL_DIR=${SYSCTL_JOURNAL_DIR:-/run/whydrop-tests}
_SYSCTL_JOURNAL=$SYSCTL_JOURNAL_DIR/sysctl.$$

# _sysctl_put_back FILE: the KEY=VALUE lines of FILE restored, newest first
_sysctl_put_back() {
	local line
	tac "$1" 2>/dev/null | while IFS= read -r line; do
		[ -z "$line" ] || sysctl -q -w "$line" >/dev/null 2>&1 || true
	done
	rm -f "$1"
}
# _sysctl_recover: journals left by processes that no longer run put back
_sysctl_recover() {
	local f pid
	for f in "$SYSCTL_JOURNAL_DIR"/sysctl.*; do
		[ -f "$f" ] || continue
		pid=${f##*.}
		[ "$pid" = "$$" ] && continue
		kill -0 "$pid" 2>/dev/null && continue
		echo "# put back host sysctls a killed test left changed: $(tr '\n' ' ' <"$f")"
		_sysctl_put_back "$f"
	done
	rmdir "$SYSCTL_JOURNAL_DIR" 2>/dev/null || true
}
# sysctl_global KEY=VALUE: change a host-wide sysctl, restored by sysctl_restore
sysctl_global() {
	local key=${1%%=*} old
	old="$key=$(sysctl -n "$key" | tr '\t' ' ')"
	_SYSCTLS+=("$old")
	{ mkdir -p "$SYSCTL_JOURNAL_DIR" && echo "$old" >>"$_SYSCTL_JOURNAL"; } 2>/dev/null || true
	sysctl -q -w "$1"
}
# sysctl_restore: put back every sysctl_global change now (newest first)
sysctl_restore() {
	local i
	for ((i = ${#_SYSCTLS[@]} - 1; i >= 0; i--)); do
		sysctl -q -w "${_SYSCTLS[i]}" >/dev/null 2>&1
	done
	_SYSCTLS=()
	rm -f "$_SYSCTL_JOURNAL"
	rmdir "$SYSCTL_JOURNAL_DIR" 2>/dev/null || true	# the last one out: nothing left in /run
}

if [ "$(id -u)" -eq 0 ]; then _sysctl_recover; fi
