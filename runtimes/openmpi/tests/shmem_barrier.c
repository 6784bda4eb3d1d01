/* shmem_barrier_all on the GBA with put ordering: before each barrier every PE puts a round
 * number into its right neighbour's symmetric array (non-blocking puts, no explicit quiet);
 * after the barrier each PE must see its left neighbour's values of this round.
 * Usage: shmem_barrier ROUNDS EXPECT (EXPECT 1: BARRIERS_COMPLETED on PE 0's port grows by
 * exactly ROUNDS; 0: it does not grow; -1: unchecked). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_status.h"

#define N 512

static long data[N];
static long counter_flag; /* unused symmetric; keeps the heap non-trivial */

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200, expect = argc > 2 ? atoi(argv[2]) : -1;
    long src[N];
    long long c0 = 0, c1 = 0;
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    /* this PE's port: the "#<port>" of the device it opens (device_path, else GBA_DEVICE) */
    const char *dev = getenv("OMPI_MCA_coll_gba_barrier_device_path"), *hash;
    if (!dev || !dev[0]) {
        dev = getenv("GBA_DEVICE");
    }
    hash = dev ? strrchr(dev, '#') : NULL;
    int port = hash ? atoi(hash + 1) : 0;

    shmem_barrier_all();
    if (0 == me && expect >= 0) {
        c0 = fabric_completed(port);
        if (c0 < 0) {
            fprintf(stderr, "FAIL: cannot read the fabric's counters\n");
            shmem_global_exit(1);
        }
    }
    for (int r = 1; r <= rounds; r++) {
        for (int i = 0; i < N; i++) {
            src[i] = (long)r * 100000 + me * 1000 + i;
        }
        /* many small puts, then the barrier: they must all have landed after it */
        for (int i = 0; i < N; i += 8) {
            shmem_long_put(&data[i], &src[i], 8, right);
        }
        shmem_barrier_all();
        for (int i = 0; i < N; i++) {
            long want = (long)r * 100000 + left * 1000 + i;
            if (data[i] != want) {
                fprintf(stderr, "FAIL: PE %d round %d: data[%d] = %ld, want %ld (put not "
                                "complete at the barrier)\n", me, r, i, data[i], want);
                shmem_global_exit(1);
            }
        }
        /* nobody overwrites data before every PE has checked it */
        shmem_barrier_all();
    }
    if (0 == me && expect >= 0) {
        long long want = expect ? 2LL * rounds : 0;
        c1 = fabric_completed(port);
        if (c1 - c0 != want) {
            fprintf(stderr, "FAIL: BARRIERS_COMPLETED grew by %lld, expected %lld\n", c1 - c0,
                    want);
            shmem_global_exit(1);
        }
    }
    if (0 == me) {
        printf("shmem_barrier: %d rounds of puts + shmem_barrier_all on %d PEs ok%s\n", rounds,
               npes, expect == 1 ? ", all on the GBA" : "");
    }
    (void)counter_flag;
    shmem_finalize();
    return 0;
}
