#!/usr/bin/env bash
# Peak server memory under 32 simultaneous large renders (16 PNG at 4000 x 4000 and
# 16 PDF reports), and how fast /healthz answers meanwhile.
#
#   benches/render_memory.sh [PATH/TO/volplan]     (default: target/release/volplan)
#
# Starts the release server on a free loopback port with a temporary database, saves
# one scenario, fires the 32 requests at once, samples the server's RSS every 50 ms
# (and reads the kernel's high-water mark, VmHWM, at the end), times /healthz during
# the load, then stops the server. Prints the figures; exits 1 if the peak is 300 MB
# or more.
set -euo pipefail

cd "$(dirname "$0")/.."
bin=${1:-${CARGO_TARGET_DIR:-target}/release/volplan}
[ -x "$bin" ] || { echo "build first: cargo build --release ($bin not found)" >&2; exit 2; }
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
RUST_LOG=warn "$bin" serve --bind "127.0.0.1:$port" --database-url "sqlite:$tmp/bench.db" 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fs "$base/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

id=$(curl -fs -H 'Content-Type: application/json' --data @benches/contract_example.json \
  "$base/api/v1/scenarios" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
idle_kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")

# RSS sampler.
( peak=0
  while kill -0 $pid 2>/dev/null; do
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${rss:-0}" -gt "$peak" ] && peak=$rss && echo "$peak" >"$tmp/peak"
    sleep 0.05
  done ) &
sampler=$!

start=$(date +%s.%N)
for i in $(seq 16); do
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
    "$base/scenarios/$id/charts/ceilings.png?w=4000&h=4000" >>"$tmp/codes" &
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
    "$base/scenarios/$id/report.pdf" >>"$tmp/codes" &
done
sleep 0.3
# /healthz while the renders run.
for _ in $(seq 20); do
  curl -s -o /dev/null -w '%{time_total}\n' "$base/healthz" >>"$tmp/health"
  sleep 0.1
done
wait $(jobs -p | grep -v "^$sampler$" | grep -v "^$pid$") 2>/dev/null || true
end=$(date +%s.%N)
hwm_kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
kill $sampler 2>/dev/null || true

echo "renders: $(sort "$tmp/codes" | awk '{print $1}' | uniq -c | tr '\n' ' ')(status: count)"
printf 'all 32 done in %.1f s; slowest render %.1f s\n' "$(echo "$end - $start" | bc)" \
  "$(awk '{print $2}' "$tmp/codes" | sort -n | tail -1)"
printf 'healthz during the load: median %.1f ms, max %.1f ms\n' \
  "$(sort -n "$tmp/health" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]*1000}')" \
  "$(sort -n "$tmp/health" | tail -1 | awk '{print $1*1000}')"
echo "server RSS: idle $((idle_kb / 1024)) MB, sampled peak $(( $(cat "$tmp/peak") / 1024 )) MB, kernel high-water mark (VmHWM) $((hwm_kb / 1024)) MB"
[ "$hwm_kb" -lt $((300 * 1024)) ] || { echo "FAIL: peak RSS is 300 MB or more" >&2; exit 1; }
