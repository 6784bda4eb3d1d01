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

/* Groups enabled on any port of the fabric (the rows of `gba sim status`'s group table), or
 * -1 when the fabric is not known. */
static inline int fabric_groups_enabled(void)
{
    const char *fabric = getenv("GBA_FABRIC"), *bin = getenv("GBA_BIN");
    char cmd[1024], line[512];
    int rows = 0, in_groups = 0, g;
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
        if (0 == strncmp(line, "group ", 6)) {
            in_groups = 1;
        } else if ('\n' == line[0]) {
            in_groups = 0;
        } else if (in_groups && 1 == sscanf(line, "%d", &g)) {
            rows++;
        }
    }
    if (0 != pclose(p)) {
        return -1;
    }
    return rows;
}

/* A shared-memory array of one counter per rank of `comm` (all ranks on this node), used to
 * check barrier semantics independently of MPI: rank 0 creates it and broadcasts the name. */
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>
static inline _Atomic long *shared_counters(MPI_Comm comm, int n)
{
    int rank;
    long id = 0;
    char name[64];
    _Atomic long *p;
    int fd;
    MPI_Comm_rank(comm, &rank);
    if (0 == rank) {
        id = (long)getpid() * 1000 + (long)(rand() % 1000);
    }
    MPI_Bcast(&id, 1, MPI_LONG, 0, comm);
    snprintf(name, sizeof(name), "/gbatest-%ld", id);
    fd = shm_open(name, O_RDWR | O_CREAT, 0600);
    CHECK(fd >= 0, "shm_open %s", name);
    CHECK(0 == ftruncate(fd, (off_t)(sizeof(long) * (size_t)n)), "ftruncate");
    p = mmap(NULL, sizeof(long) * (size_t)n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(MAP_FAILED != p, "mmap");
    close(fd);
    /* everyone has mapped it before rank 0 unlinks the name */
    MPI_Allreduce(MPI_IN_PLACE, &id, 1, MPI_LONG, MPI_MAX, comm);
    if (0 == rank) {
        shm_unlink(name);
    }
    return p;
}

static inline void spin_us(double us)
{
    double end = now_s() + us * 1e-6;
    while (now_s() < end) {
    }
}

/* This process's port: the "#<port>" of the device it opens (the component's device_path,
 * else GBA_DEVICE), 0 when neither names one. Every process of a host has the same. */
static inline int world_port(void)
{
    const char *path = getenv("OMPI_MCA_coll_gba_barrier_device_path"), *hash;
    if (!path || !path[0]) {
        path = getenv("GBA_DEVICE");
    }
    hash = path ? strrchr(path, '#') : NULL;
    return hash ? atoi(hash + 1) : 0;
}
#endif
