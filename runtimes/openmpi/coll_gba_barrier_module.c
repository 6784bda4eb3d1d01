/*
 * coll/gba_barrier module: per-communicator enable (group agreement, member mask, configure
 * and READY), the barrier, the split-phase ibarrier and the release of the group.
 */
#include "coll_gba_barrier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/runtime/opal_progress.h"
#include "ompi/communicator/communicator.h"
#include "ompi/constants.h"

/* a verdict every rank of the communicator reaches alike: said once, by its rank 0 */
#define GBA_LOG_ROOT(level, ...)                                              \
    do {                                                                      \
        if (0 == rank) {                                                      \
            GBA_LOG(level, __VA_ARGS__);                                      \
        }                                                                     \
    } while (0)

static int gba_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm);
static int gba_barrier_blocking(struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
static int gba_ibarrier(struct ompi_communicator_t *comm, ompi_request_t **request,
                        mca_coll_base_module_t *module);

/* ---------------------------------------------------------------- module object */

static void gba_unlink(mca_coll_gba_barrier_module_t *m)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    if (!m->linked) {
        return;
    }
    if (m->prev) {
        m->prev->next = m->next;
    } else {
        c->modules = m->next;
    }
    if (m->next) {
        m->next->prev = m->prev;
    }
    m->next = m->prev = NULL;
    m->linked = false;
}

static void gba_release_group(mca_coll_gba_barrier_module_t *m)
{
    if (NULL != m->barrier) {
        int rc = gba_barrier_destroy(m->barrier);
        if (GBA_OK != rc) {
            GBA_LOG(1, "releasing GBA group %u: %s (%d)", m->group, gba_strerror(rc), rc);
        } else {
            GBA_LOG(10, "released GBA group %u after %llu barriers", m->group,
                    (unsigned long long)m->barriers);
        }
        m->barrier = NULL;
    }
}

static void gba_module_construct(mca_coll_gba_barrier_module_t *m)
{
    m->comm = NULL;
    m->barrier = NULL;
    m->group = 0;
    m->barriers = 0;
    m->previous_barrier = NULL;
    m->previous_barrier_module = NULL;
    m->previous_ibarrier = NULL;
    m->previous_ibarrier_module = NULL;
    m->req_head = m->req_tail = NULL;
    m->busy = false;
    m->next = m->prev = NULL;
    m->linked = false;
    m->super.coll_module_enable = gba_module_enable;
    m->super.coll_barrier = gba_barrier_blocking;
    m->super.coll_ibarrier = gba_ibarrier;
}

/* Runs when the communicator releases its last reference to us: MPI_Comm_free, or the
 * communicator teardown of MPI_Finalize. */
static void gba_module_destruct(mca_coll_gba_barrier_module_t *m)
{
    gba_unlink(m);
    /* requests still queued (the communicator was freed with an MPI_Ibarrier pending and its
     * request freed) are dropped from the queue; the group goes away with them */
    while (NULL != m->req_head) {
        gba_ibarrier_request_t *r = m->req_head;
        m->req_head = r->next;
        r->module = NULL;
        OBJ_RELEASE(r);
    }
    gba_release_group(m);
    if (NULL != m->previous_barrier_module) {
        OBJ_RELEASE(m->previous_barrier_module);
    }
    if (NULL != m->previous_ibarrier_module) {
        OBJ_RELEASE(m->previous_ibarrier_module);
    }
}

OBJ_CLASS_INSTANCE(mca_coll_gba_barrier_module_t, mca_coll_base_module_t, gba_module_construct,
                   gba_module_destruct);

void mca_coll_gba_barrier_release_all(void)
{
    mca_coll_gba_barrier_module_t *m;
    while (NULL != (m = mca_coll_gba_barrier_component.modules)) {
        gba_release_group(m);
        gba_unlink(m);
    }
}

/* ---------------------------------------------------------------- enable: agreement */

/* What each rank contributes to the agreement (one allgather over the modules below us). */
typedef struct {
    int32_t status;       /* GBA_OK, or why this rank cannot take part */
    uint32_t free_mask;   /* groups free on this rank's port, minus those already tried */
    uint32_t port;        /* PORT_ID: this rank's member id */
    uint32_t world_rank;
} gba_vote_t;

static int gba_allgather(struct ompi_communicator_t *comm, const void *send, void *recv,
                         int count)
{
    return comm->c_coll->coll_allgather(send, count, MPI_UINT32_T, recv, count, MPI_UINT32_T,
                                        comm, comm->c_coll->coll_allgather_module);
}

static const char *gba_why(int32_t status)
{
    return gba_strerror(status);
}

/* Agree on a group id with the other ranks of comm and create the GBA barrier. Every rank
 * reaches the same verdict: either all of them hold the group (OMPI_SUCCESS), or none does.
 * Collectives: comm's own allgather as installed by the modules below us, which is allowed
 * here — comm_select runs after the communicator's activation barrier. */
static int gba_agree_and_create(mca_coll_gba_barrier_module_t *m,
                                struct ompi_communicator_t *comm)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    int size = ompi_comm_size(comm), rank = ompi_comm_rank(comm);
    gba_vote_t mine, *votes;
    int32_t *results;
    uint64_t mask[GBA_MEMBER_WORDS];
    size_t nwords = 0;
    uint32_t tried = 0;
    int ret = OMPI_ERR_NOT_AVAILABLE;

    votes = malloc(sizeof(*votes) * (size_t)size);
    results = malloc(sizeof(*results) * (size_t)size);
    if (NULL == votes || NULL == results) {
        free(votes);
        free(results);
        /* cannot even vote: the others would hang in the allgather; out of memory here is
         * fatal for the communicator either way */
        return OMPI_ERR_OUT_OF_RESOURCE;
    }

    for (int attempt = 0; attempt < 32; attempt++) {
        uint32_t common = ~tried;
        int busy = 0, bad = -1;

        mine.status = c->device_status;
        mine.free_mask = 0;
        mine.port = c->device ? c->info.port_id : UINT32_MAX;
        mine.world_rank = c->world_rank;
        if (GBA_OK == mine.status) {
            int rc = gba_device_free_groups(c->device, &mine.free_mask);
            if (GBA_OK != rc) {
                GBA_LOG(1, "reading the free groups: %s: %s", gba_strerror(rc), gba_last_error());
                mine.status = rc;
            }
            if (c->debug_assume_free) {
                mine.free_mask = c->info.max_groups >= 32 ? UINT32_MAX
                                                          : (UINT32_C(1) << c->info.max_groups) - 1;
            }
            mine.free_mask &= ~tried;
        }
        if (OMPI_SUCCESS != gba_allgather(comm, &mine, votes, 4)) {
            GBA_LOG(1, "%s: allgather for the group agreement failed", comm->c_name);
            ret = OMPI_ERROR;
            goto out;
        }

        /* 1. can every rank use its device? */
        for (int r = 0; r < size; r++) {
            if (GBA_OK != votes[r].status) {
                GBA_LOG_ROOT(1, "%s (cid %u, size %d): software barrier: rank %d (world rank %u) "
                           "cannot use the GBA: %s (%d)",
                        comm->c_name, (unsigned)comm->c_contextid, size, r,
                        votes[r].world_rank, gba_why(votes[r].status), votes[r].status);
                if (comm == &ompi_mpi_comm_world.comm) {
                    c->job_unusable = true;
                }
                goto out;
            }
        }

        /* 2. member mask from the members' PORT_IDs (only on the first round) */
        if (0 == attempt) {
            memset(mask, 0, sizeof(mask));
            for (int r = 0; r < size; r++) {
                uint32_t p = votes[r].port;
                if (p >= 64 * GBA_MEMBER_WORDS || p >= c->info.max_members) {
                    GBA_LOG_ROOT(1, "%s: software barrier: rank %d has port %u, beyond the "
                               "member range", comm->c_name, r, p);
                    goto out;
                }
                if (mask[p / 64] & (UINT64_C(1) << (p % 64))) {
                    GBA_LOG_ROOT(1, "%s: software barrier: two ranks share port %u (one member "
                               "per switch port: is port_offset/device_path right?)",
                            comm->c_name, p);
                    goto out;
                }
                mask[p / 64] |= UINT64_C(1) << (p % 64);
                if (p / 64 + 1 > nwords) {
                    nwords = p / 64 + 1;
                }
            }
        }

        /* 3. lowest group free on every member */
        for (int r = 0; r < size; r++) {
            common &= votes[r].free_mask;
        }
        if (0 == common) {
            GBA_LOG_ROOT(1, "%s (cid %u, size %d): software barrier: no GBA group is free on every "
                       "member (all 32 in use by other communicators or jobs)",
                    comm->c_name, (unsigned)comm->c_contextid, size);
            goto out;
        }
        m->group = (uint32_t)__builtin_ctz(common);

        /* 4. configure + READY, then agree on the outcome */
        {
            gba_barrier *b = NULL;
            int32_t rc = gba_barrier_create(c->device, m->group, mask, nwords,
                                            (uint64_t)c->ready_timeout_ms * 1000000u, &b);
            if (GBA_OK != rc) {
                GBA_LOG(10, "%s: configuring GBA group %u here: %s: %s", comm->c_name, m->group,
                        gba_strerror(rc), gba_last_error());
            } else {
                GBA_LOG(20, "%s: GBA group %u READY here", comm->c_name, m->group);
            }
            if (OMPI_SUCCESS != gba_allgather(comm, &rc, results, 1)) {
                if (b) {
                    gba_barrier_destroy(b);
                }
                ret = OMPI_ERROR;
                goto out;
            }
            for (int r = 0; r < size; r++) {
                if (GBA_ERR_GROUP_BUSY == results[r]) {
                    busy = 1;
                } else if (GBA_OK != results[r] && GBA_ERR_TIMEOUT != results[r] && bad < 0) {
                    bad = r;
                }
            }
            if (!busy && bad < 0) {
                int timeouts = 0;
                for (int r = 0; r < size; r++) {
                    timeouts += (GBA_ERR_TIMEOUT == results[r]);
                }
                if (0 == timeouts) {
                    m->barrier = b;
                    ret = OMPI_SUCCESS;
                    goto out;
                }
                bad = -2;
            }
            if (b) {
                gba_barrier_destroy(b);
            }
            if (bad >= 0 || (!busy && -2 == bad)) {
                int r = bad >= 0 ? bad : 0;
                while (-2 == bad && r < size && GBA_ERR_TIMEOUT != results[r]) {
                    r++;
                }
                GBA_LOG_ROOT(1, "%s (cid %u, size %d): software barrier: rank %d (world rank %u) "
                           "could not configure GBA group %u: %s (%d)",
                        comm->c_name, (unsigned)comm->c_contextid, size, r,
                        votes[r].world_rank, m->group, gba_strerror(results[r]), results[r]);
                goto out;
            }
            GBA_LOG_ROOT(10, "%s: GBA group %u is busy (claimed by another job), agreeing again "
                        "without it", comm->c_name, m->group);
            tried |= UINT32_C(1) << m->group;
        }
    }
    GBA_LOG_ROOT(1, "%s: software barrier: every GBA group was busy", comm->c_name);

out:
    if (OMPI_SUCCESS == ret && 0 == rank) {
        char members[128];
        snprintf(members, sizeof(members), "0x%016llx%s", (unsigned long long)mask[0],
                 nwords > 1 ? "..." : "");
        GBA_LOG(1, "%s (cid %u, size %d): barrier on GBA group %u (member mask %s)",
                comm->c_name, (unsigned)comm->c_contextid, size, m->group, members);
    }
    free(votes);
    free(results);
    return ret;
}

static int gba_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_gba_barrier_module_t *m = (mca_coll_gba_barrier_module_t *)module;
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    int ret;

    m->comm = comm;
    /* comm_select enables modules in increasing priority and installs each one's functions
     * before enabling the next, so c_coll holds what runs without us: our fallback. */
    m->previous_barrier = comm->c_coll->coll_barrier;
    m->previous_barrier_module = comm->c_coll->coll_barrier_module;
    m->previous_ibarrier = comm->c_coll->coll_ibarrier;
    m->previous_ibarrier_module = comm->c_coll->coll_ibarrier_module;
    if (NULL == m->previous_barrier || NULL == m->previous_ibarrier ||
        NULL == comm->c_coll->coll_allgather) {
        /* same components on every rank, so the same on every rank */
        GBA_LOG(1, "%s: no lower-priority barrier/ibarrier/allgather to fall back on; "
                   "coll/gba_barrier steps aside", comm->c_name);
        m->previous_barrier_module = m->previous_ibarrier_module = NULL;
        return OMPI_ERR_NOT_AVAILABLE;
    }
    OBJ_RETAIN(m->previous_barrier_module);
    OBJ_RETAIN(m->previous_ibarrier_module);

    ret = gba_agree_and_create(m, comm);
    if (OMPI_SUCCESS != ret) {
        /* Returning an error makes comm_select drop this module: the previous barrier and
         * ibarrier stay installed, with no indirection through us. */
        return OMPI_ERR_NOT_AVAILABLE;
    }

    /* link into the component's list (for ibarrier progress and finalize) */
    m->next = c->modules;
    m->prev = NULL;
    if (c->modules) {
        c->modules->prev = m;
    }
    c->modules = m;
    m->linked = true;
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------- barrier */

static int gba_fail(mca_coll_gba_barrier_module_t *m, const char *what, int rc)
{
    char diag[512] = "";
    const char *detail = gba_last_error();
    if (detail && detail[0]) {
        snprintf(diag, sizeof(diag), "%s", detail);
    } else {
        gba_barrier_diagnose(m->barrier, diag, sizeof(diag));
    }
    /* Not a fallback: the other ranks are inside the GBA episode, a software barrier on this
     * rank alone would not meet them. Loud error instead. */
    opal_output(0, "coll:gba_barrier: [rank %u] %s on %s (GBA group %u) failed: %s (%d); %s",
                mca_coll_gba_barrier_component.world_rank, what, m->comm->c_name, m->group,
                gba_strerror(rc), rc, diag);
    return OMPI_ERROR;
}

/* Wait for the pending arrival, printing the device's diagnosis every warn_timeout_ms. */
static int gba_wait_pending(mca_coll_gba_barrier_module_t *m)
{
    uint64_t warn = (uint64_t)mca_coll_gba_barrier_component.warn_timeout_ms * 1000000u;
    for (;;) {
        int rc = gba_barrier_wait_pending(m->barrier, warn);
        if (GBA_ERR_TIMEOUT == rc && warn) {
            char diag[512] = "";
            gba_barrier_diagnose(m->barrier, diag, sizeof(diag));
            opal_output(0, "coll:gba_barrier: [rank %u] barrier on %s waiting more than %d ms: "
                           "%s",
                        mca_coll_gba_barrier_component.world_rank, m->comm->c_name,
                        mca_coll_gba_barrier_component.warn_timeout_ms, diag);
            continue;
        }
        return rc;
    }
}

static void gba_progress_module(mca_coll_gba_barrier_module_t *m);

static int gba_barrier_blocking(struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_gba_barrier_module_t *m = (mca_coll_gba_barrier_module_t *)module;
    uint64_t warn = (uint64_t)mca_coll_gba_barrier_component.warn_timeout_ms * 1000000u;
    int rc;
    (void)comm;

    /* episodes run in issue order: earlier MPI_Ibarriers on this communicator first */
    while (NULL != m->req_head) {
        gba_progress_module(m);
        if (NULL != m->req_head) {
            opal_progress();
        }
    }
    m->busy = true;
    rc = gba_barrier_wait(m->barrier, warn);
    if (GBA_ERR_TIMEOUT == rc && warn) {
        char diag[512] = "";
        gba_barrier_diagnose(m->barrier, diag, sizeof(diag));
        opal_output(0, "coll:gba_barrier: [rank %u] barrier on %s waiting more than %d ms: %s",
                    mca_coll_gba_barrier_component.world_rank, comm->c_name,
                    mca_coll_gba_barrier_component.warn_timeout_ms, diag);
        rc = gba_wait_pending(m);
    }
    m->busy = false;
    if (GBA_OK != rc) {
        return gba_fail(m, "MPI_Barrier", rc);
    }
    m->barriers++;
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------- ibarrier */

static int gba_request_free(ompi_request_t **rptr)
{
    gba_ibarrier_request_t *r = (gba_ibarrier_request_t *)*rptr;
    OMPI_REQUEST_FINI(&r->super);
    OBJ_RELEASE(r);
    *rptr = MPI_REQUEST_NULL;
    return OMPI_SUCCESS;
}

static int gba_request_cancel(ompi_request_t *request, int complete)
{
    /* a barrier episode cannot be taken back once arrived; MPI allows refusing */
    (void)request;
    (void)complete;
    return OMPI_SUCCESS;
}

static void gba_request_construct(gba_ibarrier_request_t *r)
{
    r->next = NULL;
    r->module = NULL;
    r->arrived = false;
}

OBJ_CLASS_INSTANCE(gba_ibarrier_request_t, ompi_request_t, gba_request_construct, NULL);

/* Arrive for the head request, complete it when released, and move on to the next. */
static void gba_progress_module(mca_coll_gba_barrier_module_t *m)
{
    gba_ibarrier_request_t *r;
    if (m->busy) {
        return; /* called back from inside a library call on this barrier */
    }
    m->busy = true;
    while (NULL != (r = m->req_head)) {
        int done = 0, rc;
        if (!r->arrived) {
            rc = gba_barrier_arrive(m->barrier);
            if (GBA_OK != rc) {
                gba_fail(m, "MPI_Ibarrier (arrive)", rc);
                r->super.req_status.MPI_ERROR = MPI_ERR_INTERN;
                done = 1;
            }
            r->arrived = true;
        }
        if (!done) {
            rc = gba_barrier_test(m->barrier, &done);
            if (GBA_OK != rc) {
                gba_fail(m, "MPI_Ibarrier (test)", rc);
                r->super.req_status.MPI_ERROR = MPI_ERR_INTERN;
                done = 1;
            } else if (done) {
                m->barriers++;
            }
        }
        if (!done) {
            break;
        }
        m->req_head = r->next;
        if (NULL == m->req_head) {
            m->req_tail = NULL;
        }
        r->next = NULL;
        r->module = NULL;
        ompi_request_complete(&r->super, true);
        OBJ_RELEASE(r); /* the queue's reference */
    }
    m->busy = false;
}

int mca_coll_gba_barrier_progress(void)
{
    static int in_progress = 0;
    mca_coll_gba_barrier_module_t *m;
    if (in_progress) {
        return 0;
    }
    in_progress = 1;
    for (m = mca_coll_gba_barrier_component.modules; NULL != m; m = m->next) {
        if (NULL != m->req_head) {
            gba_progress_module(m);
        }
    }
    in_progress = 0;
    return 0;
}

static int gba_ibarrier(struct ompi_communicator_t *comm, ompi_request_t **request,
                        mca_coll_base_module_t *module)
{
    mca_coll_gba_barrier_module_t *m = (mca_coll_gba_barrier_module_t *)module;
    gba_ibarrier_request_t *r = OBJ_NEW(gba_ibarrier_request_t);
    if (NULL == r) {
        return OMPI_ERR_OUT_OF_RESOURCE;
    }
    OMPI_REQUEST_INIT(&r->super, false);
    r->super.req_type = OMPI_REQUEST_COLL;
    r->super.req_state = OMPI_REQUEST_ACTIVE;
    r->super.req_status = ompi_status_empty;
    r->super.req_status.MPI_ERROR = MPI_SUCCESS;
    r->super.req_free = gba_request_free;
    r->super.req_cancel = gba_request_cancel;
    r->super.req_mpi_object.comm = comm;
    r->module = m;
    OBJ_RETAIN(r); /* one reference for the caller, one for the queue */
    if (NULL == m->req_tail) {
        m->req_head = m->req_tail = r;
    } else {
        m->req_tail->next = r;
        m->req_tail = r;
    }
    /* arrive now if nothing is ahead of us, so the episode overlaps the caller's work */
    gba_progress_module(m);
    *request = &r->super;
    return OMPI_SUCCESS;
}
