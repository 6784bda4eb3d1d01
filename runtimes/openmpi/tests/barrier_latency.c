/* MPI_Barrier latency of one job, for comparing jobs (with and without a preload, under any
 * MPI): BLOCKS blocks of ITERS barriers on MPI_COMM_WORLD, each block's latency the slowest
 * rank's average; prints the median block in microseconds (one number, rank 0).
 * Usage: barrier_latency [ITERS [BLOCKS]] */
#include "gbatest.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rank, iters = argc > 1 ? atoi(argv[1]) : 10000, blocks = argc > 2 ? atoi(argv[2]) : 5;
    double v[64];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(blocks >= 1 && blocks <= 64 && iters >= 1, "usage: barrier_latency [ITERS [BLOCKS <= 64]]");
    for (int i = 0; i < 50; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    for (int b = 0; b < blocks; b++) {
        double t0 = now_s(), t;
        for (int i = 0; i < iters; i++) {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        t = (now_s() - t0) / iters;
        MPI_Allreduce(&t, &v[b], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    if (0 == rank) {
        qsort(v, (size_t)blocks, sizeof(double), cmp);
        printf("%.3f\n", v[blocks / 2] * 1e6);
    }
    MPI_Finalize();
    return 0;
}
