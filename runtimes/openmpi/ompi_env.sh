# Sourced (not run) by the scripts that start OpenMPI jobs on the GBA components: the one
# recipe for pointing OpenMPI at them.
#
#   gba_ompi_env BUILD FABRIC     exports OpenMPI's component path with BUILD added, and
#                                 coll/gba_barrier's device path: port 0 of the fabric FABRIC
#
# OpenMPI's default component path is kept, minus directories that do not exist: OpenMPI 4.1
# stops scanning at the first missing directory (Debian's default lists ~/.openmpi/components).
gba_ompi_env() {
    local build=$1 fabric=$2 default path= d dirs
    default=$(ompi_info --parsable --all 2>/dev/null | grep -m1 '^mca:mca:base:param:mca_base_component_path:value:' | cut -d: -f7- | tr -d '"')
    IFS=: read -ra dirs <<<"$default"
    for d in "${dirs[@]}"; do [ -d "$d" ] && path="$path$d:"; done
    export OMPI_MCA_mca_base_component_path="$path$build"
    # OpenMPI 5.0's launcher mirrors this path into PMIx's parameter of the same name, and
    # PMIx's scan of it complains about every file not named pmix_mca_*: harmless, silenced.
    export PMIX_MCA_mca_base_component_show_load_errors=0
    export OMPI_MCA_coll_gba_barrier_device_path="sim:$fabric#0"
}
