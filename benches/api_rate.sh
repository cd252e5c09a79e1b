#!/usr/bin/env bash
# Request rate of POST /api/v1/evaluate against GET /healthz, with wrk.
#
#   benches/api_rate.sh [PATH/TO/volplan] [SECONDS]   (defaults: target/release/volplan, 5)
#
# Starts the release server on a free loopback port with a temporary database, then
# runs wrk (2 threads, 32 connections) for SECONDS against /healthz and against
# /api/v1/evaluate with the contract's example scenario, one after the other. Prints
# each rate, the server's CPU time per request (user + system, read from /proc around
# each run) and the ratio of the two rates. Exits 1 if evaluate sustains less than 60 %
# of the health check's rate. Needs wrk (apt-get install wrk).
set -euo pipefail

cd "$(dirname "$0")/.."
bin=${1:-${CARGO_TARGET_DIR:-target}/release/volplan}
secs=${2:-5}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
. benches/serve.sh

# The example as one line, for the wrk script.
body=$(python3 -c 'import json; print(json.dumps(json.dumps(json.load(open("benches/contract_example.json")))))')
cat >"$tmp/evaluate.lua" <<EOF
wrk.method = "POST"
wrk.body = $body
wrk.headers["Content-Type"] = "application/json"
EOF
curl -fs -X POST -H 'Content-Type: application/json' --data-binary @benches/contract_example.json \
  "http://127.0.0.1:$port/api/v1/evaluate" >/dev/null || { echo "evaluate failed" >&2; exit 1; }

# Clock ticks (user + system) the server has used so far.
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)

run() { # label, then wrk's arguments after the URL
  local label=$1 path=$2; shift 2
  local before after out rate requests
  before=$(ticks)
  out=$(wrk -t2 -c32 -d"${secs}s" "$@" "http://127.0.0.1:$port$path")
  after=$(ticks)
  rate=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  if grep -q "Non-2xx" <<<"$out"; then echo "$label: some answers were not 2xx" >&2; exit 1; fi
  awk -v l="$label" -v r="$rate" -v t=$((after - before)) -v n="$requests" -v hz="$hz" \
    'BEGIN { printf "%-22s %9.0f requests/s   server CPU %5.1f us per request\n", l, r, t / hz / n * 1e6 }' >&2
  echo "$rate"
}

health=$(run "GET /healthz" /healthz)
evaluate=$(run "POST /api/v1/evaluate" /api/v1/evaluate -s "$tmp/evaluate.lua")
awk -v e="$evaluate" -v h="$health" 'BEGIN {
  printf "evaluate / healthz: %.0f %%\n", e / h * 100
  exit (e / h >= 0.6 ? 0 : 1)
}'
