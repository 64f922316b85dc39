# Host-wide sysctls a test changes, and puts back after it: one helper for
# tests/lib/harness.sh (system, stress, integration) and the lab
# (tests/lab/lib.sh). Sourcing it starts with nothing to put back.
#   sysctl_global KEY=VALUE   change KEY, remembering the value it had
#   sysctl_restore            put back every change now, newest first
# shellcheck shell=bash
_SYSCTLS=()

# sysctl_global KEY=VALUE: change a host-wide sysctl, restored by sysctl_restore
sysctl_global() {
	local key=${1%%=*}
	_SYSCTLS+=("$key=$(sysctl -n "$key" | tr '\t' ' ')")
	sysctl -q -w "$1"
}
# sysctl_restore: put back every sysctl_global change now (newest first)
sysctl_restore() {
	local i
	for ((i = ${#_SYSCTLS[@]} - 1; i >= 0; i--)); do
		sysctl -q -w "${_SYSCTLS[i]}" >/dev/null 2>&1
	done
	_SYSCTLS=()
}
