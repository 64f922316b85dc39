#!/usr/bin/env bash
# What whydrop ships for a fleet, checked without a kernel or a server:
# contrib/prometheus/whydrop-rules.yml is what scripts/gen-prometheus-rules.py
# writes from this binary's catalogue (make docs), `promtool check rules`
# accepts it, `promtool test rules` passes contrib/prometheus/tests/*.yml,
# and every alert has a test where it fires and one where it does not;
# contrib/grafana/whydrop.json is a well-formed dashboard (tests/fleet/
# dashboard_lint.py). The real servers are in tests/integration/alerting.sh.
# Usage: tests/fleet/run.sh [BINARY]. Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/assert.sh
W=${1:-build/whydrop}
RULES=contrib/prometheus/whydrop-rules.yml
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PY=/usr/bin/python3

if ! command -v promtool >/dev/null; then
	echo "tests/fleet: promtool is missing (apt-get install prometheus)"
	echo "0 passed, 1 failed"
	exit 1
fi

echo "-- the Prometheus rules"
scripts/gen-prometheus-rules.py --whydrop "$W" >"$TMP/rules.yml"
check "the generator runs on $W" test -s "$TMP/rules.yml"
if cmp -s "$TMP/rules.yml" "$RULES"; then
	pass "$RULES is what the generator writes from this catalogue"
else
	fail "$RULES is stale: run make docs" "$(diff "$RULES" "$TMP/rules.yml" | head -n 10)"
fi
out=$(promtool check rules "$RULES" 2>&1)
check "promtool check rules: $(grep -o 'SUCCESS: [0-9]* rules found' <<<"$out" || echo "$out" | tail -n 3)" \
	grep -q SUCCESS <<<"$out"
for t in contrib/prometheus/tests/*.yml; do
	out=$(promtool test rules "$t" 2>&1)
	rc=$?
	check "promtool test rules $t" test "$rc" -eq 0
	[ "$rc" -ne 0 ] && echo "$out" | head -n 40
done

# Each alert: a test where it fires (exp_alerts listed) and one where it does not.
coverage=$($PY - "$RULES" contrib/prometheus/tests/*.yml <<'PYEOF'
import re, sys
alerts = re.findall(r"^\s*- alert: (\w+)$", open(sys.argv[1]).read(), re.M)
fires, quiet = set(), set()
for path in sys.argv[2:]:
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^\s*alertname: (\w+)$", line)
        if m and i + 1 < len(lines):
            (quiet if lines[i + 1].strip() == "exp_alerts: []" else fires).add(m.group(1))
for a in alerts:
    print("%s %s %s" % (a, "fires" if a in fires else "-", "quiet" if a in quiet else "-"))
PYEOF
)
while read -r name f q; do
	check "alert $name: tested firing and not firing" [ "$f $q" = "fires quiet" ]
done <<<"$coverage"
check "the rules have alerts" test "$(grep -c . <<<"$coverage")" -ge 8
check "the catalogue's every reason has its series (whydrop:reason_info)" \
	test "$(grep -c 'record: whydrop:reason_info' "$RULES")" -ge \
	"$("$W" explain --all --json | $PY -c 'import json, sys; print(len(json.load(sys.stdin)["reasons"]))')"
# Expected drops are serve's to set apart (whydrop_hidden_drops_total, its noise
# rules, an operator's noise.conf included): the rules record their rate and
# no alert looks at them, nor at a copy of the built-in list of its own.
check "the hidden drops' rate is recorded (instance_reason:whydrop_hidden_drops:rate5m)" \
	grep -q '^      - record: instance_reason:whydrop_hidden_drops:rate5m$' "$RULES"
alert_exprs=$(awk '/^      - alert: /{a=1; next} a && /^        expr: /{print; a=0}' "$RULES")
check "every alert's expression read ($(grep -c . <<<"$alert_exprs") of $(grep -c '^      - alert: ' "$RULES"))" \
	test "$(grep -c . <<<"$alert_exprs")" -eq "$(grep -c '^      - alert: ' "$RULES")"
check "no alert reads the hidden drops or a noise list of the rules' own" \
	sh -c '! grep -Eq "whydrop_hidden_drops|noise" <<EOF
$1
EOF' - "$alert_exprs"
expect_run "the generator refuses a bad window, exit 2" 2 "bad duration '5x'" \
	scripts/gen-prometheus-rules.py --whydrop "$W" --window 5x

echo "-- the Grafana dashboard"
out=$($PY tests/fleet/dashboard_lint.py contrib/grafana/whydrop.json docs/serve.md "$RULES")
rc=$?
echo "$out" | sed 's/^/   /'
check "contrib/grafana/whydrop.json: a dashboard whose every panel and variable is sound" \
	[ "$rc" = 0 ]

summary
