/*
 * coll/gba_barrier module: per-communicator enable, the team (a libgba_barrier team formed
 * over the communicator's own allgather, at its coll_gba_barrier_form_after-th MPI_Barrier
 * unless coll_gba_barrier_eager_teams), the barrier, the split-phase ibarrier and the release
 * of the team. The agreement (devices, ports, group, GROUP_BUSY retries) is the library's.
 *
 * Threads (MPI_THREAD_MULTIPLE): MPI forbids concurrent collectives on one communicator, but
 * an MPI_Ibarrier's completion may be driven by any thread's progress while the owner enters
 * the next barrier. A module's team is therefore entered under its `busy` flag (test-and-set):
 * the blocking barrier takes it for its whole wait, the progress callback only tries it. The
 * list of enabled modules is under the component's lock. Distinct communicators' teams are
 * independent in the library and run in parallel.
 */
#include "coll_gba_barrier.h"

#include <limits.h>
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

/* the module's team is entered by one thread at a time (see the head of this file) */
static bool gba_try_enter(mca_coll_gba_barrier_module_t *m)
{
    return !__atomic_test_and_set(&m->busy, __ATOMIC_ACQUIRE);
}

static void gba_leave(mca_coll_gba_barrier_module_t *m)
{
    __atomic_clear(&m->busy, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------- module object */

static void gba_unlink_locked(mca_coll_gba_barrier_module_t *m)
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

static void gba_release_team(mca_coll_gba_barrier_module_t *m)
{
    if (NULL != m->team) {
        int rc = gba_team_destroy(m->team);
        if (GBA_OK != rc) {
            GBA_LOG(1, "releasing GBA group %u: %s (%d): %s", m->group, gba_strerror(rc), rc,
                    gba_last_error());
        } else {
            GBA_LOG(10, "team on GBA group %u done after %llu barriers (the group parked "
                        "for the same ranks' next communicator, or released)", m->group,
                    (unsigned long long)m->barriers);
        }
        m->team = NULL;
    }
}

static void gba_module_construct(mca_coll_gba_barrier_module_t *m)
{
    m->comm = NULL;
    m->team = NULL;
    m->state = GBA_TEAM_UNFORMED;
    m->group = 0;
    m->barriers = 0;
    m->unformed_barriers = 0;
    m->form_at = 1;
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
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    pthread_mutex_lock(&c->lock);
    gba_unlink_locked(m);
    pthread_mutex_unlock(&c->lock);
    /* a progress pass of another thread may still be inside this module: wait it out */
    while (!gba_try_enter(m)) {
    }
    /* requests still queued (the communicator was freed with an MPI_Ibarrier pending and its
     * request freed) are dropped from the queue; the team goes away with them */
    while (NULL != m->req_head) {
        gba_ibarrier_request_t *r = m->req_head;
        m->req_head = r->next;
        r->module = NULL;
        OBJ_RELEASE(r);
    }
    gba_release_team(m);
    gba_leave(m);
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
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    mca_coll_gba_barrier_module_t *m;
    pthread_mutex_lock(&c->lock);
    while (NULL != (m = c->modules)) {
        gba_release_team(m);
        gba_unlink_locked(m);
    }
    pthread_mutex_unlock(&c->lock);
}

/* ---------------------------------------------------------------- enable: the team */

/* The out-of-band allgather the library's team creation runs over: the communicator's own
 * allgather as installed by the modules below us, which is allowed here (comm_select runs
 * after the new communicator's activation barrier). Rank i's bytes land at recv + i * len.
 * Non-blocking and polled (as UCC's OpenMPI component does): comm_select may run inside a
 * request callback of opal_progress, and under MPI_THREAD_MULTIPLE a blocking wait nested
 * there waits for the progress of the very wait it is nested in (ompi_sync_wait_mt): a hang. */
static int gba_oob_allgather(const void *send, void *recv, size_t len, void *ctx)
{
    struct ompi_communicator_t *comm = ctx;
    ompi_request_t *req = MPI_REQUEST_NULL;
    int done = 0;
    if (len > INT_MAX) {
        return -1;
    }
    if (NULL == comm->c_coll->coll_iallgather) {
        return OMPI_SUCCESS == comm->c_coll->coll_allgather(send, (int)len, MPI_BYTE, recv,
                                                            (int)len, MPI_BYTE, comm,
                                                            comm->c_coll->coll_allgather_module)
                   ? 0
                   : -1;
    }
    if (OMPI_SUCCESS != comm->c_coll->coll_iallgather(send, (int)len, MPI_BYTE, recv, (int)len,
                                                      MPI_BYTE, comm, &req,
                                                      comm->c_coll->coll_iallgather_module)) {
        return -1;
    }
    while (!done) {
        /* ompi_request_test drives opal_progress when the request is not complete */
        if (OMPI_SUCCESS != ompi_request_test(&req, &done, MPI_STATUS_IGNORE)) {
            return -1;
        }
    }
    return 0;
}

/* Form the communicator's GBA team. The library agrees and returns the same verdict on every
 * rank: all of them offload, or none does; rank 0 says which, with the reason. Returns
 * OMPI_SUCCESS (offloaded), OMPI_ERR_NOT_AVAILABLE (a fallback verdict, agreed over the
 * allgather) or OMPI_ERROR (the allgather itself failed: nothing was agreed). */
static int gba_team_form(mca_coll_gba_barrier_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    int size = ompi_comm_size(comm), rank = ompi_comm_rank(comm), rc;
    gba_team_params params;
    gba_verdict verdict;

    memset(&params, 0, sizeof(params));
    params.configure_timeout_ns = (uint64_t)c->ready_timeout_ms * 1000000u;
    memset(&verdict, 0, sizeof(verdict));
    rc = gba_team_create(c->device, gba_oob_allgather, comm, (uint32_t)rank, (uint32_t)size,
                         &params, &m->team, &verdict);
    if (GBA_OK != rc || !verdict.offloaded) {
        m->team = NULL;
        if (GBA_OK != rc) {
            /* the allgather itself failed: every rank saw the same collective fail */
            GBA_LOG_ROOT(1, "%s (cid %u, size %d): software barrier: forming the GBA team "
                            "failed: %s (%d): %s", comm->c_name, GBA_COMM_CID(comm),
                         size, gba_strerror(rc), rc, gba_last_error());
            return OMPI_ERROR;
        }
        if (GBA_ERR_TIMEOUT == verdict.reason) {
            /* not a property of the job but of the machine's load: said even at verbose 0,
             * naming the parameter that sets the limit */
            GBA_LOG_ROOT(0, "%s (cid %u, size %d): %s; raise coll_gba_barrier_ready_timeout_ms "
                            "(now %d ms; e.g. --mca coll_gba_barrier_ready_timeout_ms 30000) "
                            "if the machine is loaded", comm->c_name, GBA_COMM_CID(comm), size,
                         verdict.text, c->ready_timeout_ms);
        } else {
            /* the text starts with "software barrier: " and names the rank and the reason;
             * at verbose 0 too when the user named a device that a rank cannot use */
            bool misconfigured = c->device_explicit && (GBA_ERR_NO_DEVICE == verdict.reason ||
                                                        GBA_ERR_NOT_GBA == verdict.reason);
            GBA_LOG_ROOT(misconfigured ? 0 : 1, "%s (cid %u, size %d): %s", comm->c_name,
                         GBA_COMM_CID(comm), size, verdict.text);
        }
        if (comm == &ompi_mpi_comm_world.comm &&
            (GBA_ERR_NO_DEVICE == verdict.reason || GBA_ERR_NOT_GBA == verdict.reason)) {
            /* a rank of the job has no device: every later communicator would say so again */
            c->job_unusable = true;
        }
        return OMPI_ERR_NOT_AVAILABLE;
    }
    m->group = verdict.group;
    if (opal_progress_yield_when_idle && NULL == getenv("GBA_WAIT_POLICY")) {
        /* OpenMPI's own idle knob (mpirun sets it when it oversubscribes a node, or the user
         * does): its barrier then yields in every progress loop, and ours yields from the
         * first miss, whatever the team counted (a co-scheduled job is not among its ranks).
         * GBA_WAIT_POLICY, the user's word for this library, still wins. */
        int rc = gba_team_set_wait_policy(m->team, GBA_WAIT_YIELD);
        GBA_LOG_ROOT(10, "%s: waits yield from the first miss (mpi_yield_when_idle): %s",
                     comm->c_name, gba_strerror(rc));
    }
    if (m->unformed_barriers) {
        GBA_LOG_ROOT(1, "%s (cid %u, size %d): barrier on GBA group %u (team formed at "
                        "MPI_Barrier %llu)", comm->c_name, GBA_COMM_CID(comm), size,
                     (unsigned)verdict.group, (unsigned long long)m->unformed_barriers);
    } else {
        GBA_LOG_ROOT(1, "%s (cid %u, size %d): barrier on GBA group %u (team formed at "
                        "creation: eager_teams)", comm->c_name, GBA_COMM_CID(comm), size,
                     (unsigned)verdict.group);
    }
    GBA_LOG_ROOT(10, "%s: %s", comm->c_name, verdict.text);
    return OMPI_SUCCESS;
}

static int gba_module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_gba_barrier_module_t *m = (mca_coll_gba_barrier_module_t *)module;
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;

    m->comm = comm;
    /* comm_select enables modules in increasing priority and installs each one's functions
     * before enabling the next, so c_coll holds what runs without us: our fallback. */
    m->previous_barrier = comm->c_coll->coll_barrier;
    m->previous_barrier_module = comm->c_coll->coll_barrier_module;
    m->previous_ibarrier = comm->c_coll->coll_ibarrier;
    m->previous_ibarrier_module = comm->c_coll->coll_ibarrier_module;
    if (NULL == m->previous_barrier || NULL == m->previous_ibarrier ||
        NULL == comm->c_coll->coll_allgather) {
        /* same components on every rank, so the same on every rank: said by its rank 0 */
        int rank = ompi_comm_rank(comm);
        GBA_LOG_ROOT(1, "%s: no lower-priority barrier/ibarrier/allgather to fall back on; "
                        "coll/gba_barrier steps aside", comm->c_name);
        m->previous_barrier_module = m->previous_ibarrier_module = NULL;
        return OMPI_ERR_NOT_AVAILABLE;
    }
    OBJ_RETAIN(m->previous_barrier_module);
    OBJ_RETAIN(m->previous_ibarrier_module);

    /* The blocking barrier that forms the team: the same on every rank, since the parameter
     * must be, and so is whether the communicator spans nodes (if any two of its ranks are on
     * different nodes, every rank has a peer on a node other than its own). */
    if (c->form_after > 0) {
        m->form_at = (uint64_t)c->form_after;
    } else {
        m->form_at = ompi_group_have_remote_peers(comm->c_local_group) ||
                             OMPI_COMM_IS_INTER(comm)
                         ? 1
                         : GBA_FORM_AFTER_ONE_NODE;
    }

    if (c->eager_teams) {
        if (OMPI_SUCCESS != gba_team_form(m, comm)) {
            /* Returning an error makes comm_select drop this module: the previous barrier
             * and ibarrier stay installed, with no indirection through us. */
            return OMPI_ERR_NOT_AVAILABLE;
        }
        m->state = GBA_TEAM_FORMED;
    }

    /* link into the component's list (for ibarrier progress and finalize) */
    pthread_mutex_lock(&c->lock);
    m->next = c->modules;
    m->prev = NULL;
    if (c->modules) {
        c->modules->prev = m;
    }
    c->modules = m;
    m->linked = true;
    pthread_mutex_unlock(&c->lock);
    return OMPI_SUCCESS;
}

/* ---------------------------------------------------------------- barrier */

static int gba_fail(mca_coll_gba_barrier_module_t *m, const char *what, int rc)
{
    const char *diag = gba_last_error();
    /* Not a fallback: the other ranks are inside the GBA episode, a software barrier on this
     * rank alone would not meet them. Loud error instead. */
    opal_output(0, "coll:gba_barrier: [rank %u] %s on %s (GBA group %u) failed: %s (%d); %s",
                mca_coll_gba_barrier_component.world_rank, what, m->comm->c_name, m->group,
                gba_strerror(rc), rc, diag);
    return OMPI_ERROR;
}

/* Right after a wait returned GBA_ERR_TIMEOUT: the library's message names who is missing
 * (ports with their hosts, and this host's processes). */
static void gba_warn_waiting(mca_coll_gba_barrier_module_t *m)
{
    const char *diag = gba_last_error();
    opal_output(0, "coll:gba_barrier: [rank %u] barrier on %s waiting more than %d ms: %s",
                mca_coll_gba_barrier_component.world_rank, m->comm->c_name,
                mca_coll_gba_barrier_component.warn_timeout_ms, diag);
}

static void gba_progress_module(mca_coll_gba_barrier_module_t *m);

static int gba_barrier_blocking(struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_gba_barrier_module_t *m = (mca_coll_gba_barrier_module_t *)module;
    uint64_t warn = (uint64_t)mca_coll_gba_barrier_component.warn_timeout_ms * 1000000u;
    int rc;
    (void)comm;

    if (GBA_TEAM_FORMED != m->state) {
        /* Lazy formation: every rank of comm is in this same first MPI_Barrier (collectives
         * are called in the same order on every rank), so the team's agreement, a collective
         * over comm's allgather, is reached here alike on every rank, once. MPI_Ibarriers
         * issued before it ran in software and need nothing from the team. */
        if (GBA_TEAM_UNFORMED == m->state && ++m->unformed_barriers < m->form_at) {
            /* Not yet: form_after (automatic: GBA_FORM_AFTER_ONE_NODE on one node) says a
             * team pays for itself only past this many barriers. Every rank counts the same
             * blocking barriers of comm (collectives are called in the same order on every
             * rank), so all of them form at the same call below. */
            return m->previous_barrier(comm, m->previous_barrier_module);
        }
        if (GBA_TEAM_UNFORMED == m->state) {
            int formed = gba_team_form(m, comm);
            m->state = OMPI_SUCCESS == formed ? GBA_TEAM_FORMED : GBA_TEAM_SOFTWARE;
            /* The formation was this barrier: each of its allgathers completes on a rank only
             * once every rank has contributed, i.e. entered this MPI_Barrier. A verdict (either
             * way) means at least one allgather completed on every rank, so no rank leaves
             * before all have entered; the next barrier is the team's first episode (on every
             * rank alike: they all got a verdict). Only when the allgather failed does the
             * software barrier still run. */
            if (OMPI_ERROR != formed) {
                return OMPI_SUCCESS;
            }
        }
        if (GBA_TEAM_SOFTWARE == m->state) {
            return m->previous_barrier(comm, m->previous_barrier_module);
        }
    }
    /* episodes run in issue order: earlier MPI_Ibarriers on this communicator first (another
     * thread's progress may be completing them: then we wait for it to let go) */
    for (;;) {
        if (gba_try_enter(m)) {
            if (NULL == m->req_head) {
                break;
            }
            gba_leave(m);
            gba_progress_module(m);
        }
        opal_progress();
    }
    rc = gba_team_wait(m->team, warn);
    while (GBA_ERR_TIMEOUT == rc && warn) {
        gba_warn_waiting(m);
        rc = gba_team_wait_pending(m->team, warn);
    }
    if (GBA_OK == rc) {
        m->barriers++;
    }
    gba_leave(m);
    return GBA_OK == rc ? OMPI_SUCCESS : gba_fail(m, "MPI_Barrier", rc);
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

/* Arrive for the head request, complete it when released, and move on to the next. Does
 * nothing when another thread (or a library call up this thread's stack) is in the team. */
static void gba_progress_module(mca_coll_gba_barrier_module_t *m)
{
    gba_ibarrier_request_t *r;
    if (!gba_try_enter(m)) {
        return;
    }
    while (NULL != (r = m->req_head)) {
        int done = 0, rc;
        if (!r->arrived) {
            rc = gba_team_arrive(m->team);
            if (GBA_OK != rc) {
                gba_fail(m, "MPI_Ibarrier (arrive)", rc);
                r->super.req_status.MPI_ERROR = MPI_ERR_INTERN;
                done = 1;
            }
            r->arrived = true;
        }
        if (!done) {
            rc = gba_team_test(m->team, &done);
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
    gba_leave(m);
}

int mca_coll_gba_barrier_progress(void)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    static _Thread_local int in_progress = 0;
    mca_coll_gba_barrier_module_t *m;
    /* another thread's pass holds the list: this one has nothing to add */
    if (in_progress || 0 != pthread_mutex_trylock(&c->lock)) {
        return 0;
    }
    in_progress = 1;
    for (m = c->modules; NULL != m; m = m->next) {
        if (NULL != m->req_head) {
            gba_progress_module(m);
        }
    }
    in_progress = 0;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

static int gba_ibarrier(struct ompi_communicator_t *comm, ompi_request_t **request,
                        mca_coll_base_module_t *module)
{
    mca_coll_gba_barrier_module_t *m = (mca_coll_gba_barrier_module_t *)module;
    gba_ibarrier_request_t *r;
    if (GBA_TEAM_FORMED != m->state) {
        /* no team yet (formed at the first blocking MPI_Barrier), or none to be had */
        return m->previous_ibarrier(comm, request, m->previous_ibarrier_module);
    }
    r = OBJ_NEW(gba_ibarrier_request_t);
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
    /* the queue is the team's state: changed only inside it */
    while (!gba_try_enter(m)) {
        opal_progress();
    }
    if (NULL == m->req_tail) {
        m->req_head = m->req_tail = r;
    } else {
        m->req_tail->next = r;
        m->req_tail = r;
    }
    gba_leave(m);
    /* arrive now if nothing is ahead of us, so the episode overlaps the caller's work */
    gba_progress_module(m);
    *request = &r->super;
    return OMPI_SUCCESS;
}
