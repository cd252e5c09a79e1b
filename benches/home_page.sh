#!/usr/bin/env bash
# Home page latency with 5,000 saved scenarios, and the planner page of one of them.
#
#   benches/home_page.sh [PATH/TO/volplan] [COUNT]   (defaults: target/release/volplan, 5000)
#
# Starts the release server on a free loopback port with a temporary database, saves
# COUNT scenarios through the API, then times 200 requests of the home page (first
# page, a middle page, a search) and of the first scenario's planner page (its
# evaluation, results and two inline charts) over one keep-alive connection and prints
# the median, 95th percentile and size of each. Exits 1 if the first page's median is
# 10 ms or more.
set -euo pipefail

cd "$(dirname "$0")/.."
bin=${1:-${CARGO_TARGET_DIR:-target}/release/volplan}
count=${2:-5000}
. benches/serve.sh

python3 - "$port" "$count" <<'EOF'
import http.client, json, statistics, sys, threading, time

port, count = int(sys.argv[1]), int(sys.argv[2])
example = json.load(open("benches/contract_example.json"))
levels = ["standard", "premium", "ultra"]

def seed(start, step):
    c = http.client.HTTPConnection("127.0.0.1", port)
    for i in range(start, count, step):
        s = dict(example, name=f"Scenario {i:05d}")
        s["storage"] = dict(s["storage"], level=levels[i % 3])
        c.request("POST", "/api/v1/scenarios", json.dumps(s), {"Content-Type": "application/json"})
        r = c.getresponse(); r.read()
        assert r.status == 201, r.status

t0 = time.time()
threads = [threading.Thread(target=seed, args=(k, 4)) for k in range(4)]
for t in threads: t.start()
for t in threads: t.join()
print(f"saved {count} scenarios in {time.time() - t0:.1f} s")

c = http.client.HTTPConnection("127.0.0.1", port)
def timed(path, n=200):
    times, size = [], 0
    for _ in range(n):
        t = time.perf_counter()
        c.request("GET", path)
        r = c.getresponse(); body = r.read()
        times.append((time.perf_counter() - t) * 1000)
        assert r.status == 200, (path, r.status)
        size = len(body)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1], size

results = {}
for label, path in [("first page", "/"), ("page 50", f"/?offset={count // 2}"), ("search", "/?q=Scenario%2004"),
                    ("planner", "/scenarios/1")]:
    med, p95, size = timed(path)
    results[label] = med
    print(f"GET {path:<16} median {med:5.2f} ms  p95 {p95:5.2f} ms  {size / 1024:5.1f} KiB")
sys.exit(0 if results["first page"] < 10 else 1)
EOF
