/*
 * scoll/gba: a native OpenSHMEM scoll component (OpenMPI 4.1's and 5.0's oshmem) for the barrier of the
 * group of all PEs. shmem_barrier_all → this module: complete outstanding puts (spml quiet),
 * then the coll barrier of MPI_COMM_WORLD, which coll/gba_barrier runs on the GBA (or OpenMPI's
 * software barrier where the GBA is not in use). It does not depend on scoll/mpi (it works
 * with --mca scoll ^mpi too) nor on OSHMEM_SPEC_COMPAT (whether the API layer quiets). Every
 * other scoll operation, and barriers of other active sets, stay with scoll/mpi or
 * scoll/basic.
 */
#include "oshmem_config.h"

/* OpenSHMEM's scoll interface (component 1.0.0, MCA_SCOLL_BASE_VERSION_2_0_0) is the same in
 * OpenMPI 4.1 and 5.0; a build still serves only its own line (gba_ompi_version.h) */
#include "gba_ompi_version.h"

#include <stdbool.h>
#include <stdio.h>

#include "mpi.h"
#include "opal/util/output.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"
#include "oshmem/constants.h"
#include "oshmem/mca/scoll/scoll.h"
#include "oshmem/mca/spml/spml.h"
#include "oshmem/proc/proc.h"
#include "oshmem/runtime/runtime.h"

typedef struct {
    mca_scoll_base_component_1_0_0_t super;
    int priority;
    int quiet;   /* -1: when the API layer does not (OSHMEM_SPEC_COMPAT != 1); 0 never; 1 always */
    int verbose;
} mca_scoll_gba_component_t;

typedef struct {
    mca_scoll_base_module_t super;
    struct ompi_communicator_t *comm;
    bool quiet;
} mca_scoll_gba_module_t;
static OBJ_CLASS_INSTANCE(mca_scoll_gba_module_t, mca_scoll_base_module_t, NULL, NULL);

static int gba_register(void);
static int gba_init(bool enable_progress_threads, bool enable_threads);
static mca_scoll_base_module_t *gba_query(struct oshmem_group_t *group, int *priority);

GBA_COMPONENT_EXPORT extern mca_scoll_gba_component_t mca_scoll_gba_component;
mca_scoll_gba_component_t mca_scoll_gba_component = {
    .super = {
        .scoll_version = {
            MCA_SCOLL_BASE_VERSION_2_0_0,
            .mca_component_name = "gba",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_register_component_params = gba_register,
        },
        .scoll_data = {
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .scoll_init = gba_init,
        .scoll_query = gba_query,
    },
};

static int gba_register(void)
{
    mca_scoll_gba_component_t *c = &mca_scoll_gba_component;
    if (!gba_ompi_runtime_matches("scoll:gba")) {
        return OSHMEM_ERR_NOT_SUPPORTED;
    }
    c->priority = 90;
    (void)mca_base_component_var_register(
        &c->super.scoll_version, "priority",
        "Priority of scoll/gba for the barrier of all PEs (above scoll/mpi's 77 to take it)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &c->priority);
    c->quiet = -1;
    (void)mca_base_component_var_register(
        &c->super.scoll_version, "quiet",
        "Complete outstanding puts (spml quiet) before the barrier: -1 when the OpenSHMEM API "
        "layer does not already do it (this build: OSHMEM_SPEC_COMPAT " 
#if defined(OSHMEM_SPEC_COMPAT) && OSHMEM_SPEC_COMPAT == 1
        "1, it does"
#else
        "0, it does not"
#endif
        "), 1 always, 0 never",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &c->quiet);
    c->verbose = 0;
    (void)mca_base_component_var_register(
        &c->super.scoll_version, "verbose", "Verbosity of scoll/gba (1: which groups it takes)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &c->verbose);
    return OSHMEM_SUCCESS;
}

static int gba_init(bool enable_progress_threads, bool enable_threads)
{
    (void)enable_progress_threads;
    (void)enable_threads;
    return OSHMEM_SUCCESS;
}

static int gba_barrier(struct oshmem_group_t *group, long *pSync, int alg)
{
    mca_scoll_gba_module_t *m = (mca_scoll_gba_module_t *)group->g_scoll.scoll_barrier_module;
    (void)pSync;
    (void)alg;
    if (m->quiet) {
        int rc = MCA_SPML_CALL(quiet(oshmem_ctx_default));
        if (OSHMEM_SUCCESS != rc) {
            return rc;
        }
    }
    return m->comm->c_coll->coll_barrier(m->comm, m->comm->c_coll->coll_barrier_module);
}

/* Never fails: in 4.1 a failing scoll enable unselects every module of the group. */
static int gba_enable(mca_scoll_base_module_t *module, struct oshmem_group_t *group)
{
    (void)module;
    (void)group;
    return OSHMEM_SUCCESS;
}

static mca_scoll_base_module_t *gba_query(struct oshmem_group_t *group, int *priority)
{
    mca_scoll_gba_component_t *c = &mca_scoll_gba_component;
    mca_scoll_gba_module_t *m;
    int n = ompi_comm_size(&ompi_mpi_comm_world.comm);

    /* the group of all PEs, in world order: its MPI communicator is MPI_COMM_WORLD */
    if (!group->is_member || group->proc_count != n || n < 2) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (group->proc_vpids[i] != (opal_vpid_t)i) {
            return NULL;
        }
    }
    m = OBJ_NEW(mca_scoll_gba_module_t);
    if (NULL == m) {
        return NULL;
    }
    m->comm = &ompi_mpi_comm_world.comm;
#if defined(OSHMEM_SPEC_COMPAT) && OSHMEM_SPEC_COMPAT == 1
    m->quiet = c->quiet > 0;
#else
    m->quiet = c->quiet != 0;
#endif
    m->super.scoll_module_enable = gba_enable;
    m->super.scoll_barrier = gba_barrier;
    *priority = c->priority;
    if (c->verbose > 0) {
        opal_output(0, "scoll:gba: PE %d: barrier of all %d PEs → quiet %s, then "
                       "MPI_COMM_WORLD's coll barrier", group->my_pe, n,
                    m->quiet ? "here" : "by the API layer");
    }
    return &m->super;
}
