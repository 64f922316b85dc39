#!/usr/bin/env bash
# Build whydrop's container image with podman, from its Debian package, on a
# Debian 12 base made without a registry (docs/kubernetes.md):
#   1. the package: dpkg-buildpackage in a copy of the tree (or --deb FILE);
#      kept in $CACHE/image-deb-<hash of the tree>, the last one only
#   2. the base: the debootstrap --variant=minbase tarball tests/package/run.sh
#      caches, unpacked once into a root file system (cached as a tar) and
#      imported with `podman import`
#   3. podman build of contrib/container/Containerfile; RUN fetches the
#      package's dependencies with apt over the host's network (--network
#      host: no bridge is made)
# Usage: contrib/container/build-image.sh [-t IMAGE] [--deb FILE]
#   IMAGE defaults to localhost/whydrop:latest. Root only (debootstrap).
#   PODMAN: the podman command (e.g. "podman --runtime runc"), CONTAINERS_CONF
#   as podman reads it; WHYDROP_PKG_CACHE: the cache, /var/cache/whydrop-pkg.
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=$PWD
SUITE=bookworm
CACHE=${WHYDROP_PKG_CACHE:-/var/cache/whydrop-pkg}
read -ra PODMAN <<<"${PODMAN:-podman}"
IMAGE=localhost/whydrop:latest
DEB=""
work="" base=""

die() { echo "build-image: $*" >&2; exit 1; }
usage() { echo "usage: contrib/container/build-image.sh [-t IMAGE] [--deb FILE]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || usage; IMAGE=$2; shift 2 ;;
	--deb) [ $# -ge 2 ] || usage; DEB=$(realpath "$2"); shift 2 ;;
	-h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage ;;
	esac
done
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, podman build of a root file system)"
for t in "${PODMAN[0]}" debootstrap dpkg-buildpackage; do
	command -v "$t" >/dev/null || die "$t is missing (apt-get install podman debootstrap dpkg-dev)"
done
[ -z "$DEB" ] || [ -s "$DEB" ] || die "--deb $DEB: no such package"

cleanup() {
	[ -n "$base" ] && "${PODMAN[@]}" rmi "$base" >/dev/null 2>&1
	[ -n "$work" ] && rm -rf --one-file-system "$work"
	return 0
}
trap cleanup EXIT
work=$(mktemp -d /var/tmp/whydrop-image.XXXXXX)
chmod 0755 "$work"
mkdir -p "$CACHE"
arch=$(dpkg --print-architecture)

# ---- 1. the package, from the tree as it is (uncommitted changes too)
tree_hash() {
	tar -C "$SRC" --exclude=./build --exclude=./.git --sort=name --mtime=@0 --owner=0 \
		--group=0 --numeric-owner -cf - . | sha256sum | cut -c1-16
}
if [ -z "$DEB" ]; then
	debs=$CACHE/image-deb-$(tree_hash)
	DEB=$(ls "$debs"/whydrop_*_"$arch".deb 2>/dev/null | head -n 1 || true)
	if [ -z "$DEB" ]; then
		version=$(dpkg-parsechangelog -l debian/changelog -S Version)
		copy=$work/whydrop-${version%-*}
		mkdir "$copy"
		tar -C "$SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$copy" -xf -
		echo "build-image: dpkg-buildpackage (the unit tests: tests/package/run.sh)" >&2
		(cd "$copy" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) \
			>"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; die "dpkg-buildpackage failed"; }
		rm -rf "$CACHE"/image-deb-*
		mkdir -p "$debs"
		cp "$work/whydrop_${version}_$arch.deb" "$debs/"
		DEB=$debs/whydrop_${version}_$arch.deb
	fi
fi
echo "build-image: package $DEB" >&2

# ---- 2. the base: Debian 12 minbase, from the package test's debootstrap tarball
sources=$(apt-cache policy 2>/dev/null |
	awk -v s="$SUITE" '$3 ~ "^" s "(-updates|-security)?/main$" { sub("/main$", "", $3); print "deb " $2 " " $3 " main" }' |
	sort -u)
mirror=$(awk -v s="$SUITE" '$3 == s { print $2; exit }' <<<"$sources")
[ -n "$mirror" ] || die "apt has no source for $SUITE/main on this machine (apt-cache policy)"
tgz=$CACHE/$SUITE-minbase-$arch.tgz
rootfs=$CACHE/$SUITE-minbase-$arch-rootfs.tar
if [ ! -s "$tgz" ] || [ -n "$(find "$tgz" -mtime +30)" ]; then
	echo "build-image: debootstrap --make-tarball from $mirror" >&2
	debootstrap --variant=minbase --arch="$arch" --make-tarball="$tgz.tmp" "$SUITE" \
		"$work/tb" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ rm -f "$tgz.tmp"; tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
	mv "$tgz.tmp" "$tgz"
fi
if [ ! -s "$rootfs" ] || [ "$tgz" -nt "$rootfs" ]; then
	echo "build-image: debootstrap --unpack-tarball into a root file system" >&2
	root=$work/root
	debootstrap --variant=minbase --arch="$arch" --unpack-tarball="$tgz" "$SUITE" "$root" \
		"$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap --unpack-tarball failed"; }
	printf '%s\n' "$sources" >"$root/etc/apt/sources.list"
	rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log
	tar -C "$root" --numeric-owner -cf "$rootfs.tmp" . && mv "$rootfs.tmp" "$rootfs"
	rm -rf --one-file-system "$root"
fi
base=localhost/whydrop-base-$$:$SUITE
"${PODMAN[@]}" import "$rootfs" "$base" >/dev/null

# ---- 3. the image
ctx=$work/context
mkdir "$ctx"
cp contrib/container/Containerfile "$DEB" "$ctx/"
"${PODMAN[@]}" build --network host --build-arg "BASE=$base" -t "$IMAGE" -f "$ctx/Containerfile" \
	"$ctx" >"$work/podman-build.log" 2>&1 ||
	{ tail -n 30 "$work/podman-build.log" >&2; die "podman build failed"; }
echo "build-image: $IMAGE ($("${PODMAN[@]}" image inspect -f '{{.Id}}' "$IMAGE" | cut -c1-12))" >&2
