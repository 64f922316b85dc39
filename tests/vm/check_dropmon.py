"""drop_monitor checks of tests/vm/check.py (whydrop --source dropmon/auto).

Errors and refusals, counts and rows equal to BPF's, watch, privileges
(setpriv as nobody), summary mode, queue losses, record, serve, and the trace
stopped on SIGTERM / after SIGKILL.
"""
import json
import re

from vmcheck_common import flow_hits, json_lines, load_json


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


# What the dropmon scenarios really do: the cause of each row must name it.
DM_CAUSES = {"NO_SOCKET": "no listener", "NETFILTER_DROP": "rule"}


def dm_causes(doc):
    """(reason, function) -> the cause text of its rows"""
    return {(d.get("reason"), d.get("function")): (d.get("cause") or {}).get("text")
            for d in doc.get("drops", []) if isinstance(doc, dict)
            and d.get("reason") in DM_CAUSES}


def check_dm_causes(t, rel, bpf, dm):
    """drop_monitor's rows get the cause BPF's get at the same place, naming what happened"""
    got, want = dm_causes(dm), dm_causes(bpf)
    bad = [f"{k}: {c!r}" for k, c in got.items()
           if not c or DM_CAUSES[k[0]].lower() not in c.lower()]
    ok = bool(got) and got == want and not bad
    t.add(rel, "dropmon: each row's cause = BPF's, naming what happened", ok,
          f"{len(got)} rows, e.g. {next(iter(got.values()), None)!r}" if ok else
          f"dropmon {got} vs bpf {want}; not naming the cause: {bad}")


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
    check_dm_causes(t, rel, bpf, dm)
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
        # the losses are of every reason: the guest's own background drops lost
        # in the queue too make drops + lost exceed the storm's NO_SOCKET by them
        ok = (lost is not None and queue == lost and overruns == 0 and drops <= want
              and want <= drops + lost <= want + 3
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
    # the test's 13 datagrams only: the guest's own background drops (an IPv6
    # multicast report at ip6_mc_input) may fall inside one tracer's window
    # and not the other's, as both attach one after the other
    udp = {k: v for k, v in s_.items() if str(k).startswith("__udp4_lib_rcv+")}
    udp_b = {k: v for k, v in b.items() if str(k).startswith("__udp4_lib_rcv+")}
    ok = (bool(s_) and udp_b == udp and sum(udp.values()) == 13 and isinstance(sm, dict)
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
