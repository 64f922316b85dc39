"""Who/where checks of tests/vm/check.py: watch flows, the socket of a drop,
count --group-by cgroup, call sites (count --stacks + explain), and watch
while a device's module is unloaded.
"""
import json
import re

from vmcheck_common import flow_hits, json_lines, load_json, short_list


def check_watch(t, rel, kv, sec, code_of):
    w = sec.get("watch")
    lines = json_lines(w[0]) if w else []
    if not lines:
        err = sec.get("stderr.watch", ("", 0))[0].strip()
        t.add(rel, "watch --json flows", False, f"no JSON lines; stderr {err[-300:]!r}")
        return
    want = [
        ("watch v4 tcp flow", 3, dict(reason="NO_SOCKET", family="ipv4", l4="tcp",
                                      src="192.0.2.1", sport=40009, dst="192.0.2.2",
                                      dport=9)),
        ("watch v6 udp flow", 2, dict(reason="NO_SOCKET", family="ipv6", l4="udp",
                                      src="2001:db8::1", sport=40010, dst="2001:db8::2",
                                      dport=9)),
    ]
    for label, n, fields in want:
        hits = flow_hits(lines, fields)
        problems = []
        if len(hits) != n:
            near = [d for d in lines if d.get("sport") == fields["sport"]] or lines
            problems.append(f"{len(hits)} matching lines, want {n}; e.g. "
                            f"{json.dumps(near[0])[:300]}")
        for d in hits:
            if d.get("code") != code_of.get("NO_SOCKET"):
                problems.append(f"code {d.get('code')} != kernel's {code_of.get('NO_SOCKET')}")
                break
            if fields["l4"] == "tcp" and "S" not in str(d.get("tcp_flags", "")):
                problems.append(f"tcp_flags {d.get('tcp_flags')!r}, want S")
                break
            if "ifname" in d and d["ifname"] != "vb":
                problems.append(f"ifname {d['ifname']!r} (ifindex {d.get('ifindex')}), "
                                "want 'vb' (the device in netns wdb) or none")
                break
        ex = hits[0] if hits else {}
        t.add(rel, label, not problems, "; ".join(problems) if problems else
              f"{len(hits)}x {ex.get('src')}:{ex.get('sport')} > {ex.get('dst')}:"
              f"{ex.get('dport')} {ex.get('l4')} {ex.get('tcp_flags', '')} "
              f"{ex.get('function')} dev {ex.get('ifname')}".replace("  ", " "))


def check_watch_sock(t, rel, sec):
    """Who: the socket of a SOCKET_RCVBUFF drop, or "unknown" without rx_sk."""
    w = sec.get("watch_sock")
    lines = [d for d in (json_lines(w[0]) if w else []) if d.get("reason") == "SOCKET_RCVBUFF"]
    major, minor = (int(x) for x in re.match(r"(\d+)\.(\d+)", rel).groups())
    has_rx_sk = (major, minor) >= (6, 11)
    if has_rx_sk:
        bad = [d for d in lines if not isinstance(d.get("socket"), dict) or
               d["socket"].get("lport") != 5000 or not d["socket"].get("ino")]
        want = "the receiver's socket (lport 5000, an inode)"
    else:
        bad = [d for d in lines if d.get("socket") != "unknown"]
        want = '"socket": "unknown" (no rx_sk before 6.11)'
    ok = bool(lines) and not bad
    err = sec.get("stderr.watch_sock", ("", 0))[0].strip()
    t.add(rel, "watch: who (socket of SOCKET_RCVBUFF)", ok,
          f"{len(lines)} records, each {want}" if ok else
          f"{len(lines)} records, {len(bad)} without {want}; e.g. "
          f"{json.dumps((bad or lines or [{}])[0])[:300]}; stderr {err[-200:]!r}")


def check_group_cgroup(t, rel, kv, sec):
    """count --group-by cgroup: every SOCKET_RCVBUFF drop counted in a group."""
    g = sec.get("group_cgroup")
    d = load_json(g[0]) if g else None
    d = d if isinstance(d, dict) else {}
    total = sum(r.get("count", 0) for r in d.get("drops", [])
                if r.get("reason") == "SOCKET_RCVBUFF")
    grouped = sum(r.get("count", 0) for r in d.get("groups", []))
    rc = kv.get("whydrop_rc.group_cgroup")
    ok = rc == "0" and total > 0 and grouped == total and not d.get("groups_lost")
    err = sec.get("stderr.group_cgroup", ("", 0))[0].strip()
    t.add(rel, "count --group-by cgroup: every drop in a group", ok,
          f"{total} SOCKET_RCVBUFF = {grouped} grouped in "
          f"{short_list(r.get('group') for r in d.get('groups', []))}" if ok else
          f"rc {rc}; {total} drops, {grouped} grouped, groups_lost {d.get('groups_lost')}; "
          f"stderr {err[-200:]!r}")


def callsite_base(function):
    return function.split(".", 1)[0]


def check_callsites(t, rel, kv, sec):
    """NOT_SPECIFIED / QUEUE_PURGE call sites of the workload: explain answers."""
    reasons = kv.get("callsite_reasons", "").split(",")
    steps = [n for n in ("cs.sockmix4", "cs.sockmix6", "cs.udp_closed", "cs.ifdown")
             if sec.get(n, ("", 1))[1] != 0]
    doc = load_json(sec.get("cs.count", ("", 1))[0])
    err = sec.get("stderr.cs", ("", 0))[0].strip()
    if not isinstance(doc, dict) or not isinstance(doc.get("drops"), list):
        t.add(rel, "call sites: workload counted", False,
              f"no count document; stderr {err[-300:]!r}")
        return
    rows, other = {}, {}
    for d in doc["drops"] + doc.get("hidden", {}).get("drops", []):
        k = (d.get("reason"), d.get("function"))
        into = rows if d.get("reason") in reasons else other
        into[k] = into.get(k, 0) + int(d.get("count", 0))
    ok = not steps and kv.get("whydrop_rc.callsites") == "0" and bool(rows)
    seen = ", ".join(f"{f} {r} x{n}" for (r, f), n in sorted(rows.items(), key=lambda x: x[0][1]))
    seen += "".join(f"; {r} x{n} at {f}" for (r, f), n in sorted(other.items()))
    took = (f" ({int(kv['callsites_ms']) / 1000:.1f}s)" if kv.get("callsites_ms", "").isdigit()
            else "")
    t.add(rel, f"call sites: workload under count -r {','.join(reasons)} --stacks", ok,
          seen + took if ok else f"failed steps {steps}; rc {kv.get('whydrop_rc.callsites')}; "
          f"rows {seen or 'none'}; stderr {err[-200:]!r}")
    series = ".".join(rel.split(".")[:2])        # "6.1", "6.12"
    bad, wrong = [], []
    for (reason, func) in sorted(rows):
        ex = sec.get(f"cs.explain.{func}")
        d = load_json(ex[0]) if ex else None
        entry = None
        for c in d.get("callsites", []) if isinstance(d, dict) else []:
            if c.get("function") == callsite_base(func) and reason in c.get("reasons", []):
                entry = c
        if not ex or ex[1] != 0 or entry is None:
            bad.append(f"{func} ({reason}): rc {ex[1] if ex else None}")
            continue
        # its "kernels" line must name this kernel and what it reported
        kern = entry.get("kernels", "")
        if series not in re.findall(r"\b\d+\.\d+", kern) or reason not in kern:
            wrong.append(f"{func}: {reason} on {series}, entry says {kern!r}")
    t.add(rel, "call sites: explain FUNCTION answers for each (entry lists the reason)",
          not bad and bool(rows),
          f"{len(rows)} function/reason pairs, each has an entry" if not bad else
          f"no entry for {short_list(bad, 6)} (src/lib/knowledge/callsites_data.h)")
    t.add(rel, "call sites: each entry's kernels line names this kernel and reason",
          not bad and not wrong and bool(rows),
          f"{len(rows)} entries say {series}" if not wrong else
          "; ".join(wrong[:4]) + " (src/lib/knowledge/callsites_data.h)")


def check_unload(t, rel, kv, sec, code_of):
    """veth deleted and its module removed while `watch` runs."""
    un = sec.get("unload")
    t.add(rel, "unload: veth deleted, veth.ko removed", bool(un) and un[1] == 0,
          (un[0].strip()[-200:] or "ok") if un else "not run")
    rc = kv.get("whydrop_rc.unload")
    err = sec.get("stderr.unload", ("", 0))[0].strip()
    t.add(rel, "unload: watch exits 0 after SIGINT", rc == "0",
          f"rc {rc}; stderr {err[-200:]!r}")
    lines = json_lines(sec.get("unload.watch", ("", 0))[0])
    for label, n, fields in (
            ("unload: drops on vb before", 5, dict(
                reason="NO_SOCKET", l4="udp", src="192.0.2.1", sport=40011, dport=9,
                ifname="vb", netns_name="wdb")),
            ("unload: drops on lo after", 4, dict(
                reason="NO_SOCKET", l4="udp", src="127.0.0.1", sport=40012, dport=9,
                ifname="lo", netns_name="wda"))):
        # every namespace: named from a scan at start that learnt each one's
        # cookie (by entering it before 6.18), the cookie the program read
        hits = flow_hits(lines, fields)
        bad = [d for d in hits if d.get("code") != code_of.get("NO_SOCKET") or
               not d.get("netns_cookie")]
        ok = len(hits) == n and not bad
        ex = hits[0] if hits else {}
        t.add(rel, label, ok, f"{len(hits)}x {ex.get('function')} dev {ex.get('ifname')} "
              f"netns {ex.get('netns_name')} (cookie {ex.get('netns_cookie')})"
              if ok else f"{len(hits)} lines (want {n}), {len(bad)} with a wrong code or no "
              f"cookie; e.g. {json.dumps((lines or [{}])[0])[:300]}; stderr {err[-200:]!r}")
