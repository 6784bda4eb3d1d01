/*
 * The OpenMPI lines the components are written for, and the refusal of another one at load.
 * Included after ompi_config.h or oshmem_config.h (they define OMPI_MAJOR_VERSION & co.).
 *
 * Why a check of our own: a build carries its line's coll interface version (4.1: component
 * 2.0.0, module 2.3.0; 5.0: 2.4.0), and each line's coll framework skips a component of the
 * other's version -- silently, below verbose level 10 -- after the component has been loaded
 * and its parameters registered (the MCA base structure is the same in both lines). The
 * register callback is therefore the one place a mismatched build can say what happened.
 */
#ifndef GBA_OMPI_VERSION_H
#define GBA_OMPI_VERSION_H

#if !defined(OMPI_MAJOR_VERSION) || !((OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1) || \
                                      (OMPI_MAJOR_VERSION == 5 && OMPI_MINOR_VERSION == 0))
#error "the GBA components are written against OpenMPI 4.1 and 5.0; these headers are another version"
#endif

/* The component symbol OpenMPI's loader looks up (everything else is hidden): 4.1's
 * OMPI_MODULE_DECLSPEC is gone in 5.0. */
#define GBA_COMPONENT_EXPORT __attribute__((visibility("default")))

#include <string.h>
#include "mpi.h"
#include "opal/util/output.h"

/* 1 when the running OpenMPI is the line this build was compiled against; otherwise says so
 * (naming both versions and the remedy) and gives 0: the caller refuses to register. */
static inline int gba_ompi_runtime_matches(const char *component)
{
    static const char prefix[] = "Open MPI v";
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    long major = -1, minor = -1, release = -1;
    /* MPI_Get_library_version may be called before MPI_Init; it is the running libmpi's.
     * Parsed by hand, not with sscanf/strtol: built on glibc >= 2.38 with _GNU_SOURCE those
     * become __isoc23_* symbols, and the build could not even load (and say this) on an
     * older system. */
    (void)MPI_Get_library_version(lib, &len);
    if (0 == strncmp(lib, prefix, sizeof(prefix) - 1)) {
        const char *p = lib + sizeof(prefix) - 1;
        long *part[3] = {&major, &minor, &release};
        for (int i = 0; i < 3 && *p >= '0' && *p <= '9'; i++) {
            for (*part[i] = 0; *p >= '0' && *p <= '9'; p++) {
                *part[i] = *part[i] * 10 + (*p - '0');
            }
            if ('.' == *p) {
                p++;
            }
        }
    }
    if (major == OMPI_MAJOR_VERSION && minor == OMPI_MINOR_VERSION) {
        return 1;
    }
    opal_output(0,
                "%s: this build is for OpenMPI %d.%d.%d but the running OpenMPI is %ld.%ld.%ld: "
                "not used (the software barrier stays). Rebuild it against this OpenMPI "
                "(make -C runtimes/openmpi, with this OpenMPI's mpicc and ompi_info first in "
                "PATH) or put the matching build in mca_base_component_path",
                component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION, major,
                minor, release);
    return 0;
}

#endif
