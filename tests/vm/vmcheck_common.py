"""Shared helpers of tests/vm/check.py and its check modules.

Parsing of a VM's results.log (sections, @@KV lines, scenarios), of the
tracefs format and of whydrop's JSON output, and the Table every check adds
its row to.
"""
import ipaddress
import json
import re

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
