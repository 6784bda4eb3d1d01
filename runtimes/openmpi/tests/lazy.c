/* Lazy team formation: a communicator that never calls MPI_Barrier holds no GBA group, one
 * that calls it holds one from that first barrier on, MPI_Ibarrier before the first barrier
 * runs in software (and completes), and MPI_Comm_free gives the group back. Rank 0 counts the
 * groups enabled on the fabric (`gba sim status`); needs GBA_FABRIC and GBA_BIN. Run with the
 * default coll_gba_barrier_eager_teams=0. */
#include "gbatest.h"

#define DUPS 10

static int groups(MPI_Comm world)
{
    int rank, n = 0;
    MPI_Comm_rank(world, &rank);
    /* no one may be forming or releasing while rank 0 counts */
    MPI_Barrier(world);
    if (0 == rank) {
        n = fabric_groups_enabled();
        CHECK(n >= 0, "cannot read the fabric's groups");
    }
    MPI_Barrier(world);
    return n;
}

int main(int argc, char **argv)
{
    int rank, base, i;
    MPI_Comm dups[DUPS];
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    base = groups(MPI_COMM_WORLD); /* MPI_COMM_WORLD's own group, formed by its barrier */

    for (i = 0; i < DUPS; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &dups[i]);
    }
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base, "%d communicators that never called MPI_Barrier hold %d groups", DUPS,
              i - base);
    }

    /* split phase before any barrier: software, and it completes */
    MPI_Ibarrier(dups[0], &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base, "an MPI_Ibarrier before the first MPI_Barrier took %d groups", i - base);
    }

    MPI_Barrier(dups[0]);
    MPI_Barrier(dups[0]);
    MPI_Ibarrier(dups[0], &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base + 1, "after barriers on one of them: %d groups, want %d", i, base + 1);
    }

    for (i = 0; i < DUPS; i++) {
        MPI_Comm_free(&dups[i]);
    }
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base, "after MPI_Comm_free: %d groups, want %d", i, base);
        printf("lazy: ok (%d groups before and after %d dups)\n", base, DUPS);
    }
    MPI_Finalize();
    return 0;
}
