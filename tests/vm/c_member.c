// The C ABI's member of tests/vm/cluster.sh: the same command line and output lines as
// gba-barrier/examples/vm_member.rs, through gba_barrier.h only, so a guest can run either.
//
// c_member ADDRESS MEMBERS GROUP EPISODES [--rounds R --pause-ms P] [--then-until-timeout S]
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gba_barrier.h"

static const uint64_t START_NS = 600ull * 1000000000ull;
static const uint64_t EPISODE_NS = 60ull * 1000000000ull;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

// Prints "N episodes, median X ns, p99 Y ns, min Z ns" of samples[0..n] (sorted here).
static void summary(uint64_t *samples, size_t n) {
    qsort(samples, n, sizeof *samples, by_value);
    size_t median = (n + 1) / 2, p99 = (size_t)((double)n * 0.99 + 0.999999);
    if (p99 < 1) p99 = 1;
    if (p99 > n) p99 = n;
    printf("%zu episodes, median %llu ns, p99 %llu ns, min %llu ns\n", n,
           (unsigned long long)samples[median - 1], (unsigned long long)samples[p99 - 1],
           (unsigned long long)samples[0]);
}

static int fail(const char *what, int status) {
    printf("member: error: %s: %s: %s\n", what, gba_strerror(status), gba_last_error());
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        printf("member: error: usage: c_member ADDRESS MEMBERS GROUP EPISODES "
               "[--rounds R --pause-ms P] [--then-until-timeout S]\n");
        return 1;
    }
    const char *address = argv[1];
    unsigned members = (unsigned)atoi(argv[2]), group = (unsigned)atoi(argv[3]);
    size_t episodes = (size_t)atol(argv[4]), rounds = 1;
    long pause_ms = 0, until_s = -1;
    for (int i = 5; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--rounds") == 0) rounds = (size_t)atol(argv[i + 1]);
        else if (strcmp(argv[i], "--pause-ms") == 0) pause_ms = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--then-until-timeout") == 0) until_s = atol(argv[i + 1]);
        else {
            printf("member: error: unknown option %s\n", argv[i]);
            return 1;
        }
    }
    if (members == 0 || members > 64 || rounds == 0 || episodes == 0) {
        printf("member: error: MEMBERS must be 1 to 64 here, EPISODES and --rounds at least 1\n");
        return 1;
    }
    gba_device *device = NULL;
    gba_barrier *barrier = NULL;
    gba_device_info info;
    int status = gba_device_open(address, &device);
    if (status != GBA_OK) return fail("open", status);
    if ((status = gba_device_info_get(device, &info)) != GBA_OK) return fail("info", status);
    uint64_t mask = members == 64 ? ~0ull : (1ull << members) - 1;
    status = gba_barrier_create(device, group, &mask, 1, START_NS, &barrier);
    if (status != GBA_OK) return fail("configure", status);
    if ((status = gba_barrier_wait(barrier, START_NS)) != GBA_OK) return fail("start", status);
    uint64_t *all = malloc(sizeof(uint64_t) * episodes * rounds);
    if (all == NULL) return 1;
    for (size_t r = 1; r <= rounds; r++) {
        uint64_t *samples = all + (r - 1) * episodes;
        for (size_t k = 0; k < episodes; k++) {
            uint64_t start = now_ns();
            if ((status = gba_barrier_wait(barrier, EPISODE_NS)) != GBA_OK) return fail("wait", status);
            samples[k] = now_ns() - start;
        }
        printf("member %u: round %zu: ", info.port_id, r);
        summary(samples, episodes);
        fflush(stdout);
        if (r < rounds) {
            struct timespec pause = {pause_ms / 1000, (pause_ms % 1000) * 1000000};
            nanosleep(&pause, NULL);
        }
    }
    printf("member %u: ", info.port_id);
    summary(all, episodes * rounds);
    fflush(stdout);
    free(all);
    if (until_s < 0) {
        gba_barrier_destroy(barrier);
        gba_device_close(device);
        return 0;
    }
    for (unsigned long long more = 0;; more++) {
        status = gba_barrier_wait(barrier, (uint64_t)until_s * 1000000000ull);
        if (status != GBA_OK) {
            printf("member %u: after %llu more episodes: %s\n", info.port_id, more, gba_last_error());
            return 2;
        }
    }
}
