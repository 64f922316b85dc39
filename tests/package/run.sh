#!/usr/bin/env bash
# The Debian package, end to end: build it (dpkg-buildpackage -us -uc -b in a copy
# of the tree, so the work tree stays as it is), lintian on the result (no E: or
# W:), `make install` with its defaults, then `apt-get install ./whydrop_*.deb` in a
# throwaway Debian 12 minbase chroot (debootstrap, the mirror apt uses here) and
# run it there: --version, reasons/explain as root and as nobody, a real count, the
# man page, the bash completion, the systemd unit (installed, not enabled), dpkg -L,
# purge. The chroot is always removed.
#
# Root only (build dependencies, debootstrap, chroot, mounts) and needs the Debian
# mirror. A step that cannot run is a failure with its reason, never a pass.
# The debootstrap tarball is kept in /var/cache/whydrop-pkg (WHYDROP_PKG_CACHE),
# rebuilt when older than 30 days. Last line: "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
SRC=$PWD
SUITE=bookworm
CACHE=${WHYDROP_PKG_CACHE:-/var/cache/whydrop-pkg}
start=$(date +%s)
passed=0 failed=0
work="" root=""

# ok/fail MESSAGE: one result, with the seconds since the start.
ok()   { passed=$((passed + 1)); printf '  ok   %4ss  %s\n' $(($(date +%s) - start)) "$*"; }
fail() { failed=$((failed + 1)); printf '  FAIL %4ss  %s\n' $(($(date +%s) - start)) "$*"; }
# check NAME CMD...: one assertion.
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }
# show FILE [N]: the last N lines of a log, indented.
show() { tail -n "${2:-25}" "$1" | sed 's/^/        /'; }

# Unmount what was mounted in the chroot, then remove the chroot and the build
# copy; never removes a tree that still has something mounted in it.
cleanup() {
	local m
	[ -n "$work" ] || return 0
	if [ -n "$root" ]; then
		for m in sys proc; do
			if mountpoint -q "$root/$m" 2>/dev/null; then
				umount "$root/$m" 2>/dev/null || umount -l "$root/$m"
			fi
		done
	fi
	if findmnt -rn -o TARGET | grep -qF "$work/"; then
		echo "  !! still mounted under $work: left in place" >&2
		return 1
	fi
	rm -rf --one-file-system "$work"
	work="" root=""
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

finish() {
	local w=$work
	if [ -n "$w" ]; then
		cleanup
		check "chroot and build copy removed ($w)" test ! -e "$w"
	fi
	echo "  took $(($(date +%s) - start)) s"
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
# stop REASON: a step that could not run; what depends on it is not attempted.
stop() { fail "$*"; finish; }

echo "Debian package: build, lintian, install in a clean $SUITE chroot"
[ "$(id -u)" -eq 0 ] || stop "needs root (build dependencies, debootstrap, chroot, mounts)"

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }

# ---- the build, in a copy of the tree
work=$(mktemp -d /var/tmp/whydrop-pkg.XXXXXX) || stop "mktemp failed"
chmod 0755 "$work"
version=$(dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null)
[ -n "$version" ] || stop "no version in debian/changelog (dpkg-dev missing?)"
upstream=${version%-*}
copy=$work/whydrop-$upstream
mkdir "$copy"
tar -C "$SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$copy" -xf - ||
	stop "could not copy the tree to $copy"

tools=()
for p in dpkg-dev debhelper lintian debootstrap; do installed "$p" || tools+=("$p"); done
if [ ${#tools[@]} -gt 0 ] || ! (cd "$copy" && dpkg-checkbuilddeps) >/dev/null 2>&1; then
	echo "  installing ${tools[*]:-} and the build dependencies (apt-get build-dep)"
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -qq &&
	  { [ ${#tools[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${tools[@]}"; } &&
	  apt-get build-dep -y -qq --no-install-recommends "$copy"; } >"$work/deps.log" 2>&1 ||
		{ show "$work/deps.log"; stop "could not install the build dependencies with apt-get"; }
fi
(cd "$copy" && dpkg-checkbuilddeps) >"$work/deps.log" 2>&1 ||
	{ show "$work/deps.log"; stop "build dependencies still unmet"; }
ok "build dependencies present (debian/control Build-Depends)"

if (cd "$copy" && dpkg-buildpackage -us -uc -b -Jauto) >"$work/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b ($version)"
else
	show "$work/build.log" 40
	stop "dpkg-buildpackage failed"
fi
grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/build.log" | tail -n 1 | sed 's/^/        unit tests in the build: /'
deb=$work/whydrop_${version}_$(dpkg --print-architecture).deb
changes=${deb%.deb}.changes
[ -s "$deb" ] && [ -s "$changes" ] || stop "no $(basename "$deb") or .changes after the build"

# ---- lintian: no error, no warning; overrides (O:, with their reason) are shown.
# (--fail-on would count a shown override as a warning: the E:/W: lines decide.)
lintian -I --show-overrides --fail-on none "$changes" >"$work/lintian.log" 2>&1
rc=$?
grep -v '^running with root privileges' "$work/lintian.log" | sed 's/^/        /'
check "lintian on the .changes: no E: and no W: (exit $rc)" \
	test "$rc" -eq 0 -a -z "$(grep -E '^[EW]: ' "$work/lintian.log")"

# ---- make install with its defaults (what docs/building.md documents), from the same build
dest=$work/destdir
if make -C "$copy" --no-print-directory install DESTDIR="$dest" >"$work/install.log" 2>&1 &&
	test -x "$dest/usr/local/bin/whydrop" &&
	test -s "$dest/usr/local/share/man/man8/whydrop.8" &&
	test -s "$dest/usr/local/share/bash-completion/completions/whydrop" &&
	grep -q '^ExecStart=/usr/local/bin/whydrop ' "$dest/etc/systemd/system/whydrop.service"; then
	ok "make install DESTDIR=...: /usr/local/{bin,share/man/man8,share/bash-completion}, unit in /etc/systemd/system runs /usr/local/bin/whydrop"
else
	show "$work/install.log"; find "$dest" -type f 2>/dev/null | sed 's/^/        /'
	fail "make install with the default PREFIX"
fi

# ---- a clean Debian 12: debootstrap minbase from the mirror apt uses here
sources=$(apt-cache policy 2>/dev/null |
	awk -v s="$SUITE" '$3 ~ "^" s "(-updates|-security)?/main$" { sub("/main$", "", $3); print "deb " $2 " " $3 " main" }' |
	sort -u)
mirror=$(awk -v s="$SUITE" '$3 == s { print $2; exit }' <<<"$sources")
[ -n "$mirror" ] || stop "apt has no source for $SUITE/main on this machine (apt-cache policy)"
arch=$(dpkg --print-architecture)
tarball=$CACHE/$SUITE-minbase-$arch.tgz
root=$work/root
mkdir -p "$CACHE" "$root" && chmod 0755 "$root"
if [ -s "$tarball" ] && [ -z "$(find "$tarball" -mtime +30)" ]; then
	echo "  debootstrap tarball from the cache: $tarball"
else
	rm -rf "$work/tb"
	if debootstrap --variant=minbase --arch="$arch" --make-tarball="$tarball.tmp" \
			"$SUITE" "$work/tb" "$mirror" >"$work/debootstrap.log" 2>&1 &&
		mv "$tarball.tmp" "$tarball"; then
		echo "  debootstrap tarball made from $mirror: $tarball"
	else
		rm -f "$tarball.tmp"; show "$work/debootstrap.log"
		stop "debootstrap --make-tarball from $mirror failed"
	fi
fi
if ! debootstrap --variant=minbase --arch="$arch" --unpack-tarball="$tarball" \
		"$SUITE" "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
	show "$work/debootstrap.log" 10
	echo "  the cached tarball did not unpack: removed, debootstrap from $mirror"
	rm -f "$tarball"
	rm -rf --one-file-system "$root" && mkdir -p "$root" && chmod 0755 "$root"
	debootstrap --variant=minbase --arch="$arch" "$SUITE" "$root" "$mirror" \
		>"$work/debootstrap.log" 2>&1 ||
		{ show "$work/debootstrap.log"; stop "debootstrap --variant=minbase $SUITE from $mirror failed"; }
fi
ok "debootstrap --variant=minbase $SUITE ($mirror)"

printf '%s\n' "$sources" >"$root/etc/apt/sources.list"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d" && chmod 0755 "$root/usr/sbin/policy-rc.d"
mount -t proc proc "$root/proc" || stop "could not mount proc in the chroot"
{ mount --bind /sys "$root/sys" && mount -o remount,bind,ro "$root/sys"; } ||
	stop "could not bind-mount /sys read-only in the chroot"
cp "$deb" "$root/tmp/"
debname=$(basename "$deb")

# inroot CMD...: run in the chroot as root; as_nobody CMD...: as nobody.
inroot() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
as_nobody() {
	chroot --userspec=65534:65534 "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/ \
		LC_ALL=C.UTF-8 "$@"
}

# ---- install: dependencies come from the archive
if inroot sh -c "apt-get update -qq && cd /tmp && apt-get install -y -q --no-install-recommends ./$debname" \
		>"$work/apt.log" 2>&1; then
	ok "apt-get install ./$debname in the chroot (Depends from the archive)"
	sed -n 's/^Setting up \(.*\) \.\.\.$/\1/p' "$work/apt.log" | tr '\n' ' ' | fold -s -w 88 |
		sed 's/^/        set up: /'
	echo
else
	show "$work/apt.log"
	stop "apt-get install ./$debname in the chroot failed"
fi
libs_ok() { inroot ldd /usr/bin/whydrop >"$work/ldd" 2>&1 && ! grep -q 'not found' "$work/ldd"; }
check "no shared library of /usr/bin/whydrop is missing (ldd)" libs_ok

out=$(inroot whydrop --version 2>&1)
check "whydrop --version prints 'whydrop $upstream' (got: $out)" test "$out" = "whydrop $upstream"

# reasons --json: valid JSON, names from the kernel's BTF through the read-only /sys
reasons_ok() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {r["name"] for r in d["reasons"]}
assert d["source"] == "btf", d["source"]
assert "NO_SOCKET" in names and len(names) > 20, len(names)
' "$1"
}
inroot whydrop reasons --json >"$root/tmp/reasons.json" 2>"$work/reasons.err"
check "whydrop reasons --json as root: JSON, names from BTF (read-only /sys), NO_SOCKET among them" \
	reasons_ok "$root/tmp/reasons.json"
as_nobody whydrop reasons --json >"$work/reasons.nobody.json" 2>"$work/reasons.err"
check "whydrop reasons --json as nobody (no privilege needed: /usr/bin)" reasons_ok "$work/reasons.nobody.json"
explain_ok() { as_nobody whydrop explain TCP_ZEROWINDOW 2>&1 | grep -q '^TCP_ZEROWINDOW: '; }
check "whydrop explain TCP_ZEROWINDOW as nobody" explain_ok

# a real trace from the packaged binary: five UDP datagrams to a closed port
inroot bash -c '
	whydrop count -d 3 --json -r NO_SOCKET "udp dst port 9 and dst host 127.0.0.1" \
		>/tmp/count.json 2>/tmp/count.err & pid=$!
	for i in $(seq 100); do grep -q attached /tmp/count.err && break; sleep 0.1; done
	for i in 1 2 3 4 5; do printf x >/dev/udp/127.0.0.1/9; done
	wait $pid' >/dev/null 2>&1
count_ok() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["total"] >= 5 and all(x["reason"] == "NO_SOCKET" for x in d["drops"]), d
' "$root/tmp/count.json" 2>&1
}
if out=$(count_ok); then
	ok "whydrop count as root in the chroot: attached, >= 5 NO_SOCKET drops to 127.0.0.1:9 counted"
else
	sed 's/^/        /' "$root/tmp/count.err"; echo "        $out" | tail -n 3
	fail "whydrop count as root in the chroot"
fi

# ---- what the package installs
# man-db and systemd are not in minbase: installed now, after whydrop, to read the
# man page and to ask systemd about the unit.
if inroot apt-get install -y -q --no-install-recommends man-db systemd >"$work/apt2.log" 2>&1; then
	out=$(inroot man -w whydrop 2>&1)
	check "man -w whydrop: $out" test "$out" = /usr/share/man/man8/whydrop.8.gz
	man_ok() { inroot env MANPAGER=cat MANWIDTH=80 man whydrop 2>&1 | grep -q '^SYNOPSIS'; }
	check "man whydrop renders" man_ok
	enabled=$(inroot systemctl is-enabled whydrop.service 2>&1)
	check "systemd unit installed, not enabled (systemctl is-enabled: $enabled)" \
		test "$enabled" = disabled -a -z "$(ls "$root"/etc/systemd/system/*.wants/whydrop.service 2>/dev/null)"
	inroot systemd-analyze verify whydrop.service >"$work/verify.log" 2>&1
	check "systemd-analyze verify whydrop.service" test ! -s "$work/verify.log"
	[ -s "$work/verify.log" ] && show "$work/verify.log" 10
else
	show "$work/apt2.log"
	fail "apt-get install man-db systemd in the chroot failed: man page and unit not checked"
fi
exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$root/lib/systemd/system/whydrop.service" 2>/dev/null)
check "unit /lib/systemd/system/whydrop.service runs $exe, which is installed" \
	test "$exe" = /usr/bin/whydrop -a -x "$root/usr/bin/whydrop"

completes() {
	inroot bash -c '. /usr/share/bash-completion/completions/whydrop || exit 1
		complete -p whydrop >/dev/null || exit 1
		COMP_WORDS=(whydrop re); COMP_CWORD=1; _whydrop; echo "${COMPREPLY[*]}"
		COMP_WORDS=(whydrop count -r TCP_ZEROW); COMP_CWORD=3; _whydrop; echo "${COMPREPLY[*]}"' \
		>"$work/complete" 2>&1
	test "$(head -n 1 "$work/complete" | tr ' ' '\n' | sort | paste -sd ' ')" = "read reasons record" &&
		test "$(sed -n 2p "$work/complete")" = TCP_ZEROWINDOW
}
check "bash completion: 'whydrop re' -> reasons record read, '-r TCP_ZEROW' -> TCP_ZEROWINDOW" completes

inroot dpkg -L whydrop >"$work/dpkg-L" 2>&1
listed=1
for f in /usr/bin/whydrop /usr/share/man/man8/whydrop.8.gz \
	/usr/share/bash-completion/completions/whydrop /lib/systemd/system/whydrop.service \
	/usr/share/whydrop/prometheus/whydrop-rules.yml /usr/share/whydrop/grafana/whydrop.json \
	/usr/share/doc/whydrop/fleet.md.gz; do
	grep -qx "$f" "$work/dpkg-L" || { echo "        dpkg -L whydrop lacks $f"; listed=0; }
done
check "dpkg -L whydrop lists the binary, man page, completion, unit, rules, dashboard, fleet.md" \
	test "$listed" -eq 1

if inroot apt-get purge -y -q whydrop >"$work/purge.log" 2>&1 &&
	test ! -e "$root/usr/bin/whydrop" -a ! -e "$root/lib/systemd/system/whydrop.service" &&
	! inroot dpkg -s whydrop >/dev/null 2>&1; then
	ok "apt-get purge whydrop: removed, maintainer scripts ran"
else
	show "$work/purge.log"
	fail "apt-get purge whydrop"
fi

finish
