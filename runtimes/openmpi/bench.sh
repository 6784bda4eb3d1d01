#!/usr/bin/env bash
# OSU-style barrier latency with and without coll/gba_barrier, on a simulator fabric, at
# np = 2, 4 and 8 (on this 2-core machine, 4 and 8 oversubscribe it), in two shapes of the
# same one-host job: every rank on a port of its own (tests/port-per-rank) and all ranks on
# one shared port (host combining).
#   gba_barrier_wait without MPI: the C library alone (raw_barrier), ROUNDS runs.
#   MPI_Barrier: one job per np; a GBA communicator and a software one (info key
#     ompi_comm_coll_preference=^gba_barrier) alternate blocks of barriers (bench_barrier).
#   MPI_Comm_dup + 0, 1, 10 MPI_Barrier + MPI_Comm_free: the same job, alternating between
#     a communicator with coll/gba_barrier and one without (bench_barrier's last rows); at
#     the default coll_gba_barrier_form_after (automatic: a one-node communicator forms its
#     team at its 64th barrier, so these run in software) and again at form_after=1 (every
#     communicator forms at its first barrier: the cost of a formation).
#   shmem_barrier_all: jobs with and without the component (coll_gba_barrier_disable)
#     alternate, ROUNDS times each; median of the per-job averages; then one job alternating
#     2 x ROUNDS blocks of shmem_barrier_all with quiet + OpenMPI's own barrier (what the
#     call runs without the GBA), which separate jobs' spread cannot blur. The latency rows
#     form teams at their first barrier (form_after=1): they measure the steady state.
# Under MPICH (GBA_BENCH_MPI=mpich, what `mpich.sh bench` sets after building its programs
# with mpicc.mpich) the same MPI_Barrier and communicator cases run in ROUNDS jobs with the
# preload (libgba_pmpi.so) alternating with ROUNDS jobs of MPICH's own barrier: MPICH has no
# per-communicator exclusion, so both of bench_barrier's columns take one path per job. No
# OpenSHMEM there.
# Usage: runtimes/openmpi/bench.sh [ITERS [ROUNDS]]    (after test.sh or make all tests)
#        runtimes/openmpi/trixie.sh bench [ITERS [ROUNDS]]   the same on OpenMPI 5.0 (chroot)
#        runtimes/openmpi/mpich.sh bench [ITERS [ROUNDS]]    the same under MPICH (preload)
#        GBA_BENCH_SHAPES="per-rank" GBA_BENCH_NPS="2 4" ...   fewer cases
#        GBA_TEAM_CACHE=0 ...   no reuse of a freed communicator's group (every team configures)
#   Where a team's formation goes, phase by phase: runtimes/openmpi/team_cost.sh.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${GBA_OMPI_BUILD:-$HERE/build}
MPI=${GBA_BENCH_MPI:-openmpi}
[ "$MPI" = mpich ] && BUILD=$BUILD/mpich
ITERS=${1:-10000}
ROUNDS=${2:-5}
export GBA_BIN="${GBA_BIN:-${GBA_LIBDIR:-$ROOT/target/release}/gba}"
[ -x "$BUILD/bench_barrier" ] && { [ "$MPI" = mpich ] || [ -x "$BUILD/shmem_bench" ]; } && [ -x "$BUILD/raw_barrier" ] && [ -x "$GBA_BIN" ] \
    || { echo "build first: runtimes/openmpi/test.sh (or make -C runtimes/openmpi all tests; for MPICH: mpich.sh bench)"; exit 1; }
FABRIC=/dev/shm/gba-openmpi-bench-$$
trap '"$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1' EXIT
"$GBA_BIN" sim create --ports 8 --path "$FABRIC" >/dev/null
export GBA_FABRIC="$FABRIC"
if [ "$MPI" = mpich ]; then
    # the shared shape's device; tests/port-per-rank sets a rank's own
    export GBA_PMPI_DEVICE="sim:$FABRIC#0" OMPI_MCA_coll_gba_barrier_device_path="sim:$FABRIC#0"
    VERSION=$(mpicc.mpich -v 2>&1 | sed -n 's/^mpicc for \(MPICH version [^ ]*\).*/\1/p' | head -1)
else
    source "$HERE/ompi_env.sh"
    gba_ompi_env "$BUILD" "$FABRIC"
    VERSION="OpenMPI $(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')"
fi

# The ranks of this one host either share port 0 (the library combines a host's processes)
# or each take a port of its own (tests/port-per-rank): two shapes of the same job.
SHAPES=${GBA_BENCH_SHAPES:-per-rank shared}
NPS=${GBA_BENCH_NPS:-2 4 8}
CACHE=()
[ -n "${GBA_TEAM_CACHE:-}" ] && CACHE=(-x GBA_TEAM_CACHE)
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), GBA_TEAM_CACHE=${GBA_TEAM_CACHE:-default}; $VERSION"
for shape in $SHAPES; do
    W=()
    [ "$shape" = per-rank ] && W=("$HERE/tests/port-per-rank")
    echo "## shape: $shape"
    # a fresh fabric per shape: nothing a job of the other shape left on a port (a claim of a
    # rank killed at exit) is inherited
    "$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1
    "$GBA_BIN" sim create --ports 8 --path "$FABRIC" >/dev/null
    # the library alone, no MPI: what the simulator costs per episode (raw_barrier's
    # processes take ports 0..np-1)
    [ "$shape" = shared ] && for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        raw=()
        for r in $(seq "$ROUNDS"); do raw+=("$("$BUILD/raw_barrier" "$FABRIC" $np $it)"); done
        echo "gba_barrier_wait without MPI np=$np, $ROUNDS runs of $it: median $(printf '%s\n' "${raw[@]}" | median) us (all: ${raw[*]})"
    done
    [ "$MPI" = mpich ] && for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        for r in $(seq "$ROUNDS"); do
            env LD_PRELOAD="$BUILD/libgba_pmpi.so" GBA_PMPI_FORM_AFTER=1 GBA_BENCH_PATHS="1 1" mpiexec.mpich -np $np "${W[@]}" \
                "$BUILD/bench_barrier" $it 2 | sed -n 's/^MPI_/with libgba_pmpi.so: MPI_/p'
            env GBA_BENCH_PATHS="0 0" mpiexec.mpich -np $np "${W[@]}" \
                "$BUILD/bench_barrier" $it 2 | sed -n "s/^MPI_/MPICH's own: MPI_/p"
        done
    done
    [ "$MPI" = mpich ] && continue
    for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        # latency rows with the team formed at the first barrier (steady state), and the
        # communicator rows so: what a formation costs
        OMPI_MCA_coll_gba_barrier_form_after=1 mpirun --allow-run-as-root --oversubscribe -x GBA_BIN \
            -x GBA_FABRIC "${CACHE[@]}" -np $np "${W[@]}" "$BUILD/bench_barrier" $it $((2 * ROUNDS)) |
            sed 's/^MPI_Comm_dup/form_after=1: MPI_Comm_dup/'
        # the communicator rows at the default (automatic: this one-node communicator forms
        # its team at its 64th barrier, so dup + 1 or 10 barriers run in software)
        GBA_BENCH_COMM_ONLY=1 mpirun --allow-run-as-root --oversubscribe -x GBA_BIN -x GBA_FABRIC \
            -x GBA_BENCH_COMM_ONLY "${CACHE[@]}" -np $np "${W[@]}" "$BUILD/bench_barrier" $it 2 |
            sed 's/^MPI_Comm_dup/form_after default: MPI_Comm_dup/'
    done
    for np in $NPS; do
        it=$ITERS
        [ $np -gt "$(nproc)" ] && it=$((ITERS / 5))
        on=() off=()
        for r in $(seq "$ROUNDS"); do
            on+=("$(oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma --mca coll_gba_barrier_form_after 1 -np $np "${W[@]}" "$BUILD/shmem_bench" $it)")
            off+=("$(oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma --mca coll_gba_barrier_disable 1 -np $np "${W[@]}" "$BUILD/shmem_bench" $it)")
        done
        echo "shmem_barrier_all np=$np, $ROUNDS alternating jobs of $it: coll/gba_barrier median $(printf '%s\n' "${on[@]}" | median) us (all: ${on[*]}), OpenMPI's own median $(printf '%s\n' "${off[@]}" | median) us (all: ${off[*]})"
        # the same comparison inside one job (blocks alternating with quiet + OpenMPI's own
        # barrier on a communicator without the component): free of the jobs' spread
        oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma --mca coll_gba_barrier_form_after 1 -np $np "${W[@]}" \
            "$BUILD/shmem_bench" $it $((2 * ROUNDS))
    done
done
