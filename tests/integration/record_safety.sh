#!/usr/bin/env bash
# record -w PATH run as root must not be turned into a write elsewhere: a
# symbolic link, a hard link, another user's file, a directory or a socket
# at PATH is refused with one message and exit 1, and the target is left
# as it was. FIFOs, character devices, a new file and the caller's own file
# still work. The test hooks of the shipped binary: WHYDROP_DROPMON_DUMP is
# opened by the same rules, before drop_monitor is asked anything, and a
# binary given file capabilities ignores every WHYDROP_* hook (secure_getenv).
# Prints "N passed, N failed".
. "$(dirname "$0")/../lib/part.sh"
harness_begin tests/integration/record_safety

D=$TMP/out
mkdir -p "$D"
chmod 755 "$TMP"
echo "precious" >"$D/victim"
VICTIM_SUM=$(sha256sum <"$D/victim")

# refused_by NAME REGEX CMD...: CMD fails at once with exit 1 and one line matching REGEX
refused_by() {
	local name=$1 re=$2 out rc
	shift 2
	out=$(timeout 10 "$@" 2>&1)
	rc=$?
	if [ "$rc" -ne 1 ]; then
		fail "$name" "exit $rc, wanted 1: $out"
	elif ! grep -Eq -- "$re" <<<"$out"; then
		fail "$name" "no /$re/ in: $out"
	elif [ "$(grep -c . <<<"$out")" -ne 1 ]; then
		fail "$name" "more than one line: $out"
	else
		pass "$name"
	fi
}
# refused NAME PATH REGEX: record -w PATH fails at once, saying why
refused() { refused_by "$1" "$3" "$W" record -w "$2" -d 1; }

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

echo "-- WHYDROP_DROPMON_DUMP: the drop_monitor test hook opens its file as -w does"
# dump_refused NAME PATH REGEX: the dropmon source refuses the dump file at
# once, exit 1, saying why, and writes nothing
dump_refused() {
	refused_by "$1" "^whydrop: WHYDROP_DROPMON_DUMP: $3" \
		env WHYDROP_DROPMON_DUMP="$2" "$W" count -d 0.2 --source dropmon
}
ln -s "$D/victim" "$D/dlink"
dump_refused "dump: a symbolic link is not followed" "$D/dlink" "not writing to .*symbolic link"
ln "$D/victim" "$D/dhard"
dump_refused "dump: a file with another hard link is refused" "$D/dhard" "not writing to .*hard links"
rm -f "$D/dhard"
dump_refused "dump: another user's file is refused" "$D/theirs" "not writing to .*another user"
dump_refused "dump: a directory is refused" "$D/dir" "not writing to .*directory"
check "dump: the victim is untouched" test "$(sha256sum <"$D/victim")" = "$VICTIM_SUM"
check "dump: another user's file is untouched" grep -qx theirs "$D/theirs"
# A new name: with drop_monitor the run goes on and the file is 0600; without
# it (this kernel may lack it: genl says) the run fails and leaves no file.
# The caller's own existing file is emptied only once drop_monitor answers.
out=$(WHYDROP_DROPMON_DUMP=$D/new.hex timeout 10 "$W" count -d 0.2 --source dropmon 2>&1)
rc=$?
echo "mine" >"$D/mine.hex"
out2=$(WHYDROP_DROPMON_DUMP=$D/mine.hex timeout 10 "$W" count -d 0.2 --source dropmon 2>&1)
rc2=$?
if genl ctrl get name NET_DM >/dev/null 2>&1; then
	check "dump: a new file with drop_monitor: exit 0 ($out)" test "$rc" -eq 0
	check "... made 0600" test "$(stat -c %a "$D/new.hex" 2>/dev/null)" = 600
	check "dump: the caller's own file with drop_monitor: exit 0, rewritten ($out2)" \
		test "$rc2" -eq 0 -a "$(head -c 4 "$D/mine.hex")" != mine
else
	check "dump: a new file without drop_monitor: exit 1, said ($out)" \
		grep -q "no drop_monitor" <<<"$out"
	check "... and no file left behind" test ! -e "$D/new.hex" -a "$rc" -eq 1
	check "dump: the caller's own file without drop_monitor: exit 1, left as it was" \
		test "$rc2" -eq 1 -a "$(cat "$D/mine.hex")" = mine
fi

echo "-- a binary with file capabilities ignores the WHYDROP_* hooks (secure_getenv)"
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
mkdir -m 755 "$TMP/bin"
cp "$W" "$TMP/bin/plain"
cp "$W" "$TMP/bin/capped"
if setcap cap_bpf,cap_perfmon+ep "$TMP/bin/capped" 2>/dev/null; then
	expect_run "plain, as nobody: WHYDROP_BTF is read" 1 "WHYDROP_BTF=/nonexistent/vmlinux" \
		env WHYDROP_BTF=/nonexistent/vmlinux "${NOBODY[@]}" "$TMP/bin/plain" reasons
	expect_run "file capabilities, as nobody: WHYDROP_BTF is ignored" 0 "source: btf" \
		env WHYDROP_BTF=/nonexistent/vmlinux "${NOBODY[@]}" "$TMP/bin/capped" reasons
	expect_run "file capabilities, as nobody: --tcp ignores WHYDROP_BTF too" 0 "TCP resets" \
		env WHYDROP_BTF=/nonexistent/vmlinux "${NOBODY[@]}" "$TMP/bin/capped" count --tcp -d 0.2
	expect_run "file capabilities, as nobody: WHYDROP_ATTACH=fail is ignored, it attaches" 0 \
		"attached to skb:kfree_skb" \
		env WHYDROP_ATTACH=fail "${NOBODY[@]}" "$TMP/bin/capped" count -d 0.2
else
	skip "file capabilities ignore the hooks" "setcap cannot set file capabilities in $TMP"
fi

summary
