/* OSU-style shmem_barrier_all latency: ITERS barriers after a warm-up, the slowest PE's
 * average in microseconds. bench.sh runs it with and without coll/gba_barrier alternately.
 * Usage: shmem_bench [ITERS] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double t_local, t_max;
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 10000;
    struct timespec a, b;
    shmem_init();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) {
        psync[i] = SHMEM_SYNC_VALUE;
    }
    for (int i = 0; i < 100; i++) {
        shmem_barrier_all();
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < iters; i++) {
        shmem_barrier_all();
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    t_local = ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9) / iters;
    shmem_barrier_all();
    shmem_double_max_to_all(&t_max, &t_local, 1, 0, 0, shmem_n_pes(), pwrk, psync);
    if (0 == shmem_my_pe()) {
        printf("%.3f\n", t_max * 1e6);
    }
    shmem_finalize();
    return 0;
}
