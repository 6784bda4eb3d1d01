/* A rank waiting in the GBA barrier keeps OpenMPI's progress engine turning: point-to-point
 * traffic pending across the barrier completes (MPI_Isend of large messages, MPI_Barrier,
 * MPI_Wait on one side; MPI_Recv, MPI_Barrier on the other is a correct MPI program).
 * Usage: progress ROUNDS */
#include "gbatest.h"

#define BIG (4 << 20)

int main(int argc, char **argv)
{
    int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 20;
    char *buf;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    buf = malloc(BIG);
    CHECK(buf != NULL, "malloc");
    for (int r = 0; r < rounds; r++) {
        int peer = rank ^ 1;
        if (peer >= size) {
            MPI_Barrier(MPI_COMM_WORLD);
            continue;
        }
        if (rank % 2 == 0) {
            MPI_Request req;
            memset(buf, r & 0xff, BIG);
            MPI_Isend(buf, BIG, MPI_CHAR, peer, r, MPI_COMM_WORLD, &req);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, BIG, MPI_CHAR, peer, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < BIG; i += 4096) {
                CHECK(buf[i] == (char)(r & 0xff), "round %d: byte %d is %d", r, i, buf[i]);
            }
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    if (0 == rank) {
        printf("progress: %d rounds of a %d-byte MPI_Isend pending across MPI_Barrier ok\n",
               rounds, BIG);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
