/*
 * libgba_pmpi.so: the portable mode. Preloaded under an unmodified MPI program
 * (LD_PRELOAD=libgba_pmpi.so), it defines MPI_Barrier over the profiling interface: the
 * communicator's GBA_PMPI_FORM_AFTER-th MPI_Barrier (a call every rank of it makes, so the
 * setup is collective; the ones before run PMPI_Barrier) forms a libgba_barrier team over
 * PMPI_Allgather — the library agrees on the group and gives every rank the same verdict —
 * and caches it as an attribute of the communicator. That barrier then returns: the
 * formation's allgathers completed only once every rank had entered it. Later barriers run
 * gba_team_wait, or PMPI_Barrier where the GBA is not in use. Freeing the communicator (the
 * attribute's delete callback) or MPI_Finalize releases the team. Uses only the MPI
 * standard, so it works with any MPI; it misses calls that do not go through the C
 * symbol MPI_Barrier (OpenMPI's Fortran bindings call PMPI_Barrier, and OpenMPI's internal
 * users call the coll module directly): the coll component is the primary way in.
 *
 * Threads: the device is opened once (pthread_once), the list of teams is under a mutex, and
 * distinct communicators' teams run in parallel (MPI forbids concurrent collectives on one).
 *
 * Environment: GBA_PMPI_DEVICE (this host's device, opened as given: "sim:<fabric>#<port>" or
 * "/dev/uioN"; unset: GBA_DEVICE), GBA_PMPI_VERBOSE (1: one line per communicator, on its
 * rank 0), GBA_PMPI_MIN_SIZE (2), GBA_PMPI_READY_TIMEOUT_MS (how long team creation waits
 * for READY before the communicator falls back; default: the library's, 10000; 0: no limit;
 * the same on every rank), GBA_PMPI_WARN_TIMEOUT_MS (a barrier waiting longer says so on
 * stderr, naming who is missing, and goes on waiting: MPI_Barrier has no time limit; default
 * 10000, as coll/gba_barrier's warn_timeout_ms; 0: no warning), GBA_PMPI_FORM_AFTER (the
 * MPI_Barrier of a communicator that forms its team, 1 = the first; unset or 0: automatic, 64
 * when MPI_COMM_WORLD is on one node and 1 otherwise, as coll/gba_barrier's form_after; the
 * same on every rank).
 */
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gba_barrier.h"

typedef struct state {
    gba_team *team; /* NULL: software barrier (or not formed yet) */
    unsigned long long barriers; /* MPI_Barrier calls on the communicator so far */
    unsigned long long form_at;  /* the call that forms the team (1: the first) */
    int formed;                  /* the team's verdict is in (either way) */
    struct state *next;
} state_t;

/* GBA_PMPI_FORM_AFTER unset or 0: a communicator forms its team at this MPI_Barrier when
 * MPI_COMM_WORLD is on one node (coll/gba_barrier's GBA_FORM_AFTER_ONE_NODE: a formation costs
 * what ~60-120 shared-memory barriers save), at its first otherwise. */
#define FORM_AFTER_ONE_NODE 64
static long form_after;          /* GBA_PMPI_FORM_AFTER; 0: automatic */
static int world_one_node = -1;  /* from MPI_Init: 1 one node, 0 several, -1 not known */

static int keyval = MPI_KEYVAL_INVALID;
static gba_device *device;
static pthread_once_t opened = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* keyval, states */
static int verbose;
static int world_rank;
static gba_team_params params = {GBA_DEFAULT_CONFIGURE_TIMEOUT_NS};
static uint64_t warn_ns = 10000ull * 1000000u;
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
    static _Thread_local int in_hook;
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
    const char *path = getenv("GBA_PMPI_DEVICE");
    int rc;
    const char *ready = getenv("GBA_PMPI_READY_TIMEOUT_MS");
    const char *warn = getenv("GBA_PMPI_WARN_TIMEOUT_MS");
    const char *after = getenv("GBA_PMPI_FORM_AFTER");
    verbose = getenv("GBA_PMPI_VERBOSE") ? atoi(getenv("GBA_PMPI_VERBOSE")) : 0;
    if (NULL != after && '\0' != after[0]) {
        char *end;
        long v = strtol(after, &end, 10);
        if ('\0' != *end || v < 0) {
            /* every rank reads the same environment: each says so, all use automatic */
            fprintf(stderr, "gba_pmpi: GBA_PMPI_FORM_AFTER=%s is not a barrier number (1 = the "
                            "first; 0 = automatic): automatic is used\n", after);
        } else {
            form_after = v;
        }
    }
    if (warn) {
        warn_ns = strtoull(warn, NULL, 10) * 1000000u;
    }
    if (NULL != ready && '\0' != ready[0]) {
        params.configure_timeout_ns = strtoull(ready, NULL, 10) * 1000000u;
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    rc = gba_device_open(path, &device);
    if (GBA_OK != rc) {
        /* this rank takes part in every team creation without a device: the verdict names it */
        device = NULL;
        if (verbose >= 10) {
            LOG("device %s unavailable: %s: %s", path ? path : "(GBA_DEVICE)", gba_strerror(rc),
                gba_last_error());
        }
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
    pthread_mutex_lock(&lock);
    for (p = &states; *p; p = &(*p)->next) {
        if (*p == s) {
            *p = s->next;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (s->team) {
        gba_team_destroy(s->team);
    }
    free(s);
    return MPI_SUCCESS;
}

/* The out-of-band allgather of the team creation: PMPI_Allgather over the communicator. */
static int oob_allgather(const void *send, void *recv, size_t len, void *ctx)
{
    MPI_Comm comm = *(MPI_Comm *)ctx;
    if (len > INT_MAX) {
        return -1;
    }
    return MPI_SUCCESS == PMPI_Allgather(send, (int)len, MPI_BYTE, recv, (int)len, MPI_BYTE, comm)
               ? 0
               : -1;
}

/* Collective over comm: every rank reaches the same verdict (the library's). NULL only when
 * out of memory, which the caller reports. *agreed: the team's allgathers completed (a
 * verdict was reached, either way), so every rank of comm has entered this barrier. */
static state_t *setup(void)
{
    state_t *s = calloc(1, sizeof(*s));
    pthread_once(&opened, open_device);
    if (NULL == s) {
        return NULL;
    }
    /* the same on every rank: the environment and world_one_node (one collective in MPI_Init) */
    s->form_at = form_after > 0 ? (unsigned long long)form_after
                 : 1 == world_one_node ? FORM_AFTER_ONE_NODE
                                       : 1;
    pthread_mutex_lock(&lock);
    s->next = states;
    states = s;
    pthread_mutex_unlock(&lock);
    return s;
}

/* Forms s's team at the communicator's s->form_at-th MPI_Barrier: every rank of comm calls its
 * barriers in the same order, so all of them count the same calls and form at the same one. */
static void form(MPI_Comm comm, state_t *s, int *agreed)
{
    int size, rank, inter, rc;
    const char *min = getenv("GBA_PMPI_MIN_SIZE");
    gba_verdict verdict;

    *agreed = 0;
    s->formed = 1;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &rank);
    if (!inter && size >= (min ? atoi(min) : 2)) {
        memset(&verdict, 0, sizeof(verdict));
        rc = gba_team_create(device, oob_allgather, &comm, (uint32_t)rank, (uint32_t)size,
                             &params, &s->team, &verdict);
        if (GBA_OK != rc || !verdict.offloaded) {
            s->team = NULL;
        }
        *agreed = GBA_OK == rc;
        if (0 == rank) {
            if (GBA_OK != rc) {
                LOG("communicator of size %d: software barrier: forming the GBA team failed: %s: %s",
                    size, gba_strerror(rc), gba_last_error());
            } else if (GBA_ERR_TIMEOUT == verdict.reason) {
                /* the machine's load, not the job: said even when not verbose */
                fprintf(stderr, "gba_pmpi: [rank %d] communicator of size %d: %s; raise "
                        "GBA_PMPI_READY_TIMEOUT_MS (now %llu ms) if the machine is loaded\n",
                        world_rank, size, verdict.text,
                        (unsigned long long)(params.configure_timeout_ns / 1000000u));
            } else if (!verdict.offloaded) {
                LOG("communicator of size %d: %s", size, verdict.text);
            } else {
                LOG("communicator of size %d: barrier on GBA group %u (team formed at "
                    "MPI_Barrier %llu)", size, (unsigned)verdict.group, s->barriers);
            }
        }
    }
}

int MPI_Barrier(MPI_Comm comm)
{
    state_t *s;
    int found = 0, agreed = 0, rc;
    pthread_mutex_lock(&lock);
    if (MPI_KEYVAL_INVALID == keyval) {
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, NULL);
    }
    pthread_mutex_unlock(&lock);
    PMPI_Comm_get_attr(comm, keyval, &s, &found);
    if (!found) {
        s = setup();
        if (NULL == s) {
            fprintf(stderr, "gba_pmpi: [rank %d] out of memory setting up MPI_Barrier\n",
                    world_rank);
            return MPI_ERR_NO_MEM;
        }
        PMPI_Comm_set_attr(comm, keyval, s);
    }
    if (!s->formed && ++s->barriers >= s->form_at) {
        form(comm, s, &agreed);
        if (agreed) {
            /* the formation was this barrier (see the head of this file) */
            return MPI_SUCCESS;
        }
    }
    if (!s->team) {
        return PMPI_Barrier(comm);
    }
    rc = gba_team_wait(s->team, warn_ns);
    while (GBA_ERR_TIMEOUT == rc && warn_ns) {
        /* the library's message names who is missing (ports with their hosts, and this
         * host's processes); the episode stays pending */
        fprintf(stderr, "gba_pmpi: [rank %d] MPI_Barrier waiting more than %llu ms: %s\n",
                world_rank, (unsigned long long)(warn_ns / 1000000u), gba_last_error());
        rc = gba_team_wait_pending(s->team, warn_ns);
    }
    if (GBA_OK != rc) {
        fprintf(stderr, "gba_pmpi: [rank %d] MPI_Barrier on the GBA failed: %s: %s\n", world_rank,
                gba_strerror(rc), gba_last_error());
        return MPI_ERR_INTERN;
    }
    return MPI_SUCCESS;
}

/* Whether MPI_COMM_WORLD is on one node: one collective at start-up, which every rank makes
 * (MPI_Init is collective), so that a communicator's formation point is the same everywhere. */
static void learn_node(void)
{
    MPI_Comm node;
    int world, here;
    if (MPI_SUCCESS != PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                            MPI_INFO_NULL, &node)) {
        return;
    }
    PMPI_Comm_size(MPI_COMM_WORLD, &world);
    PMPI_Comm_size(node, &here);
    PMPI_Comm_free(&node);
    /* one node: every rank's node communicator is the whole world, on every rank alike */
    world_one_node = here == world;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    if (MPI_SUCCESS == rc) {
        learn_node();
    }
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (MPI_SUCCESS == rc) {
        learn_node();
    }
    return rc;
}

int MPI_Finalize(void)
{
    /* release every team before the device goes (attributes of communicators the program
     * did not free are deleted inside PMPI_Finalize, after this) */
    pthread_mutex_lock(&lock);
    for (state_t *s = states; s; s = s->next) {
        if (s->team) {
            gba_team_destroy(s->team);
            s->team = NULL;
        }
    }
    pthread_mutex_unlock(&lock);
    if (device) {
        gba_device_close(device);
        device = NULL;
    }
    return PMPI_Finalize();
}
