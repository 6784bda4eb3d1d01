/* Helpers shared by the coll/gba_barrier test programs. */
#ifndef GBATEST_H
#define GBATEST_H
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric_status.h"

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
