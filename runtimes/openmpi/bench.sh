#!/usr/bin/env bash
# OSU-style barrier latency with and without coll/gba_barrier, on a simulator fabric, at
# np = 2, 4 and 8 (on this 2-core machine, 4 and 8 oversubscribe it), in two shapes of the
# same one-host job: every rank on a port of its own (tests/port-per-rank) and all ranks on
# one shared port (host combining).
#   gba_barrier_wait without MPI: the C library alone (raw_barrier), ROUNDS runs.
#   MPI_Barrier: one job per np; a GBA communicator and a software one (info key
#     ompi_comm_coll_preference=^gba_barrier) alternate blocks of barriers (bench_barrier).
#   MPI_Comm_dup + 0, 1, 10 MPI_Barrier + MPI_Comm_free: the same job, alternating between
#     a communicator with coll/gba_barrier and one without (bench_barrier's last rows).
#   shmem_barrier_all: jobs with and without the component (coll_gba_barrier_disable)
#     alternate, ROUNDS times each; median of the per-job averages.
# Usage: runtimes/openmpi/bench.sh [ITERS [ROUNDS]]    (after test.sh or make all tests)
#        runtimes/openmpi/trixie.sh bench [ITERS [ROUNDS]]   the same on OpenMPI 5.0 (chroot)
#        GBA_BENCH_SHAPES="per-rank" GBA_BENCH_NPS="2 4" ...   fewer cases
#        GBA_TEAM_CACHE=0 ...   no reuse of a freed communicator's group (every team configures)
#   Where a team's formation goes, phase by phase: runtimes/openmpi/team_cost.sh.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${GBA_OMPI_BUILD:-$HERE/build}
ITERS=${1:-10000}
ROUNDS=${2:-5}
export GBA_BIN="${GBA_LIBDIR:-$ROOT/target/release}/gba"
[ -x "$BUILD/bench_barrier" ] && [ -x "$BUILD/shmem_bench" ] && [ -x "$BUILD/raw_barrier" ] && [ -x "$GBA_BIN" ] \
    || { echo "build first: runtimes/openmpi/test.sh (or make -C runtimes/openmpi all tests)"; exit 1; }
FABRIC=/dev/shm/gba-openmpi-bench-$$
trap '"$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1' EXIT
"$GBA_BIN" sim create --ports 8 --path "$FABRIC" >/dev/null
export GBA_FABRIC="$FABRIC"
source "$HERE/ompi_env.sh"
gba_ompi_env "$BUILD" "$FABRIC"

# The ranks of this one host either share port 0 (the library combines a host's processes)
# or each take a port of its own (tests/port-per-rank): two shapes of the same job.
SHAPES=${GBA_BENCH_SHAPES:-per-rank shared}
NPS=${GBA_BENCH_NPS:-2 4 8}
CACHE=()
[ -n "${GBA_TEAM_CACHE:-}" ] && CACHE=(-x GBA_TEAM_CACHE)
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), GBA_TEAM_CACHE=${GBA_TEAM_CACHE:-default}; OpenMPI $(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')"
for shape in $SHAPES; do
    W=()
    [ "$shape" = per-rank ] && W=("$HERE/tests/port-per-rank")
    echo "## shape: $shape"
    # the library alone, no MPI: what the simulator costs per episode (raw_barrier's
    # processes share port 0 in both shapes)
    [ "$shape" = shared ] && for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        raw=()
        for r in $(seq "$ROUNDS"); do raw+=("$("$BUILD/raw_barrier" "$FABRIC" $np $it)"); done
        echo "gba_barrier_wait without MPI np=$np, $ROUNDS runs of $it: median $(printf '%s\n' "${raw[@]}" | median) us (all: ${raw[*]})"
    done
    for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        mpirun --allow-run-as-root --oversubscribe -x GBA_BIN -x GBA_FABRIC "${CACHE[@]}" -np $np \
            "${W[@]}" "$BUILD/bench_barrier" $it $((2 * ROUNDS))
    done
    for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        on=() off=()
        for r in $(seq "$ROUNDS"); do
            on+=("$(oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma -np $np "${W[@]}" "$BUILD/shmem_bench" $it)")
            off+=("$(oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma --mca coll_gba_barrier_disable 1 -np $np "${W[@]}" "$BUILD/shmem_bench" $it)")
        done
        echo "shmem_barrier_all np=$np, $ROUNDS alternating jobs of $it: coll/gba_barrier median $(printf '%s\n' "${on[@]}" | median) us (all: ${on[*]}), OpenMPI's own median $(printf '%s\n' "${off[@]}" | median) us (all: ${off[*]})"
    done
done
