#!/usr/bin/env bash
# Container and pod names on real runtimes. A container named here runs a UDP
# receiver with a tiny SO_RCVBUF (tests/vm/wdpkt.c, built static, in an image
# imported from a directory: no registry) and takes drops; another sends to a
# closed port in its own namespace. whydrop counts them exactly (against the
# socket's own drop count in /proc/net/udp and the namespace's Udp NoPorts),
# its records carry the receiver's cgroup path, and src/lib/who/containers.c
# (through tests/integration/ctr_name.c) maps that path, the one
# /proc/PID/cgroup shows, to the name the test gave:
#   podman   Debian's, --runtime runc --cgroup-manager cgroupfs (crun refuses
#            this host's hybrid cgroups; default_ulimits = [] because the
#            default ones exceed the hard limits here); the systemd manager
#            where systemd is PID 1, else skipped with the reason
#   docker   Debian's docker.io and containerd packages unpacked into
#            /var/cache/whydrop-docker (never installed: the package starts a
#            daemon with the default bridge), dockerd with its own data and
#            exec roots, no bridge, no iptables; skipped if they cannot be had
#   pods     a node's files (/var/log/pods, /var/log/containers links) made
#            here, and real cgroups of both kubelet drivers' shapes under the
#            cgroup v2 hierarchy, each with a receiver inside
# Never a bridge network (podman's default turns on ip_forward and writes
# iptables rules): --network none. Checked at the end: ip_forward, the
# ruleset and the links are as before. Every container, image, cgroup, file
# and process made here is removed, also on failure.
# Usage: tests/integration/containers.sh [BINARY]. Prints "N passed, N failed[, N skipped]".
. "$(dirname "$0")/../lib/part.sh"
TAG=wdctr-$$
NSK=$TAG-k8s
DCACHE=${WHYDROP_DOCKER_CACHE:-/var/cache/whydrop-docker}
. tests/lib/podman.sh
harness_begin tests/integration/containers "$NSK"
podman_setup
CG2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
PODMAN_IMAGE="" DOCKERD="" DD=$TMP/docker DOCKER_IMAGE=""
CGROUPS=()	# made here, removed deepest first
KPIDS=()	# the receivers in them

docker_cli() {
	"$DCACHE/root/usr/bin/docker" -H "unix://$DD/sock" "$@"
}

# Containers, images, the daemon, cgroups: each by the name or id made here.
cleanup() {
	local c p
	"${P[@]}" rm -f -t 0 "$TAG-rcv" "$TAG-snd" "$TAG-gone" >/dev/null 2>&1
	[ -n "$PODMAN_IMAGE" ] && "${P[@]}" rmi -f "$PODMAN_IMAGE" >/dev/null 2>&1
	if [ -n "$DOCKERD" ]; then
		docker_cli rm -f "$TAG-dk" >/dev/null 2>&1
		[ -n "$DOCKER_IMAGE" ] && docker_cli rmi -f "$DOCKER_IMAGE" >/dev/null 2>&1
		kill -TERM "$DOCKERD" 2>/dev/null
		for _ in $(seq 150); do kill -0 "$DOCKERD" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$DOCKERD" 2>/dev/null
		findmnt -rn -o TARGET | grep -F "$DD/" | sort -r | while read -r m; do umount "$m"; done
	fi
	# the receivers end on SIGTERM (wdpkt udpsink); what is left after that: SIGKILL
	for p in "${KPIDS[@]}"; do kill -TERM "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	KPIDS=()
	for ((c = ${#CGROUPS[@]} - 1; c >= 0; c--)); do
		for _ in $(seq 20); do
			for p in $(cat "${CGROUPS[c]}/cgroup.procs" 2>/dev/null); do kill -KILL "$p"; done
			rmdir "${CGROUPS[c]}" 2>/dev/null || [ ! -d "${CGROUPS[c]}" ] && break
			sleep 0.1
		done
	done
	podman_cleanup_cgroups
}
trap 'cleanup; harness_end' EXIT

# ---- tools: the lookup of the build under test, the image's contents
BUILD=$(dirname "$W")
SAN=()
case "$BUILD" in *asan*) SAN=(-fsanitize=address,undefined -fno-omit-frame-pointer) ;; esac
NAME=$TMP/ctr_name
if ! gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror "${SAN[@]}" -Isrc/lib/who -o "$NAME" \
		tests/integration/ctr_name.c "$BUILD/libwhydrop.a" -ljson-c 2>"$TMP/cc.err"; then
	fail "build tests/integration/ctr_name.c against $BUILD/libwhydrop.a" "$(cat "$TMP/cc.err")"
	summary
	exit
fi
ROOTFS=$TMP/rootfs
mkdir -p "$ROOTFS/bin"
if [ ! -x /bin/busybox ] || ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
	fail "podman, runc and busybox-static installed" "scripts/install-deps.sh test installs them"
	summary
	exit
fi
cp /bin/busybox "$ROOTFS/bin/busybox"
for l in sh sleep cat; do ln -s busybox "$ROOTFS/bin/$l"; done
gcc -static -O2 -Wall -Wextra -Werror -o "$ROOTFS/bin/wdpkt" tests/vm/wdpkt.c ||
	{ fail "gcc -static tests/vm/wdpkt.c"; summary; exit; }
tar -C "$ROOTFS" -cf "$TMP/rootfs.tar" .

# name PATH [ARGS]: the lookup's line for one cgroup path
name() {
	local path=$1
	shift
	"$NAME" "$@" "$path" 2>>"$TMP/name.err"
}

# field N LINE: one tab-separated field of a lookup's line
field() {
	cut -f "$1" <<<"$2"
}

v2_cgroup() {
	sed -n 's/^0:://p' "/proc/$1/cgroup"
}

# sock_drops NETNS_PID PORT: the kernel's drop count of the UDP socket on PORT
sock_drops() {
	nsenter -t "$1" -n awk -v p="$(printf ':%04X$' "$2")" '$2 ~ p { print $NF }' /proc/net/udp
}

# snmp NETNS_PID FIELD: a Udp MIB counter of that namespace
snmp() {
	nsenter -t "$1" -n awk -v f="$2" '$1 == "Udp:" && !h { for (i = 2; i <= NF; i++) c[$i] = i; h = 1; next }
		$1 == "Udp:" && h { print $c[f]; exit }' /proc/net/snmp
}

# json_total FILE REASON: whydrop count --json's total for one reason
json_total() {
	$PY - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(x["count"] for x in d["drops"] if x["reason"] == sys.argv[2]))
EOF
}

# json_groups FILE REASON: "group count" lines of count --json --group-by
json_groups() {
	$PY - "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for g in d.get("groups", []):
    if g["reason"] == sys.argv[2]:
        print(g["count"], g["group"])
EOF
}

# record_cgroups FILE: each distinct socket cgroup path of watch --json records, with its count
record_cgroups() {
	$PY - "$1" <<'EOF'
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    s = r.get("socket")
    c[s.get("cgroup", "?") if isinstance(s, dict) else "?"] += 1
for k, v in sorted(c.items()):
    print(v, k)
EOF
}

# record_names FILE: each distinct (container, pod, k8s_namespace) of watch
# --json records' sockets, with its count ("-" where a field is absent)
record_names() {
	$PY - "$1" <<'EOF'
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    s = json.loads(line).get("socket")
    s = s if isinstance(s, dict) else {}
    c[" ".join(s.get(k, "-") for k in ("container", "pod", "k8s_namespace"))] += 1
for k, v in sorted(c.items()):
    print(v, k)
EOF
}

# watch_and_count WHAT NETNS_ARG BY [NAMING ARGS...]: a counting and a watching
# whydrop in that namespace, and one counting --group-by BY (container or
# pod), their output in $TMP/{cnt,wat,grp}-WHAT.out (new files: an old
# "attached" must not be taken for theirs)
watch_and_count() {
	local what=$1 ns=$2 by=$3
	shift 3
	start "cnt-$what" count --json --netns "$ns" --group-by cgroup -r SOCKET_RCVBUFF,NO_SOCKET ||
		return 1
	CNT=$LAST
	start "wat-$what" watch --json --netns "$ns" -r SOCKET_RCVBUFF "$@" || return 1
	WAT=$LAST
	start "grp-$what" count --json --netns "$ns" --group-by "$by" -r SOCKET_RCVBUFF "$@" ||
		return 1
	GRP=$LAST
}

stop_both() {
	stop_ok "$CNT" "$1: count"
	stop_ok "$WAT" "$1: watch"
	stop_ok "$GRP" "$1: count --group-by"
}

# receiver_checks WHAT NETNS_PID PORT CGROUP WANT_LABEL [LOOKUP ARGS...]
receiver_checks() {
	local what=$1 pid=$2 port=$3 cg=$4 want=$5 drops got groups recs line
	shift 5
	drops=$(sock_drops "$pid" "$port")
	got=$(json_total "$TMP/cnt-$what.out" SOCKET_RCVBUFF)
	check "$what: SOCKET_RCVBUFF counted = the socket's drops in /proc/net/udp ($got = $drops)" \
		test -n "$drops" -a "$drops" -gt 100 -a "$got" = "$drops"
	groups=$(json_groups "$TMP/cnt-$what.out" SOCKET_RCVBUFF)
	check "$what: --group-by cgroup: one group, all $drops drops ($(head -c 200 <<<"$groups"))" \
		test "$(wc -l <<<"$groups")" -eq 1 -a "${groups%% *}" = "$drops"
	recs=$(record_cgroups "$TMP/wat-$what.out")
	check "$what: watch records: $drops, each with the socket's cgroup $cg" \
		test "$recs" = "$drops $cg"
	line=$(name "${recs#* }" "$@")
	check "$what: the records' cgroup is named '$want' ($(tr '\t' ' ' <<<"$line"))" \
		test "$(field 1 "$line")" = named -a "$(field 2 "$line")" = "$want"
}

# scrape NAME: serve NAME's page (its address from its stderr)
scrape() {
	local addr
	addr=$(sed -n 's|.*listening on http://\([^/]*\)/metrics.*|\1|p' "$TMP/$1.err")
	curl -s "http://$addr/metrics"
}

# series FILE CONTAINER POD K8S_NAMESPACE: the SOCKET_RCVBUFF count of
# serve --per-container's series with those labels ("" for none)
series() {
	$PY - "$@" <<'EOF'
import re, sys
want = dict(container=sys.argv[2], pod=sys.argv[3], k8s_namespace=sys.argv[4], reason="SOCKET_RCVBUFF")
for line in open(sys.argv[1]):
    m = re.match(r'whydrop_cgroup_drops_total\{(.*)\} (\d+)$', line)
    if m and all(f'{k}="{v}"' in m.group(1) for k, v in want.items()):
        print(m.group(2))
EOF
}

# db_retired: serve svk's page, a second on, has no series of db-0
db_retired() {
	sleep 1
	! scrape svk | grep -q 'pod="db-0"'
}

# names_checks WHAT NETNS_PID PORT BY WANT_GROUP WANT_RECORD: watch records
# and count --group-by BY name the container as its runtime does
names_checks() {
	local what=$1 drops groups recs
	drops=$(sock_drops "$2" "$3")
	recs=$(record_names "$TMP/wat-$what.out")
	check "$what: watch records: all $drops name the container ($recs)" \
		test "$recs" = "$drops $6"
	groups=$(json_groups "$TMP/grp-$what.out" SOCKET_RCVBUFF)
	check "$what: count --group-by $4: $5 with all $drops drops ($groups)" \
		test "$groups" = "$drops $5"
}

# ================================================================ podman
echo "-- podman $(podman --version | awk '{ print $3 }'), runc, cgroupfs manager, --network none"
PODMAN_IMAGE=localhost/$TAG:1
if ! "${P[@]}" import "$TMP/rootfs.tar" "$PODMAN_IMAGE" >/dev/null 2>"$TMP/podman.err"; then
	fail "podman import of a busybox + wdpkt directory" "$(tail -3 "$TMP/podman.err")"
	PODMAN_IMAGE=""
fi
podman_run() {
	"${P[@]}" run -d --name "$1" --network none --cap-add NET_RAW "$PODMAN_IMAGE" "${@:2}" \
		>/dev/null 2>>"$TMP/podman.err"
}
if [ -n "$PODMAN_IMAGE" ] && podman_run "$TAG-rcv" /bin/wdpkt udpsink 127.0.0.1 9999 1 &&
		podman_run "$TAG-snd" /bin/sleep 600; then
	poll_until 10 sh -c "\"\$@\" logs $TAG-rcv 2>/dev/null | grep -q ready" _ "${P[@]}"
	RPID=$("${P[@]}" inspect -f '{{.State.Pid}}' "$TAG-rcv")
	SPID=$("${P[@]}" inspect -f '{{.State.Pid}}' "$TAG-snd")
	RCG=$(v2_cgroup "$RPID") SCG=$(v2_cgroup "$SPID")
	RID=$("${P[@]}" inspect -f '{{.Id}}' "$TAG-rcv")
	check "podman: the receiver's cgroup is /libpod_parent/libpod-<its id> ($RCG)" \
		test "$RCG" = "/libpod_parent/libpod-$RID"
	line=$(name "$RCG")
	check "podman: /proc/$RPID/cgroup named podman:$TAG-rcv ($(tr '\t' ' ' <<<"$line"))" \
		test "$(field 1 "$line")" = named -a "$(field 3 "$line")" = "$TAG-rcv"
	line=$(name "$SCG")
	check "podman: the sender's cgroup named podman:$TAG-snd" \
		test "$(field 2 "$line")" = "podman:$TAG-snd"
	NOPORTS0=$(snmp "$SPID" NoPorts)
	if watch_and_count podman "/proc/$RPID/ns/net" container; then
		start cnts count --json --netns "/proc/$SPID/ns/net" -r NO_SOCKET
		CNTS=$LAST
		# not --netns: a namespace given is called as given, this one by its container
		start nsnames count --json --group-by netns -r NO_SOCKET
		NSNAMES=$LAST
		start rec record -w "$TMP/podman.pcapng" --netns "/proc/$RPID/ns/net" -r SOCKET_RCVBUFF
		REC=$LAST
		start svpod serve --listen 127.0.0.1:0 --netns "/proc/$RPID/ns/net" --per-container
		SVPOD=$LAST
		"${P[@]}" exec "$TAG-rcv" /bin/wdpkt udp 127.0.0.1 127.0.0.1 40000 9999 3000 1000 \
			>/dev/null 2>>"$TMP/podman.err"
		"${P[@]}" exec "$TAG-snd" /bin/wdpkt udp 127.0.0.1 127.0.0.1 40001 9 400 \
			>/dev/null 2>>"$TMP/podman.err"
		sleep 0.5
		stop_both podman
		stop "$CNTS"
		stop "$NSNAMES"
		stop_ok "$REC" "podman: record"
		scrape svpod >"$TMP/podman.metrics"
		stop_ok "$SVPOD" "podman: serve"
		drops=$(sock_drops "$RPID" 9999)
		got=$(series "$TMP/podman.metrics" "$TAG-rcv" "" "")
		check "podman: serve --per-container (as nobody): container=\"$TAG-rcv\" = the socket's $drops drops (${got:-none})" \
			test "$got" = "$drops"
		receiver_checks podman "$RPID" 9999 "$RCG" "podman:$TAG-rcv"
		names_checks podman "$RPID" 9999 container "podman:$TAG-rcv" "$TAG-rcv - -"
		noports=$(($(snmp "$SPID" NoPorts) - NOPORTS0))
		got=$(json_total "$TMP/cnts.out" NO_SOCKET)
		check "podman: the sender's NO_SOCKET in its own namespace = its Udp NoPorts ($got = $noports = 400)" \
			test "$got" = "$noports" -a "$noports" = 400
		got=$(json_groups "$TMP/nsnames.out" NO_SOCKET | awk -v g="podman:$TAG-snd" '$2 == g { print $1 }')
		check "podman: count --group-by netns names the sender's namespace podman:$TAG-snd, its NO_SOCKET = its Udp NoPorts (${got:-none} = $noports)" \
			test "$got" = "$noports"
		drops=$(sock_drops "$RPID" 9999)
		"$W" read --json --group-by container "$TMP/podman.pcapng" >"$TMP/read-podman.json" 2>>"$TMP/read.err"
		got=$(json_groups "$TMP/read-podman.json" SOCKET_RCVBUFF)
		check "podman: read --group-by container: podman:$TAG-rcv with all $drops drops ($got)" \
			test "$got" = "$drops podman:$TAG-rcv"
	fi
	# gone before the end: count learned its name while it lived, and keeps it
	if podman_run "$TAG-gone" /bin/wdpkt udpsink 127.0.0.1 9999 1 &&
			poll_until 10 sh -c "\"\$@\" logs $TAG-gone 2>/dev/null | grep -q ready" _ "${P[@]}" &&
			GPID=$("${P[@]}" inspect -f '{{.State.Pid}}' "$TAG-gone") &&
			start gone count --json --netns "/proc/$GPID/ns/net" --group-by container \
				-r SOCKET_RCVBUFF; then
		GONE=$LAST
		"${P[@]}" exec "$TAG-gone" /bin/wdpkt udp 127.0.0.1 127.0.0.1 40000 9999 2000 1000 \
			>/dev/null 2>>"$TMP/podman.err"
		sleep 0.5
		gdrops=$(sock_drops "$GPID" 9999)
		sleep 1.5	# count looks names up every second
		"${P[@]}" rm -f -t 0 "$TAG-gone" >/dev/null 2>&1
		check "podman: $TAG-gone removed (its containers.json entry and cgroup gone)" \
			test -z "$("${P[@]}" ps -a --format '{{.Names}}' | grep -x "$TAG-gone")"
		stop "$GONE"
		got=$(json_groups "$TMP/gone.out" SOCKET_RCVBUFF)
		check "podman: a container removed before count ends keeps its name: podman:$TAG-gone with its socket's $gdrops drops ($got)" \
			test -n "$gdrops" -a "$gdrops" -gt 100 -a "$got" = "$gdrops podman:$TAG-gone"
	else
		fail "podman: a third container, counted by container" "$(tail -3 "$TMP/podman.err")"
	fi
	# gone: the id stays bare in a new lookup, never another container's name
	"${P[@]}" rm -f -t 0 "$TAG-snd" >/dev/null 2>&1
	line=$(name "$SCG")
	check "podman: a removed container's id, looked up afresh, is bare ($(field 2 "$line"))" \
		test "$(field 1 "$line")" = bare
else
	fail "podman run --network none (two containers)" "$(tail -3 "$TMP/podman.err")"
fi
if [ -d /run/systemd/system ]; then
	SD=$TAG-sd
	if "${P[@]/cgroupfs/systemd}" run -d --name "$SD" --network none "$PODMAN_IMAGE" /bin/sleep 60 \
			>/dev/null 2>>"$TMP/podman.err"; then
		cg=$(v2_cgroup "$("${P[@]}" inspect -f '{{.State.Pid}}' "$SD")")
		line=$(name "$cg")
		check "podman, systemd manager: $cg named podman:$SD" test "$(field 2 "$line")" = "podman:$SD"
	else
		fail "podman run --cgroup-manager systemd" "$(tail -3 "$TMP/podman.err")"
	fi
	"${P[@]}" rm -f -t 0 "$SD" >/dev/null 2>&1
else
	skip "podman with --cgroup-manager systemd" \
		"systemd is not PID 1 here ($(ps -o comm= -p 1)): runc refuses the systemd manager"
fi

# ================================================================ docker
echo "-- docker: Debian's docker.io unpacked in $DCACHE, dockerd without bridge or iptables"
docker_fetch() {
	local debs=$TMP/debs
	[ -x "$DCACHE/root/usr/sbin/dockerd" ] && return 0
	mkdir -p "$debs" "$DCACHE" && rm -rf "$DCACHE/root.tmp" &&
	(cd "$debs" && apt-get download -q -o APT::Sandbox::User=root docker.io containerd) \
		>"$TMP/apt.log" 2>&1 || return 1
	for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$DCACHE/root.tmp" || return 1; done
	mv "$DCACHE/root.tmp" "$DCACHE/root"
}
docker_start() {
	mkdir -p "$DD"
	echo '{}' >"$DD/daemon.json"
	PATH=$DCACHE/root/usr/bin:$DCACHE/root/usr/sbin:$PATH "$DCACHE/root/usr/sbin/dockerd" \
		--data-root "$DD/data" --exec-root "$DD/exec" --pidfile "$DD/pid" \
		-H "unix://$DD/sock" --config-file "$DD/daemon.json" --bridge none \
		--iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
		>"$TMP/dockerd.log" 2>&1 &
	DOCKERD=$!
	poll_until 30 docker_cli info >/dev/null 2>&1
}
if ! docker_fetch; then
	skip "docker" "Debian's docker.io could not be downloaded: $(tail -1 "$TMP/apt.log")"
elif ! docker_start; then
	fail "dockerd $("$DCACHE/root/usr/sbin/dockerd" --version 2>&1 | awk '{ print $3 }') starts" \
		"$(tail -3 "$TMP/dockerd.log")"
else
	echo "   $("$DCACHE/root/usr/sbin/dockerd" --version)"
	DOCKER_IMAGE=$TAG:1
	docker_cli import "$TMP/rootfs.tar" "$DOCKER_IMAGE" >/dev/null 2>"$TMP/docker.err" &&
	docker_cli run -d --name "$TAG-dk" --network none --cap-add NET_RAW "$DOCKER_IMAGE" \
		/bin/wdpkt udpsink 127.0.0.1 9999 1 >/dev/null 2>>"$TMP/docker.err"
	check "docker import and run --network none" test $? -eq 0
	poll_until 10 sh -c "\"\$@\" logs $TAG-dk 2>/dev/null | grep -q ready" _ \
		"$DCACHE/root/usr/bin/docker" -H "unix://$DD/sock"
	DPID=$(docker_cli inspect -f '{{.State.Pid}}' "$TAG-dk" 2>/dev/null)
	DID=$(docker_cli inspect -f '{{.Id}}' "$TAG-dk" 2>/dev/null)
	if [ -n "$DPID" ] && [ "$DPID" != 0 ]; then
		DCG=$(v2_cgroup "$DPID")
		check "docker: the container's cgroup is /docker/<its id> ($DCG)" test "$DCG" = "/docker/$DID"
		if watch_and_count docker "/proc/$DPID/ns/net" container --docker-root "$DD/data"; then
			docker_cli exec "$TAG-dk" /bin/wdpkt udp 127.0.0.1 127.0.0.1 40000 9999 3000 1000 \
				>/dev/null 2>>"$TMP/docker.err"
			sleep 0.5
			stop_both docker
			receiver_checks docker "$DPID" 9999 "$DCG" "docker:$TAG-dk" --docker-root "$DD/data"
			names_checks docker "$DPID" 9999 container "docker:$TAG-dk" "$TAG-dk - -"
		fi
		line=$(name "$DCG")
		check "docker: under another data root, the same id is bare ($(field 2 "$line"))" \
			test "$(field 1 "$line")" = bare
	else
		fail "docker: the container runs" "$(tail -3 "$TMP/docker.err")"
	fi
fi

# ================================================================ Kubernetes
echo "-- Kubernetes: a node's files made here, real cgroups of both drivers' shapes"
NODE=$TMP/node
U1=$(cat /proc/sys/kernel/random/uuid) U2=$(cat /proc/sys/kernel/random/uuid)
ID1=$(sha256sum <<<"$TAG-1" | cut -c1-64) ID2=$(sha256sum <<<"$TAG-2" | cut -c1-64)
pod_files() {	# NAMESPACE POD UID CONTAINER ID
	mkdir -p "$NODE/var/log/pods/$1_$2_$3/$4" "$NODE/var/log/containers"
	: >"$NODE/var/log/pods/$1_$2_$3/$4/0.log"
	ln -s "/var/log/pods/$1_$2_$3/$4/0.log" "$NODE/var/log/containers/$2_$1_$4-$5.log"
}
pod_files shop web-0 "$U1" nginx "$ID1"
pod_files shop db-0 "$U2" postgres "$ID2"
# the systemd driver's shape (containerd) and the cgroupfs driver's
CGA=/$TAG.slice/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${U1//-/_}.slice/cri-containerd-$ID1.scope
CGB=/$TAG/kubepods/besteffort/pod$U2/$ID2
if [ -z "$CG2" ]; then
	fail "a cgroup v2 hierarchy is mounted" "none in /proc/self/mountinfo"
else
	for rel in "$CGA" "$CGB"; do
		d=$CG2
		IFS=/ read -ra parts <<<"${rel#/}"
		for p in "${parts[@]}"; do
			d=$d/$p
			[ -d "$d" ] || { mkdir "$d" && CGROUPS+=("$d"); }
		done
	done
	# each receiver joins its cgroup before it makes its socket
	for x in "A 7001 $CGA" "B 7002 $CGB"; do
		set -- $x
		sh -c "echo \$\$ > '$CG2$3/cgroup.procs' && exec ip netns exec '$NSK' '$ROOTFS/bin/wdpkt' udpsink 127.0.0.1 $2 1" \
			>"$TMP/k8s$1.out" &
		KPIDS+=($!)
		eval "KPID_$1=$!"
	done
	poll_until 5 sh -c "grep -q ready '$TMP/k8sA.out' && grep -q ready '$TMP/k8sB.out'"
	check "pods: receivers in $CGA and $CGB" test "$(v2_cgroup "$KPID_A")" = "$CGA" \
		-a "$(v2_cgroup "$KPID_B")" = "$CGB"
	start svk serve --listen 127.0.0.1:0 --netns "$NSK" --per-container --host-root "$NODE" \
		--series-grace 1s && SVK=$LAST
	if watch_and_count pods "$NSK" pod --host-root "$NODE"; then
		ip netns exec "$NSK" "$ROOTFS/bin/wdpkt" udp 127.0.0.1 127.0.0.1 40000 7001 2000 1000 >/dev/null
		ip netns exec "$NSK" "$ROOTFS/bin/wdpkt" udp 127.0.0.1 127.0.0.1 40000 7002 1500 1000 >/dev/null
		sleep 0.5
		stop_both pods
		da=$(sock_drops "$KPID_A" 7001) db=$(sock_drops "$KPID_B" 7002)
		got=$(json_total "$TMP/cnt-pods.out" SOCKET_RCVBUFF)
		check "pods: SOCKET_RCVBUFF counted = both sockets' drops ($got = $da + $db)" \
			test -n "$da" -a -n "$db" -a "$got" = "$((da + db))" -a "$da" -gt 100 -a "$db" -gt 100
		recs=$(record_cgroups "$TMP/wat-pods.out")
		check "pods: watch records name each socket's cgroup with its count" \
			test "$recs" = "$(printf '%s %s\n%s %s' "$da" "$CGA" "$db" "$CGB" | sort -k2)"
		recs=$(record_names "$TMP/wat-pods.out")
		check "pods: watch records name container, pod and k8s_namespace ($(tr '\n' ';' <<<"$recs"))" \
			test "$recs" = "$(printf '%s nginx web-0 shop\n%s postgres db-0 shop' "$da" "$db" | sort -k2)"
		groups=$(json_groups "$TMP/grp-pods.out" SOCKET_RCVBUFF | sort -k2)
		check "pods: count --group-by pod: shop/db-0 and shop/web-0 with their sockets' drops ($(tr '\n' ';' <<<"$groups"))" \
			test "$groups" = "$(printf '%s shop/db-0\n%s shop/web-0' "$db" "$da")"
		scrape svk >"$TMP/pods.metrics"
		got=$(series "$TMP/pods.metrics" nginx web-0 shop),$(series "$TMP/pods.metrics" postgres db-0 shop)
		check "pods: serve --per-container: nginx/web-0/shop and postgres/db-0/shop = their sockets' drops ($got = $da,$db)" \
			test "$got" = "$da,$db"
		# db-0's container goes: its receiver ends, its cgroup is removed
		kill -TERM "$KPID_B" && wait "$KPID_B" 2>/dev/null
		rmdir "$CG2$CGB"
		poll_until 15 db_retired
		scrape svk >"$TMP/pods2.metrics"
		check "pods: serve: db-0's series retired once its cgroup is gone, web-0's kept ($(series "$TMP/pods2.metrics" postgres db-0 shop)/$(series "$TMP/pods2.metrics" nginx web-0 shop))" \
			test -z "$(series "$TMP/pods2.metrics" postgres db-0 shop)" -a \
			"$(series "$TMP/pods2.metrics" nginx web-0 shop)" = "$da"
		line=$(name "$CGA" --root "$NODE")
		check "pods: the systemd driver's cgroup named pod shop/web-0/nginx ($(tr '\t' ' ' <<<"$line"))" \
			test "$(field 2 "$line")" = "pod shop/web-0/nginx" -a "$(field 4 "$line")" = web-0 \
			-a "$(field 5 "$line")" = shop -a "$(field 3 "$line")" = nginx
		line=$(name "$CGB" --root "$NODE")
		check "pods: the cgroupfs driver's cgroup named pod shop/db-0/postgres ($(tr '\t' ' ' <<<"$line"))" \
			test "$(field 2 "$line")" = "pod shop/db-0/postgres"
		line=$(name "${CGA%/*}" --root "$NODE")
		check "pods: the pod's own slice named pod shop/web-0" test "$(field 2 "$line")" = "pod shop/web-0"
	fi
	if [ -n "${SVK:-}" ]; then
		stop_ok "$SVK" "pods: serve"
	fi
fi

# ================================================================ the host, untouched
check "no warning about the runtimes' files ($(head -c 300 "$TMP/name.err" 2>/dev/null))" \
	test ! -s "$TMP/name.err"
check "no sanitizer report" bash -c "! grep -q Sanitizer '$TMP'/*.err"
cleanup
host_untouched
check "podman: no container or image of this test left" \
	test -z "$("${P[@]}" ps -a --format '{{.Names}}' | grep "^$TAG")$("${P[@]}" images --format '{{.Repository}}' | grep "/$TAG\$")"
left=""
for c in "${CGROUPS[@]}"; do [ -d "$c" ] && left="$left $c"; done
check "cgroups made here removed${left:+:$left}" test -z "$left"
check "dockerd and its containerd stopped" bash -c "[ -z '$DOCKERD' ] || ! kill -0 '$DOCKERD' 2>/dev/null"
summary
