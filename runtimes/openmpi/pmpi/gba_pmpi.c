/*
 * libgba_pmpi.so: the portable mode. Preloaded under an unmodified MPI program
 * (LD_PRELOAD=libgba_pmpi.so), it defines MPI_Barrier over the profiling interface: the first
 * MPI_Barrier on a communicator (a call every rank of it makes, so the setup is collective)
 * agrees on a GBA group with PMPI_Allgather and caches the result as an attribute of the
 * communicator; later barriers run gba_barrier_wait, or PMPI_Barrier where the GBA is not in
 * use. Freeing the communicator (the attribute's delete callback) or MPI_Finalize releases
 * the group. Uses only the MPI standard, so it works with any MPI; it misses calls that do
 * not go through the C symbol MPI_Barrier (OpenMPI's Fortran bindings call PMPI_Barrier, and
 * OpenMPI's internal users call the coll module directly): the coll component is the primary
 * way in.
 *
 * Environment: GBA_PMPI_DEVICE ("sim:<fabric-dir>": port = GBA_PMPI_PORT_OFFSET + world rank
 * appended; anything else opened as given; unset: GBA_DEVICE), GBA_PMPI_VERBOSE (1: one line
 * per communicator), GBA_PMPI_MIN_SIZE (2).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gba_barrier.h"

typedef struct state {
    gba_barrier *barrier; /* NULL: software barrier */
    struct state *next;
} state_t;

static int keyval = MPI_KEYVAL_INVALID;
static gba_device *device;
static int device_status = GBA_ERR_NO_DEVICE;
static gba_device_info info;
static int opened;
static int verbose;
static int world_rank;
static state_t *states;

#define LOG(...)                                                   \
    do {                                                           \
        if (verbose) {                                             \
            fprintf(stderr, "gba_pmpi: [rank %d] ", world_rank);   \
            fprintf(stderr, __VA_ARGS__);                          \
            fputc('\n', stderr);                                   \
        }                                                          \
    } while (0)

/* While the GBA barrier waits, let the MPI library progress (portable: an Iprobe). */
static void progress_hook(void *arg)
{
    static int in_hook;
    int flag;
    (void)arg;
    if (in_hook) {
        return;
    }
    in_hook = 1;
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    in_hook = 0;
}

static void open_device(void)
{
    const char *path = getenv("GBA_PMPI_DEVICE"), *off = getenv("GBA_PMPI_PORT_OFFSET");
    char name[512];
    opened = 1;
    verbose = getenv("GBA_PMPI_VERBOSE") ? atoi(getenv("GBA_PMPI_VERBOSE")) : 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    if (path && 0 == strncmp(path, "sim:", 4) && !strchr(path, '#')) {
        snprintf(name, sizeof(name), "%s#%d", path, world_rank + (off ? atoi(off) : 0));
        path = name;
    }
    device_status = gba_device_open(path, &device);
    if (GBA_OK == device_status) {
        device_status = gba_device_info_get(device, &info);
    }
    if (GBA_OK != device_status) {
        LOG("device %s unavailable: %s: %s", path ? path : "(GBA_DEVICE)",
            gba_strerror(device_status), gba_last_error());
        device = NULL;
        return;
    }
    gba_device_set_progress_hook(device, progress_hook, NULL);
}

static int delete_state(MPI_Comm comm, int kv, void *value, void *extra)
{
    state_t *s = value, **p;
    (void)comm;
    (void)kv;
    (void)extra;
    for (p = &states; *p; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    if (s->barrier) {
        gba_barrier_destroy(s->barrier);
    }
    free(s);
    return MPI_SUCCESS;
}

/* Collective over comm: every rank reaches the same verdict. */
static state_t *setup(MPI_Comm comm)
{
    int size, rank, inter;
    int32_t mine[4], *votes, *results;
    uint64_t mask[GBA_MEMBER_WORDS] = {0};
    size_t nwords = 0;
    uint32_t tried = 0;
    const char *min = getenv("GBA_PMPI_MIN_SIZE");
    state_t *s = calloc(1, sizeof(*s));

    if (!opened) {
        open_device();
    }
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    if (inter || size < (min ? atoi(min) : 2)) {
        goto done;
    }
    votes = malloc(sizeof(int32_t) * 4 * (size_t)size);
    results = malloc(sizeof(int32_t) * (size_t)size);
    for (int attempt = 0; attempt < 32; attempt++) {
        uint32_t free_mask = 0, common = ~tried;
        int busy = 0, bad = -1, g;
        gba_barrier *b = NULL;
        int32_t rc;
        mine[0] = device_status;
        mine[2] = device ? (int32_t)info.port_id : -1;
        mine[3] = world_rank;
        if (device && GBA_OK != (rc = gba_device_free_groups(device, &free_mask))) {
            mine[0] = rc;
        }
        mine[1] = (int32_t)(free_mask & ~tried);
        PMPI_Allgather(mine, 4, MPI_INT32_T, votes, 4, MPI_INT32_T, comm);
        for (int r = 0; r < size && bad < 0; r++) {
            if (GBA_OK != votes[4 * r]) {
                bad = r;
            }
        }
        if (bad >= 0) {
            if (0 == rank) {
                LOG("communicator of size %d: software barrier: world rank %d cannot use the GBA: %s",
                    size, votes[4 * bad + 3], gba_strerror(votes[4 * bad]));
            }
            break;
        }
        for (int r = 0; r < size; r++) {
            uint32_t p = (uint32_t)votes[4 * r + 2];
            common &= (uint32_t)votes[4 * r + 1];
            if (p >= 64 * GBA_MEMBER_WORDS || (mask[p / 64] & (UINT64_C(1) << (p % 64)))) {
                bad = r;
            } else {
                mask[p / 64] |= UINT64_C(1) << (p % 64);
                nwords = p / 64 + 1 > nwords ? p / 64 + 1 : nwords;
            }
        }
        if (bad >= 0 || 0 == common) {
            if (0 == rank) {
                LOG("communicator of size %d: software barrier: %s", size,
                    bad >= 0 ? "ports out of range or shared" : "no GBA group free on every member");
            }
            break;
        }
        g = __builtin_ctz(common);
        rc = gba_barrier_create(device, (uint32_t)g, mask, nwords, 2000000000ull, &b);
        PMPI_Allgather(&rc, 1, MPI_INT32_T, results, 1, MPI_INT32_T, comm);
        for (int r = 0; r < size; r++) {
            busy |= GBA_ERR_GROUP_BUSY == results[r];
            if (GBA_OK != results[r] && GBA_ERR_GROUP_BUSY != results[r] && bad < 0) {
                bad = r;
            }
        }
        if (!busy && bad < 0) {
            s->barrier = b;
            if (0 == rank) {
                LOG("communicator of size %d: barrier on GBA group %d", size, g);
            }
            break;
        }
        if (b) {
            gba_barrier_destroy(b);
        }
        if (!busy) {
            if (0 == rank) {
                LOG("communicator of size %d: software barrier: world rank %d could not configure group %d: %s",
                    size, votes[4 * bad + 3], g, gba_strerror(results[bad]));
            }
            break;
        }
        tried |= UINT32_C(1) << g;
    }
    free(votes);
    free(results);
done:
    s->next = states;
    states = s;
    return s;
}

int MPI_Barrier(MPI_Comm comm)
{
    state_t *s;
    int found = 0, rc;
    if (MPI_KEYVAL_INVALID == keyval) {
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, NULL);
    }
    PMPI_Comm_get_attr(comm, keyval, &s, &found);
    if (!found) {
        s = setup(comm);
        PMPI_Comm_set_attr(comm, keyval, s);
    }
    if (!s->barrier) {
        return PMPI_Barrier(comm);
    }
    rc = gba_barrier_wait(s->barrier, 0);
    if (GBA_OK != rc) {
        fprintf(stderr, "gba_pmpi: [rank %d] MPI_Barrier on the GBA failed: %s: %s\n", world_rank,
                gba_strerror(rc), gba_last_error());
        return MPI_ERR_INTERN;
    }
    return MPI_SUCCESS;
}

int MPI_Finalize(void)
{
    /* release every group before the device goes (attributes of communicators the program
     * did not free are deleted inside PMPI_Finalize, after this) */
    for (state_t *s = states; s; s = s->next) {
        if (s->barrier) {
            gba_barrier_destroy(s->barrier);
            s->barrier = NULL;
        }
    }
    if (device) {
        gba_device_close(device);
        device = NULL;
    }
    return PMPI_Finalize();
}
