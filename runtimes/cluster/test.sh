#!/usr/bin/env bash
# Multi-host tests of coll/gba_barrier on a cluster of network + UTS namespaces on this machine
# (cluster.sh): mpirun runs in host h0 and starts OpenMPI's daemons in the other hosts through
# the cluster's rsh agent; every host is its own port of one simulator fabric (GBA_DEVICE in
# the host's environment; the component runs with device_path "" and so opens GBA_DEVICE).
# Prints ok/FAIL per check and a closing line
#   cluster: N passed, M failed
# Needs root. Installs iproute2 and util-linux when missing; builds what it runs (as
# runtimes/openmpi/test.sh, which installs OpenMPI). KEEP_LOGS=1 keeps the per-test output.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OMPI="$ROOT/runtimes/openmpi"
BUILD="$OMPI/build"
CLUSTER="$HERE/cluster.sh"
LOGS=$(mktemp -d /tmp/gba-cluster-test.XXXXXX)
NAME=t$$
CHECK_TIMEOUT=180
# say, check, expect_log, expect_eq, expect_distinct, world_group, completed, expect_released,
# summary
. "$ROOT/runtimes/checks.sh"

# One port per host serves all of the host's processes (issue 13): with 1 the multi-rank-per-
# host jobs run on the GBA with every port counting each barrier exactly once. 0: the checks of
# a library without host combining (the whole job falls back, said once by rank 0; the thread,
# Fortran and OpenSHMEM checks run at 3 x 1 and the split and two-job checks wait): set
# GBA_TEST_HOST_COMBINING=0.
MANY_RANKS_PER_HOST_OFFLOAD=${GBA_TEST_HOST_COMBINING:-1}

# --- prerequisites ----------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || { say "cluster tests need root (network namespaces)"; say "cluster: 0 passed, 1 failed (not root)"; exit 1; }
if ! command -v ip >/dev/null || ! command -v nsenter >/dev/null || ! command -v unshare >/dev/null; then
    say "installing iproute2 util-linux"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q iproute2 util-linux \
        || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q iproute2 util-linux; }; } >"$LOGS/apt.log" 2>&1 \
        || { cat "$LOGS/apt.log"; say "cluster: 0 passed, 1 failed (apt-get install iproute2 util-linux)"; exit 1; }
fi
if ! command -v mpicc >/dev/null || [ -z "$(mpicc --showme:incdirs 2>/dev/null)" ]; then
    say "installing openmpi-bin libopenmpi-dev gfortran"
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev gfortran \
        || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openmpi-bin libopenmpi-dev gfortran; }; } >"$LOGS/apt.log" 2>&1 \
        || { cat "$LOGS/apt.log"; say "cluster: 0 passed, 1 failed (apt-get install openmpi)"; exit 1; }
fi
say "building libgba_barrier, gba, the component and the tests"
{ build_host_stack && make -C "$OMPI" all tests; } >"$LOGS/build.log" 2>&1 \
    || { tail -30 "$LOGS/build.log"; say "cluster: 0 passed, 1 failed (build)"; exit 1; }

export GBA_BIN="$ROOT/target/debug/gba"
FABRIC=/dev/shm/gba-cluster-test-$$
export GBA_FABRIC="$FABRIC"
cleanup() {
    "$CLUSTER" destroy "$NAME"
    "$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1
    if [ -n "${KEEP_LOGS:-}" ]; then say "logs kept in $LOGS"; else rm -rf "$LOGS"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

cluster_netns() { ip netns list | awk '{print $1}' | grep -c "^gbac-$NAME-" ; }

# --- the cluster ------------------------------------------------------------------------------
# what a killed run left: its fabric (named by its pid) and its cluster (cluster.sh gc)
for f in /dev/shm/gba-cluster-test-*; do
    [ -d "$f" ] && ! kill -0 "${f##*-}" 2>/dev/null && "$GBA_BIN" sim destroy --path "$f" >/dev/null 2>&1
done
"$CLUSTER" gc
"$GBA_BIN" sim create --ports 4 --path "$FABRIC" >/dev/null || { say "cluster: 0 passed, 1 failed (gba sim create)"; exit 1; }
# a stale cluster of the same name, owned by a process that has exited, as a killed run leaves
sleep 0 & stale_owner=$!
wait $stale_owner
"$CLUSTER" create "$NAME" 2 --owner $$ >"$LOGS/stale.log" 2>&1 || true
"$CLUSTER" create "${NAME}_stale" 2 --owner $$ >/dev/null 2>&1 && echo "$stale_owner 0" >"/run/gba-cluster/${NAME}_stale/owner"
check "create: 3 hosts (over a leftover of the same name and one of an exited owner)" \
    "$CLUSTER" create "$NAME" 3 --fabric "$FABRIC" --owner $$
expect_eq "create: the leftover cluster of an exited owner is removed" \
    "$(ip netns list | awk '{print $1}' | grep -c "^gbac-${NAME}_stale-")" 0
expect_eq "create: one switch namespace and 3 host namespaces" "$(cluster_netns)" 4
check "each host has its own hostname, address and GBA_DEVICE" \
    "$CLUSTER" exec "$NAME" 2 sh -c 'test "$(hostname)" = h2 && ip -br addr show eth0 | grep -q " 10.77.0.3/24" && test "$GBA_DEVICE" = "sim:'"$FABRIC"'#2"'
check "the root namespace has no address of the cluster" sh -c '! ip -br addr | grep -q "10\.77\.0\."'

# OpenMPI's default component path without missing directories (4.1 stops at the first
# missing one), then ours; every rank opens GBA_DEVICE (device_path "")
DEFAULT_PATH=$(ompi_info --parsable --all 2>/dev/null | grep -m1 '^mca:mca:base:param:mca_base_component_path:value:' | cut -d: -f7- | tr -d '"')
COMPONENT_PATH=
IFS=: read -ra dirs <<<"$DEFAULT_PATH"
for d in "${dirs[@]}"; do [ -d "$d" ] && COMPONENT_PATH="$COMPONENT_PATH$d:"; done
# mpi_yield_when_idle: more ranks than the machine's cores, which OpenMPI cannot see per host
MPIRUN=("$CLUSTER" exec "$NAME" 0 mpirun --allow-run-as-root --oversubscribe
        --hostfile "$("$CLUSTER" info "$NAME" hostfile)" --mca plm_rsh_agent "$("$CLUSTER" info "$NAME" agent)"
        --mca mca_base_component_path "$COMPONENT_PATH$BUILD" --mca coll_gba_barrier_device_path ""
        --mca coll_gba_barrier_verbose 1 --mca mpi_yield_when_idle 1 -x GBA_BIN -x GBA_FABRIC)

say "--- 3 hosts x 1 rank"
check "3x1 barriers under random delays, BARRIERS_COMPLETED +iterations on every port, distinct hostnames" \
    "${MPIRUN[@]}" --map-by ppr:1:node -np 3 "$BUILD/hosts_barrier" 1000 1 3
expect_log "3x1 MPI_COMM_WORLD on a GBA group" \
    "\[h0:[0-9]+\] coll:gba_barrier: \[rank 0\] MPI_COMM_WORLD \(cid 0, size 3\): barrier on GBA group [0-9]+"
expect_log "3x1 the ranks ran in h0, h1, h2" "rank 2 on h2 \(cluster host 2\)"

counters() { echo "$(completed 0) $(completed 1) $(completed 2)"; }
grew() { # grew "BEFORE" "AFTER": the three differences
    local -a b=($1) a=($2)
    echo "$((a[0] - b[0])) $((a[1] - b[1])) $((a[2] - b[2]))"
}
# said_once: the last log's fallback lines (0 when offloaded), as "COUNT"
fallbacks() { grep -c 'coll:gba_barrier: .*software barrier' "$LAST_LOG"; }

for shape in 2x3 3x2; do
    hosts=${shape%x*} ppn=${shape#*x}
    say "--- $hosts hosts x $ppn ranks"
    check "${shape} barriers under random delays, distinct hostnames per host, BARRIERS_COMPLETED exact on every port" \
        "${MPIRUN[@]}" --mca btl_base_verbose 100 --map-by "ppr:$ppn:node" -np $((hosts * ppn)) \
        "$BUILD/hosts_barrier" 300 $MANY_RANKS_PER_HOST_OFFLOAD "$hosts"
    expect_log "${shape} OpenMPI sees separate nodes: TCP to another host" "\[h0:[0-9]+\] mca: bml: Using tcp btl for send to \[\[[0-9]+,[0-9]+\],$ppn\] on node h1"
    expect_log "${shape} and shared memory within one" "\[h1:[0-9]+\] mca: bml: Using vader btl for send to \[\[[0-9]+,[0-9]+\],$ppn\] on node h1"
    if [ $MANY_RANKS_PER_HOST_OFFLOAD = 0 ]; then
        expect_eq "${shape} the whole job falls back, said once, on rank 0, with the reason" \
            "$(fallbacks):$(grep -Ec '\[h0:[0-9]+\] coll:gba_barrier: \[rank 0\] MPI_COMM_WORLD \(cid 0, size [0-9]+\): software barrier: ranks 0 and 1 share port 0' "$LAST_LOG")" "1:1"
    else
        expect_log "${shape} MPI_COMM_WORLD on a GBA group" "\[h0:[0-9]+\] coll:gba_barrier: \[rank 0\] MPI_COMM_WORLD \(cid 0, size $((hosts * ppn))\): barrier on GBA group"
        expect_eq "${shape} no fallback anywhere" "$(fallbacks)" 0
    fi
done

PPN=$((MANY_RANKS_PER_HOST_OFFLOAD + 1))
RUN32=("${MPIRUN[@]}" --map-by ppr:$PPN:node -np $((3 * PPN)))
say "--- 3 hosts x $PPN ranks: communicators, threads, Fortran, OpenSHMEM"
if [ $MANY_RANKS_PER_HOST_OFFLOAD = 1 ]; then
    check "3x2 MPI_COMM_WORLD split by parity: both halves on the GBA at once, every port +2 per barrier pair" \
        "${RUN32[@]}" "$BUILD/split" 300 3 1
    expect_eq "3x2 split: each half said its GBA group once" \
        "$(grep -Ec 'coll:gba_barrier: \[rank [0-9]+\] MPI COMMUNICATOR [0-9]+ SPLIT FROM 0 \(cid [0-9]+, size 3\): barrier on GBA group' "$LAST_LOG")" 2
fi
check "3x$PPN MPI_THREAD_MULTIPLE: 3 threads, barriers on distinct communicators at once, on the GBA" \
    "${RUN32[@]}" "$BUILD/thread_multiple" 200 3 1
before=$(counters)
check "3x$PPN Fortran MPI_BARRIER" "${RUN32[@]}" "$BUILD/fbarrier" 1000
# the first forms WORLD's team: its allgather is the barrier, no GBA episode
expect_eq "3x$PPN Fortran MPI_BARRIER on the GBA: every port +999 (the first forms the team)" "$(grew "$before" "$(counters)")" "999 999 999"
before=$(counters)
check "3x$PPN shmem_barrier_all with puts, scoll/gba, on the GBA" \
    "${RUN32[@]/#mpirun/oshrun}" --mca osc ^rdma --mca scoll_gba_verbose 1 "$BUILD/shmem_barrier" 200 1
expect_log "3x$PPN shmem_barrier_all went through scoll/gba" "\[h2:[0-9]+\] scoll:gba: PE [2-5]: barrier of all $((3 * PPN)) PEs"
read -r g0 g1 g2 <<<"$(grew "$before" "$(counters)")"
expect_eq "3x$PPN shmem: every port counted the same barriers (at least the 200)" "$([ "$g0" = "$g1" ] && [ "$g1" = "$g2" ] && [ "$g0" -ge 200 ] && echo same)" same

if [ $MANY_RANKS_PER_HOST_OFFLOAD = 1 ]; then
    say "--- two jobs on the same hosts at once"
    ( timeout 180 "${MPIRUN[@]}" --map-by ppr:2:node -np 6 "$BUILD/hosts_barrier" 300 -1 3 >"$LOGS/jobA.log" 2>&1; echo $? >"$LOGS/jobA.rc" ) &
    ( timeout 180 "${MPIRUN[@]}" --map-by ppr:1:node -np 3 "$BUILD/hosts_barrier" 300 -1 3 >"$LOGS/jobB.log" 2>&1; echo $? >"$LOGS/jobB.rc" ) &
    wait
    expect_eq "two jobs (3x2 and 3x1) on the same hosts: both complete" "$(cat "$LOGS/jobA.rc") $(cat "$LOGS/jobB.rc")" "0 0"
    expect_distinct "two jobs on their own GBA groups" "$(world_group "$LOGS/jobA.log" 6)" \
        "$(world_group "$LOGS/jobB.log" 3)" "$LOGS/jobA.log" "$LOGS/jobB.log"
fi

say "--- after every job"
expect_released "every group released at the end of every job" "$FABRIC"
say "--- a stopped rank"
# rank 3 (the second rank of host h1) stops (SIGSTOP) before barrier 10: the others' barriers
# warn, naming port 1 (h1) from the other hosts and the local process from h1, and keep
# waiting until the job is killed (its group stays enabled: this runs after the check above)
shm_before=$(ls /dev/shm)
if [ $MANY_RANKS_PER_HOST_OFFLOAD = 1 ]; then
    timeout 8 "${MPIRUN[@]}" --mca coll_gba_barrier_warn_timeout_ms 1500 --map-by ppr:2:node -np 6 \
        "$BUILD/hosts_barrier" 100 1 3 3 >"$LOGS/stopped.log" 2>&1
    LAST_LOG="$LOGS/stopped.log"
    for h in 0 2; do
        expect_log "3x2 rank 3 stopped in h1: h$h's barrier names the missing host h1 (port 1)" \
            "\[h$h:[0-9]+\] coll:gba_barrier: .*waiting more than 1500 ms: .*(\{1\}|\[1\]|h1)"
    done
    expect_log "3x2 rank 3 stopped in h1: h1's other rank names the missing process, rank 3" \
        "\[h1:[0-9]+\] coll:gba_barrier: \[rank 2\] .*waiting more than 1500 ms: .*rank 3"
else
    timeout 8 "${MPIRUN[@]}" --mca coll_gba_barrier_warn_timeout_ms 1500 --map-by ppr:1:node -np 3 \
        "$BUILD/hosts_barrier" 100 1 3 1 >"$LOGS/stopped.log" 2>&1
    LAST_LOG="$LOGS/stopped.log"
    for h in 0 2; do
        expect_log "3x1 rank 1 stopped in h1: h$h's barrier names the missing member 1" \
            "\[h$h:[0-9]+\] coll:gba_barrier: .*waiting more than 1500 ms: .*(missing \\{1\\}|members \\[1\\] never arrived)"
    done
fi
# the killed job's shared-memory segments (the hosts share /dev/shm)
for f in $(comm -13 <(echo "$shm_before" | sort) <(ls /dev/shm | sort)); do
    case $f in vader_segment.h[0-9]*) rm -f "/dev/shm/$f" ;; esac
done

# a job still running in the hosts (as a killed test leaves) does not stop the removal
say "--- cleanup"
(
    "$CLUSTER" exec "$NAME" 1 sleep 600 >/dev/null 2>&1 &
    for _ in $(seq 50); do [ -n "$(ip netns pids "gbac-$NAME-h1")" ] && break; sleep 0.1; done
    "$CLUSTER" destroy "$NAME"
    wait
) 2>/dev/null
expect_eq "destroy: no namespace, hostname file or state of the cluster is left" \
    "$(cluster_netns):$(ls -d /etc/netns/gbac-"$NAME"-* /run/gba-cluster/"$NAME" 2>/dev/null | wc -l)" "0:0"
check "destroy again does nothing and succeeds" "$CLUSTER" destroy "$NAME"

summary cluster
