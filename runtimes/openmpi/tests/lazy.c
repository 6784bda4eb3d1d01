/* Lazy team formation: a communicator that never calls MPI_Barrier holds no GBA group, one
 * that calls it holds one from that first barrier on, MPI_Ibarrier before the first barrier
 * runs in software (and completes). MPI_Comm_free parks the group for the same ranks' next
 * communicator (at most GBA_TEAM_CACHE groups per process, default 2: the oldest beyond are
 * released). Rank 0 counts the groups enabled on the fabric (`gba sim status`); needs
 * GBA_FABRIC and GBA_BIN. Run with the default coll_gba_barrier_eager_teams=0. */
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

static int min(int a, int b)
{
    return a < b ? a : b;
}

int main(int argc, char **argv)
{
    int rank, size, base, i, cap = getenv("GBA_TEAM_CACHE") ? atoi(getenv("GBA_TEAM_CACHE")) : 2;
    MPI_Comm dups[DUPS], same, reversed, second;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
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
        CHECK(i == base + min(cap, 1), "after MPI_Comm_free: %d groups, want %d (one parked)", i,
              base + min(cap, 1));
    }

    /* the same ranks again: the parked group, no other */
    MPI_Comm_dup(MPI_COMM_WORLD, &same);
    MPI_Barrier(same);
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base + 1, "a dup of the same ranks: %d groups, want %d", i, base + 1);
    }
    /* the ranks in another order, and a second live dup: a group each */
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    MPI_Barrier(reversed);
    MPI_Comm_dup(MPI_COMM_WORLD, &second);
    MPI_Barrier(second);
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base + 3, "three live communicators: %d groups, want %d", i, base + 3);
    }
    MPI_Comm_free(&same);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&second);
    i = groups(MPI_COMM_WORLD);
    if (0 == rank) {
        CHECK(i == base + min(cap, 3), "after freeing three: %d groups, want %d (at most "
              "GBA_TEAM_CACHE=%d parked)", i, base + min(cap, 3), cap);
        printf("lazy: ok (%d groups before and after %d dups, %d parked)\n", base, DUPS,
               min(cap, 3));
    }
    MPI_Finalize();
    return 0;
}
