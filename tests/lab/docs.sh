#!/usr/bin/env bash
# docs/lab.md stays true to tests/lab/scenarios/: every scenario has its row
# (reason, family and function as the file says), every row has a scenario,
# the totals line counts them, and every scenario states a CAUSE that the list
# of causes gives as the file says. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 - <<'PY'
import glob, os, re

doc = open("docs/lab.md", encoding="utf-8").read()
table = doc[doc.index("## Reasons covered"):doc.index("## The cause each scenario asserts")]
causes_doc = {}
for line in doc[doc.index("## The cause each scenario asserts"):doc.index("## Not reproduced here")].splitlines():
    m = re.match(r"^\| ([A-Z0-9_]+\.[a-z0-9]+) \| (.*) \|$", line)
    if m:
        causes_doc[m.group(1)] = m.group(2)
rows = {}
for line in table.splitlines():
    m = re.match(r"^\| ([A-Z0-9_]+) \| ([^|]*) \|", line)
    if m:
        rows[m.group(1)] = m.group(2)
scen, causes = {}, {}
def per_family(pattern, name, fam, text):
    """NAME_<fam>= where a file for several families sets it, else NAME="""
    m = re.search(pattern % f"{name}_{fam}", text, re.M) or re.search(pattern % name, text, re.M)
    return m.group(1) if m else None

for path in sorted(glob.glob("tests/lab/scenarios/*.sh")):
    # REASON.FAMILY.sh, or REASON.F1.F2.sh: one scenario per family (tests/lab/lib.sh)
    reason, *fams = os.path.basename(path)[:-3].split(".")
    text = open(path, encoding="utf-8").read()
    for fam in fams:
        scen.setdefault(reason, []).append((fam, per_family(r"\b%s=(\S+)", "FUNCTION", fam, text)))
        causes[f"{reason}.{fam}"] = per_family(r'^%s="([^"]+)"$', "CAUSE", fam, text)

passed = failed = 0
def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"  ok    {name}")
    else:
        failed += 1
        print(f"  FAIL  {name}\n        {why}")

for reason, fams in sorted(scen.items()):
    row = rows.get(reason)
    bad = [f"{fam}: `{fn}`" for fam, fn in fams
           if row is None or fn is None or fam not in row or f"`{fn}`" not in row]
    check(f"{reason}: a row naming {', '.join(f for f, _ in fams)} and the function",
          not bad, f"row {row!r} lacks {bad}")
nocause = sorted(k for k, v in causes.items() if not v)
check("every scenario states its CAUSE", not nocause, f"no CAUSE=\"...\" line: {nocause}")
wrong = sorted(k for k, v in causes.items() if v and causes_doc.get(k) != v)
check("the list of causes gives each scenario's CAUSE", not wrong,
      f"differ: {[(k, causes[k], causes_doc.get(k)) for k in wrong]}")
extra = sorted(set(causes_doc) - set(causes))
check("every cause listed has a scenario", not extra, f"no scenario: {extra}")
orphans = sorted(set(rows) - set(scen))
check("every row has a scenario", not orphans, f"rows without a scenario: {orphans}")
n = sum(len(v) for v in scen.values())
want = f"{len(scen)} distinct reasons, {n} scenarios."
check(f"totals line: {want}", want in doc, "docs/lab.md says otherwise")
print(f"{passed} passed, {failed} failed")
raise SystemExit(1 if failed else 0)
PY
