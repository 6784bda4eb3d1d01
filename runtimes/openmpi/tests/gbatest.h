/* Helpers shared by the coll/gba_barrier test programs. */
#ifndef GBATEST_H
#define GBATEST_H
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            int r_;                                                             \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                 \
            fprintf(stderr, "FAIL [rank %d] %s:%d: %s: ", r_, __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
            MPI_Abort(MPI_COMM_WORLD, 1);                                       \
        }                                                                       \
    } while (0)

static inline double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Sum of BARRIERS_COMPLETED over the fabric's ports, from `gba sim status` (the fabric
 * directory and the gba binary come from GBA_FABRIC and GBA_BIN). Returns -1 when the
 * fabric is not known (the test then skips its counter assertions). */
static inline long long fabric_completed(int port)
{
    const char *fabric = getenv("GBA_FABRIC"), *bin = getenv("GBA_BIN");
    char cmd[1024], line[512];
    long long total = 0;
    int in_ports = 0;
    FILE *p;
    if (!fabric || !bin) {
        return -1;
    }
    snprintf(cmd, sizeof(cmd), "%s sim status --path %s", bin, fabric);
    p = popen(cmd, "r");
    if (!p) {
        return -1;
    }
    while (fgets(line, sizeof(line), p)) {
        int pt;
        long long done;
        if (0 == strncmp(line, "port ", 5) && strstr(line, "completed")) {
            in_ports = 1;
            continue;
        }
        if (in_ports && 2 == sscanf(line, "%d %lld", &pt, &done) && pt == port) {
            total = done;
        }
    }
    if (0 != pclose(p)) {
        return -1;
    }
    return total;
}
#endif
