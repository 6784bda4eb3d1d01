/* MPI_THREAD_MULTIPLE: coll/gba_barrier does not lock its per-communicator state, so it steps
 * aside when the job asks for MPI_THREAD_MULTIPLE; barriers still work (OpenMPI's own) and the
 * fabric's counter does not move. Usage: thread_multiple ITERATIONS */
#include "gbatest.h"

int main(int argc, char **argv)
{
    int provided, rank, iters = argc > 1 ? atoi(argv[1]) : 100;
    long long c0 = 0, c1 = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        c0 = fabric_completed(world_port());
    }
    for (int i = 0; i < iters; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (0 == rank) {
        c1 = fabric_completed(world_port());
        CHECK(c0 >= 0 && c1 >= 0, "cannot read the fabric's counters");
        CHECK(c1 == c0, "BARRIERS_COMPLETED grew by %lld under MPI_THREAD_MULTIPLE", c1 - c0);
        printf("thread_multiple: provided %d, %d barriers, none on the GBA\n", provided, iters);
    }
    MPI_Finalize();
    return 0;
}
