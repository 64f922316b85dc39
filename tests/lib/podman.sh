# Shared by the tests that run containers (tests/integration/containers.sh,
# container_image.sh): podman as it runs on this kind of host, and what a
# container runtime could change on the host, to check it did not.
#   . tests/lib/podman.sh      (after harness.sh: $TMP exists)
#   podman_setup               P=(podman ...), CONTAINERS_CONF, host state noted
#   podman_cleanup_cgroups     the cgroupfs managers' parents, if made during the test
#   host_untouched             checks: forwarding, rules, bridges as before
# shellcheck shell=bash

# runc: crun refuses hybrid cgroup hierarchies; cgroupfs: no systemd needed;
# default_ulimits = []: the default ones can exceed the hard limits.
podman_setup() {
	P=(podman --runtime runc --cgroup-manager cgroupfs)
	export PODMAN="${P[*]}"
	export CONTAINERS_CONF=$TMP/containers.conf
	printf '[containers]\ndefault_ulimits = []\n' >"$CONTAINERS_CONF"
	RUNTIME_CGROUPS_BEFORE=$(runtime_cgroups)
	FWD_BEFORE=$(forwarding) RULES_BEFORE=$(runtime_rules) LINKS_BEFORE=$(runtime_links)
}

# The parents podman's and dockerd's cgroupfs managers make (all hierarchies).
runtime_cgroups() {
	ls -d /sys/fs/cgroup/*/libpod_parent /sys/fs/cgroup/*/docker 2>/dev/null | xargs
}

# Remove those that were not there before the test, once empty (rmdir fails
# on a cgroup still in use: another user's containers are never touched).
podman_cleanup_cgroups() {
	local d
	for d in $(runtime_cgroups); do
		case " $RUNTIME_CGROUPS_BEFORE " in *" $d "*) continue ;; esac
		rmdir "$d/conmon" 2>/dev/null
		rmdir "$d" 2>/dev/null
	done
}

forwarding() {
	cat /proc/sys/net/ipv4/ip_forward /proc/sys/net/ipv6/conf/all/forwarding | xargs
}

# Lines of the ruleset (nft, legacy iptables) that a runtime's network would add.
runtime_rules() {
	{ nft list ruleset 2>/dev/null; iptables-legacy-save 2>/dev/null; ip6tables-legacy-save 2>/dev/null; } |
		grep -ciE 'docker|cni-|podman|netavark'
}

runtime_links() {
	ip -o link show | grep -cE ': (docker0|podman[0-9]*|cni-podman[0-9]*)[:@]'
}

host_untouched() {
	local left
	check "ip_forward and IPv6 forwarding as before ($(forwarding))" test "$(forwarding)" = "$FWD_BEFORE"
	check "no runtime's rules added to the ruleset" test "$(runtime_rules)" = "$RULES_BEFORE"
	check "no docker0/podman bridge" test "$(runtime_links)" = "$LINKS_BEFORE"
	left=$(comm -13 <(tr ' ' '\n' <<<"$RUNTIME_CGROUPS_BEFORE" | sort) \
		<(runtime_cgroups | tr ' ' '\n' | sort) | xargs)
	check "the runtimes' parent cgroups made during the test removed${left:+: $left}" test -z "$left"
}
