#!/usr/bin/env bash
# docs/lab.md stays true to tests/lab/scenarios/: every scenario has its row
# (reason, family and function as the file says), every row has a scenario,
# and the totals line counts them. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
exec /usr/bin/python3 - <<'PY'
import glob, os, re

doc = open("docs/lab.md", encoding="utf-8").read()
table = doc[doc.index("## Reasons covered"):doc.index("## Not reproduced here")]
rows = {}
for line in table.splitlines():
    m = re.match(r"^\| ([A-Z0-9_]+) \| ([^|]*) \|", line)
    if m:
        rows[m.group(1)] = m.group(2)
scen = {}
for path in sorted(glob.glob("tests/lab/scenarios/*.sh")):
    reason, fam = os.path.basename(path)[:-3].split(".", 1)
    m = re.search(r"FUNCTION=(\S+)", open(path, encoding="utf-8").read())
    scen.setdefault(reason, []).append((fam, m.group(1) if m else None))

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
orphans = sorted(set(rows) - set(scen))
check("every row has a scenario", not orphans, f"rows without a scenario: {orphans}")
n = sum(len(v) for v in scen.values())
want = f"{len(scen)} distinct reasons, {n} scenarios."
check(f"totals line: {want}", want in doc, "docs/lab.md says otherwise")
print(f"{passed} passed, {failed} failed")
raise SystemExit(1 if failed else 0)
PY
