#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Static checks of a Grafana dashboard (tests/fleet/run.sh):

  dashboard_lint.py DASHBOARD.json docs/serve.md RULES.yml

- the classic JSON model of a current Grafana (schemaVersion 39 or later),
  with a uid and a title;
- a Prometheus data source variable, and query variables job, instance and
  reason (label_values(), instance and reason multi-value with "All");
- every panel on the 24-column grid, no two overlapping, ids unique, the
  data source variable as its data source, every target with a refId and an
  expression that selects $job and $instance;
- every metric an expression names is one serve exports (the metrics table of
  docs/serve.md), a series the rules record, or up; a panel for a metric
  that does not exist yet must say so: its description starts "Ready for".
Prints each finding and exits 1 if there is any.
"""
import json
import re
import sys

KEYWORDS = {"sum", "by", "rate", "increase", "topk", "on", "group_left", "and", "or",
            "unless", "count", "max", "min", "avg", "without", "ignoring", "offset",
            "group_right", "bool", "round"}


def metrics_in(expr):
    # names followed by { or [ or ), or standing alone, outside strings
    code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    code = re.sub(r"\{[^}]*\}", "{}", code)
    code = re.sub(r"\[[^]]*\]", "[]", code)
    names = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", code))
    # label names of by()/on()/group_left()
    for group in re.findall(r"(?:by|on|group_left|without|ignoring)\s*\(([^)]*)\)", code):
        names -= set(re.findall(r"\w+", group))
    return {n for n in names if n not in KEYWORDS and not re.fullmatch(r"\d+", n)}


def main():
    dash = json.load(open(sys.argv[1]))
    served = set(re.findall(r"^\| `(whydrop_\w+)` \|", open(sys.argv[2]).read(), re.M))
    recorded = set(re.findall(r"^\s*- record: (\S+)$", open(sys.argv[3]).read(), re.M))
    known = served | recorded | {"up"}
    bad = []

    if dash.get("schemaVersion", 0) < 39:
        bad.append("schemaVersion %s: older than Grafana 10.4" % dash.get("schemaVersion"))
    if not dash.get("uid") or not dash.get("title"):
        bad.append("no uid or title")
    tvars = {v["name"]: v for v in dash.get("templating", {}).get("list", [])}
    ds = tvars.get("datasource", {})
    if ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        bad.append("no Prometheus data source variable named datasource")
    for name in ("job", "instance", "reason"):
        v = tvars.get(name)
        query = v and (v["query"]["query"] if isinstance(v["query"], dict) else v["query"])
        if not v or v["type"] != "query" or not re.match(r"label_values\(", query or ""):
            bad.append("no label_values() query variable %s" % name)
        elif name != "job" and not (v.get("multi") and v.get("includeAll")):
            bad.append("variable %s: not multi-value with All" % name)
        elif v.get("datasource", {}).get("uid") != "${datasource}":
            bad.append("variable %s: not on the data source variable" % name)

    cells, ids, queries, panels = {}, set(), 0, 0
    for p in dash["panels"]:
        g = p.get("gridPos", {})
        if p["id"] in ids:
            bad.append("panel id %s twice" % p["id"])
        ids.add(p["id"])
        if g.get("x", -1) < 0 or g.get("w", 0) <= 0 or g["x"] + g["w"] > 24 or g.get("h", 0) <= 0:
            bad.append("panel %r: gridPos %s off the 24-column grid" % (p.get("title"), g))
            continue
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                if (x, y) in cells:
                    bad.append("panels %r and %r overlap" % (cells[(x, y)], p["title"]))
                    break
                cells[(x, y)] = p["title"]
            else:
                continue
            break
        if p["type"] == "row":
            continue
        panels += 1
        if p.get("datasource", {}).get("uid") != "${datasource}":
            bad.append("panel %r: data source is not ${datasource}" % p["title"])
        if not p.get("targets"):
            bad.append("panel %r: no query" % p["title"])
        for t in p.get("targets", []):
            queries += 1
            expr = t.get("expr", "")
            if not t.get("refId") or not expr:
                bad.append("panel %r: a target without refId or expr" % p["title"])
                continue
            if "$job" not in expr or "$instance" not in expr:
                bad.append("panel %r: %s ignores $job or $instance" % (p["title"], t["refId"]))
            unknown = metrics_in(expr) - known
            future = (p.get("description") or "").startswith("Ready for")
            if unknown and not future:
                bad.append("panel %r: %s names %s, which serve does not export and no rule "
                           "records" % (p["title"], t["refId"], ", ".join(sorted(unknown))))
    for b in bad:
        print(b)
    print("%d panels, %d queries, %d variables; %d metrics known (%d served, %d recorded); "
          "%d findings" % (panels, queries, len(tvars), len(known), len(served), len(recorded),
                           len(bad)))
    return 1 if bad else 0


sys.exit(main())
