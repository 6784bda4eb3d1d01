/* MPI_THREAD_MULTIPLE: barriers on distinct communicators from several threads at once, each
 * communicator on its own GBA team. Every thread t runs ITERATIONS barriers on its own
 * duplicate of MPI_COMM_WORLD with random delays, checking through shared memory that no rank
 * leaves barrier k of communicator t before every rank entered it; MPI forbids concurrent
 * collectives on one communicator, not on distinct ones. Then BARRIERS_COMPLETED of this
 * rank's port must have grown by exactly THREADS * (ITERATIONS - 1) + 1 (EXPECT 1: each
 * communicator's first barrier is its team's formation, whose allgather synchronises without a
 * GBA episode) or 0 (EXPECT 0).
 * Usage: thread_multiple ITERATIONS THREADS EXPECT */
#include <pthread.h>
#include "gbatest.h"

#define MAX_THREADS 8

typedef struct {
    MPI_Comm comm;
    _Atomic long *entered; /* [rank] for this thread's communicator */
    int rank, size, iters, t;
} job_t;

static void *run(void *arg)
{
    job_t *j = arg;
    unsigned seed = (unsigned)(j->rank * 7919 + j->t * 104729 + 1);
    for (int k = 1; k <= j->iters; k++) {
        int r = rand_r(&seed) % 100;
        if (r < 10) {
            spin_us((double)(rand_r(&seed) % 100));
        }
        atomic_store(&j->entered[j->rank], k);
        CHECK(MPI_SUCCESS == MPI_Barrier(j->comm), "thread %d: MPI_Barrier failed", j->t);
        for (int q = 0; q < j->size; q++) {
            long e = atomic_load(&j->entered[q]);
            CHECK(e >= k, "thread %d: left barrier %d while rank %d had only entered %ld", j->t,
                  k, q, e);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    int iters = argc > 1 ? atoi(argv[1]) : 200, nthreads = argc > 2 ? atoi(argv[2]) : 3;
    int expect = argc > 3 ? atoi(argv[3]) : 1;
    long long c0 = 0, c1 = 0;
    pthread_t th[MAX_THREADS];
    job_t jobs[MAX_THREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(MPI_THREAD_MULTIPLE == provided, "provided thread level %d", provided);
    CHECK(nthreads >= 1 && nthreads <= MAX_THREADS, "THREADS must be 1..%d", MAX_THREADS);
    CHECK(iters >= 1, "ITERATIONS must be at least 1");
    for (int t = 0; t < nthreads; t++) {
        jobs[t] = (job_t){.rank = rank, .size = size, .iters = iters, .t = t};
        MPI_Comm_dup(MPI_COMM_WORLD, &jobs[t].comm);
        jobs[t].entered = shared_counters(MPI_COMM_WORLD, size);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        c0 = fabric_completed(world_port());
        CHECK(c0 >= 0, "cannot read the fabric's counters (GBA_FABRIC, GBA_BIN)");
    }
    for (int t = 0; t < nthreads; t++) {
        CHECK(0 == pthread_create(&th[t], NULL, run, &jobs[t]), "pthread_create");
    }
    for (int t = 0; t < nthreads; t++) {
        pthread_join(th[t], NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        /* each dup's first barrier forms its team (no GBA episode) */
        long long want = expect ? (long long)nthreads * (iters - 1) + 1 : 0;
        c1 = fabric_completed(world_port());
        CHECK(c1 - c0 == want, "BARRIERS_COMPLETED grew by %lld, expected %lld", c1 - c0, want);
        printf("thread_multiple: %d threads x %d barriers on their own communicators, %d ranks, "
               "BARRIERS_COMPLETED +%lld (%s path)\n", nthreads, iters, size, c1 - c0,
               expect ? "GBA" : "software");
    }
    for (int t = 0; t < nthreads; t++) {
        MPI_Comm_free(&jobs[t].comm);
    }
    MPI_Finalize();
    return 0;
}
