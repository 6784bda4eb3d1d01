#!/usr/bin/env bash
# MPI_Barrier across the hosts of a namespace cluster (cluster.sh), with and without
# coll/gba_barrier alternating in one job (bench_barrier: a GBA communicator and one with
# ompi_comm_coll_preference=^gba_barrier), for each shape HOSTSxRANKS given (default: 3x1 2x2
# 2x3). Every host is one port of the fabric, shared by its ranks (host combining).
# Usage: runtimes/cluster/bench.sh [ITERS [BLOCKS [SHAPE...]]]   (root; after test.sh or make)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/runtimes/openmpi/build"
CLUSTER="$HERE/cluster.sh"
ITERS=${1:-2000}
BLOCKS=${2:-10}
shift $(($# > 2 ? 2 : $#))
SHAPES=("$@")
[ ${#SHAPES[@]} -gt 0 ] || SHAPES=(3x1 2x2 2x3)
export GBA_BIN="$ROOT/target/release/gba"
[ -x "$BUILD/bench_barrier" ] && [ -x "$GBA_BIN" ] || { echo "build first: runtimes/cluster/test.sh (or make -C runtimes/openmpi all tests)"; exit 1; }
NAME=b$$
FABRIC=/dev/shm/gba-cluster-bench-$$
export GBA_FABRIC="$FABRIC"
trap '"$CLUSTER" destroy "$NAME"; "$GBA_BIN" sim destroy --path "$FABRIC" >/dev/null 2>&1' EXIT
"$GBA_BIN" sim create --ports 4 --path "$FABRIC" >/dev/null
"$CLUSTER" create "$NAME" 3 --fabric "$FABRIC" --owner $$
DEFAULT_PATH=$(ompi_info --parsable --all 2>/dev/null | grep -m1 '^mca:mca:base:param:mca_base_component_path:value:' | cut -d: -f7- | tr -d '"')
COMPONENT_PATH=
IFS=: read -ra dirs <<<"$DEFAULT_PATH"
for d in "${dirs[@]}"; do [ -d "$d" ] && COMPONENT_PATH="$COMPONENT_PATH$d:"; done
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); OpenMPI $(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')"
for shape in "${SHAPES[@]}"; do
    hosts=${shape%x*} ppn=${shape#*x}
    echo "## $hosts hosts x $ppn ranks"
    # bench_barrier checks the paths by the fabric's counters (GBA_FABRIC, GBA_BIN)
    "$CLUSTER" exec "$NAME" 0 mpirun --allow-run-as-root --oversubscribe \
        --hostfile "$("$CLUSTER" info "$NAME" hostfile)" --mca plm_rsh_agent "$("$CLUSTER" info "$NAME" agent)" \
        --mca mca_base_component_path "$COMPONENT_PATH$BUILD" --mca coll_gba_barrier_device_path "" \
        --mca coll_gba_barrier_verbose 1 --mca mpi_yield_when_idle 1 -x GBA_BIN -x GBA_FABRIC \
        --host "$(seq -s, -f 'h%g' 0 $((hosts - 1)))" --map-by "ppr:$ppn:node" -np $((hosts * ppn)) \
        "$BUILD/bench_barrier" "$ITERS" "$BLOCKS" 2>&1 | uniq
done
