#!/usr/bin/env bash
# mpi4py's own test suite (test/main.py of the mpi4py 4.1.2 sdist) at mpi4py's default thread
# level (MPI_THREAD_MULTIPLE), with coll/gba_barrier loaded: NP ranks on one host, all on port
# 0 of a private simulator fabric (host combining). A measurement, not a CI stage (about two
# minutes at np=2 on 2 loaded cores without test_spawn, which alone takes several more): it
# prints the suite's own summary, every fallback the component announced, and the switch's
# counters before and after, the most groups held at once (sampled) and how many communicators
# called a barrier (issue 27: the first must not exceed the second).
#
#   runtimes/openmpi/mpi4py_suite.sh NP [MPIRUN-ARGS...]   e.g. 2 --oversubscribe
#   GBA_MPI4PY_ARGS='-e test_spawn' runtimes/openmpi/mpi4py_suite.sh 2 --oversubscribe
#
# GBA_MPI4PY_ARGS is handed to mpi4py's test/main.py (`-e REGEX` leaves out test modules).
# Its spawn tests (test_spawn) can stall inside OpenMPI 4.1 itself on a loaded machine, with
# or without the component: a rank's MPI_Comm_spawn_multiple on COMM_SELF waits in
# PMIx_Lookup (ompi_dpm_connect_accept) while a child it spawned sits in PMIx_Init, until
# OpenMPI's "LOOKUP" request times out; the other rank meanwhile waits in the next test's
# COMM_WORLD barrier, which every barrier would (with the component loaded its timeout
# message names the rank in the spawn as the local process that has not arrived).
#
# mpi4py is built from its sdist against the system's OpenMPI into a virtualenv under
# ~/.cache/gba/mpi4py-4.1.2 (pip download mpi4py==4.1.2 --no-binary :all:), once. Needs
# `make -C runtimes/openmpi` and `cargo build --release -p gba -p gba-barrier-c`. The suite's
# spawn tests need free slots (--oversubscribe).
set -u
NP=${1:?usage: mpi4py_suite.sh NP [MPIRUN-ARGS...]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${GBA_OMPI_BUILD:-$HERE/build}
GBA=${GBA_BIN:-$ROOT/target/release/gba}
CACHE=${GBA_MPI4PY_CACHE:-$HOME/.cache/gba/mpi4py-4.1.2}
[ -x "$GBA" ] && [ -f "$BUILD/mca_coll_gba_barrier.so" ] \
    || { echo "build first: cargo build --release -p gba -p gba-barrier-c; make -C runtimes/openmpi"; exit 1; }
if [ ! -x "$CACHE/venv/bin/python" ] || ! "$CACHE/venv/bin/python" -c 'import mpi4py.MPI' 2>/dev/null; then
    echo "building mpi4py 4.1.2 from its sdist against $(mpicc --showme:version 2>&1 | head -1) into $CACHE"
    mkdir -p "$CACHE"
    (cd "$CACHE" && python3 -m pip download -q mpi4py==4.1.2 --no-binary :all: --no-deps -d . \
        && tar xzf mpi4py-4.1.2.tar.gz && python3 -m venv venv \
        && MPICC=mpicc ./venv/bin/pip install -q --no-binary :all: ./mpi4py-4.1.2) \
        || { echo "building mpi4py failed"; exit 1; }
fi

FABRIC=/dev/shm/gba-mpi4py-suite-$$
SAMPLES=$(mktemp /tmp/gba-mpi4py-held.XXXXXX)
SUITE_LOG=$(mktemp /tmp/gba-mpi4py-log.XXXXXX)
trap '"$GBA" sim destroy --path "$FABRIC"; rm -f "$SAMPLES" "$SUITE_LOG"' EXIT
"$GBA" sim create --ports 1 --path "$FABRIC" >/dev/null || exit 1
echo "== before"; "$GBA" sim status --path "$FABRIC"
source "$HERE/ompi_env.sh"
gba_ompi_env "$BUILD" "$FABRIC"
export OMPI_MCA_coll_gba_barrier_verbose=${GBA_VERBOSE:-1}
read -ra suite_args <<<"${GBA_MPI4PY_ARGS:-}"
echo "== $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg): mpirun -np $NP $* python test/main.py ${suite_args[*]}"
# The groups held at once: `gba sim status --json` sampled every 0.2 s while the suite runs
# (a group counts as held when the switch reports it formed or a port holds a claim on it).
# A group held for less than a sample's interval can be missed: the maximum is a lower bound.
python3 -c '
import json, subprocess, sys, time
gba, fabric, out = sys.argv[1:]
most = 0
while True:
    try:
        doc = json.loads(subprocess.run([gba, "sim", "status", "--json", "--path", fabric],
                                        capture_output=True, check=True).stdout)
    except (subprocess.CalledProcessError, ValueError):
        break  # the fabric is gone: the suite is over
    held = {g["group"] for g in doc["groups"]}
    held |= {c["group"] for p in doc["port_reports"] for c in p["claims"]}
    most = max(most, len(held))
    with open(out, "w") as f:
        f.write("%d\n" % most)
    time.sleep(0.2)
' "$GBA" "$FABRIC" "$SAMPLES" &
SAMPLER=$!
(cd "$CACHE/mpi4py-4.1.2" && nice -n 19 mpirun --allow-run-as-root -np "$NP" "$@" \
    "$CACHE/venv/bin/python" test/main.py --no-builddir "${suite_args[@]}") 2>&1 | tee "$SUITE_LOG"
rc=${PIPESTATUS[0]}
kill "$SAMPLER" 2>/dev/null
wait "$SAMPLER" 2>/dev/null
echo "== $(date -u +%FT%TZ), exit $rc"
# A communicator of size >= 2 forms its team at its first barrier and its rank 0 says the
# verdict once at verbose 1 ("(cid N, size S): barrier on GBA group G" or why it fell back):
# those lines count the communicators that called a barrier.
barriered=$(grep -cE 'coll:gba_barrier: .*\(cid [0-9]+, size [0-9]+\): ' "$SUITE_LOG")
offloaded=$(grep -cE 'coll:gba_barrier: .*\(cid [0-9]+, size [0-9]+\): barrier on GBA group' "$SUITE_LOG")
echo "== groups held at once (max of 0.2 s samples): $(cat "$SAMPLES" 2>/dev/null || echo 0); communicators that called a barrier: $barriered ($offloaded of them on a GBA group)"
echo "== after"; "$GBA" sim status --path "$FABRIC"
"$GBA" dump --device "sim:$FABRIC#0" 2>&1 | grep -E "BARRIERS_COMPLETED|GROUP_ENABLED"
exit $rc
