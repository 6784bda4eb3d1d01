/* MPI_Barrier semantics, checked independently of MPI through shared memory: with random
 * delays before each barrier, no rank leaves barrier k before every rank has entered it; the
 * first barrier too, which forms WORLD's team and returns when the formation's allgather does
 * (no GBA episode).
 * Usage: semantics ITERATIONS EXPECT   (EXPECT 1: the GBA path must be used, i.e. the
 * fabric's BARRIERS_COMPLETED on this rank's port grows by exactly ITERATIONS + 2; 0: it must
 * not grow; -1: do not check the counter).
 * GBA_TEST_RENDEZVOUS=DIR:N: after its first barrier (WORLD's group is held from then on),
 * rank 0 leaves a file in DIR and waits, at most 60 s, until DIR holds N: N jobs started at
 * once then certainly hold their groups at the same time. */
#include "gbatest.h"
#include <dirent.h>

/* Waits until `dir` holds `n` entries besides . and .. (bounded: the test then fails on its
 * groups, not by hanging). */
static void rendezvous(const char *spec)
{
    char dir[512], path[600];
    int n = 0;
    const char *colon = strrchr(spec, ':');
    CHECK(colon && colon - spec < (long)sizeof dir, "GBA_TEST_RENDEZVOUS=%s: want DIR:N", spec);
    memcpy(dir, spec, colon - spec);
    dir[colon - spec] = 0;
    n = atoi(colon + 1);
    snprintf(path, sizeof path, "%s/%ld", dir, (long)getpid());
    FILE *mark = fopen(path, "w");
    CHECK(mark, "GBA_TEST_RENDEZVOUS: cannot create %s", path);
    fclose(mark);
    for (int waited_ms = 0; waited_ms < 60000; waited_ms += 10) {
        int have = 0;
        DIR *d = opendir(dir);
        CHECK(d, "GBA_TEST_RENDEZVOUS: cannot list %s", dir);
        for (struct dirent *e; (e = readdir(d));)
            have += e->d_name[0] != '.';
        closedir(d);
        if (have >= n)
            return;
        usleep(10000);
    }
}

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

    /* the first barrier forms the team (no GBA episode): it must synchronise all the same */
    if (size - 1 == rank) {
        usleep(2000);
    }
    atomic_store(&entered[rank], 1);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int j = 0; j < size; j++) {
        long e = atomic_load(&entered[j]);
        CHECK(e >= 1, "left the first barrier while rank %d had not entered it", j);
    }
    if (0 == rank && getenv("GBA_TEST_RENDEZVOUS"))
        rendezvous(getenv("GBA_TEST_RENDEZVOUS"));
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
        atomic_store(&entered[rank], k + 1);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int j = 0; j < size; j++) {
            long e = atomic_load(&entered[j]) - 1;
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
