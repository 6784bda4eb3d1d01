/*
 * coll/gba_barrier: an out-of-tree OpenMPI 4.1 / 5.0 coll component that runs MPI_Barrier and
 * MPI_Ibarrier on the Global Barrier Accelerator through libgba_barrier's C ABI.
 *
 * Only the barrier and ibarrier slots are provided; every other collective stays with the
 * modules below it (tuned, libnbc, ...). See README.md for the control-plane flow.
 */
#ifndef MCA_COLL_GBA_BARRIER_H
#define MCA_COLL_GBA_BARRIER_H

#include "ompi_config.h"

/* One source for OpenMPI 4.1 and 5.0: what differs between them is chosen here, from the
 * version the headers declare. The module structure's layout differs too (5.0 drops ft_event,
 * moves coll_module_disable after coll_agree/coll_iagree and appends coll_revoke_local), but
 * this component only ever names the fields it sets, so the source is the same. A build serves
 * only the OpenMPI line it was compiled against: gba_ompi_version.h refuses another at load. */
#include "gba_ompi_version.h"
#define GBA_STR2(x) #x
#define GBA_STR(x) GBA_STR2(x)
#if defined(GBA_EXPECT_OMPI_VERSION)
_Static_assert(GBA_EXPECT_OMPI_VERSION ==
                   OMPI_MAJOR_VERSION * 10000 + OMPI_MINOR_VERSION * 100 + OMPI_RELEASE_VERSION,
               "the OpenMPI headers found do not match the installed OpenMPI runtime (ompi_info)");
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "mpi.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/request/request.h"
#include "gba_barrier.h"

BEGIN_C_DECLS

#if OMPI_MAJOR_VERSION == 5
/* coll's component and module interface 2.4.0 */
typedef mca_coll_base_component_2_4_0_t gba_coll_component_t;
#define GBA_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
/* For log lines only (nothing is agreed on it): 5.0's c_contextid is a 128-bit extended CID;
 * the local index is what ompi_comm_get_local_cid gives (0 for MPI_COMM_WORLD). */
#define GBA_COMM_CID(comm) ((unsigned)ompi_comm_get_local_cid(comm))
#else
/* coll's component interface 2.0.0, module interface 2.3.0 */
typedef mca_coll_base_component_2_0_0_t gba_coll_component_t;
#define GBA_COLL_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
#define GBA_COMM_CID(comm) ((unsigned)(comm)->c_contextid)
#endif

typedef struct mca_coll_gba_barrier_module_t mca_coll_gba_barrier_module_t;

typedef struct mca_coll_gba_barrier_component_t {
    gba_coll_component_t super;

    /* MCA parameters */
    int priority;
    bool disable;
    char *device_path;
    int min_comm_size;
    int verbose;
    int ready_timeout_ms;
    int warn_timeout_ms;
    bool drive_progress;
    bool eager_teams;
    int form_after;             /* 0: automatic (see GBA_FORM_AFTER_ONE_NODE) */

    /* device state, set by init_query */
    gba_device *device;
    int device_status;          /* GBA_OK or the gba_status of the failed open */
    char device_name[512];      /* the path actually opened */
    bool device_explicit;       /* device_path or GBA_DEVICE named a device: a failure to use
                                 * it is said at verbose 0, since the user asked for it */
    gba_device_info info;
    uint32_t world_rank;
    bool progress_registered;

    /* job-wide decision, made once on MPI_COMM_WORLD: some rank has no usable device */
    bool job_unusable;

    /* enabled modules (a GBA team each), for ibarrier progress and for finalize; under
     * `lock` (recursive: completing an ibarrier request may create a communicator) */
    mca_coll_gba_barrier_module_t *modules;
    pthread_mutex_t lock;
} mca_coll_gba_barrier_component_t;

typedef struct gba_ibarrier_request_t {
    ompi_request_t super;
    struct gba_ibarrier_request_t *next;
    mca_coll_gba_barrier_module_t *module;
    bool arrived;
} gba_ibarrier_request_t;
OBJ_CLASS_DECLARATION(gba_ibarrier_request_t);

struct mca_coll_gba_barrier_module_t {
    mca_coll_base_module_t super;

    struct ompi_communicator_t *comm;   /* not retained: the communicator owns us */
    gba_team *team;                     /* NULL until the team formed */
    /* whether the communicator's barrier runs on the GBA; decided at the same call on every
     * rank (enable when eager, the first blocking barrier when lazy), and only once */
    enum { GBA_TEAM_UNFORMED, GBA_TEAM_FORMED, GBA_TEAM_SOFTWARE } state;
    uint32_t group;
    uint64_t barriers;                  /* episodes run on this module */
    uint64_t unformed_barriers;         /* blocking barriers run in software before the team */
    uint64_t form_at;                   /* the blocking barrier that forms the team (1 = first) */

    /* fallback: what the communicator had before us (retained) */
    mca_coll_base_module_barrier_fn_t previous_barrier;
    mca_coll_base_module_t *previous_barrier_module;
    mca_coll_base_module_ibarrier_fn_t previous_ibarrier;
    mca_coll_base_module_t *previous_ibarrier_module;

    /* test-and-set: held by the one thread inside the team (or changing the request queue);
     * the progress hook (opal_progress), reached from inside a library call or from another
     * thread, must not enter the team then */
    bool busy;

    /* ibarrier requests in issue order, only the head has arrived; changed under `busy` */
    gba_ibarrier_request_t *req_head, *req_tail;

    /* list of enabled modules in the component */
    mca_coll_gba_barrier_module_t *next, *prev;
    bool linked;
};
OBJ_CLASS_DECLARATION(mca_coll_gba_barrier_module_t);

/* coll_gba_barrier_form_after = 0 (automatic): a communicator whose ranks all share one node
 * forms its team at this blocking MPI_Barrier, the earlier ones running in software; one that
 * spans nodes at its first. On one node a formation (its allgathers, the vote, the claim) costs
 * ~5 µs at np=2 and ~25-40 µs at np=4 on 2 cores, and the GBA saves ~0.06 µs (np=2) to ~0.3 µs
 * (np=4) a barrier over OpenMPI's shared-memory barrier: it pays for itself after ~60-120
 * barriers (tests/bench/README.md, 2026-11-28). Across nodes a software barrier costs network
 * round trips, the GBA one switch traversal: it pays off within a few. */
#define GBA_FORM_AFTER_ONE_NODE 64

GBA_COMPONENT_EXPORT extern mca_coll_gba_barrier_component_t mca_coll_gba_barrier_component;

int mca_coll_gba_barrier_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_gba_barrier_comm_query(struct ompi_communicator_t *comm,
                                                        int *priority);
int mca_coll_gba_barrier_progress(void);
void mca_coll_gba_barrier_release_all(void);

/* verbose output: level 1 = decisions (offload or fallback and why), 10 = per-communicator
 * detail, 20 = every step */
void mca_coll_gba_barrier_log(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define GBA_LOG(level, ...)                                                   \
    do {                                                                      \
        if (mca_coll_gba_barrier_component.verbose >= (level)) {              \
            mca_coll_gba_barrier_log((level), __VA_ARGS__);                   \
        }                                                                     \
    } while (0)

END_C_DECLS

#endif
