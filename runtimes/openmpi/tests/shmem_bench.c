/* OSU-style shmem_barrier_all latency: ITERS barriers after a warm-up, the slowest PE's
 * average in microseconds. bench.sh runs it with and without coll/gba_barrier alternately.
 *
 * With BLOCKS (shmem_bench ITERS BLOCKS), one job alternates BLOCKS blocks of ITERS barriers
 * between shmem_barrier_all() (scoll/gba: quiet, then MPI_COMM_WORLD's coll barrier, which
 * coll/gba_barrier runs on the GBA) and what the same call runs without the GBA: quiet, then
 * OpenMPI's own coll barrier, on a duplicate of MPI_COMM_WORLD that excludes coll/gba_barrier
 * (info key ompi_comm_coll_preference), and prints both medians: a comparison in one job,
 * free of the job-to-job spread separate jobs have on an oversubscribed machine.
 * Usage: shmem_bench [ITERS [BLOCKS]] */
#include <mpi.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double t_local, t_max;
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The slowest PE's average of `iters` barriers, in microseconds (collective). */
static double slowest(double seconds, int iters)
{
    t_local = seconds / iters;
    shmem_barrier_all();
    shmem_double_max_to_all(&t_max, &t_local, 1, 0, 0, shmem_n_pes(), pwrk, psync);
    shmem_barrier_all(); /* psync is reused by the next reduction */
    return t_max * 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 10000, blocks = argc > 2 ? atoi(argv[2]) : 0;
    shmem_init();
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) {
        psync[i] = SHMEM_SYNC_VALUE;
    }
    if (iters < 1 || blocks < 0) {
        if (0 == shmem_my_pe()) {
            fprintf(stderr, "usage: shmem_bench [ITERS [BLOCKS]], ITERS >= 1, BLOCKS >= 0\n");
        }
        shmem_global_exit(2);
    }
    for (int i = 0; i < 100; i++) {
        shmem_barrier_all();
    }
    if (0 == blocks) {
        double a = now();
        for (int i = 0; i < iters; i++) {
            shmem_barrier_all();
        }
        double us = slowest(now() - a, iters);
        if (0 == shmem_my_pe()) {
            printf("%.3f\n", us);
        }
        shmem_finalize();
        return 0;
    }

    MPI_Comm sw;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "ompi_comm_coll_preference", "^gba_barrier");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &sw);
    MPI_Info_free(&info);
    for (int i = 0; i < 100; i++) {
        shmem_quiet();
        MPI_Barrier(sw);
    }
    double *gba = calloc((size_t)blocks, sizeof *gba), *own = calloc((size_t)blocks, sizeof *own);
    if (NULL == gba || NULL == own) {
        fprintf(stderr, "shmem_bench: out of memory for %d blocks\n", blocks);
        shmem_global_exit(1);
    }
    for (int b = 0; b < blocks; b++) {
        double a = now();
        for (int i = 0; i < iters; i++) {
            shmem_barrier_all();
        }
        gba[b] = slowest(now() - a, iters);
        a = now();
        for (int i = 0; i < iters; i++) {
            shmem_quiet();
            MPI_Barrier(sw);
        }
        own[b] = slowest(now() - a, iters);
    }
    if (0 == shmem_my_pe()) {
        double g = median(gba, blocks), o = median(own, blocks);
        printf("shmem_barrier_all np=%d, %d alternating blocks of %d in one job: "
               "shmem_barrier_all median %.3f us, quiet + OpenMPI's own barrier median %.3f us, "
               "ratio %.2f\n",
               shmem_n_pes(), blocks, iters, g, o, g / o);
    }
    free(gba);
    free(own);
    MPI_Comm_free(&sw);
    shmem_finalize();
    return 0;
}
