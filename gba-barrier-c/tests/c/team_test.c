/* The team API from C: N processes (fork) create a team over an out-of-band allgather written
 * here (a shared mapping and a sense-reversing counter), all get the same verdict, run
 * barriers (alternating wait and arrive/test/wait_pending) and destroy the team; then a team
 * where two processes share a port (host combining: one member, one doorbell per episode).
 *
 * usage: team_test FABRIC_DIR MEMBERS EPISODES   (MEMBERS <= 16)
 * Compiled with -std=c11 -Wall -Wextra -Werror -pedantic by tests/c_abi.rs. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gba_barrier.h"

#define MAX_RANKS 16
#define MAX_BYTES 512 /* the library's vote is 208 bytes (docs/design/teams.md) */

/* The runtime's side: an allgather among the forked processes over shared memory. */
struct oob {
    _Atomic unsigned arrived;
    _Atomic unsigned sense;
    unsigned size;
    unsigned char parts[MAX_RANKS][MAX_BYTES];
    gba_verdict verdicts[MAX_RANKS];
};

struct ctx {
    struct oob *shared;
    unsigned rank;
    unsigned sense;
};

static void meet(struct ctx *c) {
    struct oob *s = c->shared;
    c->sense ^= 1u;
    if (atomic_fetch_add(&s->arrived, 1) + 1 == s->size) {
        atomic_store(&s->arrived, 0);
        atomic_store(&s->sense, c->sense);
    } else {
        while (atomic_load(&s->sense) != c->sense) {
            sched_yield();
        }
    }
}

static int allgather(const void *send, void *recv, size_t len, void *ctx) {
    struct ctx *c = ctx;
    if (len > MAX_BYTES) {
        return -1;
    }
    memcpy(c->shared->parts[c->rank], send, len);
    meet(c);
    for (unsigned r = 0; r < c->shared->size; r++) {
        memcpy((unsigned char *)recv + r * len, c->shared->parts[r], len);
    }
    meet(c);
    return 0;
}

static int rank_main(const char *fabric, unsigned rank, unsigned port, long episodes,
                     struct oob *shared) {
    char spec[4096];
    gba_device *dev = NULL;
    gba_team *team = NULL;
    gba_verdict verdict;
    struct ctx c = {shared, rank, 0};
    gba_team_params params = {GBA_DEFAULT_CONFIGURE_TIMEOUT_NS};
    int rc;

    snprintf(spec, sizeof spec, "sim:%s#%u", fabric, port);
    if ((rc = gba_device_open(spec, &dev)) != GBA_OK) {
        fprintf(stderr, "rank %u: open: %s: %s\n", rank, gba_strerror(rc), gba_last_error());
        return 1;
    }
    rc = gba_team_create(dev, allgather, &c, rank, shared->size, &params, &team, &verdict);
    if (rc != GBA_OK) {
        fprintf(stderr, "rank %u: team_create: %s: %s\n", rank, gba_strerror(rc),
                gba_last_error());
        return 1;
    }
    shared->verdicts[rank] = verdict;
    if (!verdict.offloaded) {
        if (team != NULL || gba_team_wait(team, 0) != GBA_ERR_NULL) {
            fprintf(stderr, "rank %u: a fallback must give no team\n", rank);
            return 1;
        }
        return gba_device_close(dev) == GBA_OK ? 0 : 1;
    }
    /* the runtime's own policy: odd ranks yield, even ones spin; the episodes below must
     * complete alike. A value that names no policy and a NULL team are refused. */
    rc = gba_team_set_wait_policy(team, rank % 2 ? GBA_WAIT_YIELD : GBA_WAIT_SPIN);
    if (rc != GBA_OK || gba_team_set_wait_policy(NULL, GBA_WAIT_YIELD) != GBA_ERR_NULL ||
        gba_team_set_wait_policy(team, 7) != GBA_ERR_INVALID ||
        strstr(gba_last_error(), "7 is not a policy") == NULL) {
        fprintf(stderr, "rank %u: gba_team_set_wait_policy: %d, then: %s\n", rank, rc,
                gba_last_error());
        return 1;
    }
    for (long e = 0; e < episodes; e++) {
        if (e % 2 == 0) {
            rc = gba_team_wait(team, 60000000000ull);
        } else {
            int done = 0;
            rc = gba_team_arrive(team);
            if (rc == GBA_OK) {
                rc = gba_team_test(team, &done);
            }
            if (rc == GBA_OK && !done) {
                rc = gba_team_wait_pending(team, 60000000000ull);
            }
        }
        if (rc != GBA_OK) {
            fprintf(stderr, "rank %u episode %ld: %s: %s\n", rank, e, gba_strerror(rc),
                    gba_last_error());
            return 1;
        }
    }
    if (gba_device_close(dev) != GBA_ERR_BUSY || gba_team_destroy(team) != GBA_OK ||
        gba_team_destroy(team) != GBA_ERR_BAD_HANDLE || gba_device_close(dev) != GBA_OK) {
        fprintf(stderr, "rank %u: destroy/close order not enforced\n", rank);
        return 1;
    }
    return 0;
}

/* Runs one team of `size` processes, rank r on ports[r]; 0 when every process succeeded and
 * all verdicts are byte-for-byte the same. */
static int run_team(const char *fabric, unsigned size, const unsigned *ports, long episodes,
                    struct oob *shared, gba_verdict *out) {
    memset(shared, 0, sizeof *shared);
    shared->size = size;
    for (unsigned r = 0; r < size; r++) {
        pid_t pid = fork();
        if (pid == 0) {
            _exit(rank_main(fabric, r, ports[r], episodes, shared));
        }
    }
    int ok = 1;
    for (unsigned r = 0; r < size; r++) {
        int status = 0;
        wait(&status);
        ok &= WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    for (unsigned r = 1; r < size; r++) {
        ok &= memcmp(&shared->verdicts[r], &shared->verdicts[0], sizeof(gba_verdict)) == 0;
    }
    *out = shared->verdicts[0];
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s FABRIC_DIR MEMBERS EPISODES\n", argv[0]);
        return 2;
    }
    const char *fabric = argv[1];
    unsigned members = (unsigned)atoi(argv[2]);
    long episodes = atol(argv[3]);
    unsigned ports[MAX_RANKS];
    gba_verdict verdict;
    if (members < 2 || members > MAX_RANKS) {
        fprintf(stderr, "MEMBERS must be 2..%d\n", MAX_RANKS);
        return 2;
    }
    struct oob *shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (unsigned r = 0; r < members; r++) {
        ports[r] = r;
    }
    if (run_team(fabric, members, ports, episodes, shared, &verdict) || !verdict.offloaded ||
        verdict.reason != GBA_OK || verdict.rank != -1) {
        fprintf(stderr, "offloaded team failed: %s\n", verdict.text);
        return 1;
    }
    printf("c team: offloaded on group %u: %s\n", verdict.group, verdict.text);
    ports[1] = 0; /* ranks 0 and 1 share port 0: host combining, one member of two processes */
    if (run_team(fabric, members, ports, episodes, shared, &verdict) || !verdict.offloaded ||
        verdict.rank != -1) {
        fprintf(stderr, "combined team failed: rank %d reason %d: %s\n", verdict.rank,
                verdict.reason, verdict.text);
        return 1;
    }
    printf("c team: ok (%u processes, %ld episodes; ranks 0 and 1 on one port: %s)\n", members,
           episodes, verdict.text);
    return 0;
}
