/* MPI_Barrier semantics, checked independently of MPI through shared memory: with random
 * delays before each barrier, no rank leaves barrier k before every rank has entered it.
 * Usage: semantics ITERATIONS EXPECT   (EXPECT 1: the GBA path must be used, i.e. the
 * fabric's BARRIERS_COMPLETED on this rank's port grows by exactly ITERATIONS + 2; 0: it must
 * not grow; -1: do not check the counter). */
#include "gbatest.h"

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 1000, expect = argc > 2 ? atoi(argv[2]) : -1;
    long long c0 = -1, c1 = -1;
    _Atomic long *entered;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    srand((unsigned)(rank * 7919 + 1));
    entered = shared_counters(MPI_COMM_WORLD, size);

    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank && expect >= 0) {
        c0 = fabric_completed(world_port());
        CHECK(c0 >= 0, "cannot read the fabric's counters (GBA_FABRIC, GBA_BIN)");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 1; k <= iters; k++) {
        /* mostly short, sometimes long delays, a different rank late each time */
        int r = rand() % 100;
        if (r < 10) {
            spin_us((double)(rand() % 200));
        } else if (k % size == rank && r < 20) {
            usleep(500);
        }
        atomic_store(&entered[rank], k);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int j = 0; j < size; j++) {
            long e = atomic_load(&entered[j]);
            CHECK(e >= k, "left barrier %d while rank %d had only entered %ld", k, j, e);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank && expect >= 0) {
        long long want = expect ? iters + 2 : 0;
        c1 = fabric_completed(world_port());
        CHECK(c1 - c0 == want, "BARRIERS_COMPLETED grew by %lld, expected %lld", c1 - c0, want);
        printf("semantics: %d barriers on %d ranks, BARRIERS_COMPLETED +%lld (%s path)\n", iters,
               size, c1 - c0, expect ? "GBA" : "software");
    } else if (0 == rank) {
        printf("semantics: %d barriers on %d ranks ok\n", iters, size);
    }
    MPI_Finalize();
    return 0;
}
