#!/usr/bin/env bash
# The planner as a user feels it, in headless Chromium against the release server: the
# page of a saved ANF scenario with targets (median of 5 loads) and keystroke to new
# figures (p90 of 15 edits). Fails over 120 ms or 50 ms. Needs chromium and
# chromium-driver. Usage: bash benches/planner_browser.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/volplan
. benches/serve.sh
VOLPLAN_BENCH_BASE="http://127.0.0.1:$port" cargo test --quiet --test browser -- \
  --ignored --nocapture the_planner_answers_a_keystroke_at_once 2>&1 | grep -E "planner of|failed|panicked|test result"
