/* MPI_Barrier across the hosts of a cluster made by runtimes/cluster/cluster.sh: every rank
 * runs in host GBA_CLUSTER_HOST (its own hostname, its own port of one simulator fabric).
 * Usage: hosts_barrier ITERATIONS EXPECT HOSTS [STOP_RANK]
 *   - exactly HOSTS distinct hostnames among the ranks, and ranks of one hostname in one
 *     cluster host (so OpenMPI placed them as asked);
 *   - with random delays, no rank leaves barrier k before every rank entered it (counters in
 *     /dev/shm, which the hosts of this one-machine cluster share; independent of MPI);
 *   - EXPECT 1: BARRIERS_COMPLETED of every port 0..HOSTS-1 grows by exactly ITERATIONS + 2;
 *     EXPECT 0: no port's counter grows (the software barrier ran); EXPECT -1: not checked
 *     (another job moves the same counters);
 *   - STOP_RANK: that rank stops itself (SIGSTOP) before barrier 10, so that the others' wait
 *     must say who is missing (the job never ends: the caller kills it). */
#include <signal.h>
#include "gbatest.h"

#define NAME_LEN 64

int main(int argc, char **argv)
{
    int rank, size, iters, expect, hosts;
    char name[NAME_LEN] = {0}, *names;
    int host, *host_of;
    long long *c0;
    _Atomic long *entered;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int stop_rank = argc > 4 ? atoi(argv[4]) : -1;
    CHECK(argc == 4 || argc == 5, "usage: hosts_barrier ITERATIONS EXPECT HOSTS [STOP_RANK]");
    iters = atoi(argv[1]);
    expect = atoi(argv[2]);
    hosts = atoi(argv[3]);
    CHECK(getenv("GBA_CLUSTER_HOST") != NULL, "GBA_CLUSTER_HOST unset: run inside cluster.sh");
    host = atoi(getenv("GBA_CLUSTER_HOST"));
    CHECK(0 == gethostname(name, NAME_LEN - 1), "gethostname");

    names = calloc((size_t)size, NAME_LEN);
    host_of = calloc((size_t)size, sizeof(int));
    c0 = calloc((size_t)hosts, sizeof(long long));
    CHECK(names && host_of && c0, "out of memory");
    MPI_Allgather(name, NAME_LEN, MPI_CHAR, names, NAME_LEN, MPI_CHAR, MPI_COMM_WORLD);
    MPI_Allgather(&host, 1, MPI_INT, host_of, 1, MPI_INT, MPI_COMM_WORLD);
    if (0 == rank) {
        int distinct = 0;
        for (int r = 0; r < size; r++) {
            int seen = 0;
            printf("hosts_barrier: rank %d on %s (cluster host %d)\n", r, names + r * NAME_LEN,
                   host_of[r]);
            for (int q = 0; q < r; q++) {
                int same_name = 0 == strcmp(names + q * NAME_LEN, names + r * NAME_LEN);
                CHECK(same_name == (host_of[q] == host_of[r]),
                      "ranks %d and %d: hostnames %s, %s but cluster hosts %d, %d", q, r,
                      names + q * NAME_LEN, names + r * NAME_LEN, host_of[q], host_of[r]);
                seen |= same_name;
            }
            distinct += !seen;
        }
        CHECK(distinct == hosts, "%d distinct hostnames, expected %d", distinct, hosts);
    }

    srand((unsigned)(rank * 7919 + 1));
    entered = shared_counters(MPI_COMM_WORLD, size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank) {
        for (int p = 0; p < hosts; p++) {
            c0[p] = fabric_completed(p);
            CHECK(c0[p] >= 0, "cannot read the fabric's counters (GBA_FABRIC, GBA_BIN)");
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 1; k <= iters; k++) {
        int r = rand() % 100;
        if (r < 10) {
            spin_us((double)(rand() % 200));
        } else if (k % size == rank && r < 20) {
            usleep(500);
        }
        if (k == 10 && rank == stop_rank) {
            fflush(stdout);
            raise(SIGSTOP);
        }
        atomic_store(&entered[rank], k);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int j = 0; j < size; j++) {
            long e = atomic_load(&entered[j]);
            CHECK(e >= k, "left barrier %d while rank %d had only entered %ld", k, j, e);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (0 == rank && expect < 0) {
        printf("hosts_barrier: %d barriers, %d ranks on %d hosts (counters not checked)\n", iters,
               size, hosts);
    } else if (0 == rank) {
        long long want = expect ? iters + 2 : 0;
        for (int p = 0; p < hosts; p++) {
            long long grew = fabric_completed(p) - c0[p];
            CHECK(grew == want, "port %d: BARRIERS_COMPLETED grew by %lld, expected %lld", p,
                  grew, want);
        }
        printf("hosts_barrier: %d barriers, %d ranks on %d hosts, BARRIERS_COMPLETED +%lld on "
               "every port (%s path)\n",
               iters, size, hosts, want, expect ? "GBA" : "software");
    }
    free(names);
    free(host_of);
    free(c0);
    MPI_Finalize();
    return 0;
}
