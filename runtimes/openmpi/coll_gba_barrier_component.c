/*
 * coll/gba_barrier component: MCA parameters, device open (init_query), per-communicator
 * query.
 */
#include "coll_gba_barrier.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opal/util/output.h"
#include "opal/util/proc.h"
#include "opal/runtime/opal_progress.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/base/base.h"

static int gba_register(void);
static int gba_open(void);
static int gba_close(void);
static void gba_progress_hook(void *arg);

mca_coll_gba_barrier_component_t mca_coll_gba_barrier_component = {
    .super = {
        .collm_version = {
            GBA_COLL_BASE_VERSION,
            .mca_component_name = "gba_barrier",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_open_component = gba_open,
            .mca_close_component = gba_close,
            .mca_register_component_params = gba_register,
        },
        .collm_data = {
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .collm_init_query = mca_coll_gba_barrier_init_query,
        .collm_comm_query = mca_coll_gba_barrier_comm_query,
    },
    .lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP,
};

void mca_coll_gba_barrier_log(int level, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    (void)level;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    opal_output(0, "coll:gba_barrier: [rank %u] %s", mca_coll_gba_barrier_component.world_rank,
                msg);
}

static int gba_register(void)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    mca_base_component_t *v = &c->super.collm_version;

    if (!gba_ompi_runtime_matches("coll:gba_barrier")) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    c->priority = 40;
    (void)mca_base_component_var_register(
        v, "priority",
        "Priority of coll/gba_barrier; it must be above coll/tuned's (30) to take MPI_Barrier "
        "and MPI_Ibarrier (OpenMPI caps priorities at 100)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &c->priority);

    c->disable = false;
    (void)mca_base_component_var_register(
        v, "disable",
        "Disable the GBA barrier: MPI_Barrier stays with OpenMPI's software barriers. Must be "
        "the same on every rank (mpirun --mca or -x OMPI_MCA_coll_gba_barrier_disable)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_2, MCA_BASE_VAR_SCOPE_READONLY,
        &c->disable);

    c->device_path = "";
    (void)mca_base_component_var_register(
        v, "device_path",
        "This host's GBA device, opened as given: \"sim:<fabric-dir>#<port>\" (a port of a "
        "simulator fabric made by `gba sim create`, standing for this host's port) or "
        "\"/dev/uioN\". Empty (the default): the GBA_DEVICE environment variable. Every "
        "process of a host opens the same device; the processes of one host share its port",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
        &c->device_path);

    c->min_comm_size = 2;
    (void)mca_base_component_var_register(
        v, "min_comm_size",
        "Smallest communicator put on the GBA; smaller ones keep the software barrier",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &c->min_comm_size);

    c->verbose = 0;
    (void)mca_base_component_var_register(
        v, "verbose",
        "Verbosity: 1 says once per communicator whether its barrier runs on the GBA or falls "
        "back, and why (which rank, which error); 10 adds group ids, member masks and releases; "
        "20 every step",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &c->verbose);

    /* the library's default (10 s): long enough for a loaded machine, where a 2 s limit
     * expired (a communicator's team creation at load 40 on 2 cores) */
    c->ready_timeout_ms = (int)(GBA_DEFAULT_CONFIGURE_TIMEOUT_NS / 1000000u);
    (void)mca_base_component_var_register(
        v, "ready_timeout_ms",
        "How long a communicator's GBA team creation waits for its group to become READY "
        "(a team-mate on this host configuring it, every member port configured alike) before "
        "the communicator falls back to the software barrier, saying so on its rank 0; 0: no "
        "limit. Raise it on a heavily loaded machine (--mca coll_gba_barrier_ready_timeout_ms "
        "30000, or OMPI_MCA_coll_gba_barrier_ready_timeout_ms=30000 in the environment); must "
        "be the same on every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &c->ready_timeout_ms);

    c->warn_timeout_ms = 10000;
    (void)mca_base_component_var_register(
        v, "warn_timeout_ms",
        "A barrier waiting longer than this prints the device's diagnosis (which members have "
        "not arrived) and keeps waiting; 0 disables the warning",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_READONLY,
        &c->warn_timeout_ms);

    c->drive_progress = true;
    (void)mca_base_component_var_register(
        v, "progress",
        "Drive OpenMPI's progress engine (opal_progress) from the GBA barrier's wait loop. "
        "Needed for correctness when point-to-point traffic is pending across a barrier "
        "(e.g. MPI_Isend; MPI_Barrier; MPI_Wait with a large message); 0 only for measurements",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_READONLY,
        &c->drive_progress);

    c->eager_teams = false;
    (void)mca_base_component_var_register(
        v, "eager_teams",
        "Form a communicator's GBA team (the agreement among its ranks, a switch group) when "
        "the communicator is created. By default (false) it is formed at the communicator's "
        "first MPI_Barrier, so a communicator that never calls one costs no agreement and no "
        "group; MPI_Ibarriers before that first MPI_Barrier run in software. Must be the same "
        "on every rank",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &c->eager_teams);

    c->form_after = 0;
    (void)mca_base_component_var_register(
        v, "form_after",
        "Form a communicator's GBA team at this blocking MPI_Barrier of it (1: the first); the "
        "barriers before it run in OpenMPI's software barrier, and a communicator with fewer "
        "costs no agreement and no group. 0 (the default): automatic, " GBA_STR(
            GBA_FORM_AFTER_ONE_NODE) " for a communicator whose ranks all share one node (there "
        "a formation costs as much as ~60-120 shared-memory barriers save) and 1 for one that "
        "spans nodes. Ignored with eager_teams. Must be the same on every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &c->form_after);

    return OMPI_SUCCESS;
}

static int gba_open(void)
{
    if (mca_coll_gba_barrier_component.form_after < 0) {
        /* every rank reads the same value: each says so, and all take the same default */
        opal_output(0, "coll:gba_barrier: coll_gba_barrier_form_after=%d is not a barrier "
                       "number (1 = the first; 0 = automatic): automatic is used",
                    mca_coll_gba_barrier_component.form_after);
        mca_coll_gba_barrier_component.form_after = 0;
    }
    mca_coll_gba_barrier_component.device = NULL;
    mca_coll_gba_barrier_component.device_status = GBA_ERR_NO_DEVICE;
    mca_coll_gba_barrier_component.modules = NULL;
    mca_coll_gba_barrier_component.job_unusable = false;
    return OMPI_SUCCESS;
}

static int gba_close(void)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    if (c->progress_registered) {
        opal_progress_unregister(mca_coll_gba_barrier_progress);
        c->progress_registered = false;
    }
    /* communicators still alive at this point (none in a clean finalize) give their groups
     * back before the device goes away */
    mca_coll_gba_barrier_release_all();
    if (NULL != c->device) {
        int rc = gba_device_close(c->device);
        if (GBA_OK != rc) {
            GBA_LOG(1, "closing %s: %s", c->device_name, gba_strerror(rc));
        }
        c->device = NULL;
    }
    return OMPI_SUCCESS;
}

/* Called from the library's wait loops: keep OpenMPI's progress engine turning, so that a
 * rank spinning in the GBA barrier still completes the point-to-point traffic another rank
 * may be waiting for (MPI_Isend; MPI_Barrier; MPI_Wait is a correct program). */
static void gba_progress_hook(void *arg)
{
    static _Thread_local int in_hook = 0;
    (void)arg;
    if (in_hook) {
        return;
    }
    in_hook = 1;
    opal_progress();
    in_hook = 0;
}

int mca_coll_gba_barrier_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    const char *path = c->device_path;
    int rc;

    (void)enable_progress_threads;
    /* MPI_THREAD_MULTIPLE is supported: the module's state is entered under its busy flag and
     * distinct communicators' teams are independent in the library */
    (void)enable_mpi_threads;
    c->world_rank = OPAL_PROC_MY_NAME.vpid;

    if (c->disable) {
        /* the same on every rank (the parameter must be): said once */
        if (0 == c->world_rank) {
            GBA_LOG(1, "disabled by coll_gba_barrier_disable: the software barrier stays");
        }
        return OMPI_ERR_NOT_AVAILABLE;
    }
    if (NULL == path || '\0' == path[0]) {
        const char *env = getenv("GBA_DEVICE");
        snprintf(c->device_name, sizeof(c->device_name), "%s (GBA_DEVICE)",
                 env ? env : "(unset)");
        c->device_explicit = NULL != env && '\0' != env[0];
        rc = gba_device_open(NULL, &c->device);
    } else {
        snprintf(c->device_name, sizeof(c->device_name), "%s", path);
        c->device_explicit = true;
        rc = gba_device_open(c->device_name, &c->device);
    }
    if (GBA_OK == rc) {
        rc = gba_device_info_get(c->device, &c->info);
        if (GBA_OK != rc) {
            gba_device_close(c->device);
            c->device = NULL;
        }
    }
    c->device_status = rc;
    if (GBA_OK != rc) {
        c->device = NULL;
        /* Not OMPI_ERR_NOT_AVAILABLE: another rank may have its device, and every rank must
         * take the same decision, so this rank stays in the selection and votes "fallback" in
         * the team creation of each communicator's enable (the library's verdict then names this
         * rank and the reason, once, on the communicator's rank 0). */
        /* A device the user named and that does not work is a configuration error, said
         * at verbose 0 by world rank 0 (every rank usually shares the mistake; the verdict
         * names any other rank that has it). Without a named device, fallback is expected. */
        GBA_LOG(c->device_explicit && 0 == c->world_rank ? 0 : 10,
                "device %s unavailable: %s (%d): %s; this rank votes to fall back",
                c->device_name, gba_strerror(rc), rc, gba_last_error());
        return OMPI_SUCCESS;
    }
    if (c->drive_progress) {
        gba_device_set_progress_hook(c->device, gba_progress_hook, NULL);
    }
    if (OPAL_SUCCESS == opal_progress_register(mca_coll_gba_barrier_progress)) {
        c->progress_registered = true;
    }
    GBA_LOG(10, "opened %s: device id 0x%08x version %u.%u, %u groups, %u members, port %u",
            c->device_name, c->info.device_id, c->info.version_major, c->info.version_minor,
            c->info.max_groups, c->info.max_members, c->info.port_id);
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_gba_barrier_comm_query(struct ompi_communicator_t *comm,
                                                        int *priority)
{
    mca_coll_gba_barrier_component_t *c = &mca_coll_gba_barrier_component;
    mca_coll_gba_barrier_module_t *m;
    int size;

    /* Every test here must come out the same on every rank of comm. */
    if (OMPI_COMM_IS_INTER(comm)) {
        GBA_LOG(20, "%s: inter-communicator, not offloaded", comm->c_name);
        return NULL;
    }
    size = ompi_comm_size(comm);
    if (size < c->min_comm_size) {
        GBA_LOG(10, "%s (cid %u): size %d below coll_gba_barrier_min_comm_size %d, software "
                    "barrier", comm->c_name, GBA_COMM_CID(comm), size,
                c->min_comm_size);
        return NULL;
    }
    if (c->job_unusable) {
        GBA_LOG(20, "%s (cid %u): the GBA is unusable in this job (decided on "
                    "MPI_COMM_WORLD), software barrier", comm->c_name,
                GBA_COMM_CID(comm));
        return NULL;
    }
    m = OBJ_NEW(mca_coll_gba_barrier_module_t);
    if (NULL == m) {
        return NULL;
    }
    *priority = c->priority;
    return &m->super;
}
