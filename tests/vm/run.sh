#!/usr/bin/env bash
# tests/vm/run.sh: prove the host-built whydrop binary on Debian 12's other
# kernels (6.1 and 6.12 cloud), booted in QEMU with software emulation.
#
# For each kernel: take the kernel package from Debian's archive (cached in
# $WHYDROP_VM_CACHE, never installed on the host), build a busybox initramfs
# holding build/whydrop and its libraries, ip, nft, the packet helper
# tests/vm/wdpkt.c and the kernel's own veth/nf_tables modules, boot it, let
# tests/vm/guest.sh trigger known drops, and assert its report on the host
# (tests/vm/check.py). Last line: "N passed, N failed".
#
# "6.12-generic" is Debian's generic (not cloud) flavour of the same 6.12
# kernel, booted only to load openvswitch and mac80211 (the cloud flavour has
# no wireless stack) and check that whydrop names their subsystem reasons
# from module BTF (guest mode "modules": no scenarios, a short boot).
#
# Environment:
#   WHYDROP_VM_KERNELS   series to test (default "6.1 6.12 6.12-generic")
#   WHYDROP_VM_CACHE     .deb cache (default /var/cache/whydrop-vm)
#   WHYDROP_VM_OUT       logs and results (default build/vm)
#   WHYDROP_VM_TIMEOUT   seconds per VM (default 300)
#   WHYDROP_VM_PARALLEL  1: boot the kernels at the same time (default: 1 if
#                        the host has >= 2 CPUs; 45 s instead of 68 s on 2)
#   WHYDROP_VM_SMP       vCPUs per VM (default 1 in parallel, else 2)
#   WHYDROP_VM_ACCEL     QEMU accelerator (default tcg; kvm where it works)
#   WHYDROP_BIN          the binary to test (default build/whydrop)
#   WHYDROP_VM_KEEP      1: keep the temporary initramfs directory
#   WHYDROP_VM_NO_BINARY 1: run without whydrop (proves boot, modules,
#                        triggers and transport with tracefs only)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BUILD:-build}
CACHE=${WHYDROP_VM_CACHE:-/var/cache/whydrop-vm}
OUT=${WHYDROP_VM_OUT:-$ROOT/$BUILD/vm}
KERNELS=${WHYDROP_VM_KERNELS:-6.1 6.12 6.12-generic}
TIMEOUT=${WHYDROP_VM_TIMEOUT:-300}
ACCEL=${WHYDROP_VM_ACCEL:-tcg}
BIN=${WHYDROP_BIN:-$ROOT/$BUILD/whydrop}
NO_BINARY=${WHYDROP_VM_NO_BINARY:-0}
if [ -z "${WHYDROP_VM_PARALLEL:-}" ]; then
	WHYDROP_VM_PARALLEL=0
	[ "$(nproc)" -ge 2 ] && WHYDROP_VM_PARALLEL=1
fi
if [ "$WHYDROP_VM_PARALLEL" = 1 ]; then
	SMP=${WHYDROP_VM_SMP:-1}
else
	SMP=${WHYDROP_VM_SMP:-2}
fi

log() { echo "vm: $*" >&2; }
die() { echo "vm: error: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

T_START=$(date +%s)

# ------------------------------------------------------------ host packages
need_pkgs() {
	local missing=() p
	for p in qemu-system-x86 busybox-static kmod xz-utils gcc libc6-dev \
		iproute2 nftables python3; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root)"
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

[ "$(id -u)" -eq 0 ] || die "the VM test needs root (apt-get, depmod into the cache)"
need_pkgs
if [ "$NO_BINARY" != 1 ] && [ ! -x "$BIN" ]; then
	die "$BIN not found: run make first (or WHYDROP_VM_NO_BINARY=1)"
fi

# ------------------------------------------------------------ kernel packages
# The kernels whydrop is proven on (their tracefs formats are the fixtures in
# tests/unit/fixtures/kfree_skb-format/). If the archive no longer has one,
# the newest package of the same series is used instead (with a warning).
pinned_pkg() {
	case $1 in
	6.1) echo linux-image-6.1.0-57-cloud-amd64 ;;
	6.12) echo linux-image-6.12.118+deb12-cloud-amd64-unsigned ;;
	6.12-generic) echo linux-image-6.12.118+deb12-amd64-unsigned ;;
	*) die "unknown kernel series '$1' (known: 6.1 6.12 6.12-generic)" ;;
	esac
}
# Package-name pattern of a kernel series (no -dbg).
pkg_regex() {
	case $1 in
	6.1) echo '^linux-image-6\.1\.0-[0-9]+-cloud-amd64$' ;;
	6.12) echo '^linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64-unsigned$' ;;
	6.12-generic) echo '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$' ;;
	esac
}
# What guest.sh does on a series: "full" (every scenario) or "modules" (only
# the module-BTF check).
series_mode() {
	case $1 in
	6.12-generic) echo modules ;;
	*) echo full ;;
	esac
}
# Modules guest.sh loads itself (after a first `whydrop reasons`) to prove
# subsystem reasons are named from module BTF, with their dependencies.
later_modules() {
	case $1 in
	6.12-generic) echo "openvswitch mac80211" ;;
	*) echo openvswitch ;;
	esac
}

APT_UPDATED=0
apt_has() { apt-cache show "$1" >/dev/null 2>&1; }
# The .deb of a series, from the cache or downloaded into it. Prints its path.
fetch_kernel() {
	local series=$1 pkg re deb
	pkg=${WHYDROP_VM_PKG_OVERRIDE:-$(pinned_pkg "$series")}
	mkdir -p "$CACHE"
	deb=$(cd "$CACHE" && ls -1 "${pkg}"_*_amd64.deb 2>/dev/null | sort -V | tail -n1 || true)
	if [ -n "$deb" ]; then
		echo "$CACHE/$deb"
		return 0
	fi
	if ! apt_has "$pkg" && [ $APT_UPDATED = 0 ]; then
		apt-get update -qq >&2 || true
		APT_UPDATED=1
	fi
	if ! apt_has "$pkg"; then
		re=$(pkg_regex "$series")
		local newest
		newest=$(apt-cache search --names-only "$re" 2>/dev/null | awk '{print $1}' |
			grep -E "$re" | sort -V | tail -n1 || true)
		[ -n "$newest" ] || die "neither $pkg nor any $re in the apt lists"
		log "warning: $pkg is gone from the archive, using $newest"
		pkg=$newest
		deb=$(cd "$CACHE" && ls -1 "${pkg}"_*_amd64.deb 2>/dev/null | sort -V | tail -n1 || true)
		if [ -n "$deb" ]; then
			echo "$CACHE/$deb"
			return 0
		fi
	fi
	log "downloading $pkg into $CACHE"
	(cd "$CACHE" && apt-get download -q "$pkg" 2>&1 |
		grep -v 'Download is performed unsandboxed' >&2 || true)
	deb=$(cd "$CACHE" && ls -1 "${pkg}"_*_amd64.deb 2>/dev/null | sort -V | tail -n1 || true)
	[ -n "$deb" ] || die "apt-get download $pkg failed"
	echo "$CACHE/$deb"
}

# Extract once into $CACHE/x/<deb name>/ and generate modules.dep there.
extract_kernel() {
	local deb=$1 dir
	dir=$CACHE/x/$(basename "$deb" .deb)
	if [ ! -e "$dir/.done" ]; then
		log "extracting $(basename "$deb")"
		rm -rf "$dir"
		mkdir -p "$dir"
		dpkg-deb -x "$deb" "$dir"
		local rel
		rel=$(ls "$dir/lib/modules")
		depmod -b "$dir" "$rel"
		touch "$dir/.done"
	fi
	echo "$dir"
}

# ------------------------------------------------------------ initramfs
WORK=$(mktemp -d /tmp/whydrop-vm.XXXXXX)
KEEP_WORK=${WHYDROP_VM_KEEP:-0}
cleanup() {
	local f
	set +e
	# the `timeout` processes this script started; they pass TERM to QEMU
	for f in "$WORK"/*.pid; do
		[ -e "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	if [ "$KEEP_WORK" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# copy_elf SRC DEST_IN_ROOT ROOT: the binary, its libraries, the interpreter.
copy_elf() {
	local src=$1 dst=$2 r=$3 lib
	mkdir -p "$r$(dirname "$dst")"
	rm -f "$r$dst"
	cp -L "$src" "$r$dst"
	for lib in $(ldd "$src" | awk '/=> \//{print $3} /^\t\//{print $1}'); do
		[ -e "$r$lib" ] && continue
		mkdir -p "$r$(dirname "$lib")"
		cp -L "$lib" "$r$lib"
	done
}

build_common() {
	local r=$WORK/common a
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,lib/modules,proc,sys,dev,run,tmp,etc,root,var}
	ln -s /run "$r/var/run"
	cp /bin/busybox "$r/bin/busybox"
	for a in $(/bin/busybox --list-full); do
		[ -e "$r/$a" ] || ln -s /bin/busybox "$r/$a"
	done
	copy_elf /usr/sbin/ip /usr/sbin/ip "$r"
	copy_elf /usr/sbin/nft /usr/sbin/nft "$r"
	copy_elf /sbin/tc /usr/sbin/tc "$r"
	copy_elf /usr/bin/setpriv /usr/bin/setpriv "$r"	# drop_monitor without BPF privileges
	gcc -static -O2 -Wall -Wextra -Werror -o "$r/bin/wdpkt" "$HERE/wdpkt.c"
	gcc -static -O2 -Wall -Wextra -Werror -o "$r/bin/wdovs" "$HERE/wdovs.c"
	if [ "$NO_BINARY" != 1 ]; then
		copy_elf "$BIN" /bin/whydrop "$r"
	fi
	install -m 755 "$HERE/init" "$r/init"
	install -m 755 "$HERE/guest.sh" "$r/guest.sh"
	echo "root:x:0:0:root:/root:/bin/sh" >"$r/etc/passwd"
	echo "root:x:0:" >"$r/etc/group"
	(cd "$r" && find . | /bin/busybox cpio -o -H newc 2>/dev/null) >"$WORK/common.cpio"
}

# Modules the scenarios need. Each comes with what modprobe would load before
# it (dependencies and softdeps, e.g. crc32c before libcrc32c), in order.
MODULES="veth nf_tables sch_netem"
# add_modules KDIR REL ROOT ORDER_FILE DEST_DIR MODULE...: unpack MODULE and
# what it needs into ROOT/DEST_DIR and append them to ROOT/ORDER_FILE in
# load order; a module already added (array seen) is not repeated.
add_modules() {
	local kdir=$1 rel=$2 r=$3 order=$4 dest=$5 want deps path m f
	shift 5
	mkdir -p "$r/$dest"
	touch "$r/$order"
	for want in "$@"; do
		deps=$(modprobe -d "$kdir" -S "$rel" --show-depends "$want" 2>/dev/null |
			awk '$1 == "insmod" { print $2 }') || true
		[ -n "$deps" ] || die "module $want not in $rel"
		for path in $deps; do
			[ -n "${seen[$path]:-}" ] && continue
			seen[$path]=1
			m=$(basename "$path")
			f=${m%.xz}
			f=${f%.zst}
			case $m in
			*.xz) xz -dc "$path" >"$r/$dest/$f" ;;
			*.zst) zstd -qdc "$path" >"$r/$dest/$f" ;;
			*) cp "$path" "$r/$dest/$f" ;;
			esac
			echo "$f" >>"$r/$order"
		done
	done
}

# build_modules KDIR OUT SERIES: the initramfs of one kernel.
build_modules() {
	local kdir=$1 out=$2 series=$3 rel r dep boot_mods=
	rel=$(ls "$kdir/lib/modules")
	r=$WORK/mods-$rel
	mkdir -p "$r/lib/modules"
	declare -A seen=()
	# /init loads lib/modules/load.order at boot
	[ "$(series_mode "$series")" = full ] && boot_mods=$MODULES
	# shellcheck disable=SC2086 # word lists
	add_modules "$kdir" "$rel" "$r" lib/modules/load.order lib/modules $boot_mods
	# guest.sh loads lib/modules/later.order itself (lib/modules/later/)
	# shellcheck disable=SC2046 # a word list
	add_modules "$kdir" "$rel" "$r" lib/modules/later.order lib/modules/later \
		$(later_modules "$series")
	later_modules "$series" >"$r/lib/modules/later.wanted"
	# drop_monitor is shipped where modprobe would find it, but not loaded:
	# guest.sh checks whydrop's "not loaded" message, then insmods it.
	dep=$(grep -oE "^kernel/net/core/drop_monitor\.ko(\.xz|\.zst)?" \
		"$kdir/lib/modules/$rel/modules.dep") || die "no drop_monitor.ko in $rel"
	mkdir -p "$r/lib/modules/$rel/kernel/net/core"
	case $dep in
	*.xz) xz -dc "$kdir/lib/modules/$rel/$dep" ;;
	*.zst) zstd -qdc "$kdir/lib/modules/$rel/$dep" ;;
	*) cat "$kdir/lib/modules/$rel/$dep" ;;
	esac >"$r/lib/modules/$rel/kernel/net/core/drop_monitor.ko"
	(cd "$r" && find . | /bin/busybox cpio -o -H newc 2>/dev/null) >"$WORK/mods-$rel.cpio"
	cat "$WORK/common.cpio" "$WORK/mods-$rel.cpio" >"$out"
}

# ------------------------------------------------------------ boot
boot() {
	local kdir=$1 initrd=$2 dir=$3 mode=$4 vmlinuz
	vmlinuz=$(ls "$kdir"/boot/vmlinuz-*)
	rm -f "$dir/console.log" "$dir/results.log"
	timeout "$TIMEOUT" qemu-system-x86_64 -accel "$ACCEL" -cpu max -m 1G -smp "$SMP" \
		-nographic -no-reboot -monitor none -nic none \
		-kernel "$vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 mitigations=off whydrop.mode=$mode" \
		-serial "file:$dir/console.log" -serial "file:$dir/results.log" \
		</dev/null >"$dir/qemu.log" 2>&1 &
	local pid=$!
	echo $pid >"$WORK/$(basename "$dir").pid"
	wait $pid
}

log "building the initramfs"
build_common

declare -A KDIR=()
declare -A REL=()
for s in $KERNELS; do
	deb=$(fetch_kernel "$s")
	KDIR[$s]=$(extract_kernel "$deb")
	REL[$s]=$(ls "${KDIR[$s]}/lib/modules")
	mkdir -p "$OUT/${REL[$s]}"
	build_modules "${KDIR[$s]}" "$WORK/initrd-${REL[$s]}" "$s"
done
T_PREP=$(date +%s)

boot_one() {
	local s=$1 t0 rc=0
	t0=$(date +%s)
	boot "${KDIR[$s]}" "$WORK/initrd-${REL[$s]}" "$OUT/${REL[$s]}" "$(series_mode "$s")" ||
		rc=$?
	echo "$rc $(($(date +%s) - t0))" >"$OUT/${REL[$s]}/boot.status"
}
for s in $KERNELS; do
	log "booting ${REL[$s]} ($ACCEL, $SMP vCPU, timeout ${TIMEOUT}s)"
	if [ "$WHYDROP_VM_PARALLEL" = 1 ]; then
		boot_one "$s" &
	else
		boot_one "$s"
	fi
done
wait
T_END=$(date +%s)

args=()
for s in $KERNELS; do
	read -r rc secs <"$OUT/${REL[$s]}/boot.status"
	log "${REL[$s]}: qemu exit $rc after ${secs}s; logs in $OUT/${REL[$s]}/"
	args+=(--vm "${REL[$s]}:$OUT/${REL[$s]}:$rc:$secs")
done
log "timing: prepare $((T_PREP - T_START))s, boots $((T_END - T_PREP))s, total $((T_END - T_START))s"
[ "$NO_BINARY" = 1 ] && args+=(--no-binary)
python3 "$HERE/check.py" --fixtures "$ROOT/../shared/fixtures/kfree_skb-format" \
	--fixtures "$ROOT/tests/unit/fixtures/kfree_skb-format" "${args[@]}"
