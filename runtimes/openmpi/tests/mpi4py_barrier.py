"""mpi4py at its default thread level (MPI_THREAD_MULTIPLE) with coll/gba_barrier loaded:
COMM_WORLD.Barrier() ITERATIONS times, then BARRIERS_COMPLETED of this rank's port must have
grown by exactly ITERATIONS + 1 (every barrier on the GBA). Needs GBA_FABRIC and GBA_BIN.
Usage: python3 mpi4py_barrier.py ITERATIONS"""
import os
import subprocess
import sys

from mpi4py import MPI  # initialises with mpi4py's default, MPI_THREAD_MULTIPLE


def completed(port):
    out = subprocess.run([os.environ["GBA_BIN"], "sim", "status", "--path", os.environ["GBA_FABRIC"]],
                         check=True, capture_output=True, text=True).stdout
    on = False
    for line in out.splitlines():
        words = line.split()
        if words[:2] == ["port", "completed"]:
            on = True
        elif on and len(words) >= 2 and words[0] == str(port):
            return int(words[1])
    return 0


def my_port():
    path = os.environ.get("OMPI_MCA_coll_gba_barrier_device_path") or os.environ.get("GBA_DEVICE", "")
    return int(path.rsplit("#", 1)[1]) if "#" in path else 0


def main():
    iters = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    comm = MPI.COMM_WORLD
    level = MPI.Query_thread()
    assert level == MPI.THREAD_MULTIPLE, f"mpi4py's default thread level is {level}, not MULTIPLE"
    comm.Barrier()
    c0 = completed(my_port()) if comm.rank == 0 else 0
    for _ in range(iters):
        comm.Barrier()
    comm.Barrier()
    if comm.rank == 0:
        grew = completed(my_port()) - c0
        if grew != iters + 1:
            print(f"FAIL: BARRIERS_COMPLETED grew by {grew}, expected {iters + 1}", flush=True)
            comm.Abort(1)
        print(f"mpi4py_barrier: MPI_THREAD_MULTIPLE, {iters} barriers on {comm.size} ranks, "
              f"BARRIERS_COMPLETED +{grew} (GBA path)")


main()
