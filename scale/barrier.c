/* The software contenders of `gba scale`, run by SMPI on a simulated fat tree.
 *
 * Usage: barrier {mpi|dissemination} WARMUP ITERS
 *   mpi            MPI_Barrier: the algorithm is SMPI's copy of OpenMPI's, chosen by
 *                  --cfg=smpi/barrier:ompi_bruck | ompi_recursivedoubling | ompi | ...
 *   dissemination  the dissemination barrier of gba-barrier's soft/ module (Hensgen, Finkel
 *                  and Manber 1988), over MPI point-to-point: in round r every rank sends a
 *                  zero-byte message to rank + 2^r and receives one from rank - 2^r.
 *
 * Every rank runs WARMUP untimed barriers, then ITERS timed ones back to back, as osu_barrier
 * does; rank 0 prints the largest per-rank mean in simulated nanoseconds:
 *   latency_ns <value>
 * Simulated time only: run with --cfg=smpi/simulate-computation:no, so that the host's own CPU
 * time never enters the result and a run is deterministic. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int dissemination(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int distance = 1; distance < size; distance <<= 1) {
        int to = (rank + distance) % size;
        int from = (rank - distance + size) % size;
        int rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, to, 7, NULL, 0, MPI_BYTE, from, 7, comm,
                              MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 4 || (strcmp(argv[1], "mpi") != 0 && strcmp(argv[1], "dissemination") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: barrier {mpi|dissemination} WARMUP ITERS\n");
        MPI_Finalize();
        return 2;
    }
    int use_mpi = strcmp(argv[1], "mpi") == 0;
    int warmup = atoi(argv[2]), iters = atoi(argv[3]);
    if (iters < 1) {
        if (rank == 0)
            fprintf(stderr, "ITERS must be at least 1\n");
        MPI_Finalize();
        return 2;
    }
    double start = 0;
    for (int i = 0; i < warmup + iters; i++) {
        if (i == warmup)
            start = MPI_Wtime();
        int rc = use_mpi ? MPI_Barrier(MPI_COMM_WORLD) : dissemination(MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "rank %d: barrier %d failed (%d)\n", rank, i, rc);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (i == warmup + iters - 1) {
            double mean = (MPI_Wtime() - start) / iters, worst = 0;
            MPI_Reduce(&mean, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0)
                printf("latency_ns %.1f\n", worst * 1e9);
        }
    }
    MPI_Finalize();
    return 0;
}
