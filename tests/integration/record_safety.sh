#!/usr/bin/env bash
# record -w PATH run as root must not be turned into a write elsewhere: a
# symbolic link, a hard link, another user's file, a directory or a socket
# at PATH is refused with one message and exit 1, and the target is left
# as it was. FIFOs, character devices, a new file and the caller's own file
# still work. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
. tests/lib/harness.sh
W=${1:-build/whydrop}
harness_begin tests/integration/record_safety

D=$TMP/out
mkdir -p "$D"
chmod 755 "$TMP"
echo "precious" >"$D/victim"
VICTIM_SUM=$(sha256sum <"$D/victim")

# refused NAME PATH REGEX: record -w PATH fails at once, saying why
refused() {
	local out rc
	out=$(timeout 10 "$W" record -w "$2" -d 1 2>&1)
	rc=$?
	if [ "$rc" -ne 1 ]; then
		fail "$1" "exit $rc, wanted 1: $out"
	elif ! grep -Eq -- "$3" <<<"$out"; then
		fail "$1" "no /$3/ in: $out"
	elif [ "$(grep -c . <<<"$out")" -ne 1 ]; then
		fail "$1" "more than one line: $out"
	else
		pass "$1"
	fi
}

ln -s "$D/victim" "$D/link"
refused "a symbolic link is not followed" "$D/link" "not writing to .*symbolic link"
ln "$D/victim" "$D/hard"
refused "a file with another hard link is refused" "$D/hard" "not writing to .*hard links"
rm -f "$D/hard"
echo "theirs" >"$D/theirs"
chown 65534:65534 "$D/theirs"
refused "another user's file is refused" "$D/theirs" "not writing to .*another user"
mkdir "$D/dir"
refused "a directory is refused" "$D/dir" "not writing to .*directory"
$PY -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/sock"
refused "a socket is refused" "$D/sock" "not writing to"
check "the victim is untouched" test "$(sha256sum <"$D/victim")" = "$VICTIM_SUM"
check "... and still a one-link regular file" test "$(stat -c %h "$D/victim")" -eq 1
check "another user's file is untouched" grep -qx theirs "$D/theirs"

# works NAME PATH: record -w PATH -d 1 exits 0
works() {
	local out
	if out=$(timeout 15 "$W" record -w "$2" -d 1 2>&1); then
		pass "$1"
	else
		fail "$1" "$out"
	fi
}
works "/dev/null (a character device) still works" /dev/null
works "a new file works" "$D/new.pcapng"
check "... made 0600" test "$(stat -c %a "$D/new.pcapng")" = 600
works "the caller's own existing file is rewritten" "$D/new.pcapng"
mkfifo "$D/fifo"
cat "$D/fifo" >"$D/fifo.out" &
PIDS+=($!)
works "a FIFO still works" "$D/fifo"
wait "${PIDS[-1]}" 2>/dev/null
check "... and the reader got a pcapng file" test "$(head -c 4 "$D/fifo.out" | od -An -tx1 | tr -d ' ')" = 0a0d0d0a

summary
