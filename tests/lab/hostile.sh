#!/bin/bash
# tests/lab/hostile.sh [NAME...]: the drop-reason lab on a host set up like a container or
# Kubernetes node (`make test-hostile`, and a part of `make test`): net.ipv4.ip_forward=1,
# IPv6 forwarding on, br_netfilter loaded with bridge-nf-call-{iptables,ip6tables,arptables}=1.
# New namespaces copy the host's IPv4 settings and br_netfilter turns the bridge-nf calls on
# in every namespace, so the lab passes here only if each scenario sets what it relies on.
#
# These are host-wide settings: the values found are recorded first and put back exactly on
# every exit (end, failure, INT/TERM/HUP), br_netfilter is unloaded only if this script
# loaded it, and a last check compares every recorded value with the one put back.
# Arguments go to tests/lab/run.sh (scenario names); WHYDROP as for it.
# Last line: "N passed, N failed[, N skipped]", the lab's scenarios plus this script's checks.
set -uo pipefail
LAB_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LAB_DIR/../lib/assert.sh"

if [ "$(id -u)" -ne 0 ]; then
	echo "tests/lab/hostile.sh: changes host-wide sysctls and loads br_netfilter; run it as root" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

# Every value the settings below touch, in the order they are put back: writing a
# conf/all/forwarding also writes default and every device (and, for IPv4,
# conf/all/accept_redirects = !forwarding), so those come after it.
KEYS=()
VALS=()
record() {
	[ -e "$1" ] || return 0
	KEYS+=("$1")
	VALS+=("$(cat "$1")")
}
for fam in ipv4 ipv6; do
	record /proc/sys/net/$fam/conf/all/forwarding
	record /proc/sys/net/$fam/conf/default/forwarding
	for f in /proc/sys/net/$fam/conf/*/forwarding; do
		case $f in */all/* | */default/*) ;; *) record "$f" ;; esac
	done
	[ $fam = ipv4 ] && record /proc/sys/net/ipv4/conf/all/accept_redirects
done
BRNF_KEYS="bridge-nf-call-iptables bridge-nf-call-ip6tables bridge-nf-call-arptables"
for k in $BRNF_KEYS; do record /proc/sys/net/bridge/$k; done
# br_netfilter: absent, a module, or built in (no module to load or unload)
if [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then
	BRNF_BEFORE=present
else
	BRNF_BEFORE=absent
fi
LOADED_BRNF=0
CHILD= TAIL=

restore() {
	local i
	trap - EXIT INT TERM HUP
	if [ -n "$CHILD" ] && kill -0 "$CHILD" 2>/dev/null; then
		kill -TERM "$CHILD" 2>/dev/null	# the lab tears its scenario down first
		wait "$CHILD" 2>/dev/null
	fi
	[ -n "$TAIL" ] && kill "$TAIL" 2>/dev/null
	for ((i = 0; i < ${#KEYS[@]}; i++)); do
		[ -e "${KEYS[i]}" ] && echo "${VALS[i]}" >"${KEYS[i]}" 2>/dev/null
	done
	if [ "$LOADED_BRNF" = 1 ]; then
		modprobe -r br_netfilter 2>/dev/null || echo "hostile: br_netfilter could not be unloaded" >&2
	fi
}
# restored: every recorded value back, and br_netfilter as found
restored() {
	local i bad=
	for ((i = 0; i < ${#KEYS[@]}; i++)); do
		[ -e "${KEYS[i]}" ] || continue	# a device that went away
		[ "$(cat "${KEYS[i]}")" = "${VALS[i]}" ] || bad="$bad ${KEYS[i]}=$(cat "${KEYS[i]}") (was ${VALS[i]})"
	done
	if [ "$BRNF_BEFORE" = absent ] && [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then
		bad="$bad br_netfilter still loaded"
	fi
	[ -z "$bad" ] && return 0
	echo "        not restored:$bad"
	return 1
}
on_exit() {
	local rc=$?
	restore
	exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

echo "# host before: $(for ((i = 0; i < ${#KEYS[@]}; i++)); do
	case ${KEYS[i]} in */all/* | */bridge/*) printf '%s=%s ' "${KEYS[i]#/proc/sys/net/}" "${VALS[i]}" ;; esac
done)br_netfilter $BRNF_BEFORE"

# --- the hostile settings -----------------------------------------------------------------
sysctl -q -w net.ipv4.ip_forward=1
[ -e /proc/sys/net/ipv6/conf/all/forwarding ] && sysctl -q -w net.ipv6.conf.all.forwarding=1
if [ "$BRNF_BEFORE" = absent ]; then
	if modprobe br_netfilter 2>/dev/null && [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]; then
		LOADED_BRNF=1
		for k in $BRNF_KEYS; do record /proc/sys/net/bridge/$k; done	# as loaded: 1
	fi
fi
for k in $BRNF_KEYS; do
	[ -e /proc/sys/net/bridge/$k ] && echo 1 >/proc/sys/net/bridge/$k
done

# What a namespace created now gets: proof that the lab runs under these settings.
probe=wdhostile-$$
ip netns add "$probe"
got_fwd=$(ip netns exec "$probe" cat /proc/sys/net/ipv4/ip_forward)
got_brnf=$(ip netns exec "$probe" cat /proc/sys/net/bridge/bridge-nf-call-iptables 2>/dev/null || echo none)
ip netns del "$probe"
check "a new namespace inherits ip_forward=1 from the host (got $got_fwd)" [ "$got_fwd" = 1 ]
if [ "$got_brnf" = none ]; then
	skip "a new namespace has bridge-nf-call-iptables=1" "br_netfilter cannot be loaded here (modprobe br_netfilter failed)"
else
	check "a new namespace has bridge-nf-call-iptables=1 (got $got_brnf)" [ "$got_brnf" = 1 ]
fi

# --- the lab --------------------------------------------------------------------------------
log=$(mktemp /tmp/wdhostile-$$.XXXX)
"$LAB_DIR/run.sh" "$@" >"$log" 2>&1 &
CHILD=$!
# shown as it runs; waiting on the lab itself, so that a signal is handled at once
tail -n +1 -f --pid="$CHILD" "$log" 2>/dev/null &
TAIL=$!
wait "$CHILD"
lab_rc=$?
CHILD=
wait "$TAIL"
restore
trap - EXIT
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
rm -f "$log"

check "host settings put back exactly" restored
if [ -z "$line" ]; then
	fail "the lab printed a summary" "exit $lab_rc, no 'N passed, N failed' line"
else
	p=$(sed -n 's/^\([0-9]*\) passed.*/\1/p' <<<"$line")
	f=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p' <<<"$line")
	s=$(sed -n 's/.* \([0-9]*\) skipped.*/\1/p' <<<"$line")
	T_PASSED=$((T_PASSED + p)) T_FAILED=$((T_FAILED + f)) T_SKIPPED=$((T_SKIPPED + ${s:-0}))
	[ "$lab_rc" -ne 0 ] && [ "$f" -eq 0 ] && fail "the lab exited $lab_rc with 0 failed"
fi
summary
