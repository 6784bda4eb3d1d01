// The lifecycle stage's guest program (tests/vm/lifecycle.sh): one process holding a claim on
// /dev/gbaN and its two mappings, driven line by line from standard input, so that the script
// can make the port go away (unbind, remove, reset, a driver swap) between two commands and
// then use the old file and the old mappings again, as a second user would.
//
//   lifecycle [--as UID] session DEV GROUP KEY
//       claims GROUP alone (a team of one, this port the only member) and maps its run-time
//       page and its flag memory; prints "session: won g=G flag_iova=0x..." (or why not).
//       Then one command a line, one answer a line each:
//         ring     read RELEASE_SEQ through the old mapping and store ARRIVAL (RELEASE_SEQ + 1):
//                  what rings another team's doorbell if the mapping outlived the port
//         reset    store CONTROL = RESET through the old mapping
//         arm      store CONTROL = ENABLE|ARM through the old mapping
//         check    this session's own group, read through its mapping: "flag F seq S control C"
//         state    GBA_IOC_STATE on the old file: "state: ok" or "state: errno NAME"
//         claim    GBA_IOC_CLAIM again on the old file (a new group): "claim: errno NAME" or
//                  its result
//         mmap     a new mmap of the run-time page on the old file: "mmap: ok" or "mmap: errno"
//         barrier N  N barriers of the team of one (arrive, wait for the flag, 5 s each):
//                  "barrier: N ok" or "barrier: stuck at E (flag F)"
//         close    unmaps both and closes the file: "close: done"
//       A store or load through a mapping the driver revoked is SIGBUS: caught, the answer is
//       "<command>: SIGBUS" and the session goes on.
//
// --as UID[:GID]: drop to UID (group GID, default 990: gba) first.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "gba_ioctl.h"
#include "gba_regs.h"

#define GBA_GID 990

static sigjmp_buf on_bus_error;

static void bus_error(int sig)
{
    (void)sig;
    siglongjmp(on_bus_error, 1);
}

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void become(const char *who)
{
    char *end;
    uid_t uid = (uid_t)strtoul(who, &end, 0);
    gid_t gid = *end == ':' ? (gid_t)strtoul(end + 1, NULL, 0) : GBA_GID;
    if (setgroups(1, &gid) != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
        perror("lifecycle: --as");
        exit(1);
    }
}

struct session {
    int fd;
    uint32_t port;
    uint32_t group;
    volatile uint8_t *run; // starts at CONTROL
    _Atomic uint64_t *flag;
};

static volatile uint64_t *reg(struct session *s, uint32_t offset)
{
    return (volatile uint64_t *)(s->run + offset - GBA_GROUP_CONTROL_OFFSET);
}

static void arrive(struct session *s, uint64_t seq)
{
    *reg(s, GBA_GROUP_ARRIVAL_OFFSET) = ((uint64_t)s->port << GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT) | (seq & 0xffffffffULL);
}

static int claim_group(int fd, uint32_t port, uint32_t group, uint64_t key, struct gba_claim_req *req)
{
    memset(req, 0, sizeof(*req));
    req->group = group;
    // The key's first 64 bits (a 64-bit key, or the first word of a 128-bit one): the same
    // source builds against either form of gba_ioctl.h's key.
    memcpy(&req->key, &key, sizeof(key));
    req->local = 1;
    req->members[port / 64] = 1ULL << (port % 64);
    return ioctl(fd, GBA_IOC_CLAIM, req);
}

// One command; the SIGBUS a revoked mapping raises comes back here through on_bus_error.
static void command(struct session *s, char *line)
{
    char *nl = strchr(line, '\n');
    if (nl)
        *nl = 0;
    if (sigsetjmp(on_bus_error, 1)) {
        printf("%s: SIGBUS\n", line);
        return;
    }
    if (strcmp(line, "ring") == 0) {
        uint64_t seq = *reg(s, GBA_GROUP_RELEASE_SEQ_OFFSET) & GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK;
        arrive(s, seq + 1);
        printf("ring: wrote seq %llu\n", (unsigned long long)(seq + 1));
    } else if (strcmp(line, "reset") == 0) {
        *reg(s, GBA_GROUP_CONTROL_OFFSET) = GBA_GROUP_CONTROL_RESET_MASK;
        printf("reset: wrote\n");
    } else if (strcmp(line, "arm") == 0) {
        *reg(s, GBA_GROUP_CONTROL_OFFSET) = GBA_GROUP_CONTROL_ENABLE_MASK | GBA_GROUP_CONTROL_ARM_MASK;
        printf("arm: wrote\n");
    } else if (strcmp(line, "check") == 0) {
        uint64_t flag = atomic_load(s->flag);
        uint64_t seq = *reg(s, GBA_GROUP_RELEASE_SEQ_OFFSET);
        uint64_t control = *reg(s, GBA_GROUP_CONTROL_OFFSET);
        printf("check: g=%u flag %llu seq %llu control %#llx\n", s->group, (unsigned long long)flag,
               (unsigned long long)seq, (unsigned long long)control);
    } else if (strcmp(line, "state") == 0) {
        struct gba_state st;
        if (ioctl(s->fd, GBA_IOC_STATE, &st) == 0)
            printf("state: ok\n");
        else
            printf("state: errno %s\n", strerrorname_np(errno));
    } else if (strcmp(line, "claim") == 0) {
        struct gba_claim_req req;
        if (claim_group(s->fd, s->port, (s->group + 1) % GBA_IOCTL_GROUPS, 0x5e55, &req) == 0)
            printf("claim: result %u reason %u\n", req.result, req.reason);
        else
            printf("claim: errno %s\n", strerrorname_np(errno));
    } else if (strcmp(line, "mmap") == 0) {
        uint64_t off = GBA_GROUP_OFFSET + (uint64_t)s->group * GBA_GROUP_STRIDE + GBA_GROUP_CONTROL_OFFSET;
        void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, (off_t)off);
        if (p == MAP_FAILED) {
            printf("mmap: errno %s\n", strerrorname_np(errno));
        } else {
            munmap(p, 4096);
            printf("mmap: ok\n");
        }
    } else if (strncmp(line, "barrier ", 8) == 0) {
        uint64_t n = strtoull(line + 8, NULL, 0), done = 0;
        uint64_t base = *reg(s, GBA_GROUP_RELEASE_SEQ_OFFSET) & GBA_GROUP_RELEASE_SEQ_SEQUENCE_MASK;
        for (; done < n; done++) {
            uint64_t e = base + done + 1;
            arrive(s, e);
            uint64_t end = now_ns() + 5000000000ULL;
            while (atomic_load_explicit(s->flag, memory_order_acquire) < e && now_ns() < end)
                sched_yield();
            if (atomic_load(s->flag) < e)
                break;
        }
        if (done == n)
            printf("barrier: %llu ok\n", (unsigned long long)n);
        else
            printf("barrier: stuck at %llu (flag %llu)\n", (unsigned long long)(base + done + 1),
                   (unsigned long long)atomic_load(s->flag));
    } else if (strcmp(line, "close") == 0) {
        munmap((void *)s->run, 4096);
        munmap((void *)s->flag, GBA_IOCTL_SHARED_SIZE);
        close(s->fd);
        printf("close: done\n");
    } else {
        printf("%s: unknown command\n", line);
    }
}

static int session(const char *dev, uint32_t group, uint64_t key)
{
    struct session s = { .group = group };
    struct gba_info info;
    struct gba_claim_req req;
    s.fd = open(dev, O_RDWR | O_CLOEXEC);
    if (s.fd < 0 || ioctl(s.fd, GBA_IOC_INFO, &info) != 0) {
        printf("session: open %s: %s\n", dev, strerror(errno));
        return 1;
    }
    s.port = info.port_id;
    if (claim_group(s.fd, s.port, group, key, &req) != 0 || req.result != GBA_CLAIM_WON) {
        printf("session: claim g=%u: %s (result %u reason %u)\n", group, strerror(errno), req.result, req.reason);
        return 1;
    }
    void *run = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s.fd, (off_t)req.run_offset);
    void *flag = mmap(NULL, GBA_IOCTL_SHARED_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, s.fd, (off_t)req.shared_offset);
    if (run == MAP_FAILED || flag == MAP_FAILED) {
        printf("session: mmap: %s\n", strerror(errno));
        return 1;
    }
    s.run = run;
    s.flag = flag;
    // The group is READY once the driver configured it.
    uint64_t end = now_ns() + 5000000000ULL;
    while (!(*reg(&s, GBA_GROUP_STATUS_OFFSET) & GBA_GROUP_STATUS_READY_MASK) && now_ns() < end)
        sched_yield();
    printf("session: won g=%u flag_iova=%#llx\n", group, (unsigned long long)req.flag_iova);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = bus_error;
    sigaction(SIGBUS, &sa, NULL);
    char line[128];
    while (fgets(line, sizeof(line), stdin))
        command(&s, line);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 2 && strcmp(argv[1], "--as") == 0) {
        become(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc == 5 && strcmp(argv[1], "session") == 0)
        return session(argv[2], (uint32_t)atoi(argv[3]), strtoull(argv[4], NULL, 0));
    fprintf(stderr, "usage: lifecycle [--as UID] session DEV GROUP KEY\n");
    return 2;
}
