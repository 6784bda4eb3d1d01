#!/usr/bin/env bash
# Builds coll/gba_barrier, libgba_barrier, the gba tool and the test programs, then runs the
# tests on a simulator fabric of its own. Prints one line per test and a closing line
#   openmpi: N passed, M failed
# and exits non-zero when any test failed. Installs openmpi-bin libopenmpi-dev gfortran with
# apt-get when they are missing (as root).
#
#   runtimes/openmpi/test.sh            all tests at np=2 and np=4 (oversubscribed)
#
# One host: every rank opens port 0 of the fabric (the host's port) and the ranks share it
# through the library's host combining; BARRIERS_COMPLETED of port 0 grows by one per barrier
# but a communicator's first, which forms its team (the formation's allgather is the barrier).
# GBA_TEST_HOST_COMBINING=0 runs every program through tests/port-per-rank instead: each rank
# on a port of its own, as if on a host of its own.
HOST_COMBINING=${GBA_TEST_HOST_COMBINING:-1}
#   KEEP_LOGS=1 runtimes/openmpi/test.sh    keep the per-test logs (their directory is printed)
# Against another MPI install (trixie.sh runs it so inside a Debian 13 chroot, on OpenMPI 5.0):
#   GBA_PREBUILT=1 GBA_LIBDIR=dir   use dir's libgba_barrier.so as it is (no cargo), and the gba
#                                   tool GBA_BIN (default: dir/gba)
#   GBA_OMPI_BUILD=dir              build the components and tests into dir (default: build/)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${GBA_OMPI_BUILD:-$HERE/build}
LIBDIR=${GBA_LIBDIR:-$ROOT/target/release}
LOGS=$(mktemp -d /tmp/gba-openmpi-test.XXXXXX)
# say, check, expect_log, expect_eq, expect_distinct, world_group, completed, expect_released,
# summary
. "$ROOT/runtimes/checks.sh"

# --- prerequisites ----------------------------------------------------------------------------
if ! command -v mpicc >/dev/null || ! command -v mpifort >/dev/null || ! command -v oshcc >/dev/null \
   || [ -z "$(mpicc --showme:incdirs 2>/dev/null)" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing openmpi-bin libopenmpi-dev gfortran"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev gfortran >"$LOGS/apt.log" 2>&1 \
            || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev gfortran >"$LOGS/apt.log" 2>&1; } \
            || { say "apt-get install failed: see $LOGS/apt.log"; exit 1; }
    else
        say "OpenMPI (openmpi-bin libopenmpi-dev) and gfortran are needed: apt-get install -y openmpi-bin libopenmpi-dev gfortran"
        exit 1
    fi
fi

# mpi4py (a wheel from PyPI), for the test of its default thread level
if ! python3 -c 'import mpi4py' 2>/dev/null; then
    say "installing mpi4py (python3 -m pip install mpi4py)"
    python3 -m pip install -q mpi4py >"$LOGS/pip.log" 2>&1 || { cat "$LOGS/pip.log"; say "openmpi: 0 passed, 1 failed (pip install mpi4py)"; exit 1; }
fi

# --- build ------------------------------------------------------------------------------------
if [ -z "${GBA_PREBUILT:-}" ]; then
    say "building libgba_barrier (cargo build --release -p gba-barrier-c) and gba (cargo build -p gba)"
    build_host_stack >"$LOGS/cargo.log" 2>&1 \
        || { cat "$LOGS/cargo.log"; say "openmpi: 0 passed, 1 failed (cargo build)"; exit 1; }
fi
say "building the component and the tests (make -C runtimes/openmpi all tests) against OpenMPI $(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')"
make -C "$HERE" BUILD="$BUILD" GBA_LIBDIR="$LIBDIR" all tests >"$LOGS/make.log" 2>&1 \
    || { cat "$LOGS/make.log"; say "openmpi: 0 passed, 1 failed (make)"; exit 1; }

if [ -n "${GBA_PREBUILT:-}" ]; then export GBA_BIN=${GBA_BIN:-$LIBDIR/gba}; else export GBA_BIN=$ROOT/target/debug/gba; fi
FABRIC=/dev/shm/gba-openmpi-test-$$
SMALL=/dev/shm/gba-openmpi-test-small-$$
STUCK=/dev/shm/gba-openmpi-test-stuck-$$
WIDE=/dev/shm/gba-openmpi-test-wide-$$
cleanup() {
    "$GBA_BIN" sim destroy --path "$WIDE" >/dev/null 2>&1
    "$GBA_BIN" sim destroy --path "$STUCK" >/dev/null 2>&1
    "$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1
    "$GBA_BIN" sim destroy --path "$SMALL" >/dev/null 2>&1
    if [ -n "${KEEP_LOGS:-}" ]; then say "logs kept in $LOGS"; else rm -rf "$LOGS"; fi
}
trap cleanup EXIT
"$GBA_BIN" sim create --ports 8 --path "$FABRIC" >/dev/null || { say "gba sim create failed"; exit 1; }
"$GBA_BIN" sim create --ports 2 --path "$SMALL" >/dev/null || { say "gba sim create failed"; exit 1; }
"$GBA_BIN" sim create --ports 2 --path "$STUCK" >/dev/null || { say "gba sim create failed"; exit 1; }
# The group quota per user is the fabric's, recorded by its creator: this one lets a user hold
# every group of a port.
GBA_GROUP_QUOTA=32 "$GBA_BIN" sim create --ports 8 --path "$WIDE" >/dev/null || { say "gba sim create failed"; exit 1; }
export GBA_FABRIC="$FABRIC"

# Every process gets these through the environment (mpirun forwards OMPI_MCA_*).
source "$HERE/ompi_env.sh"
gba_ompi_env "$BUILD" "$FABRIC"
export OMPI_MCA_coll_gba_barrier_verbose=1
# Every check below counts GBA episodes from a communicator's first barrier: its team forms
# there. The automatic default (64 on one node, this job) has checks of its own, below.
export OMPI_MCA_coll_gba_barrier_form_after=1 GBA_PMPI_FORM_AFTER=1
W=()
[ "$HOST_COMBINING" = 1 ] || W=("$HERE/tests/port-per-rank")
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -x GBA_BIN -x GBA_FABRIC)
OSHRUN=(oshrun --allow-run-as-root --oversubscribe --mca osc ^rdma -x GBA_BIN -x GBA_FABRIC)

OMPI_VERSION=$(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')
OMPI_MAJOR=${OMPI_VERSION%%.*}
say "--- OpenMPI $OMPI_VERSION"
check "ompi_info --param coll gba_barrier --level 9 lists the parameters" ompi_info --param coll gba_barrier --level 9
expect_log "ompi_info: the component's parameters, device_path among them" "parameter \"coll_gba_barrier_device_path\""

for np in 2 4; do
    say "--- np=$np"
    check "np=$np barrier semantics, BARRIERS_COMPLETED grows by exactly the barriers" \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 3000 1
    expect_log "np=$np MPI_COMM_WORLD on a GBA group" "MPI_COMM_WORLD \(cid 0, size $np\): barrier on GBA group"
    check "np=$np MPI_Ibarrier overlapped with computation" "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/ibarrier" 200 1
    # every group of the switch for one user (a fabric made with the quota raised to all of
    # them): beyond them communicators fall back naming the switch; with the default quota,
    # naming the quota
    check "np=$np MPI_Comm_dup/split groups, >32 communicators fall back, free releases" \
        env GBA_FABRIC="$WIDE" OMPI_MCA_coll_gba_barrier_device_path="sim:$WIDE#0" \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/comms"
    expect_log "np=$np the fallback beyond 32 groups says why" "software barrier: no GBA group is free on every member"
    check "np=$np beyond the default quota of groups per user, communicators fall back" \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/comms"
    expect_log "np=$np the fallback beyond the quota names it" "was denied by its host's arbiter: its user holds its quota of groups"
    check "np=$np lazy teams: communicators with no barrier hold no group; Ibarrier before the first barrier runs in software" \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/lazy"

    before=$(completed 0)
    check "np=$np Fortran MPI_BARRIER" "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/fbarrier" 1000
    # the first forms WORLD's team: its allgather is the barrier, no GBA episode
    expect_eq "np=$np Fortran MPI_BARRIER on the GBA (BARRIERS_COMPLETED +999: the first forms the team)" $(( $(completed 0) - before )) 999

    check "np=$np mpi_yield_when_idle=1: the team's waits yield" env OMPI_MCA_coll_gba_barrier_verbose=10 \
        "${MPIRUN[@]}" --mca mpi_yield_when_idle 1 -np $np "${W[@]}" "$BUILD/fbarrier" 100
    expect_log "np=$np mpi_yield_when_idle=1: rank 0 says the waits yield" \
        "MPI_COMM_WORLD: waits yield from the first miss \(mpi_yield_when_idle\): GBA_OK"
    check "np=$np mpi_yield_when_idle=1 with GBA_WAIT_POLICY=spin: the user's word wins" \
        env OMPI_MCA_coll_gba_barrier_verbose=10 GBA_WAIT_POLICY=spin \
        "${MPIRUN[@]}" -x GBA_WAIT_POLICY --mca mpi_yield_when_idle 1 -np $np "${W[@]}" "$BUILD/fbarrier" 100
    expect_eq "np=$np GBA_WAIT_POLICY=spin: the component leaves the policy alone" \
        "$(grep -c 'waits yield from the first miss' "$LAST_LOG")" 0

    # form_after unset: automatic, 64 for a communicator on one node (this job)
    AUTO=(env -u OMPI_MCA_coll_gba_barrier_form_after)
    before=$(completed 0)
    check "np=$np automatic form_after, 1000 barriers on one node" "${AUTO[@]}" "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/fbarrier" 1000
    expect_eq "np=$np automatic: 63 barriers in software, the 64th forms the team (BARRIERS_COMPLETED +936)" $(( $(completed 0) - before )) 936
    expect_log "np=$np automatic: rank 0 says at which barrier the team formed" \
        "MPI_COMM_WORLD \(cid 0, size $np\): barrier on GBA group [0-9]+ \(team formed at MPI_Barrier 64\)"
    before=$(completed 0)
    check "np=$np automatic form_after, 63 barriers" "${AUTO[@]}" "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/fbarrier" 63
    expect_eq "np=$np automatic: 63 barriers form no team, run no GBA episode (BARRIERS_COMPLETED +0)" $(( $(completed 0) - before )) 0
    expect_eq "np=$np automatic: 63 barriers, no GBA group said" "$(grep -c 'barrier on GBA group' "$LAST_LOG")" 0
    before=$(completed 0)
    check "np=$np form_after=-3 is refused, automatic used" env OMPI_MCA_coll_gba_barrier_form_after=-3 \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/fbarrier" 100
    expect_log "np=$np form_after=-3: the message names the value and what is used" \
        "coll_gba_barrier_form_after=-3 is not a barrier number \(1 = the first; 0 = automatic\): automatic is used"
    expect_eq "np=$np form_after=-3: automatic (BARRIERS_COMPLETED +36 for 100 barriers)" $(( $(completed 0) - before )) 36
    before=$(completed 0)
    check "np=$np form_after=10" env OMPI_MCA_coll_gba_barrier_form_after=10 "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/fbarrier" 100
    expect_eq "np=$np form_after=10: the 10th barrier forms the team (BARRIERS_COMPLETED +90)" $(( $(completed 0) - before )) 90

    check "np=$np shmem_barrier_all with puts, scoll/gba, on the GBA" \
        "${OSHRUN[@]}" --mca scoll_gba_verbose 1 -np $np "${W[@]}" "$BUILD/shmem_barrier" 200 1
    expect_log "np=$np shmem_barrier_all went through scoll/gba" "scoll:gba: PE 0: barrier of all $np PEs"
    check "np=$np shmem_barrier_all with puts, scoll/mpi (scoll ^gba), on the GBA" \
        "${OSHRUN[@]}" --mca scoll ^gba -np $np "${W[@]}" "$BUILD/shmem_barrier" 200 1
    check "np=$np shmem_barrier_all with puts, scoll/gba quieting, no scoll/mpi, on the GBA" \
        "${OSHRUN[@]}" --mca scoll ^mpi --mca scoll_gba_quiet 1 -np $np "${W[@]}" "$BUILD/shmem_barrier" 200 1

    check "np=$np coll_gba_barrier_disable=1 falls back" env OMPI_MCA_coll_gba_barrier_disable=1 \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 500 0
    expect_log "np=$np disable: verbose says why" "disabled by coll_gba_barrier_disable"

    check "np=$np missing device falls back" env OMPI_MCA_coll_gba_barrier_device_path="sim:/dev/shm/no-such-gba-fabric#0" GBA_FABRIC=/dev/shm/no-such-gba-fabric \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 500 -1
    expect_log "np=$np missing device: verbose names the rank and the reason" \
        "MPI_COMM_WORLD \(cid 0, size $np\): software barrier: rank 0 has no usable GBA device"
    expect_eq "np=$np missing device: the fallback is said once, by rank 0" \
        "$(grep -c 'coll:gba_barrier: .*software barrier' "$LAST_LOG"):$(grep -c 'coll:gba_barrier: \[rank 0\] MPI_COMM_WORLD (cid 0, size [0-9]*): software barrier' "$LAST_LOG")" "1:1"

    check "np=$np device path missing its port, at verbose 0, falls back" env OMPI_MCA_coll_gba_barrier_verbose=0 \
        OMPI_MCA_coll_gba_barrier_device_path="sim:$FABRIC" "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 500 -1
    expect_log "np=$np a named device that does not open is said at verbose 0, with its reason" \
        "\[rank 0\] device sim:$FABRIC unavailable: .*names no port"
    expect_log "np=$np ... and the fallback with it, at verbose 0" \
        "MPI_COMM_WORLD \(cid 0, size $np\): software barrier: rank 0 has no usable GBA device"

    check "np=$np MPI_THREAD_MULTIPLE: 3 threads, barriers on distinct communicators at once, on the GBA" \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/thread_multiple" 200 3 1
    expect_log "np=$np MPI_THREAD_MULTIPLE: MPI_COMM_WORLD on a GBA group" "MPI_COMM_WORLD \(cid 0, size $np\): barrier on GBA group"
    check "np=$np mpi4py at its default thread level (MULTIPLE): every COMM_WORLD.Barrier on the GBA" \
        "${MPIRUN[@]}" -np $np "${W[@]}" python3 "$HERE/tests/mpi4py_barrier.py" 1000

    check "np=$np communicator below min_comm_size falls back" env OMPI_MCA_coll_gba_barrier_min_comm_size=$((np + 1)) \
        OMPI_MCA_coll_gba_barrier_verbose=10 "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 500 0
    expect_log "np=$np too small: verbose says why" "size $np below coll_gba_barrier_min_comm_size $((np + 1))"

    two_before=$(completed 0)
    # two jobs at once on this host's one port: each gets its own group (the library's claims
    # keep them apart; the loser of a race for one group retries without it). Both hold their
    # WORLD groups at the same time for certain: each job's rank 0 waits after its first
    # barrier until both have reached it (semantics.c's GBA_TEST_RENDEZVOUS; without it a
    # loaded machine could run the jobs one after the other, both on group 0). Counters are
    # not checked: both jobs move port 0's.
    meet=$(mktemp -d)
    ( GBA_TEST_RENDEZVOUS=$meet:2 timeout 300 "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 3000 -1 >"$LOGS/jobA.log" 2>&1; echo $? >"$LOGS/jobA.rc" ) &
    # Two mpiruns started in the same instant can race making OpenMPI 4.1's session
    # directory tree ("orte_session_dir failed", seen once at load 40): start B a little later
    # (the rendezvous still makes both hold their groups at once).
    sleep 1
    ( GBA_TEST_RENDEZVOUS=$meet:2 timeout 300 "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 3000 -1 >"$LOGS/jobB.log" 2>&1; echo $? >"$LOGS/jobB.rc" ) &
    wait
    rm -rf "$meet"
    expect_eq "np=$np two jobs on one port at once: job A completes" "$(cat "$LOGS/jobA.rc")" 0
    expect_eq "np=$np two jobs on one port at once: job B completes" "$(cat "$LOGS/jobB.rc")" 0
    expect_distinct "np=$np two jobs on their own groups" "$(world_group "$LOGS/jobA.log")" \
        "$(world_group "$LOGS/jobB.log")" "$LOGS/jobA.log" "$LOGS/jobB.log"

    # a job started while another job holds a group on the same port: it takes another group,
    # and the holder is untouched (completes, every barrier on the GBA)
    ( timeout 300 "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 20000 -1 >"$LOGS/holder.log" 2>&1; echo $? >"$LOGS/holder.rc" ) &
    for i in $(seq 100); do
        [ "$(status_field "$FABRIC" "len(s['groups'])")" -gt 0 ] && break
        sleep 0.1
    done
    check "np=$np a job on a port where another job holds a group completes on another group" \
        "${MPIRUN[@]}" -np $np "${W[@]}" "$BUILD/semantics" 500 -1
    newcomer=$LAST_LOG
    wait
    expect_eq "np=$np the holding job completes" "$(cat "$LOGS/holder.rc")" 0
    expect_distinct "np=$np holder and newcomer on their own groups" "$(world_group "$LOGS/holder.log")" \
        "$(world_group "$newcomer")" "$LOGS/holder.log" "$newcomer"

    # point-to-point pending across the GBA barrier: with vader's single copy off, the sender
    # must push the fragments itself, so its wait loop has to drive opal_progress
    NOCMA=(--mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none)
    # 5.0: vader is btl/sm, and its single copy is the smsc framework's
    [ "$OMPI_MAJOR" -ge 5 ] && NOCMA=(--mca pml ob1 --mca btl self,sm --mca smsc ^cma)
    check "np=$np MPI_Isend pending across MPI_Barrier completes (opal_progress in the wait loop)" \
        "${MPIRUN[@]}" "${NOCMA[@]}" -np $np "${W[@]}" "$BUILD/progress" 10

    if [ $np -eq 2 ]; then
        # the same without driving progress deadlocks by design: the stuck barrier must say
        # who is missing (own fabric: the killed job leaves its group behind)
        shm_before=$(ls /dev/shm)
        GBA_FABRIC=$STUCK timeout 8 "${MPIRUN[@]}" "${NOCMA[@]}" --mca coll_gba_barrier_progress 0 \
            --mca coll_gba_barrier_warn_timeout_ms 1500 --mca coll_gba_barrier_device_path "sim:$STUCK#0" \
            -np 2 "${W[@]}" "$BUILD/progress" 3 >"$LOGS/stuck.log" 2>&1
        # the killed job leaves its shared-memory segments behind: remove those it created (fuser
        # cannot read other users' /proc/PID/fd in a container and says so for each; not an error)
        sleep 1
        for f in $(comm -13 <(echo "$shm_before" | sort) <(ls /dev/shm | sort)); do
            case $f in vader_segment.* | sm_segment.*) fuser -s "/dev/shm/$f" 2>/dev/null || rm -f "/dev/shm/$f" ;; esac
        done
        LAST_LOG="$LOGS/stuck.log"
        expect_log "np=2 a barrier stuck past warn_timeout_ms names who is missing" \
            "waiting more than 1500 ms: .*(missing|never arrived)"
    fi

    # the portable mode: LD_PRELOAD=libgba_pmpi.so, coll/gba_barrier disabled
    PRELOAD=(env OMPI_MCA_coll_gba_barrier_disable=1 "${MPIRUN[@]}" -x LD_PRELOAD="$BUILD/libgba_pmpi.so"
             -x GBA_PMPI_DEVICE="sim:$FABRIC#0" -x GBA_PMPI_VERBOSE=1 -x GBA_PMPI_FORM_AFTER)
    check "np=$np portable mode (PMPI preload): C MPI_Barrier on the GBA, counter exact" \
        "${PRELOAD[@]}" -np $np "${W[@]}" "$BUILD/semantics" 2000 1
    expect_log "np=$np portable mode says which group" "gba_pmpi: \[rank 0\] communicator of size $np: barrier on GBA group"
    before=$(completed 0)
    check "np=$np portable mode: Fortran MPI_BARRIER runs" "${PRELOAD[@]}" -np $np "${W[@]}" "$BUILD/fbarrier" 100
    expect_eq "np=$np portable mode misses Fortran MPI_BARRIER (BARRIERS_COMPLETED +0), the coll component does not" \
        $(( $(completed 0) - before )) 0

    if [ $np -gt 2 ]; then
        # ranks 2.. on hosts whose device does not exist (port-per-rank on a 2-port fabric):
        # every rank must fall back, none may hang, and rank 0 names rank 2
        check "np=$np some ranks without a device: all fall back" env GBA_FABRIC=$SMALL \
            "${MPIRUN[@]}" -np $np "$HERE/tests/port-per-rank" "$BUILD/semantics" 500 -1
        expect_log "np=$np partial device: verbose names the rank without one" "MPI_COMM_WORLD \(cid 0, size $np\): software barrier: rank 2 has no usable GBA device"
    fi
done

say "--- gba-mpirun"
left_before=$(ls -d /dev/shm/gba-mpirun-* 2>/dev/null | wc -l)
check "gba-mpirun: a job on a private fabric" \
    env -u OMPI_MCA_coll_gba_barrier_device_path "$HERE/gba-mpirun" -- --allow-run-as-root -np 2 "$BUILD/semantics" 500 -1
if [ "$HOST_COMBINING" = 1 ]; then
    expect_log "gba-mpirun: the job ran on the GBA" "MPI_COMM_WORLD \(cid 0, size 2\): barrier on GBA group"
    expect_log "gba-mpirun: status printed at the end" "^0 +50[0-9] "
else
    # its one port is shared by both ranks: without host combining the library refuses it
    expect_log "gba-mpirun: without host combining the shared port falls back, said why" \
        "MPI_COMM_WORLD \(cid 0, size 2\): software barrier: ranks 0 and 1 share port 0"
    expect_log "gba-mpirun: status printed at the end" "no group is enabled on any port"
fi
expect_eq "gba-mpirun: the private fabric is removed" "$(ls -d /dev/shm/gba-mpirun-* 2>/dev/null | wc -l)" "$left_before"

say "--- the fabric after every job"
expect_released "every group released at MPI_Finalize / MPI_Comm_free" "$FABRIC"

summary openmpi
