#!/usr/bin/env bash
# The portable mode under MPICH: libgba_pmpi.so built with MPICH's compiler wrapper, preloaded
# under MPICH's mpiexec (Hydra) into unmodified C programs, on a simulator fabric of its own.
# Prints one line per test and a closing line
#   mpich: N passed, M failed
# MPICH is called by its own names (mpicc.mpich, mpiexec.mpich): where OpenMPI is installed
# too, `mpicc` and `mpirun` stay OpenMPI's. trixie.sh runs this inside the Debian 13 chroot.
#
#   runtimes/openmpi/mpich.sh                the tests (np=2 and np=4)
#   runtimes/openmpi/mpich.sh bench [ITERS [ROUNDS]]   bench.sh's cases under MPICH: raw
#        gba_barrier_wait, MPI_Barrier and dup + 0/1/10 barriers + free at np = 2, 4, 8 in
#        both shapes, ROUNDS jobs with the preload alternating with ROUNDS without
#        (GBA_BENCH_SHAPES, GBA_BENCH_NPS as for bench.sh)
#
# Environment: GBA_PREBUILT, GBA_LIBDIR, GBA_OMPI_BUILD as for test.sh (the MPICH build goes
# to its mpich/ subdirectory).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${GBA_OMPI_BUILD:-$HERE/build}/mpich
LIBDIR=${GBA_LIBDIR:-$ROOT/target/release}
MODE=${1:-test}
MPICC=mpicc.mpich
MPIEXEC=mpiexec.mpich
LOGS=$(mktemp -d /tmp/gba-mpich-test.XXXXXX)
. "$ROOT/runtimes/checks.sh" # say, check, expect_log, completed, expect_released, summary

command -v $MPICC >/dev/null && command -v $MPIEXEC >/dev/null && command -v mpifort.mpich >/dev/null \
    || { say "MPICH is needed ($MPICC, $MPIEXEC): apt-get install -y mpich libmpich-dev"; say "mpich: 0 passed, 1 failed (no MPICH)"; exit 1; }
if [ -z "${GBA_PREBUILT:-}" ]; then
    build_host_stack >"$LOGS/cargo.log" 2>&1 \
        || { cat "$LOGS/cargo.log"; say "mpich: 0 passed, 1 failed (cargo build)"; exit 1; }
fi

# --- build: the same preload source as for OpenMPI, and the test programs ----------------------
say "building libgba_pmpi.so and the tests with $MPICC ($($MPICC -v 2>&1 | sed -n 's/^mpicc for \(MPICH version [^ ]*\).*/\1/p' | head -1))"
mkdir -p "$BUILD"
CFLAGS=(-std=c11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror)
{
    $MPICC "${CFLAGS[@]}" -fPIC -shared -I"$ROOT/gba-barrier-c/include" -o "$BUILD/libgba_pmpi.so" \
        "$HERE/pmpi/gba_pmpi.c" -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -lgba_barrier &&
    for t in semantics comms barrier_latency bench_barrier; do
        $MPICC "${CFLAGS[@]}" -o "$BUILD/$t" "$HERE/tests/$t.c" || exit 1
    done &&
    mpifort.mpich -O2 -Wall -o "$BUILD/fbarrier" "$HERE/tests/fbarrier.f90" &&
    cc "${CFLAGS[@]}" -I"$ROOT/gba-barrier-c/include" -o "$BUILD/raw_barrier" "$HERE/tests/raw_barrier.c" \
        -L"$LIBDIR" -Wl,-rpath,"$LIBDIR" -lgba_barrier
} >"$LOGS/build.log" 2>&1 || { cat "$LOGS/build.log"; say "mpich: 0 passed, 1 failed (build)"; exit 1; }
ldd "$BUILD/libgba_pmpi.so" | grep -q 'libmpi\(ch\)\?\.so\.12' \
    || { ldd "$BUILD/libgba_pmpi.so"; say "mpich: 0 passed, 1 failed (libgba_pmpi.so is not linked to MPICH's libmpi.so.12)"; exit 1; }

if [ -n "${GBA_PREBUILT:-}" ]; then export GBA_BIN=${GBA_BIN:-$LIBDIR/gba}; else export GBA_BIN=$ROOT/target/debug/gba; fi
FABRIC=/dev/shm/gba-mpich-test-$$
cleanup() {
    "$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1
    if [ -n "${KEEP_LOGS:-}" ]; then say "logs kept in $LOGS"; else rm -rf "$LOGS"; fi
}
trap cleanup EXIT
"$GBA_BIN" sim create --ports 8 --path "$FABRIC" >/dev/null || { say "gba sim create failed"; exit 1; }
export GBA_FABRIC="$FABRIC"
# Hydra passes the whole environment on; one port per rank (tests/port-per-rank reads PMI_RANK)
W=("$HERE/tests/port-per-rank")
# GBA_PMPI_FORM_AFTER=1: the checks count GBA episodes from a communicator's first barrier (the
# automatic default, 64 on one node, has checks of its own)
PRELOAD=(env LD_PRELOAD="$BUILD/libgba_pmpi.so" GBA_PMPI_VERBOSE=1 GBA_PMPI_FORM_AFTER=1)

if [ "$MODE" = bench ]; then
    # bench.sh's cases with MPICH's launcher and the preload (its own fabric)
    "$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1
    GBA_BENCH_MPI=mpich GBA_OMPI_BUILD=$(dirname "$BUILD") GBA_LIBDIR="$LIBDIR" bash "$HERE/bench.sh" "${@:2}"
    exit
fi

for np in 2 4; do
    say "--- MPICH np=$np"
    check "np=$np MPICH without the preload: MPI_Barrier stays MPICH's (BARRIERS_COMPLETED +0)" \
        $MPIEXEC -np $np "${W[@]}" "$BUILD/semantics" 500 0
    check "np=$np MPICH + libgba_pmpi.so: C MPI_Barrier on the GBA, semantics, counter exact" \
        "${PRELOAD[@]}" $MPIEXEC -np $np "${W[@]}" "$BUILD/semantics" 2000 1
    expect_log "np=$np MPICH + preload says which group" "gba_pmpi: \[rank 0\] communicator of size $np: barrier on GBA group [0-9]+"
    check "np=$np MPICH + preload: dup/split communicators on their own groups, >32 fall back, free releases" \
        "${PRELOAD[@]}" $MPIEXEC -np $np "${W[@]}" "$BUILD/comms"
    # MPICH's Fortran binding calls the C MPI_Barrier (OpenMPI's calls PMPI_Barrier): the
    # preload sees Fortran callers too, under MPICH
    before=$(completed 0)
    check "np=$np MPICH + preload: Fortran MPI_BARRIER runs" "${PRELOAD[@]}" $MPIEXEC -np $np "${W[@]}" "$BUILD/fbarrier" 300
    # the first forms WORLD's team: its allgather is the barrier, no GBA episode
    expect_eq "np=$np MPICH + preload: Fortran MPI_BARRIER on the GBA too (BARRIERS_COMPLETED +299)" \
        "+$(( $(completed 0) - before ))" +299
    # GBA_PMPI_FORM_AFTER=0: automatic, 64 when MPI_COMM_WORLD is on one node (this job; the
    # preload's MPI_Init learns it). semantics 500 makes 503 barriers: 63 in software, the
    # 64th forms the team, 439 GBA episodes
    before=$(completed 0)
    check "np=$np MPICH + preload, automatic form_after: 503 barriers" \
        "${PRELOAD[@]}" GBA_PMPI_FORM_AFTER=0 $MPIEXEC -np $np "${W[@]}" "$BUILD/semantics" 500 -1
    expect_eq "np=$np MPICH + preload, automatic: the 64th barrier forms the team (BARRIERS_COMPLETED +439)" \
        "+$(( $(completed 0) - before ))" +439
    expect_log "np=$np MPICH + preload, automatic: rank 0 says at which barrier" \
        "gba_pmpi: \[rank 0\] communicator of size $np: barrier on GBA group [0-9]+ \(team formed at MPI_Barrier 64\)"
    check "np=$np MPICH + preload, GBA_PMPI_FORM_AFTER=x is refused, automatic used" \
        "${PRELOAD[@]}" GBA_PMPI_FORM_AFTER=x $MPIEXEC -np $np "${W[@]}" "$BUILD/semantics" 100 -1
    expect_log "np=$np MPICH + preload, GBA_PMPI_FORM_AFTER=x: the message names it" \
        "gba_pmpi: GBA_PMPI_FORM_AFTER=x is not a barrier number \(1 = the first; 0 = automatic\): automatic is used"
    # every rank's device missing: the verdict falls back on every rank, said once by rank 0;
    # counted on port 0 of the real fabric, which nobody opens
    check "np=$np MPICH + preload, device missing: software barrier, BARRIERS_COMPLETED +0" \
        "${PRELOAD[@]}" GBA_PMPI_DEVICE="sim:/dev/shm/no-such-gba-fabric#0" $MPIEXEC -np $np "$BUILD/semantics" 500 0
    expect_log "np=$np MPICH + preload, device missing: rank 0 says why" \
        "gba_pmpi: \[rank 0\] communicator of size $np: software barrier: rank 0 has no usable GBA device"
done

expect_released "MPICH: every group released at MPI_Finalize / MPI_Comm_free" "$FABRIC"
summary mpich
