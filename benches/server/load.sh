#!/usr/bin/env bash
# sendMessage throughput and p99 latency of the example server (issue 25), measured with
# wrk in one run: SQLite (one process), PostgreSQL (one process) and PostgreSQL (two
# processes on one database, half of the connections each). PostgreSQL is a throwaway
# cluster on 127.0.0.1 (synchronous_commit off, as SQLite's WAL with synchronous=NORMAL:
# durable across a server crash, not a power loss). Prints a Markdown table for
# benches/RESULTS.md.
#   bash benches/server/load.sh            10 s per case, 32 connections
#   SECONDS_PER_CASE=5 CONNECTIONS=64 bash benches/server/load.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${SECONDS_PER_CASE:-10}
connections=${CONNECTIONS:-32}

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >&2; }
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$pgbin" ] || { apt-get update -qq && apt-get install -y -qq postgresql >&2; pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1); }
cargo build --release -q -p chatmark-api --example server
server=target/release/examples/server

tmp=$(mktemp -d)
chmod 755 "$tmp"
pids=()
as_db_user() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  as_db_user "$pgbin/pg_ctl" -D "$tmp/pg" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
[ "$(id -u)" = 0 ] && chown postgres "$tmp"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
as_db_user "$pgbin/initdb" -D "$tmp/pg" -A trust -U postgres -E UTF8 --locale=C --no-sync >/dev/null
as_db_user "$pgbin/pg_ctl" -D "$tmp/pg" -l "$tmp/pg.log" -w start \
  -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories='' -c synchronous_commit=off" >/dev/null
as_db_user "$pgbin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c 'CREATE DATABASE load' postgres
pg_url="postgres://postgres@127.0.0.1:$port/load"

# starts the server on database $2; its address goes to the variable named $1
start() {
  local out="$tmp/server.$1"
  CHATMARK_API_DB="$2" "$server" 0 >"$out" 2>/dev/null &
  pids+=($!)
  for _ in $(seq 100); do
    if [ -s "$out" ]; then
      printf -v "$1" '%s' "$(head -1 "$out")"
      return
    fi
    sleep 0.1
  done
  echo "server on $2 did not start" >&2
  exit 1
}

# wrk against $2 with $1 connections; prints "requests/s p99-ms"
load() {
  wrk -t1 -c"$1" -d"${duration}s" --latency -s benches/server/send_message.lua "http://$2" \
    | awk '/Requests\/sec/ {rps=$2} /^ +99%/ {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000} p99=v}
           END {printf "%.0f %.2f\n", rps, p99}'
}

start sqlite "$tmp/load.sqlite3"
start pg_a "$pg_url"
start pg_b "$pg_url"
# warm up every instance (connection pools, prepared statements)
for a in "$sqlite" "$pg_a" "$pg_b"; do wrk -t1 -c4 -d1s -s benches/server/send_message.lua "http://$a" >/dev/null; done

read -r s_rps s_p99 < <(load "$connections" "$sqlite")
read -r p1_rps p1_p99 < <(load "$connections" "$pg_a")
half=$((connections / 2))
load "$half" "$pg_a" >"$tmp/a" &
first=$!
load "$half" "$pg_b" >"$tmp/b" &
wait "$first" $!
read -r a_rps a_p99 <"$tmp/a"
read -r b_rps b_p99 <"$tmp/b"
p2_rps=$((a_rps + b_rps))
p2_p99=$(python3 -c "print(f'{max($a_p99, $b_p99):.2f}')")

echo "| store | processes | connections | sendMessage/s | p99 latency |"
echo "| --- | ---: | ---: | ---: | ---: |"
echo "| SQLite (WAL) | 1 | $connections | $s_rps | $s_p99 ms |"
echo "| PostgreSQL | 1 | $connections | $p1_rps | $p1_p99 ms |"
echo "| PostgreSQL | 2 | $connections ($half each) | $p2_rps | $p2_p99 ms |"
echo
echo "wrk $(wrk --version 2>&1 | head -1 | awk '{print $2}'), ${duration} s per case, $(nproc) cores, $(date -u +%Y-%m-%d)"
