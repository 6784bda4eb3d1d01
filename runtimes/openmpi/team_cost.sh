#!/usr/bin/env bash
# Where a GBA team's formation and release spend their time, per phase, from the library's
# GBA_TEAM_TIMING=1 log: ITERS times MPI_Comm_dup + 1 MPI_Barrier + MPI_Comm_free
# (tests/team_cost.c) at each np, in both shapes (a port per rank, one shared port), with
# reuse of a freed communicator's group off (GBA_TEAM_CACHE=0: every team claims and
# configures) and on (the default). Prints the median of each phase over all ranks' teams.
# Usage: runtimes/openmpi/team_cost.sh [ITERS]   (after test.sh, or make all tests)
#        GBA_BENCH_SHAPES="per-rank" GBA_BENCH_NPS="2 4" ...   fewer cases
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${GBA_OMPI_BUILD:-$HERE/build}
ITERS=${1:-50}
export GBA_BIN="${GBA_LIBDIR:-$ROOT/target/release}/gba"
[ -x "$BUILD/team_cost" ] && [ -x "$GBA_BIN" ] \
    || { echo "build first: runtimes/openmpi/test.sh (or make -C runtimes/openmpi all tests)"; exit 1; }
FABRIC=/dev/shm/gba-openmpi-teamcost-$$
trap '"$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1' EXIT
"$GBA_BIN" sim create --ports 8 --path "$FABRIC" >/dev/null
export GBA_FABRIC="$FABRIC" GBA_TEAM_TIMING=1
source "$HERE/ompi_env.sh"
gba_ompi_env "$BUILD" "$FABRIC"
# every team forms at its communicator's first barrier: the formation is what is measured
export OMPI_MCA_coll_gba_barrier_form_after=1
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); medians in us over every rank's teams; with reuse on, the 'configured' line is each job's first teams (MPI_COMM_WORLD's and the first dup's)"
# the log's lines: "gba-barrier: team rank R of N: OUTCOME in T us (phase t, phase t, ...)"
# and "gba-barrier: team rank R of N: group G parked|released in T us"
summarise() {
    python3 -c '
import re, sys, statistics as st
phases, releases = {}, {}
lines = [l for l in sys.stdin if l.startswith("gba-barrier: team rank")]
for l in lines:
    m = re.match(r"gba-barrier: team rank \d+ of \d+: (.*) in ([\d.]+) us \((.*)\)$", l.strip())
    if m:
        kind = re.sub(r"group \d+", "group", m.group(1))
        d = phases.setdefault(kind, {})
        d.setdefault("total", []).append(float(m.group(2)))
        for p in m.group(3).split(", "):  # phase names hold no comma
            name, v = p.rsplit(" ", 1)
            d.setdefault(name, []).append(float(v))
        continue
    m = re.match(r"gba-barrier: team rank \d+ of \d+: group \d+ (\w+) in ([\d.]+) us", l.strip())
    if m:
        releases.setdefault(m.group(1), []).append(float(m.group(2)))
for kind, d in phases.items():
    n = len(d["total"])
    parts = ", ".join("%s %.1f" % (k, st.median(v)) for k, v in d.items())
    print("    %s (%d teams): %s" % (kind, n, parts))
for kind, v in releases.items():
    print("    %s (%d): %.1f" % (kind, len(v), st.median(v)))
'
}
for shape in ${GBA_BENCH_SHAPES:-per-rank shared}; do
    W=()
    [ "$shape" = per-rank ] && W=("$HERE/tests/port-per-rank")
    for np in ${GBA_BENCH_NPS:-2 4 8}; do
        for cache in 0 2; do
            echo "## shape $shape, np=$np, GBA_TEAM_CACHE=$cache, load $(cut -d' ' -f1 /proc/loadavg)"
            GBA_TEAM_CACHE=$cache mpirun --allow-run-as-root --oversubscribe -x GBA_BIN -x GBA_FABRIC \
                -x GBA_TEAM_TIMING -x GBA_TEAM_CACHE -np "$np" "${W[@]}" "$BUILD/team_cost" "$ITERS" 1 2>&1 \
                | summarise
        done
    done
done
