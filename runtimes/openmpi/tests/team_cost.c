/* Where a communicator's GBA team spends its formation: ITERS times MPI_Comm_dup, NB
 * MPI_Barrier, MPI_Comm_free, with an MPI_Barrier on MPI_COMM_WORLD between iterations (so
 * that each formation starts together). Run by runtimes/openmpi/team_cost.sh with
 * GBA_TEAM_TIMING=1, which makes the library log each formation's phases; this program only
 * drives them. Usage: team_cost [ITERS [NB]] */
#include "gbatest.h"

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 50, nb = argc > 2 ? atoi(argv[2]) : 1;
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < iters; i++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        for (int j = 0; j < nb; j++) {
            MPI_Barrier(c);
        }
        MPI_Comm_free(&c);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
