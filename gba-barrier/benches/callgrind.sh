#!/usr/bin/env bash
# Instructions per call of the hot path (arrive + one poll of an already-released flag), ours
# against the seeds' C, counted by valgrind's callgrind over the hot_path bench binary in its
# count mode (GBA_HOT_PATH_CALLS=N: N calls of each contender, no criterion).
#
#   as a function: inclusive instructions of one call of the non-inlined function, ret included
#                  ours: ours_once → Barrier::wait (episode count kept in the barrier)
#                  C send+poll: gba_seed_arrive_poll (sequence, group, member passed in registers)
#                  C barrier: gba_seed_barrier, the seed's barrier function (++sequence kept in
#                  its module, send, poll), i.e. the same job as ours
#   inlined:       instructions of one iteration of a loop with the path inlined, loop
#                  overhead included (ours_loop; gba_seed_loop, whose loop counter is the
#                  sequence; gba_seed_barrier_loop)
#
# Usage: gba-barrier/benches/callgrind.sh [N]   (default N = 100000)
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-100000}
command -v valgrind >/dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 2; }

exe=$(cargo bench -p gba-barrier --bench hot_path --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*hot_path[^"]*\)".*/\1/p' | tail -1)
[ -x "$exe" ] || { echo "could not build the hot_path bench" >&2; exit 2; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
GBA_HOT_PATH_CALLS=$n valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$exe" >/dev/null 2>"$out/log" ||
    { cat "$out/log" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$out/cg" >"$out/annotated" 2>/dev/null

# Inclusive Ir of the function whose name matches $1 (first match), thousands separators removed.
ir() {
    grep -E "$1" "$out/annotated" | head -1 | awk '{ gsub(",", "", $1); print $1 }'
}
ours_fn=$(ir ':hot_path::ours_once ')
seed_fn=$(ir ':gba_seed_arrive_poll ')
ours_loop=$(ir ':hot_path::ours_loop ')
seed_loop=$(ir ':gba_seed_loop ')
bar_fn=$(ir ':gba_seed_barrier ')
bar_loop=$(ir ':gba_seed_barrier_loop ')
for v in ours_fn seed_fn ours_loop seed_loop bar_fn bar_loop; do
    [ -n "${!v}" ] || { echo "callgrind found no count for $v; annotated output:" >&2; head -40 "$out/annotated" >&2; exit 1; }
done

awk -v n="$n" -v of="$ours_fn" -v sf="$seed_fn" -v ol="$ours_loop" -v sl="$seed_loop" \
    -v bf="$bar_fn" -v bl="$bar_loop" 'BEGIN {
    printf "instructions per call over %d calls (callgrind)\n", n
    printf "%-14s %12s %12s %8s %12s %8s\n", "", "gba-barrier", "C send+poll", "ratio", "C barrier", "ratio"
    printf "%-14s %12.2f %12.2f %8.2f %12.2f %8.2f\n", "as a function", of / n, sf / n, of / sf, bf / n, of / bf
    printf "%-14s %12.2f %12.2f %8.2f %12.2f %8.2f\n", "inlined loop", ol / n, sl / n, ol / sl, bl / n, ol / bl
    printf "(ratio = ours / C; goal <= 1)\n"
}'
