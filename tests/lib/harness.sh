# The frame of a real-kernel test script, shared by tests/system, stress and
# integration: root or fail, a temp dir, network namespaces with loopback up and
# the kernel's defaults for the sysctls tests rely on (tests/lib/netns_defaults.sh:
# never the host's, which new namespaces copy in part),
# background processes to stop, mounts to undo, and a teardown that always
# runs (exit, error, Ctrl-C, SIGTERM).
#   . tests/lib/harness.sh
#   harness_begin "tests/system" NS1 NS2 ...
# Then append to PIDS (processes) and MOUNTS (mount points) as they are made
# (start NAME ARGS... and stop PID run whydrop, $W, in the background);
# host-wide sysctls are changed with sysctl_global KEY=VALUE (tests/lib/sysctl.sh,
# the lab's too), put back by sysctl_restore and at the end.
# shellcheck shell=bash
# shellcheck source=tests/lib/sysctl.sh
. "$(dirname "${BASH_SOURCE[0]}")/sysctl.sh"
HARNESS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

harness_end() {
	local p m n
	sysctl_restore
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

# harness_start NAME ARGS...: whydrop ($W) in the background, its output in
# $TMP/NAME.out and $TMP/NAME.err, its pid in LAST (and PIDS); returns once it
# has attached, or 1 after a failed check. start is the same, unless a suite
# needs more of it and defines its own around harness_start.
harness_start() {
	local name=$1
	shift
	"$W" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	LAST=$!
	PIDS+=("$LAST")
	wait_attached "$TMP/$name.err" || { fail "$name: attached" "$(cat "$TMP/$name.err")"; return 1; }
}
start() { harness_start "$@"; }

# stop PID [SIGNAL]: signal whydrop (SIGINT) and wait; returns its exit status.
stop() {
	kill "-${2:-INT}" "$1" 2>/dev/null
	wait "$1"
}

# stop_ok PID WHAT: stop PID (SIGINT) and check that WHAT exits 0.
stop_ok() {
	stop "$1"
	check "$2 exits 0" test $? -eq 0
}

# start_receiver CGROUP NS COMM ADDR: a UDP socket on ADDR:9999 in namespace NS that
# never reads, with a 1-byte SO_RCVBUF (its drops are SOCKET_RCVBUFF), in cgroup
# directory CGROUP (joined before the socket is made: a socket keeps the cgroup it
# was made in), named COMM by prctl. RCVR is its pid (in PIDS; the exec'd python
# keeps the shell's pid); returns once the socket is bound (10 s at most).
start_receiver() {
	sh -c "echo \$\$ > '$1/cgroup.procs' && exec ip netns exec '$2' $PY -c '
import ctypes, socket, time
ctypes.CDLL(None).prctl(15, b\"$3\", 0, 0, 0)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
s.bind((\"$4\", 9999))
print(s.fileno(), flush=True)
time.sleep(60)'" >"$TMP/rcvr.out" &
	RCVR=$!
	PIDS+=("$RCVR")
	poll_until 10 test -s "$TMP/rcvr.out"
}

# free_port: a TCP port of 127.0.0.1 free now.
free_port() {
	$PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

harness_begin() {
	local n
	HARNESS_NAME=$1
	shift
	HARNESS_NS=("$@")
	PIDS=()
	MOUNTS=()
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
		ip netns exec "$n" "$HARNESS_DIR/netns_defaults.sh" ||
			fail "$n: the kernel's defaults set (tests/lib/netns_defaults.sh)"
		ip -n "$n" link set lo up
	done
}
