/* Baseline without MPI: N processes (fork) on ports 0..N-1 of a fabric run gba_barrier_wait
 * in a loop; prints the slowest process's average latency in microseconds. bench.sh uses it
 * to separate what the simulator costs from what the MPI component adds. Process p is bound to
 * core p mod ncores, as mpirun binds ranks.
 * Every wait is bounded (GBA_RAW_TIMEOUT_S seconds, default 60): a member that cannot
 * configure its group or complete an episode prints the library's error, which names what it
 * waited for and who is missing, and the others are stopped, instead of the run hanging (a
 * wait without a limit once hung here for 13 minutes behind a killed job's group).
 * Usage: raw_barrier FABRIC-DIR NPROCS ITERS */
#include <signal.h>
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

static uint64_t timeout_ns(void)
{
    const char *s = getenv("GBA_RAW_TIMEOUT_S");
    long v = s ? atol(s) : 0;
    return (uint64_t)(v > 0 ? v : 60) * 1000000000ull;
}

static int member(const char *fabric, int port, int n, int iters, int fd)
{
    uint64_t limit = timeout_ns();
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
    if ((rc = gba_device_open(path, &dev)) || (rc = gba_barrier_create(dev, 0, &mask, 1, limit, &b))) {
        fprintf(stderr, "port %d: %s: %s\n", port, gba_strerror(rc), gba_last_error());
        return 1;
    }
    for (int i = 0; i < 100; i++) {
        if ((rc = gba_barrier_wait(b, limit))) {
            fprintf(stderr, "port %d: %s: %s\n", port, gba_strerror(rc), gba_last_error());
            return 1;
        }
    }
    t0 = now_s();
    for (int i = 0; i < iters; i++) {
        if ((rc = gba_barrier_wait(b, limit))) {
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
    pid_t pids[1024];
    double worst = 0, us;
    if (argc != 4) {
        fprintf(stderr, "usage: raw_barrier FABRIC-DIR NPROCS ITERS\n");
        return 2;
    }
    n = atoi(argv[2]);
    if (n < 1 || n > 1024) {
        fprintf(stderr, "raw_barrier: NPROCS must be 1..1024, not %s\n", argv[2]);
        return 2;
    }
    iters = atoi(argv[3]);
    if (pipe(fds)) {
        return 1;
    }
    for (int p = 0; p < n; p++) {
        if (0 == (pids[p] = fork())) {
            _exit(member(argv[1], p, n, iters, fds[1]));
        }
    }
    close(fds[1]);
    for (int p = 0; p < n; p++) {
        int st;
        pid_t done = wait(&st);
        if (!WIFEXITED(st) || WEXITSTATUS(st)) {
            /* the others would wait for it until their limit: stop them now */
            if (!bad) {
                for (int q = 0; q < n; q++) {
                    if (pids[q] > 0 && pids[q] != done) {
                        kill(pids[q], SIGKILL);
                    }
                }
            }
            bad = 1;
        }
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
