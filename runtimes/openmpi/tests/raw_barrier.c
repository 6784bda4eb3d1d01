/* Baseline without MPI: N processes (fork) on ports 0..N-1 of a fabric run gba_barrier_wait
 * in a loop; prints the slowest process's average latency in microseconds. bench.sh uses it
 * to separate what the simulator costs from what the MPI component adds. Process p is bound to
 * core p mod ncores, as mpirun binds ranks.
 * Usage: raw_barrier FABRIC-DIR NPROCS ITERS */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "gba_barrier.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int member(const char *fabric, int port, int n, int iters, int fd)
{
    char path[512];
    gba_device *dev;
    gba_barrier *b;
    uint64_t mask = (n >= 64) ? ~UINT64_C(0) : ((UINT64_C(1) << n) - 1);
    double t0, us;
    int rc;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(port % sysconf(_SC_NPROCESSORS_ONLN), &cpus);
    sched_setaffinity(0, sizeof(cpus), &cpus);
    snprintf(path, sizeof(path), "sim:%s#%d", fabric, port);
    if ((rc = gba_device_open(path, &dev)) || (rc = gba_barrier_create(dev, 0, &mask, 1, 0, &b))) {
        fprintf(stderr, "port %d: %s: %s\n", port, gba_strerror(rc), gba_last_error());
        return 1;
    }
    for (int i = 0; i < 100; i++) {
        gba_barrier_wait(b, 0);
    }
    t0 = now_s();
    for (int i = 0; i < iters; i++) {
        if ((rc = gba_barrier_wait(b, 0))) {
            fprintf(stderr, "port %d: %s: %s\n", port, gba_strerror(rc), gba_last_error());
            return 1;
        }
    }
    us = (now_s() - t0) / iters * 1e6;
    if (write(fd, &us, sizeof(us)) != sizeof(us)) {
        return 1;
    }
    gba_barrier_destroy(b);
    gba_device_close(dev);
    return 0;
}

int main(int argc, char **argv)
{
    int fds[2], n, iters, bad = 0;
    double worst = 0, us;
    if (argc != 4) {
        fprintf(stderr, "usage: raw_barrier FABRIC-DIR NPROCS ITERS\n");
        return 2;
    }
    n = atoi(argv[2]);
    iters = atoi(argv[3]);
    if (pipe(fds)) {
        return 1;
    }
    for (int p = 0; p < n; p++) {
        if (0 == fork()) {
            _exit(member(argv[1], p, n, iters, fds[1]));
        }
    }
    close(fds[1]);
    for (int p = 0; p < n; p++) {
        int st;
        wait(&st);
        bad |= !WIFEXITED(st) || WEXITSTATUS(st);
    }
    while (read(fds[0], &us, sizeof(us)) == sizeof(us)) {
        worst = us > worst ? us : worst;
    }
    if (bad) {
        return 1;
    }
    printf("%.3f\n", worst);
    return 0;
}
