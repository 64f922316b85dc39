#!/bin/bash
# A cgroup_skb/egress BPF program returning 0 on a cgroup (v2) holding the sender:
# 3 datagrams, each refused (sendto fails with EPERM). Watched in the sender.
REASON=BPF_CGROUP_EGRESS FUNCTION_ipv4=ip_finish_output FUNCTION_ipv6=ip6_finish_output
CAUSE="cgroup egress BPF"
source "$(dirname "$0")/../lib.sh"
WATCH=a
setup() {
	CG=/sys/fs/cgroup/unified
	[ -f $CG/cgroup.procs ] || CG=/sys/fs/cgroup
	grep -q cgroup2 /proc/mounts || skip "no cgroup2 hierarchy mounted"
	bpf_obj cg_deny
	bpffs
	mkdir "$CG/$LAB_ID"; track_cgroup "$CG/$LAB_ID"
	bpftool prog load "$T/cg_deny.o" "$T/bpffs/deny" type cgroup/skb
	bpftool cgroup attach "$CG/$LAB_ID" egress pinned "$T/bpffs/deny"
	cleanup_cmd "bpftool cgroup detach $CG/$LAB_ID egress pinned $T/bpffs/deny; rm -f $T/bpffs/deny"
}
trigger() {
	local errs
	errs=$(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG/$LAB_ID" \
		ip netns exec "$NS_A" "$PY" "$LAB_PY" udp-send $V $BX 5555 3)
	[ "$errs" = 3 ] || fail "expected 3 refused sendto, got $errs"
	expect 3
}
lab_main
