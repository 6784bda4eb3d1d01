/* OSU-style barrier latency, with and without coll/gba_barrier alternating in one job: one
 * duplicate of MPI_COMM_WORLD is on the GBA, another is created with the info key
 * ompi_comm_coll_preference=^gba_barrier (OpenMPI 4.1's per-communicator component
 * exclusion), so it runs OpenMPI's own barrier (coll/tuned). Blocks of ITERS barriers
 * alternate between the two; each block's latency is the slowest rank's average; the
 * medians and minima over BLOCKS blocks are printed. Then the cost of a communicator:
 * MPI_Comm_dup + 0, 1 or 10 barriers + MPI_Comm_free, with and without coll/gba_barrier,
 * alternating. GBA_BENCH_COMM_ONLY set: only the communicator rows (bench.sh runs them again
 * at the default coll_gba_barrier_form_after, where the latency rows' path check, made for
 * teams formed at their first barrier, does not hold).
 * Usage: bench_barrier [ITERS [BLOCKS]] */
#include "gbatest.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double block(MPI_Comm comm, int iters)
{
    double t0, t, worst;
    for (int i = 0; i < 50; i++) {
        MPI_Barrier(comm);
    }
    t0 = now_s();
    for (int i = 0; i < iters; i++) {
        MPI_Barrier(comm);
    }
    t = (now_s() - t0) / iters;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
    return worst;
}

int main(int argc, char **argv)
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 10000, blocks = argc > 2 ? atoi(argv[2]) : 10;
    MPI_Comm gba, sw;
    MPI_Info info;
    double *tg, *ts;
    const int comm_only = NULL != getenv("GBA_BENCH_COMM_ONLY");

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &gba);
    MPI_Info_create(&info);
    MPI_Info_set(info, "ompi_comm_coll_preference", "^gba_barrier");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &sw);
    tg = calloc((size_t)blocks, sizeof(double));
    ts = calloc((size_t)blocks, sizeof(double));

    if (!comm_only) {
        /* say which path each communicator takes (from the fabric's counter when known) */
        long long c0 = 0, c1 = 0, c2 = 0;
        MPI_Barrier(gba);
        if (0 == rank) c0 = fabric_completed(world_port());
        MPI_Barrier(gba);
        if (0 == rank) c1 = fabric_completed(world_port());
        MPI_Barrier(sw);
        MPI_Barrier(sw);
        if (0 == rank) c2 = fabric_completed(world_port());
        if (0 == rank && c0 >= 0) {
            printf("# np=%d: GBA communicator +%lld BARRIERS_COMPLETED per barrier, software "
                   "communicator +%lld\n", size, c1 - c0, c2 - c1);
            /* the expected counts (GBA, then two barriers on the software one): under MPICH the
             * info key means nothing, so with the preload both communicators are on the GBA
             * ("1 1": the software one's first barrier forms its team, no GBA episode),
             * without it neither ("0 0"); bench.sh says which */
            const char *paths = getenv("GBA_BENCH_PATHS");
            long long want_g = 1, want_s = 0;
            if (NULL != paths && 2 != sscanf(paths, "%lld %lld", &want_g, &want_s)) {
                CHECK(0, "GBA_BENCH_PATHS=%s: want two counts, e.g. \"1 0\"", paths);
            }
            CHECK(c1 - c0 == want_g && c2 - c1 == want_s,
                  "the communicators do not take the expected paths (+%lld/+%lld, want +%lld/+%lld)",
                  c1 - c0, c2 - c1, want_g, want_s);
        }
    }
    for (int b = 0; b < blocks && !comm_only; b++) {
        if (b % 2) {
            ts[b] = block(sw, iters);
            tg[b] = block(gba, iters);
        } else {
            tg[b] = block(gba, iters);
            ts[b] = block(sw, iters);
        }
    }
    if (0 == rank && !comm_only) {
        qsort(tg, (size_t)blocks, sizeof(double), cmp);
        qsort(ts, (size_t)blocks, sizeof(double), cmp);
        printf("MPI_Barrier np=%d, %d blocks of %d: coll/gba_barrier median %.3f us (min %.3f), "
               "OpenMPI's own median %.3f us (min %.3f)\n", size, blocks, iters,
               tg[blocks / 2] * 1e6, tg[0] * 1e6, ts[blocks / 2] * 1e6, ts[0] * 1e6);
    }
    {
        /* The cost of a communicator: MPI_Comm_dup, NB barriers (0, 1, 10), MPI_Comm_free. With
         * lazy teams (the default) NB = 0 costs no agreement; from NB = 1 on it includes the
         * team's formation (agreement, configure and READY) and its release. A GBA communicator
         * and a software one alternate, COMM_ITERS times each; each iteration's cost is the
         * slowest rank's, and the median is printed (a mean would be the machine's load: one
         * descheduled rank costs a time slice). */
        enum { COMM_ITERS = 100 };
        static const int nbs[] = {0, 1, 10};
        double *cg = calloc(COMM_ITERS, sizeof(double)), *cs = calloc(COMM_ITERS, sizeof(double));
        for (size_t k = 0; k < sizeof(nbs) / sizeof(nbs[0]); k++) {
            for (int i = 0; i < 2 * COMM_ITERS; i++) {
                int v = i % 2; /* v = 1: the software communicator */
                double t0 = now_s(), t, worst;
                MPI_Comm c;
                if (v) {
                    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &c);
                } else {
                    MPI_Comm_dup(MPI_COMM_WORLD, &c);
                }
                for (int j = 0; j < nbs[k]; j++) {
                    MPI_Barrier(c);
                }
                MPI_Comm_free(&c);
                t = now_s() - t0;
                MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                (v ? cs : cg)[i / 2] = worst;
            }
            if (0 == rank) {
                qsort(cg, COMM_ITERS, sizeof(double), cmp);
                qsort(cs, COMM_ITERS, sizeof(double), cmp);
                printf("MPI_Comm_dup + %d MPI_Barrier + MPI_Comm_free np=%d, %d alternating: "
                       "coll/gba_barrier median %.1f us (min %.1f), OpenMPI's own median %.1f us "
                       "(min %.1f), ratio %.2f\n",
                       nbs[k], size, COMM_ITERS, cg[COMM_ITERS / 2] * 1e6, cg[0] * 1e6,
                       cs[COMM_ITERS / 2] * 1e6, cs[0] * 1e6, cg[COMM_ITERS / 2] / cs[COMM_ITERS / 2]);
            }
        }
        free(cg);
        free(cs);
    }
    MPI_Info_free(&info);
    MPI_Comm_free(&sw);
    MPI_Comm_free(&gba);
    MPI_Finalize();
    return 0;
}
