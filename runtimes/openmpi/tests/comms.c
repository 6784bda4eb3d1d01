/* Communicators and groups: MPI_Comm_dup and MPI_Comm_split communicators get their own GBA
 * groups; beyond the free groups (the switch's, or the user's quota of them) the extra
 * communicators fall back cleanly (and their barriers still work); MPI_Comm_idup'd communicators too; an inter-communicator keeps OpenMPI's
 * barrier; MPI_Comm_free releases a group so that a new communicator claims it again.
 * A communicator is "on the GBA" when one barrier on it adds exactly 1 to BARRIERS_COMPLETED
 * of its rank 0's port, and "software" when it adds 0. Needs GBA_FABRIC and GBA_BIN. */
#include "gbatest.h"

#define MAX_COMMS 40

/* 1: comm's barrier ran on the GBA, 0: on software (same answer on every rank of comm) */
static int on_gba(MPI_Comm comm)
{
    int rank, verdict = 0;
    long long c0 = 0, c1 = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Barrier(comm);
    if (0 == rank) {
        c0 = fabric_completed(world_port());
    }
    MPI_Barrier(comm);
    if (0 == rank) {
        c1 = fabric_completed(world_port());
        CHECK(c0 >= 0 && c1 >= 0, "cannot read the fabric's counters");
        CHECK(c1 - c0 == 0 || c1 - c0 == 1, "one barrier added %lld", c1 - c0);
        verdict = (int)(c1 - c0);
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, comm);
    return verdict;
}

int main(int argc, char **argv)
{
    int rank, size, ngba = 0, nsw = 0, world;
    MPI_Comm dup, half, comms[MAX_COMMS];
    _Atomic long *entered;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    entered = shared_counters(MPI_COMM_WORLD, size);

    world = on_gba(MPI_COMM_WORLD);
    CHECK(1 == world, "MPI_COMM_WORLD is not on the GBA");

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(1 == on_gba(dup), "MPI_Comm_dup'd communicator is not on the GBA");
    /* its own group: a barrier on dup is not one on WORLD (their episodes interleave freely) */
    MPI_Barrier(dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(dup);

    /* MPI_Comm_idup: the communicator is selected from OpenMPI's progress engine */
    {
        MPI_Comm idup;
        MPI_Request req;
        MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(1 == on_gba(idup), "MPI_Comm_idup'd communicator is not on the GBA");
        MPI_Comm_free(&idup);
    }

    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    {
        int hsize, expect;
        MPI_Comm_size(half, &hsize);
        expect = hsize >= 2;
        /* one half at a time: with host combining both halves' groups count on one port, so
         * a barrier of the other half would add to the counter this half reads (its ranks
         * wait meanwhile in WORLD's barrier, which completes only after this half is done) */
        for (int turn = 0; turn < 2; turn++) {
            if (rank % 2 == turn) {
                CHECK(expect == on_gba(half), "split communicator of size %d: GBA %s expected",
                      hsize, expect ? "" : "not");
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }

    /* an inter-communicator between the halves keeps OpenMPI's barrier and works */
    if (size >= 2) {
        MPI_Comm inter;
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 7, &inter);
        for (int k = 0; k < 10; k++) {
            MPI_Barrier(inter);
        }
        MPI_Comm_free(&inter);
    }

    /* fill the switch: every communicator beyond the free groups falls back */
    for (int i = 0; i < MAX_COMMS; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
        if (on_gba(comms[i])) {
            CHECK(0 == nsw, "communicator %d on the GBA after one fell back", i);
            ngba++;
        } else {
            nsw++;
        }
    }
    CHECK(nsw > 0 && ngba > 0, "%d on the GBA, %d software: expected both", ngba, nsw);
    /* every one of them still synchronises */
    for (int k = 1; k <= 3; k++) {
        for (int i = 0; i < MAX_COMMS; i++) {
            long mark = (long)k * 1000 + i;
            atomic_store(&entered[rank], mark);
            MPI_Barrier(comms[i]);
            for (int j = 0; j < size; j++) {
                CHECK(atomic_load(&entered[j]) >= mark, "comm %d: left before rank %d entered", i, j);
            }
        }
    }

    /* freeing one GBA communicator gives its group back to the next communicator */
    MPI_Comm_free(&comms[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    CHECK(1 == on_gba(comms[0]), "the group freed by MPI_Comm_free was not claimed again");
    /* and freeing all of them leaves the fabric as before */
    for (int i = 0; i < MAX_COMMS; i++) {
        MPI_Comm_free(&comms[i]);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    CHECK(1 == on_gba(comms[0]), "a new communicator after freeing all is not on the GBA");
    MPI_Comm_free(&comms[0]);

    if (0 == rank) {
        printf("comms: dup and split on their own groups; %d of %d more communicators on the "
               "GBA, %d fell back; freed groups claimed again\n", ngba, MAX_COMMS, nsw);
    }
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
