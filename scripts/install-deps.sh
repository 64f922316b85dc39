#!/usr/bin/env bash
# Install the Debian packages whydrop needs that are missing.
#   install-deps.sh build   compiler, libbpf, bpftool, libelf, zlib, libpcap, libmicrohttpd,
#                           libmnl, libnftnl, libnftables, json-c
#   install-deps.sh test    build + what the test suite drives (netns, nft, scapy,
#                           podman, ...)
# docker.io is not among them: installed, its daemon starts at once with the
# default bridge (ip_forward on, iptables rules). tests/integration/containers.sh
# unpacks Debian's docker.io and containerd packages into a cache instead and
# runs that dockerd without a bridge or iptables.
set -euo pipefail

build_pkgs=(make gcc clang llvm pkg-config libbpf-dev bpftool libelf-dev zlib1g-dev
	    libpcap-dev libclang-rt-14-dev libmicrohttpd-dev libmnl-dev libnftnl-dev
	    libnftables-dev libjson-c-dev)
test_pkgs=(iproute2 nftables iptables python3 python3-scapy bpftrace procps kmod prometheus
	   curl tshark tcpdump dpkg-dev debhelper lintian debootstrap chromium
	   prometheus-alertmanager podman runc busybox-static python3-yaml)

want=("${build_pkgs[@]}")
[ "${1:-build}" = test ] && want+=("${test_pkgs[@]}")

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "whydrop: missing Debian packages: ${missing[*]}" >&2
	echo "whydrop: run as root (or: sudo apt-get install ${missing[*]})" >&2
	exit 1
fi
echo "whydrop: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
