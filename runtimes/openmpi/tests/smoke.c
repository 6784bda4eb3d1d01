/* Smallest check: MPI_Barrier and MPI_Ibarrier run. */
#include "gbatest.h"
int main(int argc, char **argv)
{
    MPI_Request r;
    MPI_Init(&argc, &argv);
    for (int i = 0; i < 100; i++) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
