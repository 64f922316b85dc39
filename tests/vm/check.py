#!/usr/bin/env python3
"""Assert, on the host, what tests/vm/guest.sh recorded inside each VM.

Usage: check.py [--fixtures DIR]... --vm RELEASE:DIR:QEMU_RC:SECONDS ...

DIR/results.log is the VM's second serial port (see guest.sh for the format).
Prints one table row per check and, last, the plain line "N passed, N failed".
"""
import argparse
import ipaddress
import json
import os
import re
import sys

# ---------------------------------------------------------------- parsing


def parse_results(path):
    """-> (kv dict, sections dict name -> (text, rc), scenarios list, markers)"""
    kv, sections, scen = {}, {}, []
    markers = {"begin": False, "end_rc": None}
    cur, buf = None, []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().replace("\r", "").split("\n")
    except OSError:
        return kv, sections, scen, markers
    for line in lines:
        if cur is not None:
            m = re.match(r"^@@END (\S+) rc=(\d+)$", line)
            if m and m.group(1) == cur:
                sections[cur] = ("\n".join(buf), int(m.group(2)))
                cur, buf = None, []
            else:
                buf.append(line)
            continue
        if line.startswith("@@BEGIN "):
            cur, buf = line.split(" ", 1)[1].strip(), []
        elif line.startswith("@@KV "):
            parts = line.split(" ", 2)
            kv[parts[1]] = parts[2] if len(parts) > 2 else ""
        elif line.startswith("@@SCEN "):
            _, name, reason, count, funcs = line.split(" ", 4)
            scen.append({"id": name, "reason": reason, "count": count,
                         "funcs": funcs.split(",")})
        elif line.startswith("@@WHYDROP-VM-BEGIN"):
            markers["begin"] = True
        elif line.startswith("@@WHYDROP-VM-END"):
            m = re.search(r"rc=(\d+)", line)
            markers["end_rc"] = int(m.group(1)) if m else -1
    if cur is not None:             # cut off: keep what came, mark it
        sections[cur] = ("\n".join(buf), -1)
    return kv, sections, scen, markers


def format_reasons(text):
    """tracefs format -> ({code: name}, set of field names)"""
    fields = set(re.findall(r"field:[^;]*?(\w+);", text))
    m = re.search(r"__print_symbolic\(REC->reason,(.*)\)\s*$", text, re.S)
    reasons = {}
    if m:
        for code, name in re.findall(r'\{\s*(\d+),\s*"([^"]*)"\s*\}', m.group(1)):
            reasons[int(code)] = name
    return reasons, fields


def load_json(text):
    try:
        return json.loads(text)
    except (ValueError, TypeError):
        return None


def json_lines(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            d = load_json(line)
            if isinstance(d, dict):
                out.append(d)
    return out


def trace_counts(text):
    """'  14 NO_SOCKET tcp_v4_rcv' lines -> {reason: {location: n}}"""
    res = {}
    for line in text.splitlines():
        p = line.split()
        if len(p) >= 2 and p[0].isdigit():
            loc = p[2] if len(p) > 2 else "?"
            res.setdefault(p[1], {})
            res[p[1]][loc] = res[p[1]].get(loc, 0) + int(p[0])
    return res


def norm_ip(s):
    try:
        return str(ipaddress.ip_address(s))
    except (ValueError, TypeError):
        return s

# ---------------------------------------------------------------- checking


class Table:
    def __init__(self):
        self.rows = []

    def add(self, kernel, check, ok, detail=""):
        # ok: True, False or None (skipped)
        self.rows.append((kernel, check, ok, detail))

    def print(self):
        w1 = max([6] + [len(r[0]) for r in self.rows])
        w2 = max([5] + [len(r[1]) for r in self.rows])
        print(f"{'KERNEL':<{w1}}  {'CHECK':<{w2}}  RESULT  DETAIL")
        for k, c, ok, d in self.rows:
            res = "PASS" if ok else ("SKIP" if ok is None else "FAIL")
            print(f"{k:<{w1}}  {c:<{w2}}  {res:<6}  {d}")
        p = sum(1 for r in self.rows if r[2] is True)
        f = sum(1 for r in self.rows if r[2] is False)
        s = sum(1 for r in self.rows if r[2] is None)
        return p, f, s


def short_list(items, n=4):
    items = list(items)
    s = ", ".join(str(i) for i in items[:n])
    return s + (f" (+{len(items) - n} more)" if len(items) > n else "")


def reasons_diff(want, got):
    """want, got: {code: name}; '' when equal."""
    missing = [f"{c}:{n}" for c, n in sorted(want.items()) if got.get(c) != n]
    extra = [f"{c}:{n}" for c, n in sorted(got.items()) if want.get(c) != n]
    if not missing and not extra:
        return ""
    return f"missing/wrong {short_list(missing)}; unexpected {short_list(extra)}"


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
          f"no entry for {short_list(bad, 6)} (src/lib/callsites_data.h)")
    t.add(rel, "call sites: each entry's kernels line names this kernel and reason",
          not bad and not wrong and bool(rows),
          f"{len(rows)} entries say {series}" if not wrong else
          "; ".join(wrong[:4]) + " (src/lib/callsites_data.h)")


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
        if doc.get("lost_events", 0) != 0:
            problems.append(f"lost_events={doc.get('lost_events')}")
        if doc.get("kernel") not in (None, rel):
            problems.append(f"kernel={doc.get('kernel')!r}")
        others = {d.get("reason"): d.get("count") for d in doc["drops"]
                  if d.get("reason") != reason}
        detail = (f"{got} {reason} (code {code_of.get(reason)}) in {short_list(funcs)}"
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


def flow_hits(lines, fields):
    def match(d):
        for k, v in fields.items():
            got = d.get(k)
            if k in ("src", "dst"):
                got, v = norm_ip(got), norm_ip(v)
            if got != v:
                return False
        return True
    return [d for d in lines if match(d)]


def check_msg(t, rel, label, sec, name, rc, needle):
    got = sec.get(name)
    ok = bool(got) and got[1] == rc and needle in got[0]
    t.add(rel, label, ok, f"rc {got[1] if got else None}: "
          f"{got[0].strip()[:160] if got else 'not run'!r}")


def dm_rows(doc):
    """count --json rows -> {(reason, code, location): count}"""
    res = {}
    for d in doc.get("drops", []) if isinstance(doc, dict) else []:
        k = (d.get("reason"), d.get("code"), d.get("location"))
        res[k] = res.get(k, 0) + int(d.get("count", 0))
    return res


# (reason, function) -> drops sent by the triggers of dropmon_scenarios
NF_FUNCS = "nf_hook_slow|nft_do_chain"
DM_WANT = {("NO_SOCKET", "tcp_v4_rcv"): 7, ("NO_SOCKET", "tcp_v6_rcv"): 11,
           ("NETFILTER_DROP", NF_FUNCS): 19}


def dm_by_func(doc):
    res = {}
    for d in doc.get("drops", []) if isinstance(doc, dict) else []:
        f = d.get("function")
        if d.get("reason") == "NETFILTER_DROP" and f in NF_FUNCS.split("|"):
            f = NF_FUNCS
        k = (d.get("reason"), f)
        res[k] = res.get(k, 0) + int(d.get("count", 0))
    return res


def check_dropmon(t, rel, kv, sec, code_of):
    """--source dropmon: errors, the same counts as BPF, watch, STOP on SIGTERM."""
    check_msg(t, rel, "dropmon: not loaded says modprobe", sec, "dm.notloaded", 1,
              "modprobe drop_monitor")
    check_msg(t, rel, "dropmon: other netns refused", sec, "dm.netns", 1,
              "not in the initial network namespace")
    check_msg(t, rel, "dropmon: other netns and PID namespace (a container) refused", sec,
              "dm.netns_pidns", 1, "not in the initial network namespace")
    check_msg(t, rel, "dropmon: own PID namespace, host netns: attaches", sec, "dm.pidns", 0,
              "attached to drop_monitor")
    check_dropmon_privileges(t, rel, kv, sec)
    check_msg(t, rel, "dropmon: second listener refused", sec, "dm.busy", 1,
              "already in use")
    bpf = load_json(sec.get("dm.count_bpf", ("", 0))[0])
    dm = load_json(sec.get("dm.count_dropmon", ("", 0))[0])
    err = sec.get("stderr.dm_dropmon", ("", 0))[0].strip()
    for label, doc in (("dropmon: BPF counts = sent", bpf), ("dropmon: counts = sent", dm)):
        got = dm_by_func(doc)
        ok = isinstance(doc, dict) and got == DM_WANT
        t.add(rel, label, ok, f"{got}" if ok else
              f"got {got}, want {DM_WANT}; stderr {err[-200:]!r}")
    same = dm_rows(bpf) == dm_rows(dm) and bool(dm_rows(dm))
    bad_codes = [k for k in dm_rows(dm) if k[1] != code_of.get(k[0])]
    t.add(rel, "dropmon: rows = BPF rows (reason, code, location, count)",
          same and not bad_codes,
          f"{len(dm_rows(dm))} identical rows" if same and not bad_codes else
          f"dropmon {dm_rows(dm)} vs bpf {dm_rows(bpf)}; wrong codes {bad_codes}")
    src = dm.get("dropmon", {}) if isinstance(dm, dict) else {}
    ok = (isinstance(dm, dict) and dm.get("source") == "dropmon" and
          src.get("queue_dropped") == 0 and src.get("socket_overruns") == 0 and
          src.get("counts_lower_bound") is False and dm.get("lost_events") == 0)
    t.add(rel, "dropmon: losses reported, none here", ok, json.dumps(src))
    t.add(rel, "dropmon: count exits 0", kv.get("whydrop_rc.dm_dropmon") == "0",
          f"rc {kv.get('whydrop_rc.dm_dropmon')}")

    lines = json_lines(sec.get("dm.watch", ("", 0))[0])
    werr = sec.get("stderr.dm_watch", ("", 0))[0]
    t.add(rel, "dropmon: BPF failure falls back, said once",
          werr.count("reading drop_monitor instead") == 1 and
          kv.get("whydrop_rc.dm_watch") == "0",
          f"rc {kv.get('whydrop_rc.dm_watch')}; stderr {werr.strip()[:200]!r}")
    for label, n, fields in (
            ("dropmon: watch v4 tcp flow", 3, dict(
                reason="NO_SOCKET", family="ipv4", l4="tcp", src="192.0.2.1", sport=40013,
                dst="192.0.2.2", dport=9, tcp_flags="S", function="tcp_v4_rcv")),
            ("dropmon: watch v6 udp flow", 2, dict(
                reason="NO_SOCKET", family="ipv6", l4="udp", src="2001:db8::1",
                sport=40014, dst="2001:db8::2", dport=9))):
        hits = flow_hits(lines, fields)
        bad = [d for d in hits if d.get("code") != code_of.get("NO_SOCKET")
               or "netns" in d or "cpu" in d or not d.get("ifindex")]
        ok = len(hits) == n and not bad
        t.add(rel, label, ok, f"{len(hits)}x {json.dumps(hits[0])[:200]}" if ok else
              f"{len(hits)} lines (want {n}), {len(bad)} wrong; e.g. "
              f"{json.dumps((bad or lines or [{}])[0])[:300]}; stderr {werr[-200:]!r}")
    rc = kv.get("whydrop_rc.dm_term")
    after = sec.get("dm.after_term")
    ok = rc == "0" and bool(after) and after[1] == 0
    t.add(rel, "dropmon: SIGTERM stops the trace", ok,
          f"rc after SIGTERM {rc}; next listener rc {after[1] if after else None}: "
          f"{after[0].strip()[-160:] if after else ''!r}")


PRIV_WANT = {("NO_SOCKET", "tcp_v4_rcv"): 7, ("NO_SOCKET", "tcp_v6_rcv"): 11}


def check_dropmon_privileges(t, rel, kv, sec):
    """--source auto as nobody without BPF's capabilities (util-linux setpriv)."""
    labels = ("dropmon auto, CAP_NET_ADMIN only: tries drop_monitor, says what each lacks",
              "dropmon auto, CAP_NET_ADMIN+CAP_SYS_ADMIN: BPF (CAP_SYS_ADMIN allows it)",
              "dropmon auto as nobody, BPF failing: falls back, counts = BPF's")
    if kv.get("dm.setpriv") != "ok":
        for label in labels:
            t.add(rel, label, None, "no util-linux setpriv in the VM (busybox's cannot "
                  "change the uid): needs `copy_elf /usr/bin/setpriv` in tests/vm/run.sh")
        return
    text, rc = sec.get("dm.netadmin", ("", None))
    fell = rc == 0 and "BPF is not allowed to this process" in text
    refused = (rc == 1 and "needs root, or the capabilities CAP_BPF and CAP_PERFMON" in text
               and 'CAP_SYS_ADMIN to join its "events" group' in text)
    t.add(rel, labels[0], fell or refused,
          ("fell back to drop_monitor" if fell else "neither: ") + repr(text.strip()[-300:])
          if fell or refused else f"rc {rc}: {text.strip()[-300:]!r}")
    text, rc = sec.get("dm.sysadmin_bpf", ("", None))
    t.add(rel, labels[1], rc == 0 and "attached to skb:kfree_skb" in text,
          f"rc {rc}: {text.strip()[:200]!r}")
    bpf = load_json(sec.get("dm.priv_bpf", ("", 0))[0])
    dm = load_json(sec.get("dm.priv_dropmon", ("", 0))[0])
    err = sec.get("stderr.dm_priv", ("", 0))[0]
    problems = []
    if err.count("reading drop_monitor instead") != 1:
        problems.append("not said once that it reads drop_monitor")
    if kv.get("whydrop_rc.dm_priv") != "0":
        problems.append(f"rc {kv.get('whydrop_rc.dm_priv')}")
    if not isinstance(dm, dict) or dm.get("source") != "dropmon":
        problems.append("no drop_monitor count document")
    if dm_by_func(bpf) != PRIV_WANT or dm_by_func(dm) != PRIV_WANT:
        problems.append(f"bpf {dm_by_func(bpf)}, dropmon {dm_by_func(dm)}, want {PRIV_WANT}")
    if dm_rows(bpf) != dm_rows(dm):
        problems.append(f"rows differ: {dm_rows(dm)} vs {dm_rows(bpf)}")
    t.add(rel, labels[2], not problems,
          f"{len(dm_rows(dm))} rows = BPF's, {sum(PRIV_WANT.values())} drops" if not problems
          else "; ".join(problems) + f"; stderr {err.strip()[-300:]!r}")


def metric_sum(text, name, **labels):
    """Sum of the samples of a Prometheus metric whose labels include these; None if absent."""
    total, seen = 0, False
    for m in re.finditer(r"^" + name + r"(\{[^}]*\})? (\d+)$", text, re.M):
        lab = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1) or ""))
        if all(lab.get(k) == v for k, v in labels.items()):
            total += int(m.group(2))
            seen = True
    return total if seen else None


def check_dropmon_serve_losses(t, rel, kv, sec):
    """serve --source dropmon: queue losses in its metrics, scraped while it runs."""
    label = "dropmon serve: queue losses scraped live = BPF - received"
    met = sec.get("dm.serve_queue_metrics", ("", 1))
    bpf = load_json(sec.get("dm.serve_queue_bpf", ("", 0))[0])
    err = sec.get("stderr.dm_serve_queue", ("", 0))[0].strip()
    drops = metric_sum(met[0], "whydrop_drops_total", reason="NO_SOCKET") or 0
    lost = metric_sum(met[0], "whydrop_lost_events_total")
    queue = metric_sum(met[0], "whydrop_dropmon_queue_dropped_total", origin="software")
    overruns = metric_sum(met[0], "whydrop_dropmon_socket_overruns_total")
    want = bpf.get("total") if isinstance(bpf, dict) else None
    detail = (f"BPF {want} = scraped {drops} + whydrop_lost_events_total {lost} "
              f"(queue_dropped{{software}} {queue}, socket overruns {overruns}; "
              f"scrape {kv.get('dm.serve_queue_scrapes')}, said on stderr while running)")
    if met[1] != 0 or want != 3000:
        t.add(rel, label, False, f"metrics rc {met[1]}; BPF {want}; stderr {err[-300:]!r}")
    elif lost == 0 and drops == want:
        t.add(rel, label, None, detail + " (the queue never filled: nothing to show)")
    else:
        ok = (lost is not None and queue == lost and overruns == 0 and drops + lost == want
              and "drop_monitor is losing drops" in err
              and kv.get("whydrop_rc.dm_serve_queue") == "0")
        t.add(rel, label, ok, detail if ok else f"{detail}; rc "
              f"{kv.get('whydrop_rc.dm_serve_queue')}; stderr {err[-300:]!r}")


def check_dropmon_more(t, rel, kv, sec, code_of):
    """summary mode = BPF by location; record read back; serve's metrics."""
    bpf = load_json(sec.get("dm.summary_bpf", ("", 0))[0])
    sm = load_json(sec.get("dm.summary", ("", 0))[0])
    err = sec.get("stderr.dm_summary", ("", 0))[0].strip()

    def by_loc(doc):
        res = {}
        for d in doc.get("drops", []) if isinstance(doc, dict) else []:
            res[d.get("location")] = res.get(d.get("location"), 0) + int(d.get("count", 0))
        return res
    b, s_ = by_loc(bpf), by_loc(sm)
    udp = {k: v for k, v in s_.items() if str(k).startswith("__udp4_lib_rcv+")}
    ok = (bool(s_) and b == s_ and sum(udp.values()) == 13 and isinstance(sm, dict)
          and sm.get("location_only") is True and
          all("reason" not in d for d in sm.get("drops", [])))
    t.add(rel, "dropmon summary: by location = BPF, 13 at __udp4_lib_rcv", ok,
          f"{s_}" if ok else f"summary {s_} vs bpf {b}; stderr {err[-200:]!r}")

    qb = load_json(sec.get("dm.queue_bpf", ("", 0))[0])
    qd = load_json(sec.get("dm.queue", ("", 0))[0])
    qerr = sec.get("stderr.dm_queue", ("", 0))[0].strip()
    if isinstance(qb, dict) and isinstance(qd, dict):
        src = qd.get("dropmon", {})
        got, lost, want = qd.get("total", -1), qd.get("lost_events", -1), qb.get("total")
        exact = got + lost == want and want == 3000 and src.get("socket_overruns") == 0
        detail = (f"BPF {want} = drop_monitor {got} + {lost} lost in its queue; "
                  f"lower_bound {src.get('counts_lower_bound')}")
        if exact and lost == 0:
            t.add(rel, "dropmon queue limit: losses = BPF - received", None,
                  detail + " (the queue never filled: nothing to show)")
        else:
            ok = (exact and src.get("queue_dropped") == lost and
                  src.get("counts_lower_bound") is True and "lower bounds" in qerr)
            t.add(rel, "dropmon queue limit: losses = BPF - received", ok,
                  detail if ok else f"{detail}; {json.dumps(src)}; stderr {qerr[-200:]!r}")
    else:
        t.add(rel, "dropmon queue limit: losses = BPF - received", False,
              f"no documents; stderr {qerr[-300:]!r}")

    k = sec.get("dm.after_kill")
    r = sec.get("dm.after_recovery")
    ok = (bool(k) and k[1] == 0 and "left running by whydrop pid" in k[0] and bool(r)
          and r[1] == 0 and "left running" not in r[0])
    t.add(rel, "dropmon: after SIGKILL the next run stops the dead one's trace", ok,
          f"{k[0].strip().splitlines()[0] if k else None!r}" if ok else
          f"after kill {k}; then {r}")

    rd = load_json(sec.get("dm.read", ("", 0))[0])
    rerr = sec.get("stderr.dm_record", ("", 0))[0].strip()
    rows = dm_by_func(rd)
    ok = rows == {("NO_SOCKET", "__udp4_lib_rcv"): 4} and "4 written" in rerr
    t.add(rel, "dropmon record: pcapng read back, 4 NO_SOCKET", ok,
          f"{rows}; {rerr.splitlines()[-1] if rerr else ''}" if ok else
          f"read {rows}; stderr {rerr[-300:]!r}")

    met = sec.get("dm.metrics", ("", 1))
    verr = sec.get("stderr.dm_serve", ("", 0))[0].strip()
    m = re.search(r'^whydrop_drops_total\{[^}]*reason="NO_SOCKET"[^}]*\} (\d+)$', met[0], re.M)
    after = sec.get("dm.after_serve")
    ok = (met[1] == 0 and m and int(m.group(1)) == 6 and
          kv.get("whydrop_rc.dm_serve") == "0" and bool(after) and after[1] == 0)
    t.add(rel, "dropmon serve: 6 NO_SOCKET scraped as nobody, stopped on exit", bool(ok),
          f"{m.group(0) if m else None}; {verr.splitlines()[0] if verr else ''}" if ok else
          f"metrics rc {met[1]} {m.group(0) if m else met[0][:200]!r}; rc "
          f"{kv.get('whydrop_rc.dm_serve')}; after {after}; stderr {verr[-300:]!r}")
    check_dropmon_serve_losses(t, rel, kv, sec)


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
                ifname="vb")),
            ("unload: drops on lo after", 4, dict(
                reason="NO_SOCKET", l4="udp", src="127.0.0.1", sport=40012, dport=9,
                ifname="lo"))):
        hits = flow_hits(lines, fields)
        bad = [d for d in hits if d.get("code") != code_of.get("NO_SOCKET")]
        ok = len(hits) == n and not bad
        ex = hits[0] if hits else {}
        t.add(rel, label, ok, f"{len(hits)}x {ex.get('function')} dev {ex.get('ifname')}"
              if ok else f"{len(hits)} lines (want {n}), {len(bad)} with a wrong code; "
              f"stderr {err[-200:]!r}")


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
