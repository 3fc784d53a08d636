#!/usr/bin/env bash
# Games per second of one match on this machine, on one worker and on two
# workers through a nats-server started here (127.0.0.1, a temporary store),
# the coordinator's own milliseconds per batch, and what those figures say
# about many workers. Needs nats-server (apt-get install -y nats-server) and
# a built gridtune (GRIDTUNE, default target/release/gridtune).
#
#   tools/bench-distributed.sh            # 400 games, 8 a batch
#   GAMES=1000 BATCH=16 tools/bench-distributed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${GRIDTUNE:-target/release/gridtune}
GAMES=${GAMES:-400}
BATCH=${BATCH:-8}
NODES=${NODES:-1000}
CORES=${CORES:-$(nproc)}
command -v nats-server >/dev/null || { echo "nats-server is not installed (apt-get install -y nats-server)" >&2; exit 2; }
[ -x "$BIN" ] || { echo "no gridtune at $BIN (cargo build --release, or set GRIDTUNE)" >&2; exit 2; }

dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="nats://127.0.0.1:$port"
nats-server -js -a 127.0.0.1 -p "$port" -sd "$dir/js" >"$dir/nats.log" 2>&1 &
server=$!
workers=()
cleanup() {
  for w in "${workers[@]}"; do kill "$w" 2>/dev/null || true; done
  kill "$server" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 100); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done

match=(match --game isolation --bot genome:genomes/isolation/default.ron --bot judge:alphabeta
       --fresh-maps --games "$GAMES" --nodes "$NODES" --seed 7 --json --quiet)
seconds() { python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])'; }

start_worker() { # threads
  "$BIN" worker --server "$url" --threads "$1" >>"$dir/workers.log" 2>&1 &
  workers+=($!)
  for _ in $(seq 200); do grep -q "worker connected" "$dir/workers.log" 2>/dev/null && break; sleep 0.05; done
}
stop_workers() {
  for w in "${workers[@]}"; do kill "$w" 2>/dev/null || true; done
  for w in "${workers[@]}"; do wait "$w" 2>/dev/null || true; done
  workers=()
  : >"$dir/workers.log"
}
remote() { # label
  "$BIN" "${match[@]}" --server "$url" --batch-games "$BATCH" --concurrency 64 >"$dir/out.json" 2>"$dir/err.txt"
  local s; s=$(seconds <"$dir/out.json")
  local ms; ms=$(grep -o '[0-9.]* ms of the coordinator' "$dir/err.txt" | cut -d' ' -f1)
  printf '%-34s %8.1f games/s  (%s s; coordinator %s ms per batch of %s)\n' "$1" "$(python3 -c "print($GAMES / $s)")" "$s" "$ms" "$BATCH" >&2
  echo "$s $ms"
}

echo "gridtune bench (distributed): $GAMES games of Isolation, genome at $NODES nodes against judge:alphabeta, $CORES cores"
local_s=$("$BIN" "${match[@]}" --concurrency "$CORES" | seconds)
printf '%-34s %8.1f games/s  (%s s)\n' "this machine ($CORES threads)" "$(python3 -c "print($GAMES / $local_s)")" "$local_s"

start_worker "$CORES"
read -r one_s one_ms < <(remote "one worker ($CORES threads)")
stop_workers

half=$(( CORES / 2 > 0 ? CORES / 2 : 1 ))
start_worker "$half"
start_worker "$half"
read -r two_s two_ms < <(remote "two workers ($half threads each)")
BATCH=$(( 4 * BATCH ))
read -r big_s big_ms < <(remote "two workers, larger batches")
BATCH=$(( BATCH / 4 ))
stop_workers

python3 - "$GAMES" "$CORES" "$BATCH" "$local_s" "$one_s" "$two_ms" "$big_ms" <<'PY'
import sys
games, cores, b = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
local_s, one_s, ms, big_ms = (float(v) for v in sys.argv[4:8])
t = local_s * cores / games                  # seconds of one core per game
# The coordinator's own time per batch of n games: o0 + o1 * n, from the
# two batch sizes (publishing, the results' JSON and checks grow with n).
o1 = max((big_ms - ms) / (3 * b), 0.0) / 1000.0
o0 = max(ms / 1000.0 - o1 * b, 0.0)
print(f"\none game: {1000 * t:.1f} ms of a core; coordinator: {ms:.2f} ms per batch of {b}, "
      f"{big_ms:.2f} ms per batch of {4 * b}: {1000 * o0:.2f} ms + {1000 * o1:.3f} ms a game")
print(f"one worker against this machine alone: {local_s / one_s:.2f} of its speed")
for n in (b, 4 * b, 1000):
    ceiling = n / (o0 + o1 * n)
    print(f"batches of {n:>4}: one coordinator handles {ceiling:,.0f} games/s, "
          f"enough for {ceiling * t:,.0f} busy cores ({ceiling * t / 16:,.0f} workers of 16 cores)")
if o1 < 0.01 * t:
    need = o0 / (0.01 * t - o1)
    print(f"the coordinator's time stays under 1% of the games' from {max(need, 1):,.1f} games a batch")
else:
    print("the coordinator's time per game alone is over 1% of a game's: no batch size brings it under")
for c in (cores, 16):
    rate = 1000 * c / t
    n = o0 / (1 / rate - o1) if 1 / rate > o1 else float("inf")
    verdict = f"batches of {n:,.0f} games or more" if n != float("inf") else "more than one coordinator process can give, at any batch size"
    print(f"1,000 workers of {c:>2} cores play {rate:,.0f} games/s: {verdict}")
PY
