// An ioctl fuzzer for the kernel driver (driver/gba.c), run in the lifecycle stage's guest
// (tests/vm/lifecycle.sh) by an unprivileged user:
//
//   ioctl_fuzz [--as UID] DEV CALLS THREADS SEED
//
// THREADS threads share one pool of open files of DEV and one pool of mappings, and make CALLS
// calls in all, each a random choice of: open; close (of a file another thread may be using);
// every ioctl of driver/gba_ioctl.h, and unknown ones, with random and boundary arguments
// (NULL, unmapped, kernel and misaligned pointers, a structure straddling an unmapped page,
// groups, counts, indices and keys at and past their limits, member sets without this port or
// past MAX_MEMBERS) and well-formed claims and joins from a few keys; mmap at the claim's
// offsets and at random ones, with boundary lengths, private and executable; munmap, mprotect
// and mremap of what was mapped; fork, the child using and closing the inherited files. The
// same SEED gives the same choices (not the same interleaving).
//
// Prints "fuzz: N calls, T threads, seed S: ..., W claims won, J joined, M mappings (R revoked
// under it: SIGBUS on its read, when the port goes away meanwhile), F forks" and
// exits 0 once every file is closed and every mapping unmapped: whether the driver stayed
// whole (no warning in dmesg, every group free) the script checks afterwards.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gba_ioctl.h"
#include "gba_regs.h"

#define GBA_GID 990
#define FILES 24
#define MAPS 32

static const char *dev;
static uint32_t port;
static uint64_t calls;
static _Atomic uint64_t made, won, joined, mapped, forks;
static uint8_t *guard; // a readable page followed by an unmapped one

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int files[FILES]; // -1: free
static struct {
    void *addr;
    size_t len;
} maps[MAPS];

static uint64_t next(uint64_t *s)
{
    // splitmix64
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t pick(uint64_t *s, const uint64_t *values, size_t n)
{
    return values[next(s) % n];
}

static int any_file(uint64_t *s)
{
    pthread_mutex_lock(&lock);
    int fd = files[next(s) % FILES];
    pthread_mutex_unlock(&lock);
    return fd;
}

// A pointer argument: mostly a good buffer, else one of the bad kinds.
static void *arg_pointer(uint64_t *s, void *good, size_t size)
{
    switch (next(s) % 12) {
    case 0: return NULL;
    case 1: return (void *)1;
    case 2: return (void *)0xffff888000000000ULL; // the kernel's direct map
    case 3: return (uint8_t *)good + 1;           // misaligned
    case 4: return guard + 4096 - size / 2;       // straddles an unmapped page
    case 5: return guard + 4096;                  // unmapped
    default: return good;
    }
}

// The key: its first 64 bits `first`, any further bits `rest` (gba_ioctl.h's key is 64 or 128
// bits: this source builds against either).
static void set_key(struct gba_claim_req *r, uint64_t first, uint64_t rest)
{
    uint8_t *k = (uint8_t *)&r->key;
    memcpy(k, &first, 8);
    for (size_t i = 8; i < sizeof(r->key); i += 8)
        memcpy(k + i, &rest, 8);
}

static void fill_claim(uint64_t *s, struct gba_claim_req *r)
{
    static const uint64_t groups[] = { 0, 1, 2, 3, 30, 31, 32, 33, 0xffffffffULL };
    static const uint64_t locals[] = { 0, 1, 1, 2, 2, 3, 63, 64, 65, 0xffffffffULL };
    static const uint64_t keys[] = { 0, 1, 2, 3, 0xffffffffffffffffULL, 0x8000000000000000ULL };
    memset(r, 0, sizeof(*r));
    if (next(s) % 3 == 0) {
        // A well-formed team of two on a few groups and keys: wins, joins, index clashes.
        r->group = (uint32_t)(next(s) % 4);
        r->local = 2;
        r->index = (uint32_t)(next(s) % 2);
        set_key(r, 1 + next(s) % 2, 0);
        r->members[port / 64] = 1ULL << (port % 64);
        return;
    }
    if (next(s) % 4 == 0) {
        // Random bytes everywhere.
        uint64_t *w = (uint64_t *)r;
        for (size_t i = 0; i < sizeof(*r) / 8; i++)
            w[i] = next(s);
        return;
    }
    r->group = (uint32_t)(next(s) % 3 ? next(s) % 6 : pick(s, groups, 9));
    r->local = (uint32_t)pick(s, locals, 10);
    r->index = (uint32_t)(next(s) % 3 ? (r->local ? next(s) % r->local : 0) : pick(s, locals, 10));
    // The key's first word a small one (teams) or a boundary; the rest (of a 128-bit key) 0,
    // or random.
    set_key(r, next(s) % 3 ? pick(s, keys + 1, 3) : pick(s, keys, 6), next(s) % 4 ? 0 : next(s));
    r->rank = (uint32_t)next(s);
    switch (next(s) % 8) {
    case 0: break;                                                    // empty member set
    case 1: r->members[GBA_IOCTL_MEMBER_WORDS - 1] = 1ULL << 63; break; // past MAX_MEMBERS
    case 2: r->members[(port / 64 + 1) % GBA_IOCTL_MEMBER_WORDS] = 1; break; // not this port
    case 3: for (int w = 0; w < GBA_IOCTL_MEMBER_WORDS; w++) r->members[w] = next(s); break;
    default: r->members[port / 64] = 1ULL << (port % 64); if (next(s) % 2) r->members[0] |= 6; break;
    }
    if (next(s) % 16 == 0)
        r->flags = (uint32_t)next(s);
    if (next(s) % 16 == 0)
        r->reserved = (uint32_t)next(s);
}

static void do_ioctl(uint64_t *s, int fd)
{
    static const unsigned long cmds[] = {
        GBA_IOC_INFO, GBA_IOC_CLAIM, GBA_IOC_CLAIM, GBA_IOC_CLAIM, GBA_IOC_STATE, GBA_IOC_CLAIMS, GBA_IOC_LOCALS,
        _IOWR(GBA_IOCTL_MAGIC, 5, struct gba_claim_req), _IO(GBA_IOCTL_MAGIC, 1), _IOR(GBA_IOCTL_MAGIC, 0, uint32_t),
        0, 0xffffffffUL,
    };
    static union {
        struct gba_info info;
        struct gba_claim_req claim;
        struct gba_state state;
        struct gba_claims claims;
        struct gba_locals locals;
    } shared_buf; // threads scribble on one buffer on purpose (the driver copies once)
    union {
        struct gba_info info;
        struct gba_claim_req claim;
        struct gba_state state;
        struct gba_claims claims;
        struct gba_locals locals;
    } buf;
    unsigned long cmd = cmds[next(s) % (sizeof(cmds) / sizeof(cmds[0]))];
    void *good = next(s) % 8 ? (void *)&buf : (void *)&shared_buf;
    memset(&buf, 0, sizeof(buf));
    if (cmd == GBA_IOC_CLAIM)
        fill_claim(s, &buf.claim);
    if (cmd == GBA_IOC_LOCALS) {
        static const uint64_t groups[] = { 0, 1, 2, 31, 32, 0x80000000ULL, 0xffffffffULL };
        buf.locals.group = (uint32_t)pick(s, groups, 7);
    }
    size_t size = _IOC_SIZE(cmd) ? _IOC_SIZE(cmd) : 8;
    void *arg = arg_pointer(s, good, size);
    // A structure straddling the unmapped page: its first half is the good one's.
    if ((uint8_t *)arg >= guard && (uint8_t *)arg < guard + 4096)
        memcpy(arg, &buf, (size_t)(guard + 4096 - (uint8_t *)arg));
    int rc = ioctl(fd, cmd, arg);
    if (rc == 0 && cmd == GBA_IOC_CLAIM && arg == &buf) {
        if (buf.claim.result == GBA_CLAIM_WON)
            won++;
        else if (buf.claim.result == GBA_CLAIM_JOINED)
            joined++;
    }
}

static __thread sigjmp_buf on_bus_error;
static __thread volatile sig_atomic_t bus_armed;
static _Atomic uint64_t bus_errors;

static void bus_error(int sig)
{
    if (!bus_armed) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    siglongjmp(on_bus_error, 1);
}

static int in_child; // a forked child has one thread: it takes no lock another may have held

static void remember_map(uint64_t *s, void *p, size_t len)
{
    if (in_child) {
        munmap(p, len);
        return;
    }
    pthread_mutex_lock(&lock);
    size_t i = next(s) % MAPS;
    void *old = maps[i].addr;
    size_t old_len = maps[i].len;
    maps[i].addr = p;
    maps[i].len = len;
    pthread_mutex_unlock(&lock);
    if (old)
        munmap(old, old_len);
}

static void do_mmap(uint64_t *s, int fd)
{
    static const uint64_t lens[] = { 4096, 4096, 8192, GBA_IOCTL_SHARED_SIZE, GBA_IOCTL_SHARED_SIZE + 4096, 1, 1ULL << 20 };
    uint32_t g = (uint32_t)(next(s) % 6);
    struct gba_state st;
    // Mostly the group the file holds, if it holds one: its two mappings, and beside them.
    if (next(s) % 4 != 0 && ioctl(fd, GBA_IOC_STATE, &st) == 0)
        g = st.group;
    uint64_t off;
    switch (next(s) % 6) {
    case 0: off = GBA_GROUP_OFFSET + (uint64_t)g * GBA_GROUP_STRIDE; break; // configuration page
    case 1: off = (next(s) % 1024) * 4096; break;
    case 2: off = next(s) & ~4095ULL; break;
    case 3:
    case 4: off = GBA_GROUP_OFFSET + (uint64_t)g * GBA_GROUP_STRIDE + GBA_GROUP_CONTROL_OFFSET; break;
    default: off = GBA_IOCTL_SHARED_BASE + (uint64_t)g * GBA_IOCTL_SHARED_SIZE; break;
    }
    size_t len = (size_t)pick(s, lens, 7);
    int prot = PROT_READ | (next(s) % 4 ? PROT_WRITE : 0) | (next(s) % 16 == 0 ? PROT_EXEC : 0);
    int flags = next(s) % 8 ? MAP_SHARED : MAP_PRIVATE;
    void *p = mmap(NULL, len, prot, flags, fd, (off_t)off);
    if (p == MAP_FAILED)
        return;
    mapped++;
    // Read it (never write: a store to ARRIVAL or CONTROL is the device's business, and the
    // lifecycle stage checks those separately). A mapping the driver revoked meanwhile (the
    // port going away under the fuzzer) is SIGBUS: counted, not fatal.
    if (sigsetjmp(on_bus_error, 1) == 0) {
        bus_armed = 1;
        volatile uint64_t sink = *(volatile uint64_t *)p;
        (void)sink;
    } else {
        bus_errors++;
    }
    bus_armed = 0;
    remember_map(s, p, len);
}

static void do_map_op(uint64_t *s)
{
    pthread_mutex_lock(&lock);
    size_t i = next(s) % MAPS;
    void *p = maps[i].addr;
    size_t len = maps[i].len;
    if (p && next(s) % 3 == 0) {
        maps[i].addr = NULL;
        pthread_mutex_unlock(&lock);
        munmap(p, len);
        return;
    }
    pthread_mutex_unlock(&lock);
    if (!p)
        return;
    // Races with another thread's munmap of the same range are harmless: the calls fail.
    if (next(s) % 2)
        mprotect(p, len, next(s) % 2 ? PROT_READ | PROT_EXEC : PROT_READ | PROT_WRITE);
    else {
        void *q = mremap(p, len, len * 2, 0);
        if (q != MAP_FAILED)
            mremap(q, len * 2, len, 0);
    }
}

static void do_open(uint64_t *s)
{
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return;
    made++;
    pthread_mutex_lock(&lock);
    size_t i = next(s) % FILES;
    int old = files[i];
    files[i] = fd;
    pthread_mutex_unlock(&lock);
    if (old >= 0)
        close(old);
}

static void do_close(uint64_t *s)
{
    pthread_mutex_lock(&lock);
    size_t i = next(s) % FILES;
    int fd = files[i];
    files[i] = -1;
    pthread_mutex_unlock(&lock);
    if (fd >= 0)
        close(fd);
}

static void do_fork(uint64_t *s)
{
    uint64_t child_seed = next(s);
    pid_t pid = fork();
    if (pid == 0) {
        // The child: a few calls on the inherited files (no locks: this thread is alone now).
        uint64_t cs = child_seed;
        in_child = 1;
        for (int i = 0; i < 8; i++) {
            int fd = files[next(&cs) % FILES];
            if (fd >= 0)
                next(&cs) % 2 ? do_ioctl(&cs, fd) : do_mmap(&cs, fd);
        }
        _exit(0);
    }
    if (pid > 0) {
        forks++;
        waitpid(pid, NULL, 0);
    }
}

static _Atomic uint64_t done;

static const char *stop_file; // $GBA_FUZZ_STOP: also stop once this file exists
static _Atomic uint64_t made_calls;

static void *worker(void *seedp)
{
    uint64_t s = (uint64_t)(uintptr_t)seedp, mine = 0;
    while (atomic_fetch_add(&done, 1) < calls) {
        if (stop_file && (mine & 255) == 0 && access(stop_file, F_OK) == 0)
            break;
        mine++;
        unsigned op = (unsigned)(next(&s) % 100);
        int fd;
        if (op < 10)
            do_open(&s);
        else if (op < 16)
            do_close(&s);
        else if (op < 70) {
            if ((fd = any_file(&s)) >= 0)
                do_ioctl(&s, fd);
        } else if (op < 85) {
            if ((fd = any_file(&s)) >= 0)
                do_mmap(&s, fd);
        } else if (op < 97)
            do_map_op(&s);
        else
            do_fork(&s);
    }
    made_calls += mine;
    return NULL;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 2 && strcmp(argv[1], "--as") == 0) {
        char *end;
        uid_t uid = (uid_t)strtoul(argv[2], &end, 0);
        gid_t gid = *end == ':' ? (gid_t)strtoul(end + 1, NULL, 0) : GBA_GID;
        if (setgroups(1, &gid) != 0 || setgid(gid) != 0 || setuid(uid) != 0) {
            perror("ioctl_fuzz: --as");
            return 1;
        }
        argv += 2;
        argc -= 2;
    }
    if (argc != 5) {
        fprintf(stderr, "usage: ioctl_fuzz [--as UID] DEV CALLS THREADS SEED\n");
        return 2;
    }
    dev = argv[1];
    stop_file = getenv("GBA_FUZZ_STOP");
    calls = strtoull(argv[2], NULL, 0);
    int threads = atoi(argv[3]);
    uint64_t seed = strtoull(argv[4], NULL, 0);
    int fd = open(dev, O_RDWR | O_CLOEXEC);
    struct gba_info info;
    if (fd < 0 || ioctl(fd, GBA_IOC_INFO, &info) != 0) {
        fprintf(stderr, "ioctl_fuzz: %s: %s\n", dev, strerror(errno));
        return 1;
    }
    close(fd);
    port = info.port_id;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = bus_error;
    sigaction(SIGBUS, &sa, NULL);
    guard = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(guard + 4096, 4096);
    for (int i = 0; i < FILES; i++)
        files[i] = -1;
    pthread_t t[64];
    if (threads < 1 || threads > 64)
        threads = 4;
    for (int i = 0; i < threads; i++) {
        uint64_t s = seed + (uint64_t)i;
        pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)next(&s));
    }
    for (int i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < FILES; i++)
        if (files[i] >= 0)
            close(files[i]);
    for (int i = 0; i < MAPS; i++)
        if (maps[i].addr)
            munmap(maps[i].addr, maps[i].len);
    printf("fuzz: %llu calls, %d threads, seed %llu: %llu opens, %llu claims won, %llu joined, %llu mappings (%llu revoked under it), %llu forks\n",
           (unsigned long long)made_calls, threads, (unsigned long long)seed, (unsigned long long)made,
           (unsigned long long)won, (unsigned long long)joined, (unsigned long long)mapped, (unsigned long long)bus_errors,
           (unsigned long long)forks);
    return 0;
}
