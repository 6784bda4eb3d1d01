/* MPI_COMM_WORLD split by rank parity (issue 13: with several ranks per host the two halves
 * span the same ports; each must get its own GBA group, neither may clobber the other's).
 * Both halves run ITERATIONS barriers at once under random delays, checked through shared
 * memory; then, with EXPECT 1, BARRIERS_COMPLETED of every port 0..PORTS-1 must have grown by
 * exactly 2 * (ITERATIONS - 1) + 2: each port is a member of both halves, whose first barrier
 * is their team's formation (its allgather synchronises: no GBA episode), plus two
 * MPI_COMM_WORLD barriers. Usage: split ITERATIONS PORTS EXPECT */
#include "gbatest.h"

int main(int argc, char **argv)
{
    int rank, size, hrank, hsize, iters, ports, expect;
    MPI_Comm half;
    _Atomic long *entered;
    long long c0[64] = {0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(4 == argc, "usage: split ITERATIONS PORTS EXPECT");
    iters = atoi(argv[1]);
    ports = atoi(argv[2]);
    expect = atoi(argv[3]);
    CHECK(ports >= 1 && ports <= 64, "PORTS must be 1..64");
    CHECK(iters >= 1, "ITERATIONS must be at least 1");
    srand((unsigned)(rank * 7919 + 1));
    entered = shared_counters(MPI_COMM_WORLD, size); /* by world rank */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hsize);

    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        for (int p = 0; p < ports; p++) {
            c0[p] = fabric_completed(p);
            CHECK(c0[p] >= 0, "cannot read the fabric's counters (GBA_FABRIC, GBA_BIN)");
        }
    }
    /* Nobody starts the halves before rank 0 has read the counters: the other half does not
     * wait for rank 0 in its own barriers. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 1; k <= iters; k++) {
        if (rand() % 100 < 10) {
            spin_us((double)(rand() % 200));
        }
        atomic_store(&entered[rank], k);
        MPI_Barrier(half);
        for (int j = rank % 2; j < size; j += 2) {
            long e = atomic_load(&entered[j]);
            CHECK(e >= k, "half %d: left barrier %d while world rank %d had only entered %ld",
                  rank % 2, k, j, e);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        long long want = expect ? 2LL * (iters - 1) + 2 : 0;
        for (int p = 0; p < ports; p++) {
            long long grew = fabric_completed(p) - c0[p];
            CHECK(grew == want, "port %d: BARRIERS_COMPLETED grew by %lld, expected %lld", p,
                  grew, want);
        }
        printf("split: two halves of %d ranks, %d barriers each at once, BARRIERS_COMPLETED "
               "+%lld on each of %d ports (%s path)\n", size / 2, iters, want, ports,
               expect ? "GBA" : "software");
    }
    (void)hrank;
    (void)hsize;
    MPI_Comm_free(&half);
    MPI_Finalize();
    return 0;
}
