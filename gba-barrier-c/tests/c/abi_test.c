/* The C ABI from C: every bad input is refused with its code, and N processes run barriers
 * on a simulator fabric, checked by an independent observer in shared memory.
 *
 * usage: abi_test FABRIC_DIR MEMBERS EPISODES
 * Compiled with -std=c11 -Wall -Wextra -Werror -pedantic by tests/c_abi.rs. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gba_barrier.h"
#include "gba_regs.h" /* both headers in one translation unit: the register map's limits */

static int failures;

#define EXPECT(call, expected)                                                                  \
    do {                                                                                        \
        int got_ = (call);                                                                      \
        if (got_ != (expected)) {                                                               \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %d: %s\n", __FILE__, __LINE__, \
                    #call, got_, gba_strerror(got_), (expected), gba_last_error());             \
            failures++;                                                                         \
        }                                                                                       \
    } while (0)

static void bad_inputs(const char *fabric) {
    char spec[4096];
    gba_device *dev = NULL;
    gba_barrier *bar = NULL;
    uint64_t mask[GBA_MEMBER_WORDS + 1] = {0};
    int done = 0;
    char buf[256];

    unsetenv("GBA_DEVICE");
    EXPECT(gba_device_open(NULL, &dev), GBA_ERR_NO_DEVICE);
    if (strlen(gba_last_error()) == 0) {
        fprintf(stderr, "gba_last_error is empty after a failure\n");
        failures++;
    }
    EXPECT(gba_device_open("sim:/nonexistent/fabric#0", &dev), GBA_ERR_NO_DEVICE);
    EXPECT(gba_device_open("sim:#0", &dev), GBA_ERR_NO_DEVICE);
    if (strstr(gba_last_error(), "no fabric directory") == NULL) {
        fprintf(stderr, "an empty fabric path: %s\n", gba_last_error());
        failures++;
    }
    snprintf(spec, sizeof spec, "sim:%s#999", fabric);
    EXPECT(gba_device_open(spec, &dev), GBA_ERR_NO_DEVICE);
    EXPECT(gba_device_open("/dev/null", &dev), GBA_ERR_NO_DEVICE);
    snprintf(spec, sizeof spec, "sim:%s#0", fabric);
    EXPECT(gba_device_open(spec, NULL), GBA_ERR_NULL);

    EXPECT(gba_device_close(NULL), GBA_ERR_NULL);
    EXPECT(gba_device_close((gba_device *)(uintptr_t)0x1234), GBA_ERR_BAD_HANDLE);
    EXPECT(gba_barrier_wait(NULL, 0), GBA_ERR_NULL);
    EXPECT(gba_barrier_wait((gba_barrier *)(uintptr_t)0xdead0, 0), GBA_ERR_BAD_HANDLE);

    EXPECT(gba_device_open(spec, &dev), GBA_OK);
    gba_device_info info;
    EXPECT(gba_device_info_get(dev, NULL), GBA_ERR_NULL);
    EXPECT(gba_device_info_get(dev, &info), GBA_OK);
    /* The header: "" after a success, not the previous call's error. */
    if (strcmp(gba_last_error(), "") != 0) {
        fprintf(stderr, "gba_last_error after a success: %s\n", gba_last_error());
        failures++;
    }
    if (info.port_id != 0 || info.max_groups != GBA_MAX_GROUPS || info.max_members != GBA_MAX_MEMBERS) {
        fprintf(stderr, "identity: port %u groups %u members %u\n", info.port_id,
                info.max_groups, info.max_members);
        failures++;
    }
    /* A device handle is not a barrier handle. */
    EXPECT(gba_barrier_wait((gba_barrier *)dev, 0), GBA_ERR_BAD_HANDLE);

    mask[0] = 1; /* member 0: this port, alone */
    EXPECT(gba_barrier_create(dev, 40, mask, 1, 0, &bar), GBA_ERR_INVALID);
    EXPECT(gba_barrier_create(dev, 1, mask, GBA_MEMBER_WORDS + 1, 0, &bar), GBA_ERR_INVALID);
    EXPECT(gba_barrier_create(dev, 1, NULL, 1, 0, &bar), GBA_ERR_NULL);
    EXPECT(gba_barrier_create(dev, 1, mask, 1, 0, NULL), GBA_ERR_NULL);
    mask[0] = 2; /* member 1 only: this port is not a member */
    EXPECT(gba_barrier_create(dev, 1, mask, 1, 0, &bar), GBA_ERR_INVALID);
    mask[0] = 0;
    EXPECT(gba_barrier_create(dev, 1, mask, 1, 0, &bar), GBA_ERR_INVALID);
    mask[GBA_MEMBER_WORDS - 1] = 1ULL << 63; /* the last member a mask holds: beyond MAX_MEMBERS */
    mask[0] = 1;
    EXPECT(gba_barrier_create(dev, 1, mask, GBA_MEMBER_WORDS, 0, &bar), GBA_ERR_INVALID);
    mask[GBA_MEMBER_WORDS - 1] = 0;
    /* Members 0 and 1, but member 1 never configures: READY never comes. */
    mask[0] = 3;
    EXPECT(gba_barrier_create(dev, 1, mask, 1, 20 * 1000 * 1000, &bar), GBA_ERR_TIMEOUT);

    /* A solo group works; misuse of its split phase is refused. */
    mask[0] = 1;
    EXPECT(gba_barrier_create(dev, 2, mask, 1, 0, &bar), GBA_OK);
    EXPECT(gba_barrier_test(bar, &done), GBA_ERR_PENDING);
    EXPECT(gba_barrier_wait_pending(bar, 0), GBA_ERR_PENDING);
    EXPECT(gba_barrier_arrive(bar), GBA_OK);
    EXPECT(gba_barrier_arrive(bar), GBA_ERR_PENDING);
    /* Advice in C's terms. */
    if (strstr(gba_last_error(), "gba_barrier_wait_pending") == NULL ||
        strstr(gba_last_error(), "::") != NULL) {
        fprintf(stderr, "pending advice not in C: %s\n", gba_last_error());
        failures++;
    }
    EXPECT(gba_barrier_test(bar, NULL), GBA_ERR_NULL);
    EXPECT(gba_barrier_wait_pending(bar, 0), GBA_OK);
    EXPECT(gba_barrier_wait(bar, 0), GBA_OK);
    EXPECT(gba_barrier_diagnose(bar, buf, sizeof buf), GBA_OK);
    if (strstr(buf, "group 2") == NULL) {
        fprintf(stderr, "diagnosis without the group: %s\n", buf);
        failures++;
    }
    EXPECT(gba_barrier_diagnose(bar, NULL, 10), GBA_ERR_NULL);
    EXPECT(gba_barrier_diagnose(bar, buf, 0), GBA_ERR_INVALID);
    EXPECT(gba_device_close(dev), GBA_ERR_BUSY);
    EXPECT(gba_barrier_destroy(bar), GBA_OK);
    EXPECT(gba_barrier_destroy(bar), GBA_ERR_BAD_HANDLE);
    EXPECT(gba_barrier_wait(bar, 0), GBA_ERR_BAD_HANDLE);
    EXPECT(gba_device_close(dev), GBA_OK);
    EXPECT(gba_device_close(dev), GBA_ERR_BAD_HANDLE);
    for (int code = 0; code >= -13; code--) {
        if (gba_strerror(code) == NULL || strncmp(gba_strerror(code), "GBA_", 4) != 0) {
            fprintf(stderr, "gba_strerror(%d) unnamed\n", code);
            failures++;
        }
    }
}

/* One member process: EPISODES barriers, alternately blocking and split phase. */
static int member(const char *fabric, int me, int members, long episodes, _Atomic long *entered) {
    char spec[4096];
    gba_device *dev = NULL;
    gba_barrier *bar = NULL;
    uint64_t mask[GBA_MEMBER_WORDS] = {0};
    for (int m = 0; m < members; m++) {
        mask[m / 64] |= 1ULL << (m % 64);
    }
    snprintf(spec, sizeof spec, "sim:%s#%d", fabric, me);
    EXPECT(gba_device_open(spec, &dev), GBA_OK);
    /* The members agreed on group 5 beforehand (main checked that it is free): checking
     * here would race with the members that already claimed it. */
    EXPECT(gba_barrier_create(dev, 5, mask, GBA_MEMBER_WORDS, 30ULL * 1000 * 1000 * 1000, &bar), GBA_OK);
    if (failures) {
        return 1;
    }
    for (long k = 1; k <= episodes; k++) {
        atomic_store(&entered[me], k);
        if (k % 2) {
            EXPECT(gba_barrier_wait(bar, 30ULL * 1000 * 1000 * 1000), GBA_OK);
        } else {
            int done = 0;
            EXPECT(gba_barrier_arrive(bar), GBA_OK);
            while (!done && failures == 0) {
                EXPECT(gba_barrier_test(bar, &done), GBA_OK);
            }
        }
        for (int j = 0; j < members; j++) {
            if (atomic_load(&entered[j]) < k) {
                fprintf(stderr, "member %d left episode %ld before member %d entered it\n", me, k, j);
                return 1;
            }
        }
        if (failures) {
            return 1;
        }
    }
    /* Leave only when everyone is done: destroying resets the group on this port. */
    atomic_store(&entered[me], episodes + 1);
    for (int j = 0; j < members; j++) {
        while (atomic_load(&entered[j]) <= episodes) {
            gba_device_progress(dev);
        }
    }
    EXPECT(gba_barrier_destroy(bar), GBA_OK);
    EXPECT(gba_device_close(dev), GBA_OK);
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s FABRIC_DIR MEMBERS EPISODES\n", argv[0]);
        return 2;
    }
    const char *fabric = argv[1];
    int members = atoi(argv[2]);
    long episodes = atol(argv[3]);
    bad_inputs(fabric);
    if (failures) {
        fprintf(stderr, "c abi: %d bad-input check(s) failed\n", failures);
        return 1;
    }
    {
        /* The agreement every member would reach: group 5 is free on the whole switch. */
        char spec[4096];
        gba_device *dev = NULL;
        uint32_t free_groups = 0;
        snprintf(spec, sizeof spec, "sim:%s#0", fabric);
        EXPECT(gba_device_open(spec, &dev), GBA_OK);
        EXPECT(gba_device_free_groups(dev, &free_groups), GBA_OK);
        EXPECT(gba_device_free_groups(dev, NULL), GBA_ERR_NULL);
        EXPECT(gba_device_close(dev), GBA_OK);
        if ((free_groups & (1u << 5)) == 0 || failures) {
            fprintf(stderr, "group 5 is not free (%#x)\n", free_groups);
            return 1;
        }
    }
    _Atomic long *entered = mmap(NULL, sizeof(long) * (size_t)members, PROT_READ | PROT_WRITE,
                                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (entered == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (int m = 0; m < members; m++) {
        atomic_init(&entered[m], 0);
    }
    for (int m = 0; m < members; m++) {
        pid_t pid = fork();
        if (pid == 0) {
            _exit(member(fabric, m, members, episodes, entered));
        }
    }
    int ok = 1;
    for (int m = 0; m < members; m++) {
        int status = 0;
        wait(&status);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            ok = 0;
        }
    }
    printf("c abi: %s (%d processes, %ld episodes)\n", ok ? "ok" : "FAILED", members, episodes);
    return ok ? 0 : 1;
}
