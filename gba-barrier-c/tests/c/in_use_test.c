/* One team handle entered by two threads at once: the second gets GBA_ERR_IN_USE and nothing
 * happens to the team (no second episode, no destroy under the first thread's feet); handing
 * the handle to another thread afterwards is fine.
 *
 * A team of two ranks on ports 0 and 1, each rank a thread of this process. Rank 0 waits; its
 * device's progress hook runs inside that wait (rank 1 has not arrived yet), so rank 0's
 * thread is inside the team handle for certain while, from the hook:
 *   - the same thread calls gba_team_test on it (re-entry),
 *   - another thread calls gba_team_wait and gba_team_destroy on it,
 * and each must get GBA_ERR_IN_USE. Then rank 1 arrives and the episode completes. A second
 * episode is run with rank 0's handle used from the other thread. Exactly two episodes reach
 * the switch (tests/c_abi.rs checks BARRIERS_COMPLETED).
 *
 * usage: in_use_test FABRIC_DIR
 * Compiled with -std=c11 -Wall -Wextra -Werror -pedantic by tests/c_abi.rs. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "gba_barrier.h"

#define TIMEOUT_NS 60000000000ull

/* the out-of-band allgather of two threads: a part each, a sense-reversing meeting */
static unsigned char parts[2][512]; /* the library's vote is 208 bytes */
static _Atomic unsigned arrived, sense;

static void meet(unsigned *my_sense) {
    *my_sense ^= 1u;
    if (atomic_fetch_add(&arrived, 1) + 1 == 2) {
        atomic_store(&arrived, 0);
        atomic_store(&sense, *my_sense);
    } else {
        while (atomic_load(&sense) != *my_sense) {
            sched_yield();
        }
    }
}

struct rank {
    unsigned rank;
    unsigned sense;
    gba_device *dev;
    gba_team *team;
    gba_verdict verdict;
    int rc;
};

static int allgather(const void *send, void *recv, size_t len, void *ctx) {
    struct rank *r = ctx;
    if (len > sizeof parts[0]) {
        return -1;
    }
    memcpy(parts[r->rank], send, len);
    meet(&r->sense);
    memcpy(recv, parts[0], len);
    memcpy((unsigned char *)recv + len, parts[1], len);
    meet(&r->sense);
    return 0;
}

static struct rank ranks[2];

static void *create(void *arg) {
    struct rank *r = arg;
    r->rc = gba_team_create(r->dev, allgather, r, r->rank, 2, NULL, &r->team, &r->verdict);
    return NULL;
}

/* What the other threads do, in steps the main thread hands out. */
static _Atomic int step;
static int other_wait_rc, other_destroy_rc, same_thread_rc, hook_calls;
static char other_message[512];

static void *other_thread(void *arg) {
    (void)arg;
    while (atomic_load(&step) != 1) {
        sched_yield();
    }
    /* rank 0's thread is inside ranks[0].team (waiting in the hook) */
    other_wait_rc = gba_team_wait(ranks[0].team, TIMEOUT_NS);
    snprintf(other_message, sizeof other_message, "%s", gba_last_error());
    other_destroy_rc = gba_team_destroy(ranks[0].team);
    atomic_store(&step, 2);
    while (atomic_load(&step) != 3) {
        sched_yield();
    }
    /* the handle handed over: this thread runs rank 0's second episode */
    other_wait_rc = gba_team_wait(ranks[0].team, TIMEOUT_NS);
    return NULL;
}

static void *rank1_thread(void *arg) {
    (void)arg;
    while (atomic_load(&step) != 2) {
        sched_yield();
    }
    ranks[1].rc = gba_team_wait(ranks[1].team, TIMEOUT_NS);
    if (ranks[1].rc == GBA_OK) {
        ranks[1].rc = gba_team_wait(ranks[1].team, TIMEOUT_NS);
    }
    return NULL;
}

/* Runs inside rank 0's gba_team_wait, while rank 1 has not arrived. */
static void hook(void *arg) {
    int done = 0;
    (void)arg;
    if (hook_calls++ > 0) {
        return;
    }
    same_thread_rc = gba_team_test(ranks[0].team, &done);
    atomic_store(&step, 1);
    while (atomic_load(&step) != 2) {
        sched_yield();
    }
}

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fprintf(stderr, "\n");                                                             \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv) {
    char spec[4096];
    pthread_t t[2];
    int rc;
    if (argc != 2) {
        fprintf(stderr, "usage: %s FABRIC_DIR\n", argv[0]);
        return 2;
    }
    for (unsigned r = 0; r < 2; r++) {
        ranks[r].rank = r;
        snprintf(spec, sizeof spec, "sim:%s#%u", argv[1], r);
        rc = gba_device_open(spec, &ranks[r].dev);
        CHECK(rc == GBA_OK, "open %s: %s: %s", spec, gba_strerror(rc), gba_last_error());
    }
    pthread_create(&t[1], NULL, create, &ranks[1]);
    create(&ranks[0]);
    pthread_join(t[1], NULL);
    for (unsigned r = 0; r < 2; r++) {
        CHECK(ranks[r].rc == GBA_OK && ranks[r].verdict.offloaded, "rank %u: team: %s: %s", r,
              gba_strerror(ranks[r].rc), ranks[r].verdict.text);
    }

    gba_device_set_progress_hook(ranks[0].dev, hook, NULL);
    pthread_create(&t[0], NULL, other_thread, NULL);
    pthread_create(&t[1], NULL, rank1_thread, NULL);
    rc = gba_team_wait(ranks[0].team, TIMEOUT_NS);
    CHECK(rc == GBA_OK, "rank 0's first episode: %s: %s", gba_strerror(rc), gba_last_error());
    CHECK(hook_calls > 0, "the progress hook never ran inside the wait");
    CHECK(same_thread_rc == GBA_ERR_IN_USE, "re-entry from the same thread: %s, not GBA_ERR_IN_USE",
          gba_strerror(same_thread_rc));
    CHECK(other_wait_rc == GBA_ERR_IN_USE, "gba_team_wait from another thread meanwhile: %s, not "
          "GBA_ERR_IN_USE", gba_strerror(other_wait_rc));
    CHECK(strstr(other_message, "in use by another thread") != NULL,
          "the message does not say what is wrong: %s", other_message);
    CHECK(other_destroy_rc == GBA_ERR_IN_USE, "gba_team_destroy from another thread meanwhile: %s, "
          "not GBA_ERR_IN_USE", gba_strerror(other_destroy_rc));

    gba_device_set_progress_hook(ranks[0].dev, NULL, NULL);
    atomic_store(&step, 3);
    pthread_join(t[0], NULL);
    pthread_join(t[1], NULL);
    CHECK(other_wait_rc == GBA_OK, "rank 0's second episode, from another thread: %s",
          gba_strerror(other_wait_rc));
    CHECK(ranks[1].rc == GBA_OK, "rank 1: %s", gba_strerror(ranks[1].rc));
    for (unsigned r = 0; r < 2; r++) {
        CHECK(gba_team_destroy(ranks[r].team) == GBA_OK, "destroy rank %u: %s", r,
              gba_last_error());
        CHECK(gba_team_destroy(ranks[r].team) == GBA_ERR_BAD_HANDLE, "destroyed twice");
        CHECK(gba_device_close(ranks[r].dev) == GBA_OK, "close: %s", gba_last_error());
    }
    printf("c in use: ok (re-entry and a second thread refused with GBA_ERR_IN_USE; 2 episodes)\n");
    return 0;
}
