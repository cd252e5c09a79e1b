# Sourced by the bench scripts after they set `bin`: starts that release server on a
# free loopback port with a temporary database in `$tmp`, waits until it answers, and
# sets `port` and `pid`; the server is stopped and `$tmp` removed when the script exits.
# With BENCH_DATABASE_URL set (an empty PostgreSQL database, say), the server uses that
# instead of a fresh SQLite file.
[ -x "$bin" ] || { echo "build first: cargo build --release ($bin not found)" >&2; exit 2; }
tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
RUST_LOG=warn "$bin" serve --bind "127.0.0.1:$port" --database-url "${BENCH_DATABASE_URL:-sqlite:$tmp/bench.db}" 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
