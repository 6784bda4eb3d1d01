// The kernel driver's guest test (tests/vm/kernel.sh): teams, attacks and a killed holder over
// /dev/gbaN, through the driver's ioctls and mmaps alone (driver/gba_ioctl.h).
//
//   kernel_test [--as UID] info DEV
//   kernel_test [--as UID] claims DEV
//   kernel_test [--as UID] team DEV GROUP KEY LOCAL MIN_EPISODES STOP_FILE
//       LOCAL processes (forked) claim or join GROUP with KEY and run barriers, combining their
//       arrivals, until STOP_FILE exists and at least MIN_EPISODES ran; after each release every
//       process checks that all LOCAL had entered the episode (else EARLY RELEASE). Prints
//       "team G: ok: N episodes, L processes, uid U" and the latency's min and median.
//   kernel_test [--as UID] hold DEV GROUP KEY      claims GROUP alone and sleeps ("held G")
//   kernel_test [--as UID] attack DEV GROUP KEY    every attack on another uid's GROUP (KEY
//       stolen); one line per attack, "refused: NAME (why)" or "BREACH: NAME (what)"
//   kernel_test [--as UID] claim DEV GROUP KEY     one claim; prints its result and reason
//   kernel_test [--as UID] exec PROGRAM ARGS...    runs PROGRAM as UID (gba dump, vm_team)
//   kernel_test [--as UID] revoke DEV N GO_FILE    claims groups 0..N-1 (a file each), maps
//       and touches their pages, prints "held N", waits for GO_FILE (the port removed or reset
//       meanwhile), then checks what an old file and its mappings get: ENODEV from ioctl and
//       mmap, SIGBUS from a load of the flag and from a store to ARRIVAL (in children).
//
// --as UID[:GID]: drop to UID with group GID (default gba, 990) before anything, as a job's process would run.
// Exit 0 when everything asked for held, 1 otherwise.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gba_ioctl.h"
#include "gba_regs.h"

#define GBA_GID 990
#define WAIT_NS (10ULL * 1000000000ULL)

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static int open_dev(const char *dev)
{
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "kernel_test: open %s: %s\n", dev, strerror(errno));
        exit(1);
    }
    return fd;
}

static struct gba_info info_of(int fd)
{
    struct gba_info info;
    if (ioctl(fd, GBA_IOC_INFO, &info) != 0) {
        perror("kernel_test: GBA_IOC_INFO");
        exit(1);
    }
    return info;
}

static const char *result_name(uint32_t r)
{
    switch (r) {
    case GBA_CLAIM_WON: return "won";
    case GBA_CLAIM_JOINED: return "joined";
    case GBA_CLAIM_BUSY: return "busy";
    case GBA_CLAIM_DENIED: return "denied";
    default: return "?";
    }
}

static const char *reason_name(uint32_t r)
{
    switch (r) {
    case GBA_REASON_NONE: return "none";
    case GBA_REASON_OTHER_TEAM: return "held by another team";
    case GBA_REASON_QUOTA: return "quota";
    case GBA_REASON_MEMBERS: return "member set differs";
    case GBA_REASON_INDEX: return "local index taken";
    case GBA_REASON_RESET_TIMEOUT: return "reset timeout";
    case GBA_REASON_NO_MEMORY: return "no DMA memory";
    default: return "?";
    }
}

// A claim of GROUP for a team of LOCAL on this port whose member set is this port alone.
static struct gba_claim_req claim(int fd, uint32_t port, uint32_t group, uint64_t key, uint32_t local, uint32_t index)
{
    struct gba_claim_req req;
    memset(&req, 0, sizeof(req));
    req.group = group;
    req.key[0] = key;
    req.key[1] = 0x5eed;
    req.local = local;
    req.index = index;
    req.members[port / 64] = 1ULL << (port % 64);
    if (ioctl(fd, GBA_IOC_CLAIM, &req) != 0) {
        fprintf(stderr, "kernel_test: GBA_IOC_CLAIM group %u: %s\n", group, strerror(errno));
        exit(1);
    }
    return req;
}

static void *map(int fd, uint64_t off, size_t len)
{
    return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// One process of a team: claim or join, then barriers until told to stop. 0 when all held.
static int team_member(const char *dev, uint32_t group, uint64_t key, uint32_t local, uint32_t index,
                       uint64_t min_episodes, const char *stop_file)
{
    int fd = open_dev(dev);
    struct gba_info info = info_of(fd);
    struct gba_claim_req req;
    uint64_t deadline = now_ns() + WAIT_NS;
    // A team-mate may hold a claim being configured: nothing to wait for with the driver
    // (its claim ioctl returns with the group configured), so one call decides.
    req = claim(fd, info.port_id, group, key, local, index);
    if (req.result != GBA_CLAIM_WON && req.result != GBA_CLAIM_JOINED) {
        fprintf(stderr, "team %u[%u]: claim %s (%s)\n", group, index, result_name(req.result), reason_name(req.reason));
        return 1;
    }
    volatile uint8_t *run = map(fd, req.run_offset, 4096);
    uint8_t *shared = map(fd, req.shared_offset, GBA_IOCTL_SHARED_SIZE);
    if (run == MAP_FAILED || shared == MAP_FAILED) {
        fprintf(stderr, "team %u[%u]: mmap of its own pages: %s\n", group, index, strerror(errno));
        return 1;
    }
    // The run page starts at CONTROL.
    volatile uint64_t *status = (volatile uint64_t *)(run + GBA_GROUP_STATUS_OFFSET - GBA_GROUP_CONTROL_OFFSET);
    volatile uint64_t *arrival = (volatile uint64_t *)(run + GBA_GROUP_ARRIVAL_OFFSET - GBA_GROUP_CONTROL_OFFSET);
    _Atomic uint64_t *flag = (_Atomic uint64_t *)shared;
    _Atomic uint64_t *arrivals = (_Atomic uint64_t *)(shared + GBA_IOCTL_LINE);
    _Atomic uint64_t *entered = (_Atomic uint64_t *)(shared + 2 * GBA_IOCTL_LINE);
    // Past the combining block: the episode the team stops after (set by index 0).
    _Atomic uint64_t *stop_at = (_Atomic uint64_t *)(shared + (2 + GBA_IOCTL_MAX_LOCAL) * GBA_IOCTL_LINE);
    while (!(*status & GBA_GROUP_STATUS_READY_MASK)) {
        if ((*status & GBA_GROUP_STATUS_ERROR_MASK) || now_ns() > deadline) {
            fprintf(stderr, "team %u[%u]: not READY: STATUS %#llx\n", group, index, (unsigned long long)*status);
            return 1;
        }
    }
    size_t cap = 1 << 20, n = 0;
    uint64_t *lat = malloc(cap * sizeof(uint64_t));
    int early = 0;
    for (uint64_t e = 1;; e++) {
        uint64_t t0 = now_ns();
        atomic_store_explicit(&entered[index * (GBA_IOCTL_LINE / 8)], e, memory_order_release);
        uint64_t old = atomic_fetch_add_explicit(arrivals, 1, memory_order_acq_rel);
        if ((old + 1) % local == 0) {
            uint64_t seq = (old + 1) / local;
            *arrival = ((uint64_t)info.port_id << GBA_GROUP_ARRIVAL_MEMBER_ID_SHIFT) | (seq & 0xffffffffULL);
        }
        uint64_t wait_end = now_ns() + WAIT_NS;
        // More processes than vCPUs spin here: past a while, give the team-mate the CPU.
        for (unsigned spins = 0; atomic_load_explicit(flag, memory_order_acquire) < e; spins++) {
            if (spins > 1000)
                sched_yield();
            if (now_ns() > wait_end) {
                fprintf(stderr, "team %u[%u]: episode %llu not released in 10 s (flag %llu, STATUS %#llx)\n", group, index,
                        (unsigned long long)e, (unsigned long long)atomic_load(flag), (unsigned long long)*status);
                return 1;
            }
        }
        if (n < cap)
            lat[n++] = now_ns() - t0;
        for (uint32_t j = 0; j < local; j++) {
            uint64_t got = atomic_load_explicit(&entered[j * (GBA_IOCTL_LINE / 8)], memory_order_acquire);
            if (got < e) {
                fprintf(stderr, "EARLY RELEASE: team %u: episode %llu released while process %u had entered only %llu\n",
                        group, (unsigned long long)e, j, (unsigned long long)got);
                early++;
            }
        }
        if (index == 0 && e >= min_episodes && atomic_load(stop_at) == 0 && access(stop_file, F_OK) == 0)
            atomic_store(stop_at, e + 2);
        uint64_t s = atomic_load(stop_at);
        if (s != 0 && e >= s)
            break;
    }
    qsort(lat, n, sizeof(uint64_t), cmp_u64);
    if (index == 0)
        printf("team %u: %s: %zu episodes, %u processes, uid %u, latency min %llu ns median %llu ns\n", group,
               early ? "FAILED" : "ok", n, local, (unsigned)getuid(), (unsigned long long)lat[0],
               (unsigned long long)lat[n / 2]);
    return early != 0;
}

static int team(const char *dev, uint32_t group, uint64_t key, uint32_t local, uint64_t min_episodes, const char *stop)
{
    pid_t pids[GBA_IOCTL_MAX_LOCAL];
    for (uint32_t i = 0; i < local; i++) {
        pids[i] = fork();
        if (pids[i] == 0) {
            fflush(stdout);
            _exit(team_member(dev, group, key, local, i, min_episodes, stop));
        }
    }
    int bad = 0;
    for (uint32_t i = 0; i < local; i++) {
        int st;
        waitpid(pids[i], &st, 0);
        bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    return bad;
}

static int refused_count, breach_count;

static void verdict(const char *name, int refused, const char *what)
{
    if (refused) {
        refused_count++;
        printf("refused: %s (%s)\n", name, what);
    } else {
        breach_count++;
        printf("BREACH: %s (%s)\n", name, what);
    }
}

// An ioctl that must fail with errno WANT.
static void ioctl_refused(const char *name, int fd, unsigned long req, void *arg, int want)
{
    int rc = ioctl(fd, req, arg);
    int err = errno;
    verdict(name, rc != 0 && err == want, rc == 0 ? "succeeded" : strerror(err));
}

// mmap at OFF of LEN bytes must fail with EACCES.
static void mmap_refused(const char *name, int fd, uint64_t off, size_t len, int flags)
{
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, (off_t)off);
    if (p == MAP_FAILED) {
        verdict(name, errno == EACCES, strerror(errno));
    } else {
        munmap(p, len);
        verdict(name, 0, "mapped");
    }
}

static int attack(const char *dev, uint32_t victim, uint64_t victim_key)
{
    int fd = open_dev(dev);
    struct gba_info info = info_of(fd);
    uint64_t run = GBA_GROUP_OFFSET + (uint64_t)victim * GBA_GROUP_STRIDE + GBA_GROUP_CONTROL_OFFSET;
    uint64_t config = GBA_GROUP_OFFSET + (uint64_t)victim * GBA_GROUP_STRIDE;
    char what[128];

    // With no claim at all, nothing maps.
    mmap_refused("mmap the victim's run-time page, no claim", fd, run, 4096, MAP_SHARED);
    mmap_refused("mmap the global page, no claim", fd, 0, 4096, MAP_SHARED);
    struct gba_state st;
    ioctl_refused("GBA_IOC_STATE with no claim", fd, GBA_IOC_STATE, &st, ENOENT);

    // The victim's group, under our own key and under its stolen key.
    struct gba_claim_req r = claim(fd, info.port_id, victim, victim_key ^ 0x5a5a, 2, 1);
    struct gba_claim_req wrong = r;
    snprintf(what, sizeof(what), "%s: %s, owner uid %#x", result_name(r.result), reason_name(r.reason), r.owner_uid);
    verdict("claim the victim's group with another key", r.result == GBA_CLAIM_BUSY && r.reason == GBA_REASON_OTHER_TEAM, what);
    r = claim(fd, info.port_id, victim, victim_key, 2, 1);
    snprintf(what, sizeof(what), "%s: %s, owner uid %#x", result_name(r.result), reason_name(r.reason), r.owner_uid);
    verdict("join the victim's group with its stolen key", r.result == GBA_CLAIM_BUSY && r.reason == GBA_REASON_OTHER_TEAM, what);
    // No oracle: the wrong key and the right one get the same answer in every output field.
    int same = wrong.result == r.result && wrong.reason == r.reason && wrong.owner_uid == r.owner_uid &&
               wrong.files == r.files && wrong.run_offset == r.run_offset && wrong.shared_offset == r.shared_offset &&
               wrong.flag_iova == r.flag_iova;
    verdict("tell a wrong key from the stolen one", same && r.owner_uid == GBA_UID_HIDDEN,
            same ? "one answer, owner hidden" : "the answers differ");
    // Nothing of the victim's job: its claim entry shows the group only, its locals nothing.
    struct gba_claims all;
    memset(&all, 0, sizeof(all));
    int seen = -1;
    if (ioctl(fd, GBA_IOC_CLAIMS, &all) == 0)
        for (uint32_t i = 0; i < all.count; i++)
            if (all.entries[i].group == victim) {
                struct gba_claim_entry *e = &all.entries[i];
                seen = e->uid != GBA_UID_HIDDEN || e->pid != 0 || e->flag_iova != 0 || e->local != 0 ||
                       e->files != 0 || e->member_count != 0;
            }
    verdict("read the victim's claim (uid, pid, flag address)", seen == 0,
            seen < 0 ? "no entry for the victim's group" : seen ? "shown" : "group only");
    static struct gba_locals locals;
    memset(&locals, 0, sizeof(locals));
    locals.group = victim;
    ioctl_refused("read the victim's local processes (GBA_IOC_LOCALS)", fd, GBA_IOC_LOCALS, &locals, EACCES);

    // A group of our own: then its configuration page, the victim's pages, private copies.
    uint32_t own = (victim + 1) % GBA_IOCTL_GROUPS;
    struct gba_claim_req mine;
    for (;; own = (own + 1) % GBA_IOCTL_GROUPS) {
        mine = claim(fd, info.port_id, own, 0xa77ac4, 1, 0);
        if (mine.result == GBA_CLAIM_WON)
            break;
        if (own == victim) {
            printf("kernel_test: no group of our own to attack from\n");
            return 1;
        }
    }
    uint64_t own_config = GBA_GROUP_OFFSET + (uint64_t)own * GBA_GROUP_STRIDE;
    mmap_refused("mmap its own group's configuration page (RELEASE_ADDR)", fd, own_config, 4096, MAP_SHARED);
    mmap_refused("mmap the victim's configuration page", fd, config, 4096, MAP_SHARED);
    mmap_refused("mmap the victim's run-time page", fd, run, 4096, MAP_SHARED);
    mmap_refused("mmap the victim's flag memory", fd, GBA_IOCTL_SHARED_BASE + (uint64_t)victim * GBA_IOCTL_SHARED_SIZE,
                 4096, MAP_SHARED);
    mmap_refused("mmap the global page", fd, 0, 4096, MAP_SHARED);
    mmap_refused("mmap its own run-time page and the next one", fd, mine.run_offset, 8192, MAP_SHARED);
    mmap_refused("mmap its own run-time page privately", fd, mine.run_offset, 4096, MAP_PRIVATE);
    void *x = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, (off_t)mine.run_offset);
    int x_err = errno;
    if (x != MAP_FAILED)
        munmap(x, 4096);
    verdict("mmap its own run-time page executable", x == MAP_FAILED && x_err == EACCES,
            x == MAP_FAILED ? strerror(x_err) : "mapped");
    // Mapped writable, then made executable: VM_MAYEXEC is cleared on both mappings.
    void *own_run = map(fd, mine.run_offset, 4096);
    void *own_shared = map(fd, mine.shared_offset, GBA_IOCTL_SHARED_SIZE);
    int e1 = own_run == MAP_FAILED ? -1 : mprotect(own_run, 4096, PROT_READ | PROT_EXEC) == 0 ? 0 : errno;
    int e2 = own_shared == MAP_FAILED ? -1 : mprotect(own_shared, 4096, PROT_READ | PROT_EXEC) == 0 ? 0 : errno;
    verdict("mprotect its own run-time page executable", e1 == EACCES, e1 < 0 ? "no mapping" : e1 ? strerror(e1) : "executable");
    verdict("mprotect its own flag memory executable", e2 == EACCES, e2 < 0 ? "no mapping" : e2 ? strerror(e2) : "executable");
    if (own_run != MAP_FAILED)
        munmap(own_run, 4096);
    if (own_shared != MAP_FAILED)
        munmap(own_shared, GBA_IOCTL_SHARED_SIZE);
    // A second claim on the same file.
    struct gba_claim_req again;
    memset(&again, 0, sizeof(again));
    again.group = victim;
    again.key[0] = victim_key;
    again.local = 1;
    again.members[info.port_id / 64] = 1ULL << (info.port_id % 64);
    ioctl_refused("a second claim on one file", fd, GBA_IOC_CLAIM, &again, EALREADY);
    // A member set without this port, or past MAX_MEMBERS.
    int fd2 = open_dev(dev);
    memset(&again, 0, sizeof(again));
    again.group = victim;
    again.key[0] = 7;
    again.local = 1;
    again.members[GBA_IOCTL_MEMBER_WORDS - 1] = 1ULL << 63;
    ioctl_refused("a member set past MAX_MEMBERS", fd2, GBA_IOC_CLAIM, &again, EDOM);
    close(fd2);

    // Every free group: the quota stops us.
    int fds[GBA_IOCTL_GROUPS], nfds = 0, won = 1, denied = 0;
    for (uint32_t g = 0; g < GBA_IOCTL_GROUPS && !denied; g++) {
        if (g == own || g == victim)
            continue;
        fds[nfds] = open_dev(dev);
        r = claim(fds[nfds], info.port_id, g, 0xa77ac4 + g, 1, 0);
        nfds++;
        if (r.result == GBA_CLAIM_WON)
            won++;
        else if (r.result == GBA_CLAIM_DENIED && r.reason == GBA_REASON_QUOTA)
            denied = 1;
    }
    won += (int)info.held_by_caller; // the attacker's own team's groups count too
    snprintf(what, sizeof(what), "held %d of groups_per_uid %u, then %s", won, info.groups_per_uid,
             denied ? "denied: quota" : "never denied");
    verdict("claim every free group", denied && (uint32_t)won == info.groups_per_uid, what);
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
    close(fd);
    printf("attacks: %d refused, %d breaches\n", refused_count, breach_count);
    return breach_count != 0;
}

static void print_claims(int fd)
{
    struct gba_claims all;
    if (ioctl(fd, GBA_IOC_CLAIMS, &all) != 0) {
        perror("kernel_test: GBA_IOC_CLAIMS");
        exit(1);
    }
    printf("claims: %u\n", all.count);
    for (uint32_t i = 0; i < all.count; i++) {
        struct gba_claim_entry *e = &all.entries[i];
        printf("claim g=%u uid=%u pid=%d local=%u files=%u members=%u\n", e->group, e->uid, e->pid, e->local, e->files,
               e->member_count);
    }
}

// In a child: a load (or, with STORE, a store) at P. "SIGBUS" when the child died of it.
static const char *touch(volatile uint64_t *p, int store)
{
    pid_t c = fork();
    if (c == 0) {
        if (store)
            *p = 1;
        else
            (void)*p;
        _exit(0);
    }
    int st;
    waitpid(c, &st, 0);
    if (WIFSIGNALED(st))
        return WTERMSIG(st) == SIGBUS ? "SIGBUS" : "another signal";
    return "no fault";
}

static int revoked_files(const char *dev, uint32_t n, const char *go)
{
    static int fds[GBA_IOCTL_GROUPS];
    static volatile uint8_t *runs[GBA_IOCTL_GROUPS];
    static volatile uint8_t *shareds[GBA_IOCTL_GROUPS];
    if (n == 0 || n > GBA_IOCTL_GROUPS)
        return 2;
    for (uint32_t g = 0; g < n; g++) {
        fds[g] = open_dev(dev);
        struct gba_info info = info_of(fds[g]);
        struct gba_claim_req r = claim(fds[g], info.port_id, g, 0x5ea1 + g, 1, 0);
        if (r.result != GBA_CLAIM_WON) {
            printf("revoke: claim %u: %s (%s)\n", g, result_name(r.result), reason_name(r.reason));
            return 1;
        }
        runs[g] = map(fds[g], r.run_offset, 4096);
        shareds[g] = map(fds[g], r.shared_offset, GBA_IOCTL_SHARED_SIZE);
        if (runs[g] == MAP_FAILED || shareds[g] == MAP_FAILED) {
            printf("revoke: mmap %u: %s\n", g, strerror(errno));
            return 1;
        }
        (void)*(volatile uint64_t *)runs[g];
        (void)*(volatile uint64_t *)shareds[g];
    }
    printf("held %u\n", n);
    while (access(go, F_OK) != 0)
        usleep(10000);
    uint32_t last = n - 1;
    struct gba_info info;
    int rc = ioctl(fds[last], GBA_IOC_INFO, &info);
    printf("old file: GBA_IOC_INFO: %s\n", rc == 0 ? "answered" : strerror(errno));
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fds[last],
                   (off_t)(GBA_GROUP_OFFSET + (uint64_t)last * GBA_GROUP_STRIDE + GBA_GROUP_CONTROL_OFFSET));
    printf("old file: mmap: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
    volatile uint64_t *arrival = (volatile uint64_t *)(runs[last] + GBA_GROUP_ARRIVAL_OFFSET - GBA_GROUP_CONTROL_OFFSET);
    printf("old mapping: load of the flag: %s\n", touch((volatile uint64_t *)shareds[last], 0));
    printf("old mapping: store to ARRIVAL: %s\n", touch(arrival, 1));
    printf("old mapping: store to CONTROL: %s\n", touch((volatile uint64_t *)runs[0], 1));
    for (uint32_t g = 0; g < n; g++)
        close(fds[g]);
    printf("revoke: closed %u files\n", n);
    return 0;
}

// UID[:GID], GID 990 (gba) by default.
static void become(const char *who)
{
    char *end;
    uid_t uid = (uid_t)strtoul(who, &end, 0);
    gid_t gid = *end == ':' ? (gid_t)strtoul(end + 1, NULL, 0) : GBA_GID;
    if (setgroups(1, &gid) != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
        perror("kernel_test: --as");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 2 && strcmp(argv[1], "--as") == 0) {
        become(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: kernel_test [--as UID] info|claims|team|hold|attack|claim DEV ...\n");
        return 2;
    }
    const char *cmd = argv[1], *dev = argv[2];
    if (strcmp(cmd, "exec") == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "kernel_test: exec %s: %s\n", argv[2], strerror(errno));
        return 1;
    }
    if (strcmp(cmd, "info") == 0) {
        int fd = open_dev(dev);
        struct gba_info i = info_of(fd);
        printf("info: DEVICE_ID 0x%x VERSION 0x%x PORT_ID %u GROUP_ENABLED 0x%x GROUPS_BUSY 0x%x BARRIERS_COMPLETED %llu "
               "groups_per_uid %u held %u\n",
               i.device_id, i.version, i.port_id, i.group_enabled, i.groups_busy,
               (unsigned long long)i.barriers_completed, i.groups_per_uid, i.held_by_caller);
        return 0;
    }
    if (strcmp(cmd, "claims") == 0) {
        print_claims(open_dev(dev));
        return 0;
    }
    if (strcmp(cmd, "team") == 0 && argc == 8)
        return team(dev, (uint32_t)atoi(argv[3]), strtoull(argv[4], NULL, 0), (uint32_t)atoi(argv[5]),
                    strtoull(argv[6], NULL, 0), argv[7]);
    if ((strcmp(cmd, "hold") == 0 || strcmp(cmd, "claim") == 0) && argc == 5) {
        int fd = open_dev(dev);
        struct gba_info info = info_of(fd);
        struct gba_claim_req r = claim(fd, info.port_id, (uint32_t)atoi(argv[3]), strtoull(argv[4], NULL, 0), 1, 0);
        if (r.owner_uid == GBA_UID_HIDDEN)
            printf("claim %s: %s (%s), owner hidden\n", argv[3], result_name(r.result), reason_name(r.reason));
        else
            printf("claim %s: %s (%s), owner uid %u\n", argv[3], result_name(r.result), reason_name(r.reason),
                   r.owner_uid);
        if (strcmp(cmd, "claim") == 0)
            return r.result != GBA_CLAIM_WON;
        if (r.result != GBA_CLAIM_WON)
            return 1;
        printf("held %s\n", argv[3]);
        for (;;)
            pause();
    }
    if (strcmp(cmd, "revoke") == 0 && argc == 5)
        return revoked_files(dev, (uint32_t)atoi(argv[3]), argv[4]);
    if (strcmp(cmd, "attack") == 0 && argc == 5)
        return attack(dev, (uint32_t)atoi(argv[3]), strtoull(argv[4], NULL, 0));
    fprintf(stderr, "kernel_test: unknown command or wrong arguments: %s\n", cmd);
    return 2;
}
