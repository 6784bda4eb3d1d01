#!/usr/bin/env bash
# The cache lines of shared memory one barrier episode touches, gba-sim against the software
# barriers, counted from valgrind's memory trace (lackey) of every member process rather than
# by reading the code. This VM has no hardware cache counters (no `perf c2c`), and callgrind's
# cache simulation models one core, so it cannot see a line move between two.
#
# Each member process (cli/examples/episode_lines.rs) runs EPISODES barriers of every
# contender; lines.py keeps the accesses that fall in a shared mapping (the fabric's files,
# the software barriers' files) between the marks around each contender's episodes and prints,
# per line, the loads, stores and read-modify-writes per episode of every member, and whether
# another member writes it in the same episode (a line written by one member and touched by
# another moves at least once per episode: the cost a barrier cannot avoid is one such line
# for the arrivals and one for the release).
#
# Usage: cli/benches/lines.sh [EPISODES [MEMBERS]]   (defaults 2000, 2)
set -euo pipefail
cd "$(dirname "$0")/../.."
episodes=${1:-2000}
members=${2:-2}
command -v valgrind >/dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 2; }
cargo build -q --release -p gba --bin gba --example episode_lines
base=/dev/shm
[ -d "$base" ] || base=/tmp
dir=$(mktemp -d "$base/gba-lines.XXXXXX")
trap 'rm -rf "$dir"' EXIT
target/release/gba sim create --path "$dir/fabric" --ports "$members" >/dev/null
pids=()
for ((m = 0; m < members; m++)); do
    # Instruction fetches (lines starting with "I") are dropped as they come: only data
    # accesses matter, and the trace would be several times larger.
    valgrind --tool=lackey --trace-mem=yes --log-fd=9 \
        target/release/examples/episode_lines "$dir" "$m" "$members" "$episodes" \
        9> >(grep -v '^I' >"$dir/trace.$m") 2>"$dir/info.$m" &
    pids+=($!)
done
for pid in "${pids[@]}"; do
    wait "$pid" || { echo "a member failed:" >&2; cat "$dir"/info.* >&2; exit 1; }
done
sleep 1  # the trace filters finish writing
python3 cli/benches/lines.py "$dir" "$members" "$episodes"
