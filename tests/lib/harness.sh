# The frame of a real-kernel test script, shared by tests/system, stress and
# integration: root or fail, a temp dir, network namespaces with loopback up,
# background processes to stop, mounts to undo, and a teardown that always
# runs (exit, error, Ctrl-C, SIGTERM).
#   . tests/lib/harness.sh
#   harness_begin "tests/system" NS1 NS2 ...
# Then append to PIDS (processes) and MOUNTS (mount points) as they are made;
# host-wide sysctls are changed with harness_sysctl KEY=VALUE (restored at the end).
# shellcheck shell=bash

harness_end() {
	local p m n
	harness_sysctl_restore
	# SIGINT first: whydrop detaches and reports; anything else gets SIGKILL.
	for p in "${PIDS[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	wait 2>/dev/null
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
	for n in "${HARNESS_NS[@]}"; do ip netns del "$n" 2>/dev/null; done
	rm -rf "$TMP"
}

# harness_sysctl KEY=VALUE: change a host-wide sysctl until harness_sysctl_restore
harness_sysctl() {
	SYSCTLS+=("${1%%=*}=$(sysctl -n "${1%%=*}")")
	sysctl -qw "$1"
}
harness_sysctl_restore() {
	local i
	for ((i = ${#SYSCTLS[@]} - 1; i >= 0; i--)); do sysctl -qw "${SYSCTLS[i]}"; done
	SYSCTLS=()
}

harness_begin() {
	local n
	HARNESS_NAME=$1
	shift
	HARNESS_NS=("$@")
	PIDS=()
	MOUNTS=()
	SYSCTLS=()
	TMP=$(mktemp -d)
	trap harness_end EXIT
	trap 'exit 1' INT TERM
	if [ "$(id -u)" -ne 0 ]; then
		echo "$HARNESS_NAME: needs root (BPF, network namespaces)"
		echo "0 passed, 1 failed"
		exit 1
	fi
	for n in "${HARNESS_NS[@]}"; do
		ip netns add "$n"
		ip -n "$n" link set lo up
	done
}
