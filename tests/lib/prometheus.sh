# A Prometheus for the serve and alerting tests.
#   . tests/lib/prometheus.sh   (after tests/lib/part.sh; PROM is the binary)
# shellcheck shell=bash

# start_prometheus [YAML]: Prometheus scraping whydrop at $WADDR every second,
# YAML (rule_files:, alerting:) added to its configuration; it listens on
# PADDR, its pid is in PIDS, its data and log in $TMP.
start_prometheus() {
	PADDR=127.0.0.1:$(free_port)
	cat >"$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
${1:-}
scrape_configs:
  - job_name: whydrop
    scrape_interval: 1s
    scrape_timeout: 1s
    static_configs:
      - targets: ['$WADDR']
EOF
	"$PROM" --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
		--web.listen-address="$PADDR" --log.level=warn >"$TMP/prom.log" 2>&1 &
	PIDS+=($!)
}

# promql EXPR: the value of a one-element vector from Prometheus, "" if none.
promql() {
	curl -s -G "http://$PADDR/api/v1/query" --data-urlencode "query=$1" |
		$PY -c 'import json, sys
d = json.load(sys.stdin)
r = d.get("data", {}).get("result", [])
print(r[0]["value"][1] if d.get("status") == "success" and len(r) == 1 else "")'
}
