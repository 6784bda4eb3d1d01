/* MPI_Ibarrier overlapped with computation: the request completes only after every rank has
 * entered; two ibarriers in flight and an MPI_Barrier behind a pending one keep their order
 * (MPI_Request_free on a nonblocking collective is erroneous in MPI 3.1). Usage: ibarrier ROUNDS EXPECT (as semantics). */
#include "gbatest.h"

int main(int argc, char **argv)
{
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 200, expect = argc > 2 ? atoi(argv[2]) : -1;
    long long c0 = -1, c1 = -1, episodes = 0;
    _Atomic long *entered;
    volatile double sink = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    entered = shared_counters(MPI_COMM_WORLD, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank && expect >= 0) {
        c0 = fabric_completed(world_port());
        CHECK(c0 >= 0, "cannot read the fabric's counters");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    episodes += 1;

    long k = 0;
    for (int i = 0; i < rounds; i++) {
        MPI_Request req[2];
        int flag = 0, polls = 0;

        /* one ibarrier overlapped with work; rank (i % size) enters late */
        if (i % size == rank) {
            usleep(200);
        }
        atomic_store(&entered[rank], ++k);
        MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
        while (!flag) {
            for (int w = 0; w < 200; w++) {
                sink += w * 0.5;
            }
            polls++;
            MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        }
        for (int j = 0; j < size; j++) {
            CHECK(atomic_load(&entered[j]) >= k, "ibarrier %ld completed before rank %d entered",
                  k, j);
        }

        /* two in flight, waited in reverse order, then a blocking barrier behind them */
        atomic_store(&entered[rank], ++k);
        MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
        MPI_Ibarrier(MPI_COMM_WORLD, &req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        k++;
        for (int j = 0; j < size; j++) {
            CHECK(atomic_load(&entered[j]) >= k - 1, "second ibarrier completed early");
        }
        atomic_store(&entered[rank], ++k);
        MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int j = 0; j < size; j++) {
            CHECK(atomic_load(&entered[j]) >= k, "barrier behind a pending ibarrier completed early");
        }
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        episodes += 5;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    episodes += 1;
    if (0 == rank && expect >= 0) {
        long long want = expect ? episodes : 0;
        c1 = fabric_completed(world_port());
        CHECK(c1 - c0 == want, "BARRIERS_COMPLETED grew by %lld, expected %lld", c1 - c0, want);
    }
    if (0 == rank) {
        printf("ibarrier: %d rounds (%lld episodes) on %d ranks ok%s\n", rounds, episodes, size,
               expect == 1 ? ", all on the GBA" : "");
    }
    (void)sink;
    MPI_Finalize();
    return 0;
}
