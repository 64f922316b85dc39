#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Run every query of a Grafana dashboard against a real Prometheus, the way
Grafana would (tests/integration/alerting.sh): the template variables'
label_values() queries first, then each panel's targets with the variables
substituted as Grafana's Prometheus data source does ($var, ${var},
[[var]]; multi-value and "All" variables as escaped regular expressions;
$__interval, $__rate_interval, $__range, $__range_s, $__range_ms), as
range or instant queries. Every query must be accepted; every query of a
panel for metrics that exist today must return series. A panel whose
description starts "Ready for" is for a metric other work adds: empty is
reported, not failed; so is one whose description starts "With serve --"
(a family serve exports only with that option), unless has: asks for it.

  dashboard_check.py DASHBOARD PROMETHEUS_URL RANGE_SECONDS SCRAPE_SECONDS \\
      instance=VALUE reason=VALUE,VALUE ... [must:VAR=VALUE ...] \\
      [has:PANEL TITLE:LABEL=VALUE ...]

Each VAR=VALUE selects values of a variable for the second pass (the first
pass selects "All" where a variable has it, else its first value).
must:VAR=VALUE: the variable must offer that value (repeat for several).
has:TITLE:LABEL=VALUE: in the first pass, that panel must return a series
with that label whose value is above 0 somewhere in the range. Prints one
line per query and a summary; exits 0 when every check holds.
"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request

VAR_RE = re.compile(r"\$(\w+)|\[\[(\w+?)(?::(\w+))?\]\]|\$\{(\w+)(?:\.([^:^}]+))?(?::([^}]+))?\}")


def regular_escape(v):
    # Grafana: prometheusRegularEscape, for a single-value variable
    return v.replace("\\", "\\\\").replace("'", "\\\\'")


def special_regex_escape(v):
    # Grafana: prometheusSpecialRegexEscape, for multi-value and "All" variables
    v = v.replace("\\", "\\\\\\\\")
    return re.sub(r"[$^*{}\[\]'+?.()|]", lambda m: "\\\\" + m.group(0), v)


def format_value(var, values):
    if values == ["$__all"]:
        if var.get("allValue") is not None:
            return var["allValue"]
        values = var["_options"]
    if not var.get("multi") and not var.get("includeAll"):
        return regular_escape(values[0])
    esc = [special_regex_escape(v) for v in values]
    return esc[0] if len(esc) == 1 else "(" + "|".join(esc) + ")"


def interpolate(expr, variables, builtins):
    def sub(m):
        name = m.group(1) or m.group(2) or m.group(4)
        if name in builtins:
            return builtins[name]
        if name in variables:
            return variables[name]
        raise KeyError("unknown variable $%s in %s" % (name, expr))
    return VAR_RE.sub(sub, expr)


class Prom:
    def __init__(self, url):
        self.url = url.rstrip("/")
        self.count = 0

    def get(self, path, params):
        self.count += 1
        q = urllib.parse.urlencode(params, doseq=True)
        try:
            with urllib.request.urlopen("%s%s?%s" % (self.url, path, q), timeout=30) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            return json.load(e)


def label_values(prom, query, now, range_s):
    m = re.fullmatch(r"\s*label_values\((?:(.*),\s*)?(\w+)\)\s*", query)
    if not m:
        raise ValueError("not a label_values() query: %s" % query)
    params = {"start": now - range_s, "end": now}
    if m.group(1):
        params["match[]"] = m.group(1)
    d = prom.get("/api/v1/label/%s/values" % m.group(2), params)
    return d.get("status"), sorted(d.get("data") or [])


def panels_of(dash):
    for p in dash["panels"]:
        yield p
        for q in p.get("panels", []):
            yield q


def check_has(title, wanted, d):
    """Each (label, value): a series of the panel's answer has it, above 0."""
    bad = 0
    result = (d.get("data") or {}).get("result") or []
    for k, v in wanted:
        values = [float(x[1]) for r in result if r["metric"].get(k) == v
                  for x in r.get("values") or [r.get("value")] if x]
        ok = bool(values) and max(values) > 0
        print("  [all] %s: %s=%s %s" % (title, k, v, "max %g" % max(values) if ok else
                                         "FAIL: %s" % ("0 all along" if values else "no series")))
        bad += not ok
    return bad


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    dash = json.load(open(sys.argv[1]))
    prom = Prom(sys.argv[2])
    range_s, scrape_s = int(sys.argv[3]), float(sys.argv[4])
    chosen, must, has = {}, {}, {}
    for a in sys.argv[5:]:
        if a.startswith("must:"):
            k, v = a[5:].split("=", 1)
            must.setdefault(k, []).append(v)
        elif a.startswith("has:"):
            title, _, lv = a[4:].rpartition(":")
            has.setdefault(title, []).append(tuple(lv.split("=", 1)))
        else:
            k, v = a.split("=", 1)
            chosen[k] = v.split(",")
    now = time.time()
    # Grafana: $__interval from the range and ~1000 points, never under the
    # data source's scrape interval; $__rate_interval = max(interval +
    # scrape, 4 x scrape).
    interval = max(int(-(-range_s // 1000)), int(scrape_s) or 1)
    rate_interval = max(interval + scrape_s, 4 * scrape_s)
    builtins = {
        "__interval": "%ds" % interval, "__rate_interval": "%ds" % rate_interval,
        "__range": "%ds" % range_s, "__range_s": str(range_s),
        "__range_ms": str(range_s * 1000), "datasource": "prometheus",
    }
    bad = 0

    # The variables, in order: each may use those before it.
    variables = [v for v in dash["templating"]["list"] if v["type"] == "query"]
    first_pass, second_pass = {}, {}
    for v in variables:
        query = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        q = interpolate(query, first_pass, builtins)
        status, values = label_values(prom, q, now, range_s)
        v["_options"] = values
        ok = status == "success" and values and set(must.get(v["name"], [])) <= set(values)
        print("  variable $%s: %s -> %s" % (v["name"], q, values if ok else "%s %s" % (status, values)))
        bad += not ok
        if not values:
            continue
        pick = ["$__all"] if v.get("includeAll") else [values[0]]
        first_pass[v["name"]] = format_value(v, pick)
        second_pass[v["name"]] = format_value(v, chosen.get(v["name"], pick))

    queries = empty_future = with_series = 0
    has_titles = set(has)
    for label, chosen_vars in (("all", first_pass), ("chosen", second_pass)):
        for p in panels_of(dash):
            for t in p.get("targets", []):
                expr = interpolate(t["expr"], chosen_vars, builtins)
                if t.get("instant"):
                    d = prom.get("/api/v1/query", {"query": expr, "time": now})
                else:
                    d = prom.get("/api/v1/query_range", {"query": expr, "start": now - range_s,
                                                         "end": now, "step": interval})
                queries += 1
                n = len((d.get("data") or {}).get("result") or [])
                desc = p.get("description") or ""
                future = desc.startswith("Ready for")
                optional = desc.startswith("With serve --") and p["title"] not in has_titles
                if d.get("status") != "success":
                    verdict = "FAIL: %s" % d.get("error")
                    bad += 1
                elif n:
                    verdict = "%d series" % n
                    with_series += 1
                elif future:
                    verdict = "no series (ready for a metric not exported yet)"
                    empty_future += 1
                elif optional:
                    verdict = "no series (%s)" % desc.split(":")[0].lower()
                    empty_future += 1
                else:
                    verdict = "FAIL: no series"
                    bad += 1
                print("  [%s] %s / %s: %s" % (label, p["title"], t["refId"], verdict))
                if verdict.startswith("FAIL"):
                    print("        %s" % expr)
                if label == "all":
                    bad += check_has(p["title"], has.pop(p["title"], []), d)
    for title in has:
        print("  FAIL: no panel titled %r" % title)
        bad += 1
    print("%d queries through Prometheus's HTTP API (%d variables, %d panel queries): "
          "%d with series, %d empty (panels ready for metrics to come), %d wrong"
          % (prom.count, len(variables), queries, with_series, empty_future, bad))
    return 0 if bad == 0 else 1


sys.exit(main())
