#!/usr/bin/env bash
# whydrop as a container: the image contrib/container/build-image.sh makes from
# the Debian package of this tree (on a debootstrap base: no registry), run by
# podman on this host's PID and network namespaces (no bridge is made), counts
# a drop storm in a namespace made here exactly: its /metrics, scraped with
# curl, against the namespace's Udp MIB counters (NoPorts, RcvbufErrors).
# Twice: privileged, and with exactly the capabilities, seccomp setting,
# read-only root and volumes of contrib/kubernetes/whydrop-daemonset.yaml.
# Each exits 0 on SIGTERM (podman stop) and its BPF programs are gone. The
# image's default command (serve --listen 0.0.0.0:9464) is run in a network
# namespace of its own. The manifest is checked without kubectl
# (tests/integration/daemonset_check.py), and the checker on a broken copy.
# ip_forward, the ruleset and the links are as before; the image, containers
# and files made here are removed. Slow the first time (the package, the
# debootstrap root file system: cached in /var/cache/whydrop-pkg).
# Usage: tests/integration/container_image.sh. Prints "N passed, N failed".
. "$(dirname "$0")/../lib/part.sh"
NS=wdimg-$$
. tests/lib/podman.sh
harness_begin tests/integration/container_image "$NS"
podman_setup
IMAGE=localhost/$NS:test
MANIFEST=contrib/kubernetes/whydrop-daemonset.yaml
CONTAINERFILE=contrib/container/Containerfile
CTRS=()

cleanup() {
	local c
	for c in "${CTRS[@]}"; do "${P[@]}" rm -f -t 5 "$c" >/dev/null 2>&1; done
	"${P[@]}" rmi -f "$IMAGE" >/dev/null 2>&1
	podman_cleanup_cgroups
	return 0
}
trap 'cleanup; harness_end' EXIT

IMAGES_BEFORE=$("${P[@]}" images -aq --no-trunc | sort)

# ---- the manifest, without kubectl
echo "-- $MANIFEST"
CAPS=""
while IFS= read -r line; do
	case $line in
	"PASS "*) pass "manifest: ${line#PASS }" ;;
	"FAIL "*) fail "manifest: ${line#FAIL }" ;;
	"CAPS "*) CAPS=${line#CAPS } ;;
	esac
done < <($PY tests/integration/daemonset_check.py "$MANIFEST" "$CONTAINERFILE" 2>&1)
# the checker must see what is wrong in a broken copy
$PY - "$MANIFEST" "$TMP/broken.yaml" <<'EOF'
import sys, yaml
docs = list(yaml.safe_load_all(open(sys.argv[1])))
for d in docs:
    if d and d["kind"] == "DaemonSet":
        spec = d["spec"]["template"]["spec"]
        spec["hostPID"] = False
        spec["volumes"][0]["name"] = "renamed"
        spec["containers"][0]["ports"][0]["containerPort"] = 9100
        spec["containers"][0]["securityContext"]["capabilities"]["add"].remove("PERFMON")
yaml.safe_dump_all(docs, open(sys.argv[2], "w"))
EOF
broken=$($PY tests/integration/daemonset_check.py "$TMP/broken.yaml" "$CONTAINERFILE" | grep -c '^FAIL')
# hostPID; the port twice (--listen, hostPort); the volume three times (a mount
# without it, a volume unmounted, btf not from the host); PERFMON
check "manifest checker: a copy without hostPID, a volume renamed, another port, no PERFMON fails 7 checks ($broken)" \
	test "$broken" -eq 7

# ---- the image
echo "-- the image: contrib/container/build-image.sh"
if ! contrib/container/build-image.sh -t "$IMAGE" >"$TMP/build.log" 2>&1; then
	fail "build-image.sh" "$(tail -n 15 "$TMP/build.log")"
	summary
	exit
fi
sed -n 's/^build-image: /   /p' "$TMP/build.log"
cfg=$("${P[@]}" image inspect -f '{{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$IMAGE")
check "image: ENTRYPOINT whydrop, CMD serve --listen 0.0.0.0:9464 ($cfg)" \
	test "$cfg" = '["/usr/bin/whydrop"] ["serve","--listen","0.0.0.0:9464"]'
ver=$("${P[@]}" run --rm --network none "$IMAGE" --version 2>&1)
check "image: whydrop --version is this tree's ($ver)" \
	test "$ver" = "whydrop $(sed -n 's/^VERSION *:= *//p' Makefile)"

# ---- a namespace with a receiver that never reads, and the storm's sender
gcc -static -O2 -Wall -Wextra -Werror -o "$TMP/wdpkt" tests/vm/wdpkt.c ||
	{ fail "gcc -static tests/vm/wdpkt.c"; summary; exit; }
ip netns exec "$NS" "$TMP/wdpkt" udpsink 127.0.0.1 9999 1 >"$TMP/sink.out" &
SINK=$!
PIDS+=("$SINK")
poll_until 5 grep -q ready "$TMP/sink.out"
NSINO=$(stat -L -c %i "/run/netns/$NS")
PER_NETNS=0

snmp() {
	ip netns exec "$NS" awk -v f="$1" '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "Udp:" && h { print $c[f]; exit }' /proc/net/snmp
}
# metric PORT REASON: the sum of the reason's drops: whydrop_drops_total (serve
# --netns), or whydrop_netns_drops_total of the storm's namespace (--per-netns)
metric() {
	curl -s "http://127.0.0.1:$1/metrics" | awk -v r="reason=\"$2\"" -v n="netns=\"$NSINO\"" \
		-v per="$PER_NETNS" '
		!per && index($0, "whydrop_drops_total{" r) == 1 { s += $2 }
		per && index($0, "whydrop_netns_drops_total{") == 1 && index($0, n) && index($0, r) { s += $2 }
		END { print s + 0 }'
}
scraped() {	# PORT REASON WANT
	[ "$(metric "$1" "$2")" = "$3" ]
}
# exact PORT REASON WANT: scraped, and a storm it was (most of 20000 dropped)
exact() {
	[ "$3" -gt 10000 ] && scraped "$@"
}

# run_and_storm WHAT PER_NETNS PODMAN-RUN-OPTIONS...: the image, serve with
# --netns of the storm's namespace (a host pid's path: --pid host; opening it
# needs CAP_SYS_PTRACE), or, PER_NETNS=1, unfiltered with --per-netns (the
# DaemonSet's capabilities); a storm, exact counts, a clean exit.
run_and_storm() {
	local what=$1 name=$NS-$1 port pid ids rc np0 rb0 np rb n args
	PER_NETNS=$2
	shift 2
	port=$(free_port)
	args=(--netns "/proc/$SINK/ns/net")
	[ "$PER_NETNS" = 1 ] && args=(--per-netns --max-series 100000)
	CTRS+=("$name")
	if ! "${P[@]}" run -d --name "$name" --pid host --network host "$@" "$IMAGE" \
			serve --listen "127.0.0.1:$port" "${args[@]}" >/dev/null 2>"$TMP/$what.run"; then
		fail "$what: podman run" "$(tail -n 3 "$TMP/$what.run")"
		return
	fi
	if ! poll_until 20 sh -c "\"\$@\" logs $name 2>&1 | grep -q 'listening on'" _ "${P[@]}"; then
		fail "$what: serve listening" "$("${P[@]}" logs "$name" 2>&1 | tail -n 5)"
		return
	fi
	pid=$("${P[@]}" inspect -f '{{.State.Pid}}' "$name")
	ids=$(prog_ids "$pid")
	check "$what: serve attached, its BPF programs held (ids $ids)" test -n "$ids"
	np0=$(snmp NoPorts) rb0=$(snmp RcvbufErrors)
	n=$((RANDOM % 1000 + 20000))
	ip netns exec "$NS" "$TMP/wdpkt" udp 127.0.0.1 127.0.0.1 40000 9 "$n" >/dev/null
	ip netns exec "$NS" "$TMP/wdpkt" udp 127.0.0.1 127.0.0.1 40001 9999 "$n" 1000 >/dev/null
	np=$(($(snmp NoPorts) - np0)) rb=$(($(snmp RcvbufErrors) - rb0))
	poll_until 5 scraped "$port" NO_SOCKET "$np"
	check "$what: NO_SOCKET scraped = the namespace's Udp NoPorts ($(metric "$port" NO_SOCKET) = $np of $n sent)" \
		exact "$port" NO_SOCKET "$np"
	check "$what: SOCKET_RCVBUFF scraped = its Udp RcvbufErrors ($(metric "$port" SOCKET_RCVBUFF) = $rb of $n sent)" \
		exact "$port" SOCKET_RCVBUFF "$rb"
	"${P[@]}" stop -t 10 "$name" >/dev/null 2>&1
	rc=$("${P[@]}" inspect -f '{{.State.ExitCode}}' "$name")
	check "$what: exit 0 on SIGTERM (podman stop)" test "$rc" = 0
	check "$what: its BPF programs are gone ($ids)" progs_gone $ids
	"${P[@]}" logs "$name" >"$TMP/$what.log" 2>&1
	check "$what: serve said it detached" grep -q 'detached' "$TMP/$what.log"
	"${P[@]}" rm -f "$name" >/dev/null 2>&1
}

echo "-- privileged, --pid host --network host"
run_and_storm privileged 0 --privileged

echo "-- the manifest's security context: --cap-add $CAPS, seccomp unconfined, read-only root"
echo "   (serve --per-netns: the storm's namespace is the series netns=\"$NSINO\")"
mkdir -p "$TMP/var-log-pods" "$TMP/var-log-containers"
if [ -z "$CAPS" ]; then
	fail "the manifest's capabilities" "daemonset_check.py printed none"
else
	run_and_storm manifest 1 --cap-drop all --cap-add "$CAPS" --security-opt seccomp=unconfined \
		--security-opt no-new-privileges --read-only \
		-v /sys/kernel/btf:/sys/kernel/btf:ro -v /sys/kernel/tracing:/sys/kernel/tracing:ro \
		-v /sys/fs/cgroup:/sys/fs/cgroup:ro -v "$TMP/var-log-pods:/var/log/pods:ro" \
		-v "$TMP/var-log-containers:/var/log/containers:ro"
fi

echo "-- the host's containers by name: serve --per-container, the host's podman storage under /host"
# A host container (its own network, none) takes drops; the image, privileged
# with the host's pids and cgroups and its podman storage mounted read-only
# under /host, names it in whydrop_cgroup_drops_total.
# named_drops PORT NAME: SOCKET_RCVBUFF of the series with container="NAME"
named_drops() {
	curl -s "http://127.0.0.1:$1/metrics" | awk -v c="container=\"$2\"" '
		index($0, "whydrop_cgroup_drops_total{") == 1 && index($0, c) &&
		index($0, "reason=\"SOCKET_RCVBUFF\"") { s += $2 }
		END { print s + 0 }'
}
named_is() {	# PORT NAME WANT
	[ "$(named_drops "$1" "$2")" = "$3" ]
}
CTRS+=("$NS-named" "$NS-namer")
if "${P[@]}" run -d --name "$NS-named" --network none --cap-add NET_RAW \
		-v "$TMP/wdpkt:/wdpkt:ro" --entrypoint /wdpkt "$IMAGE" udpsink 127.0.0.1 9999 1 \
		>/dev/null 2>"$TMP/named.run" &&
	poll_until 10 sh -c "\"\$@\" logs $NS-named 2>&1 | grep -q ready" _ "${P[@]}"; then
	npid=$("${P[@]}" inspect -f '{{.State.Pid}}' "$NS-named")
	port=$(free_port)
	if "${P[@]}" run -d --name "$NS-namer" --privileged --pid host --network host \
			--cgroupns host -v /sys/fs/cgroup:/sys/fs/cgroup:ro \
			-v /var/lib/containers:/host/var/lib/containers:ro "$IMAGE" \
			serve --listen "127.0.0.1:$port" --netns "/proc/$npid/ns/net" --per-container \
			--host-root /host >/dev/null 2>"$TMP/namer.run" &&
		poll_until 20 sh -c "\"\$@\" logs $NS-namer 2>&1 | grep -q 'listening on'" _ "${P[@]}"; then
		"${P[@]}" exec "$NS-named" /wdpkt udp 127.0.0.1 127.0.0.1 40000 9999 3000 1000 \
			>/dev/null 2>>"$TMP/named.run"
		drops=$(nsenter -t "$npid" -n awk '$2 ~ /:270F$/ { print $NF }' /proc/net/udp)
		poll_until 5 named_is "$port" "$NS-named" "$drops"
		got=$(named_drops "$port" "$NS-named")
		check "names: the host's container $NS-named, its socket's $drops drops = container=\"$NS-named\" scraped ($got)" \
			test -n "$drops" -a "${drops:-0}" -gt 100 -a "$got" = "$drops"
		"${P[@]}" stop -t 10 "$NS-namer" >/dev/null 2>&1
		check "names: exit 0 on SIGTERM" \
			test "$("${P[@]}" inspect -f '{{.State.ExitCode}}' "$NS-namer")" = 0
	else
		fail "names: serve --per-container in the image" \
			"$(tail -n 3 "$TMP/namer.run"; "${P[@]}" logs "$NS-namer" 2>&1 | tail -n 3)"
	fi
else
	fail "names: a host container with a receiver" "$(tail -n 3 "$TMP/named.run")"
fi
for c in "$NS-named" "$NS-namer"; do "${P[@]}" rm -f -t 0 "$c" >/dev/null 2>&1; done

echo "-- the default command, in a network namespace of its own"
CTRS+=("$NS-default")
if "${P[@]}" run -d --name "$NS-default" --privileged --pid host --network none "$IMAGE" \
		>/dev/null 2>"$TMP/default.run" &&
	poll_until 20 sh -c "\"\$@\" logs $NS-default 2>&1 | grep -q 'listening on'" _ "${P[@]}"; then
	"${P[@]}" logs "$NS-default" >"$TMP/default.log" 2>&1
	check "default: serve listens on http://0.0.0.0:9464/metrics and warns about it" \
		bash -c "grep -q 'listening on http://0.0.0.0:9464/metrics' '$TMP/default.log' &&
			 grep -q 'listens on every address' '$TMP/default.log'"
	pid=$("${P[@]}" inspect -f '{{.State.Pid}}' "$NS-default")
	check "default: scraped from inside its namespace" bash -c \
		"nsenter -t $pid -n curl -s http://127.0.0.1:9464/metrics | grep -q '^whydrop_build_info{'"
	"${P[@]}" stop -t 10 "$NS-default" >/dev/null 2>&1
	check "default: exit 0 on SIGTERM" \
		test "$("${P[@]}" inspect -f '{{.State.ExitCode}}' "$NS-default")" = 0
else
	fail "default: podman run $IMAGE" "$(tail -n 3 "$TMP/default.run")"
fi

# ---- nothing left behind
cleanup
host_untouched
left=$("${P[@]}" ps -a --format '{{.Names}}' | grep "^$NS")$("${P[@]}" images --format '{{.Repository}}' |
	grep -E "/$NS\$|/whydrop-base-")
check "no container or image of this test left${left:+: $left}" test -z "$left"
new=$(comm -13 <(echo "$IMAGES_BEFORE") <("${P[@]}" images -aq --no-trunc | sort) | cut -c1-12 | xargs)
check "no intermediate image of the build left${new:+: $new}" test -z "$new"
summary
