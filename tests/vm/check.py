#!/usr/bin/env python3
"""Assert, on the host, what tests/vm/guest.sh recorded inside each VM.

Usage: check.py [--fixtures DIR]... --vm RELEASE:DIR:QEMU_RC:SECONDS ...

DIR/results.log is the VM's second serial port (see guest.sh for the format).
Prints one table row per check and, last, the plain line "N passed, N failed".

This file: boot, tracefs format and fixtures, reasons --json (BTF, no BTF,
hidden BTF), catalogue, module BTF, trigger and count checks, cgroup v2 memory.max
against a UDP receiver, main().
Beside it: vmcheck_common.py (parsing, Table), check_who.py (watch, socket,
cgroup, call sites, unload), check_dropmon.py (--source dropmon).
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from check_dropmon import check_dropmon, check_dropmon_more  # noqa: E402
from check_who import (check_callsites, check_group_cgroup, check_unload,  # noqa: E402
                       check_watch, check_watch_sock)
from vmcheck_common import (Table, format_reasons, json_lines, load_json,  # noqa: E402
                            parse_results, reasons_diff, short_list, trace_counts)


def check_reasons(t, rel, label, text, rc, want, fields, source):
    d = load_json(text)
    if rc != 0 or not isinstance(d, dict) or not isinstance(d.get("reasons"), list):
        t.add(rel, label, False, f"rc={rc}, output: {text.strip()[:200]!r}")
        return None
    # SKB_DROP_REASON_MAX closes the enum (and the tracefs list): not a reason
    want = {c: n for c, n in want.items() if n != "MAX"}
    core = {}
    for r in d["reasons"]:
        if r.get("subsystem", "core") == "core":
            core[int(r["code"])] = r["name"]
    problems = []
    diff = reasons_diff(want, core)
    if diff:
        problems.append(diff)
    if d.get("source") != source:
        problems.append(f"source={d.get('source')!r}, want {source!r}")
    if "has_rx_sk" in d and bool(d["has_rx_sk"]) != ("rx_sk" in fields):
        problems.append(f"has_rx_sk={d['has_rx_sk']} but tracepoint "
                        f"{'has' if 'rx_sk' in fields else 'lacks'} rx_sk")
    t.add(rel, label, not problems,
          "; ".join(problems) if problems else
          f"{len(core)} reasons = tracefs format (source {d.get('source')}, "
          f"rx_sk {'yes' if 'rx_sk' in fields else 'no'})")
    return core


def check_hidden_btf(t, rel, sec, want, fields):
    """/sys/kernel/btf hidden: tracefs names, argument-only program, watch refused."""
    hid = sec.get("reasons.hidden")
    if hid is None:
        t.add(rel, "no BTF at all: reasons --json", False, "missing from results")
    else:
        check_reasons(t, rel, "no BTF at all: reasons --json", hid[0], hid[1],
                      want, fields, "tracefs")
    err = sec.get("stderr.hiddenbtf.tcp_flags", ("", 0))[0]
    t.add(rel, "no BTF at all: count attaches without BTF", "no BTF" in err,
          err.strip()[-200:])
    w = sec.get("hiddenbtf.watch")
    ok = bool(w) and w[1] == 1 and "has no BTF" in w[0]
    t.add(rel, "no BTF at all: watch refused, exit 1", ok,
          f"rc {w[1] if w else None}: {w[0].strip()[:160] if w else ''!r}")


def all_reasons(d):
    """reasons --json -> [(name, subsystem, code, in_catalogue)], core then subsystems"""
    out = [(r.get("name"), r.get("subsystem", "core"), r.get("code"), r.get("in_catalogue"))
           for r in d.get("reasons", [])]
    for s in d.get("subsystems", []):
        out += [(r.get("name"), s.get("name"), r.get("code"), r.get("in_catalogue"))
                for r in s.get("reasons", [])]
    return out


def check_catalogue(t, rel, sec, mode):
    """Every reason this kernel has (and its loaded modules) has a catalogue entry."""
    names = ["reasons.btf", "reasons.nobtf", "reasons.mod"]
    if mode == "full":
        names.append("reasons.hidden")
    for name in names:
        got = sec.get(name)
        if got is None:
            if name != "reasons.mod":
                t.add(rel, f"catalogue covers {name}", False, "missing from results")
            continue
        d = load_json(got[0])
        if not isinstance(d, dict):
            t.add(rel, f"catalogue covers {name}", False, f"rc={got[1]}, no JSON")
            continue
        every = all_reasons(d)
        lacking = [f"{n} ({s})" for n, s, _, inc in every if inc is not True]
        listed = d.get("missing_from_catalogue")
        ok = listed == [] and not lacking and bool(every)
        nsub = sum(1 for e in every if e[1] != "core")
        t.add(rel, f"catalogue covers {name}", ok,
              f"{len(every) - nsub} core + {nsub} subsystem reasons, each in_catalogue, "
              "missing_from_catalogue []" if ok else
              f"missing_from_catalogue {listed}; in_catalogue false: {short_list(lacking, 6)}")


# What really happened in each scenario (guest.sh): the cause whydrop gives every row of
# its reason must name it, whatever the kernel. NETFILTER_DROP: an nftables rule, freed in
# nf_hook_slow on 6.1 and in nft_do_chain since; the cause of either place says "rule".
CAUSES = {"no_socket_v4": "no listener", "no_socket_v6": "no listener",
          "no_socket_udp4": "no UDP socket", "tcp_csum": "bad TCP checksum",
          "netfilter_drop": "rule", "tcp_flags": "flags invalid",
          "socket_rcvbuff": "receive buffer full", "netfilter_policy": "rule"}

# --rules scenarios: the rule every NETFILTER_DROP must be named by
RULES_WANT = {"rules.netfilter_drop": "inet/wdtest/input/2",
              "rules.netfilter_policy": "ip/wdpol/input/policy"}


def rules_problem(sid, doc, exp):
    """'' when --rules named all exp drops by the scenario's rule, else what is wrong"""
    want = RULES_WANT.get(sid)
    if not want:
        return ""
    d = doc.get("rules")
    if not isinstance(d, dict):
        return "no rules object (--rules)"
    got = {}
    for ns in d.get("namespaces", []):
        for r in ns.get("by_rule", []):
            k = r["rule"]
            lab = "/".join([k["family"], k["table"], k["chain"],
                            "policy" if "policy" in k else str(k.get("handle"))])
            got[lab] = got.get(lab, 0) + r["count"]
        got["unclaimed"] = got.get("unclaimed", 0) + ns.get("unclaimed", 0)
    got["not_traced"] = d.get("not_traced", 0)
    if got.get(want) != exp or sum(got.values()) != exp or d.get("netfilter_drop") != exp:
        return f"--rules: {got}, netfilter_drop {d.get('netfilter_drop')}; want {want}={exp}"
    return ""


def cause_problem(sid, reason, rows):
    """'' when every row's cause names the scenario's, else what is wrong"""
    want = CAUSES.get(sid.rsplit(".", 1)[-1])
    if not want:
        return f"no CAUSES entry for {sid} (tests/vm/check.py)"
    bad = [f"{r.get('function')}: {(r.get('cause') or {}).get('text')!r}" for r in rows
           if want.lower() not in ((r.get("cause") or {}).get("text") or "").lower()]
    return f"cause does not name {want!r}: {short_list(bad, 3)}" if bad else ""


# subsystem reasons whydrop must name once the module is loaded, per module:
# (prefix every name has, one name that must be there)
MODULE_REASONS = {"openvswitch": ("OVS_DROP_", "OVS_DROP_LAST_ACTION"),
                  "mac80211": ("RX_DROP_", "RX_DROP_U_MIC_FAIL")}


def check_modules(t, rel, kv, sec):
    """openvswitch / mac80211 loaded: their subsystem reasons named from module BTF."""
    wanted = kv.get("later_wanted", "").split()
    if not wanted:
        return
    ld = sec.get("modload")
    took = (f", module step {int(kv['modules_ms']) / 1000:.1f}s" if
            kv.get("modules_ms", "").isdigit() else "")
    t.add(rel, f"modules: insmod {' '.join(wanted)}", bool(ld) and ld[1] == 0,
          f"rc {ld[1] if ld else None} {ld[0].strip()[-200:] if ld else 'not run'!r}{took}")
    btf = sec.get("btf.mod", ("", 1))[0].split()
    missing = [m for m in wanted if m not in btf]
    t.add(rel, "modules: /sys/kernel/btf/MODULE present", not missing,
          f"missing {missing}" if missing else f"{', '.join(wanted)} have module BTF")
    pre = load_json(sec.get("reasons.premod", ("", 1))[0])
    post = load_json(sec.get("reasons.mod", ("", 1))[0])
    if not isinstance(pre, dict) or not isinstance(post, dict):
        t.add(rel, "modules: reasons --json before/after", False, "no JSON")
        return
    core = lambda d: [(r.get("name"), r.get("code")) for r in d.get("reasons", [])]
    if not pre.get("subsystems") and not post.get("subsystems"):
        # before 6.4 the kernel has no subsystem reasons at all
        ok = core(pre) == core(post) and bool(core(post))
        t.add(rel, "modules: no subsystem reasons on this kernel, none invented", ok,
              f"{len(core(post))} core reasons, unchanged by the modules, no subsystems"
              if ok else "core reasons changed when the modules were loaded")
        return
    text = sec.get("reasons.mod.text", ("", 1))[0]
    for mod in wanted:
        prefix, must = MODULE_REASONS.get(mod, ("", ""))
        subs_pre = [s for s in pre.get("subsystems", []) if s.get("module") == mod]
        subs = [s for s in post.get("subsystems", []) if s.get("module") == mod]
        problems = []
        if not subs:
            problems.append(f"no subsystem of module {mod} in {post.get('subsystems')}")
        for s in subs_pre:
            if s.get("codes_known") or s.get("reasons"):
                problems.append(f"{s.get('name')} named before {mod} was loaded")
        names = []
        for s in subs:
            rs = s.get("reasons", [])
            if not s.get("codes_known") or not rs:
                problems.append(f"{s.get('name')}: codes_known {s.get('codes_known')}, "
                                f"{len(rs)} reasons")
            for r in rs:
                n, c = str(r.get("name")), r.get("code", 0)
                if (not n.startswith(prefix) or ":" in n or n.startswith("0x") or
                        c >> 16 != s.get("id")):
                    problems.append(f"{s.get('name')}: {n} code {c:#x}")
                names.append(n)
            if f"subsystem {s.get('name')} (module {mod})" not in text:
                problems.append(f"text: no 'subsystem {s.get('name')} (module {mod})'")
        if must and must not in names:
            problems.append(f"{must} not among {short_list(names)}")
        t.add(rel, f"modules: {mod} reasons named from module BTF", not problems,
              "; ".join(problems[:4]) if problems else
              f"{', '.join(s.get('name') for s in subs)}: {len(names)} names "
              f"(e.g. {short_list(names, 3)}); unknown before insmod")


def check_memcg_v2(t, rel, kv, sec):
    """cgroup v2's memory.max does not limit a UDP receiver (docs/lab.md, PROTO_MEM)."""
    label = "cgroup v2 memory.max: receive charges forced past it, no PROTO_MEM"
    pre = sec.get("pre.memcg_v2")
    if not pre or pre[1] != 0:
        t.add(rel, label, False, f"set-up failed: {pre[0].strip()[-200:] if pre else 'not run'!r}")
        return
    mem = dict(re.findall(r"memory\.(current|max):(\d+)", sec.get("memcg.memcg_v2", ("", 1))[0]))
    ev = re.search(r"memory\.events:max (\d+)", sec.get("memcg.memcg_v2", ("", 1))[0])
    m = re.search(r"received (\d+)", sec.get("sink.memcg_v2", ("", 1))[0])
    sent, recv = int(kv.get("memcg_v2.sent", "0")), int(m.group(1)) if m else -1
    drops = kv.get("memcg_v2.proc_drops")
    seen = sum(trace_counts(sec.get("trace.memcg_v2", ("", 1))[0]).get("PROTO_MEM", {}).values())
    doc = load_json(sec.get("count.memcg_v2", ("", 1))[0])
    got = (sum(int(d.get("count", 0)) for d in doc["drops"] if d.get("reason") == "PROTO_MEM")
           if isinstance(doc, dict) and isinstance(doc.get("drops"), list) else None)
    cur, cap = int(mem.get("current", 0)), int(mem.get("max", 0))
    ok = (sent > 0 and recv == sent and drops == "0" and ev is not None and int(ev.group(1)) > 0
          and cur > cap > 0 and seen == 0 and got == 0 and kv.get("whydrop_rc.memcg_v2") == "0")
    t.add(rel, label, ok,
          f"memory.current {cur} > memory.max {cap}, {ev.group(1) if ev else None} max events; "
          f"sent {sent}, received {recv}, /proc/net/udp drops {drops}, UdpMemErrors "
          f"+{kv.get('memcg_v2.memerrors')}; PROTO_MEM: tracefs {seen}, whydrop {got}")


OVS_REASON = "OPENVSWITCH:OVS_DROP_LAST_ACTION"


def ovs_executed(sec, name):
    """wdovs's own count: the executions the kernel acknowledged, or None."""
    text, rc = sec.get(name, ("", 1))
    m = re.search(r"^executed (\d+)$", text, re.M)
    return int(m.group(1)) if m and rc == 0 else None


def check_ovs(t, rel, kv, sec):
    """openvswitch's datapath drops, selected by -r, counted exactly, named."""
    if not kv.get("later_wanted") or "openvswitch" not in kv.get("later_wanted").split():
        return
    major, minor = (int(x) for x in re.match(r"(\d+)\.(\d+)", rel).groups())
    if (major, minor) < (6, 6):
        return  # openvswitch drops without reasons before 6.6
    if kv.get("ovs_tried") != "1":
        t.add(rel, "openvswitch drops: -r " + OVS_REASON, False,
              "not run: no OVS_DROP_LAST_ACTION in `whydrop reasons` with openvswitch loaded")
        return
    post = load_json(sec.get("reasons.mod", ("", 1))[0]) or {}
    ids = [s.get("id") for s in post.get("subsystems", []) if s.get("name") == "OPENVSWITCH"]
    n = ovs_executed(sec, "ovs.exec")
    d = load_json(sec.get("ovs.count", ("", 1))[0])
    err = sec.get("stderr.ovs", ("", 0))[0].strip()[-300:]
    if not isinstance(d, dict) or not n:
        t.add(rel, "openvswitch drops: count -r " + OVS_REASON, False,
              f"wdovs executed {n}; no count JSON; stderr {err!r}")
    else:
        rows = d.get("drops", [])
        got = sum(r.get("count", 0) for r in rows if r.get("reason") == OVS_REASON)
        ok = (got == n == d.get("total") and ids and
              all(r.get("subsystem") == "openvswitch" and r.get("code", 0) >> 16 == ids[0]
                  for r in rows))
        t.add(rel, "openvswitch drops: count -r " + OVS_REASON, ok,
              f"{got} counted = {n} the datapath executed and dropped, subsystem "
              f"openvswitch, code {rows[0].get('code', 0):#x}" if ok else
              f"counted {got}, total {d.get('total')}, executed {n}, OPENVSWITCH id {ids}; "
              f"rows {json.dumps(rows)[:300]}")
    n = ovs_executed(sec, "ovs.exec_watch")
    lines = json_lines(sec.get("ovs.watch", ("", 1))[0])
    ok = bool(n) and len(lines) == n and all(x.get("reason") == OVS_REASON for x in lines)
    t.add(rel, "openvswitch drops: watch -r ovs_drop_last_action (as `reasons` lists it)", ok,
          f"{len(lines)} records = {n} executed, each {OVS_REASON}" if ok else
          f"{len(lines)} records, executed {n}; "
          f"stderr {sec.get('stderr.ovs_watch', ('', 0))[0].strip()[-300:]!r}")
    text, rc = sec.get("ovs.dropmon", ("", None))
    ok = rc == 2 and "-r cannot select them with --source dropmon" in text
    t.add(rel, "openvswitch drops: --source dropmon refuses -r " + OVS_REASON, ok,
          f"rc {rc}: {text.strip()[-200:]!r}")


def tcp_mib(text):
    """The Tcp: counters of /proc/net/snmp as a dict."""
    rows = [line.split() for line in text.splitlines() if line.startswith("Tcp:")]
    return dict(zip(rows[0][1:], map(int, rows[1][1:]))) if len(rows) >= 2 else {}


def check_tcp(t, rel, kv, sec):
    """--tcp: resets (reasons from 6.10 on, else said unavailable) and
    retransmitted segments, against the namespaces' own counters."""
    label = "count --tcp"
    try:
        doc = json.loads(sec["tcp.count"][0])
        a0, a1 = tcp_mib(sec["tcp.mib0.a"][0]), tcp_mib(sec["tcp.mib1.a"][0])
        b0, b1 = tcp_mib(sec["tcp.mib0.b"][0]), tcp_mib(sec["tcp.mib1.b"][0])
    except (KeyError, ValueError, IndexError) as e:
        t.add(rel, label, False, f"no document: {e}; stderr "
              f"{sec.get('stderr.tcp', ('', 0))[0][-300:]!r}")
        return
    ver = tuple(int(x) for x in rel.split("-")[0].split(".")[:2])
    err = sec.get("stderr.tcp", ("", 0))[0]
    flows = [f for f in doc.get("flows", []) if f.get("dst") == "192.0.2.2"
             and f.get("dport") == 5001]
    retrans = sum(f["retransmits"] for f in flows)
    d_retrans = a1["RetransSegs"] - a0["RetransSegs"]
    t.add(rel, "--tcp retransmits = TcpRetransSegs", retrans == d_retrans > 0 and
          kv.get("whydrop_rc.tcp") == "0",
          f"flow {retrans}, A's TcpRetransSegs +{d_retrans}, placed "
          f"{[f.get('where') for f in flows]}, rc={kv.get('whydrop_rc.tcp')}")
    sent = [r for r in doc.get("resets", []) if r["direction"] == "sent"]
    recv = sum(r["count"] for r in doc.get("resets", [])
               if r["direction"] == "received" and r["state"] == "SYN_SENT")
    d_rst = b1["OutRsts"] - b0["OutRsts"]
    if ver >= (6, 10):
        nosock = sum(r["count"] for r in sent if r["reason"] == "NO_SOCKET")
        t.add(rel, "--tcp reset reasons from BTF", doc["tcp"].get("reset_reasons") is True
              and nosock == d_rst == 3 and recv == 3,
              f"NO_SOCKET sent {nosock} = B's TcpOutRsts +{d_rst}, received in SYN_SENT {recv}")
    else:
        t.add(rel, "--tcp reset reasons said unavailable",
              doc["tcp"].get("reset_reasons") is False and "gives no reset reasons" in err
              and all(r["reason"] == "unknown" for r in sent) and recv == 3,
              f"reset_reasons {doc['tcp'].get('reset_reasons')}, sent {len(sent)} rows "
              f"(TcpOutRsts +{d_rst}: this kernel traces no reset without a full socket), "
              f"received in SYN_SENT {recv}")


def check_vm(t, rel, vdir, qrc, secs, fixture_dirs, have_bin):
    kv, sec, scen, mk = parse_results(os.path.join(vdir, "results.log"))
    ok = qrc == 0 and mk["begin"] and mk["end_rc"] == 0
    t.add(rel, "boot+guest", ok,
          f"qemu rc={qrc}, {secs}s, guest rc={mk['end_rc']}, "
          f"booted to /init in {int(kv.get('boot_ms', 0)) / 1000:.1f}s"
          if ok else f"qemu rc={qrc} after {secs}s, guest rc={mk['end_rc']}, "
          f"see {vdir}/console.log")
    if not mk["begin"]:
        return
    t.add(rel, "kernel release", kv.get("kernel") == rel,
          f"uname -r = {kv.get('kernel')}")
    mode = kv.get("mode", "full")

    fmt_text = sec.get("format", ("", 1))[0]
    want, fields = format_reasons(fmt_text)
    t.add(rel, "tracefs format read", bool(want),
          f"{len(want)} reasons, rx_sk {'present' if 'rx_sk' in fields else 'absent'}")
    code_of = {n: c for c, n in want.items()}

    fx = None
    # the generic flavour has the cloud flavour's reasons (same source)
    for name in (rel, rel.replace("-amd64", "-cloud-amd64")):
        for d in fixture_dirs:
            p = os.path.join(d, name + ".format")
            if os.path.exists(p) and not fx:
                fx = p
    if fx:
        with open(fx, encoding="utf-8") as f:
            fwant, ffields = format_reasons(f.read())
        diff = reasons_diff(fwant, want)
        t.add(rel, "format = fixture", not diff and ffields == fields,
              diff or (f"fields differ: {sorted(ffields ^ fields)}" if ffields != fields
                       else f"same reasons and fields as {os.path.basename(fx)}"))
    else:
        t.add(rel, "format = fixture", None, f"no fixture {rel}.format")

    if have_bin:
        btf = sec.get("reasons.btf")
        core_btf = None
        if btf is None:
            t.add(rel, "reasons --json (BTF)", False, "missing from results")
        else:
            core_btf = check_reasons(t, rel, "reasons --json (BTF)", btf[0], btf[1],
                                     want, fields, "btf")
        nob = sec.get("reasons.nobtf")
        if nob is None:
            t.add(rel, "reasons --json (no BTF)", False, "missing from results")
        else:
            core_nob = check_reasons(t, rel, "reasons --json (no BTF)", nob[0], nob[1],
                                     want, fields, "tracefs")
            if core_btf is not None and core_nob is not None:
                diff = reasons_diff(core_btf, core_nob)
                t.add(rel, "reasons BTF = no-BTF", not diff,
                      diff or f"{len(core_btf)} identical names and codes")
        if mode == "full":
            check_hidden_btf(t, rel, sec, want, fields)
        check_catalogue(t, rel, sec, mode)
        check_modules(t, rel, kv, sec)
        check_ovs(t, rel, kv, sec)
    if mode != "full":
        return

    durations = []
    for s in scen:
        sid, reason = s["id"], s["reason"]
        trig = sec.get("trigger." + sid, ("", 1))
        tc = trace_counts(sec.get("trace." + sid, ("", 1))[0])
        seen = sum(tc.get(reason, {}).values())
        locs = sorted(l for l in tc.get(reason, {}) if not re.match(r"^[0-9a-f]{8,}$", l))
        if s["count"] == "proc":
            try:
                exp = int(kv.get("rcvbuff.proc_drops", "x"))
            except ValueError:
                exp = None
        else:
            exp = int(s["count"])
        expected_txt = f"{exp} (/proc/net/udp drops)" if s["count"] == "proc" else str(exp)
        if "." not in sid:
            # The trigger itself: the kernel saw at least that many (tracefs is
            # system-wide: TCP RSTs bouncing back to wda add NO_SOCKET drops).
            extra = []
            good = trig[1] == 0 and exp is not None and exp > 0 and seen >= exp
            if sid == "socket_rcvbuff" and exp is not None:
                m = re.search(r"received (\d+)", sec.get("sink.socket_rcvbuff", ("", 1))[0])
                sent = int(kv.get("rcvbuff.sent", "0"))
                recv = int(m.group(1)) if m else -1
                good = good and recv + exp == sent and seen == exp
                extra.append(f"sent {sent} = received {recv} + /proc/net/udp drops {exp}")
            if sid == "netfilter_drop":
                m = re.search(r"counter packets (\d+)", sec.get("nft.netfilter_drop", ("", 1))[0])
                nftc = int(m.group(1)) if m else -1
                good = good and nftc == exp
                extra.append(f"nft counter {nftc}")
            t.add(rel, f"trigger {sid}", good,
                  f"tracefs saw {seen} {reason} (want >= {expected_txt})"
                  + (f" at {short_list(locs)}" if locs else "")
                  + ("; " + "; ".join(extra) if extra else ""))
        if not have_bin:
            continue
        cnt = sec.get("count." + sid)
        doc = load_json(cnt[0]) if cnt else None
        label = f"count {sid}"
        if not isinstance(doc, dict) or not isinstance(doc.get("drops"), list):
            err = sec.get("stderr." + sid, ("", 0))[0].strip()
            t.add(rel, label, False,
                  f"no count document; stdout {cnt[0].strip()[:120] if cnt else None!r}; "
                  f"stderr {err[-300:]!r}")
            continue
        durations.append((sid, doc.get("duration_s")))
        rows = [d for d in doc["drops"] if d.get("reason") == reason]
        got = sum(int(d.get("count", 0)) for d in rows)
        funcs = sorted({d.get("function") or "?" for d in rows})
        codes = sorted({d.get("code") for d in rows})
        problems = []
        if exp is None or got != exp:
            problems.append(f"counted {got} {reason} in netns wdb, want {expected_txt}"
                            + (f" (tracefs saw {seen} system-wide)" if seen != exp else ""))
        if rows and codes != [code_of.get(reason)]:
            problems.append(f"code {codes}, kernel's {reason} is {code_of.get(reason)}")
        allowed = set(s["funcs"]) | set(locs)
        if rows and not set(funcs) <= allowed:
            problems.append(f"function {funcs}, expected one of {sorted(allowed)}")
        if rows and cause_problem(sid, reason, rows):
            problems.append(cause_problem(sid, reason, rows))
        if rules_problem(sid, doc, exp):
            problems.append(rules_problem(sid, doc, exp))
        if doc.get("lost_events", 0) != 0:
            problems.append(f"lost_events={doc.get('lost_events')}")
        if doc.get("kernel") not in (None, rel):
            problems.append(f"kernel={doc.get('kernel')!r}")
        others = {d.get("reason"): d.get("count") for d in doc["drops"]
                  if d.get("reason") != reason}
        detail = (f"{got} {reason} (code {code_of.get(reason)}) in {short_list(funcs)}, "
                  f"cause {(rows[0].get('cause') or {}).get('text') if rows else None!r}"
                  + (f", attach {int(kv[f'attach_ms.{sid}']) / 1000:.1f}s"
                     if f"attach_ms.{sid}" in kv else "")
                  + (f"; also {others}" if others else ""))
        t.add(rel, label, not problems, "; ".join(problems) if problems else detail)

    if have_bin and durations:
        # each count ran from attach to SIGINT, at least the trigger's 0.5 s pause
        bad = [f"{i}={v}" for i, v in durations
               if not isinstance(v, (int, float)) or v < 0.4]
        t.add(rel, "count duration_s", not bad,
              f"wrong after SIGINT: {short_list(bad, 3)}" if bad else
              f"{short_list(v for _, v in durations)} s")
        check_watch(t, rel, kv, sec, code_of)
        check_watch_sock(t, rel, sec)
        check_group_cgroup(t, rel, kv, sec)
        check_dropmon(t, rel, kv, sec, code_of)
        check_dropmon_more(t, rel, kv, sec, code_of)
        check_callsites(t, rel, kv, sec)
        check_unload(t, rel, kv, sec, code_of)
        check_memcg_v2(t, rel, kv, sec)
        check_tcp(t, rel, kv, sec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixtures", action="append", default=[])
    ap.add_argument("--vm", action="append", default=[],
                    help="RELEASE:DIR:QEMU_RC:SECONDS")
    ap.add_argument("--no-binary", action="store_true")
    a = ap.parse_args()
    if not a.fixtures:
        here = os.path.dirname(os.path.abspath(__file__))
        a.fixtures = [os.path.join(here, "..", "unit", "fixtures", "kfree_skb-format")]
    t = Table()
    for v in a.vm:
        rel, vdir, qrc, secs = v.rsplit(":", 3)
        check_vm(t, rel, vdir, int(qrc), secs, a.fixtures, not a.no_binary)
    p, f, s = t.print()
    print(f"{p} passed, {f} failed" + (f", {s} skipped" if s else ""))
    return 1 if f or not p else 0


if __name__ == "__main__":
    sys.exit(main())
