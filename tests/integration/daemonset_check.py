#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Check contrib/kubernetes/whydrop-daemonset.yaml without kubectl: the fields
whydrop relies on, and that its parts agree with each other and with the
image (contrib/container/Containerfile).

usage: daemonset_check.py MANIFEST CONTAINERFILE
One line per check, "PASS what" or "FAIL what: why", then "CAPS A,B,..." (the
capabilities the container is given, for the test that runs the image with
them). Exit 0 unless the manifest cannot be read at all.
"""
import json
import re
import sys

import yaml

# the capabilities of Linux 6.x, as Kubernetes names them (no CAP_ prefix)
KNOWN_CAPS = set("""CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID
SETPCAP LINUX_IMMUTABLE NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK
IPC_OWNER SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT SYS_ADMIN SYS_BOOT
SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE AUDIT_WRITE AUDIT_CONTROL
SETFCAP MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM BLOCK_SUSPEND AUDIT_READ PERFMON BPF
CHECKPOINT_RESTORE""".split())
# what whydrop reads from the host, and why (docs/kubernetes.md)
HOST_PATHS = ["/sys/kernel/btf", "/sys/kernel/tracing", "/sys/fs/cgroup",
              "/var/log/pods", "/var/log/containers"]

results = []


def check(what, ok, why=""):
    results.append(("PASS " + what) if ok else ("FAIL %s: %s" % (what, why)))
    return ok


def get(d, *path, default=None):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return default
        d = d[p]
    return d


def image_cmd(containerfile):
    for line in open(containerfile):
        if line.startswith("CMD "):
            return json.loads(line[4:])
    return None


def listen_port(args):
    for i, a in enumerate(args):
        v = None
        if a == "--listen" and i + 1 < len(args):
            v = args[i + 1]
        elif a.startswith("--listen="):
            v = a.split("=", 1)[1]
        if v is not None:
            m = re.search(r":(\d+)$", v)
            return int(m.group(1)) if m else None
    return 9464     # serve's default port


def check_pod(ds, cmd):
    spec = get(ds, "spec", "template", "spec", default={})
    labels = get(ds, "spec", "template", "metadata", "labels", default={})
    sel = get(ds, "spec", "selector", "matchLabels", default={})
    check("DaemonSet selector matches its pods' labels",
          bool(sel) and all(labels.get(k) == v for k, v in sel.items()), "%s vs %s" % (sel, labels))
    check("hostPID: true (namespaces and processes are the host's)", spec.get("hostPID") is True,
          repr(spec.get("hostPID")))
    check("hostNetwork: true (interfaces named in the node's namespace)",
          spec.get("hostNetwork") is True, repr(spec.get("hostNetwork")))
    ctrs = spec.get("containers") or []
    if not check("one container", len(ctrs) == 1, "%d containers" % len(ctrs)):
        return None
    c = ctrs[0]
    args = (c.get("command") or []) + (c.get("args") or [])
    check("the container runs whydrop serve", args[:1] == ["serve"], repr(args))
    check("its arguments are the image's CMD", args == cmd, "%r vs CMD %r" % (args, cmd))
    port = listen_port(args)
    ports = {p.get("name"): p for p in c.get("ports") or []}
    metrics = ports.get("metrics", {})
    check("a port named 'metrics' is serve's --listen port (%s)" % port,
          metrics.get("containerPort") == port, repr(metrics))
    check("hostPort = containerPort (hostNetwork)",
          metrics.get("hostPort") in (None, metrics.get("containerPort")), repr(metrics))
    ann = get(ds, "spec", "template", "metadata", "annotations", default={})
    check("annotation prometheus.io/scrape: \"true\"", ann.get("prometheus.io/scrape") == "true",
          repr(ann.get("prometheus.io/scrape")))
    check("annotation prometheus.io/port is the serve port", ann.get("prometheus.io/port") == str(port),
          repr(ann.get("prometheus.io/port")))
    check("annotation prometheus.io/path: /metrics", ann.get("prometheus.io/path") == "/metrics",
          repr(ann.get("prometheus.io/path")))
    probe = get(c, "readinessProbe", "httpGet", default={})
    check("readiness probe on /metrics of a declared port",
          probe.get("path") == "/metrics" and probe.get("port") in list(ports) + [port], repr(probe))
    check_mounts(spec, c)
    return c


def check_mounts(spec, c):
    vols = {v.get("name"): v for v in spec.get("volumes") or []}
    mounts = {m.get("name"): m for m in c.get("volumeMounts") or []}
    check("every volumeMount names a volume", set(mounts) <= set(vols),
          "no volume for %s" % sorted(set(mounts) - set(vols)))
    check("every volume is mounted", set(vols) <= set(mounts),
          "unused %s" % sorted(set(vols) - set(mounts)))
    by_path = {m.get("mountPath"): m for m in mounts.values()}
    for p in HOST_PATHS:
        m = by_path.get(p)
        v = vols.get(m.get("name")) if m else None
        check("%s mounted read-only from the host's %s" % (p, p),
              m is not None and m.get("readOnly") is True and get(v, "hostPath", "path") == p,
              "mount %r, volume %r" % (m, v))


def check_security(c):
    sc = c.get("securityContext") or {}
    if sc.get("privileged") is True:
        check("privileged container", True)
        return []
    caps = get(sc, "capabilities", "add", default=[]) or []
    drop = get(sc, "capabilities", "drop", default=[]) or []
    check("capabilities: drop ALL, then add", drop == ["ALL"], repr(drop))
    check("capability names known, without CAP_ prefix", all(x in KNOWN_CAPS for x in caps),
          repr([x for x in caps if x not in KNOWN_CAPS]))
    check("CAP_BPF and CAP_PERFMON added (load and attach)", {"BPF", "PERFMON"} <= set(caps),
          repr(caps))
    check("CAP_SETUID and CAP_SETGID added (serve switches to nobody)",
          {"SETUID", "SETGID"} <= set(caps), repr(caps))
    check("runs as root until attached", sc.get("runAsUser") in (0, None), repr(sc.get("runAsUser")))
    check("no privilege escalation", sc.get("allowPrivilegeEscalation") is False,
          repr(sc.get("allowPrivilegeEscalation")))
    check("seccomp Unconfined (bpf() needs it without CAP_SYS_ADMIN)",
          get(sc, "seccompProfile", "type") == "Unconfined", repr(sc.get("seccompProfile")))
    return caps


def main():
    if len(sys.argv) != 3:
        print("usage: daemonset_check.py MANIFEST CONTAINERFILE", file=sys.stderr)
        return 2
    docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
    cmd = image_cmd(sys.argv[2])
    kinds = {d.get("kind"): d for d in docs}
    for k in ("Namespace", "DaemonSet", "PodMonitor"):
        check("a %s" % k, k in kinds, "kinds: %s" % sorted(kinds))
    ds = kinds.get("DaemonSet", {})
    ns = get(kinds, "Namespace", "metadata", "name")
    check("DaemonSet apps/v1 in the Namespace declared", ds.get("apiVersion") == "apps/v1" and
          get(ds, "metadata", "namespace") == ns and ns is not None, repr(ds.get("metadata")))
    check("the Namespace allows privileged pods (Pod Security)",
          get(kinds, "Namespace", "metadata", "labels", "pod-security.kubernetes.io/enforce")
          == "privileged", "label missing")
    c = check_pod(ds, cmd)
    caps = check_security(c) if c else []
    pm = kinds.get("PodMonitor", {})
    labels = get(ds, "spec", "template", "metadata", "labels", default={})
    sel = get(pm, "spec", "selector", "matchLabels", default={})
    check("PodMonitor selects the DaemonSet's pods, in its namespace",
          bool(sel) and all(labels.get(k) == v for k, v in sel.items()) and
          get(pm, "metadata", "namespace") == ns, "%s vs %s" % (sel, labels))
    eps = get(pm, "spec", "podMetricsEndpoints", default=[]) or []
    names = [p.get("name") for p in (c or {}).get("ports") or []]
    check("PodMonitor scrapes the 'metrics' port's /metrics",
          len(eps) == 1 and eps[0].get("port") in names and eps[0].get("path", "/metrics") == "/metrics",
          repr(eps))
    print("\n".join(results))
    print("CAPS " + ",".join(caps))
    return 0


sys.exit(main())
