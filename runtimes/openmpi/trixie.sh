#!/usr/bin/env bash
# OpenMPI 5.0 and MPICH on this machine: runs runtimes/openmpi/test.sh (the suite run against
# the host's OpenMPI 4.1) and runtimes/openmpi/mpich.sh inside a Debian 13 (trixie) chroot,
# whose libopenmpi-dev is OpenMPI 5.0 with its internal headers. Prints the suites' lines and
#   openmpi5: N passed, M failed
#   mpich: N passed, M failed
#   ompi-lines: N passed, M failed      (each build refuses the other OpenMPI line)
# and exits non-zero when any test failed. As root (debootstrap, chroot, mount).
#
#   runtimes/openmpi/trixie.sh                  both suites (the chroot is made when missing)
#   runtimes/openmpi/trixie.sh prepare          only make the chroot (tests/run.sh does this in
#                                               the background while it builds and lints)
#   runtimes/openmpi/trixie.sh bench [ARGS]     bench.sh inside the chroot (OpenMPI 5.0)
#   runtimes/openmpi/trixie.sh mpich-bench [ARGS]   mpich.sh bench inside the chroot
#   runtimes/openmpi/trixie.sh shell            an interactive shell inside it
#   runtimes/openmpi/trixie.sh run CMD ARGS...  a command inside it, with the mounts
#   runtimes/openmpi/trixie.sh cross            only the cross-line refusal tests
#
# The chroot lives outside the repository, for the next run: $GBA_TRIXIE_DIR, by default
# /var/cache/gba/trixie. It is made with `debootstrap --variant=minbase trixie` from the mirror
# this system's own apt sources name (never one written here), then the packages below are
# installed in it. Rust is not built inside: the repository (with its target/release, which
# holds libgba_barrier.so and gba, built here on the host's older glibc) is bind-mounted at
# the same path, so the components' rpath to libgba_barrier works on both sides. The build
# directory is runtimes/openmpi/build-trixie, beside the host's build/. Every mount is undone
# on every exit path (trap).
set -u -o pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DIR=${GBA_TRIXIE_DIR:-/var/cache/gba/trixie}
# what the suites need inside (test.sh: OpenMPI, OpenSHMEM, Fortran, mpi4py, fuser;
# mpich.sh: MPICH's compiler wrapper and mpiexec)
PACKAGES="openmpi-bin libopenmpi-dev gcc make gfortran python3-mpi4py psmisc mpich libmpich-dev"
MODE=${1:-test}
[ $# -gt 0 ] && shift

say() { printf '%s\n' "$*"; }
fail() { say "trixie: $*"; say "openmpi5: 0 passed, 1 failed ($*)"; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, mount)"

# The Debian mirror of this system's own apt sources: the first deb URI of a deb822 .sources
# file or of sources.list, not a security or updates suite.
system_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        awk 'function out() { if (!done && deb && uri != "" && suites !~ /-security/) { print uri; done = 1 }
                              deb = 0; uri = ""; suites = "" }
             /^[ \t]*$/ { out(); next }
             /^Types:/ && /[ \t]deb([ \t]|$)/ { deb = 1 }
             /^URIs:/ { uri = $2 }
             /^Suites:/ { suites = $0 }
             END { out() }' "$f"
    done
    [ -f /etc/apt/sources.list ] && awk '$1 == "deb" && $3 !~ /-(security|updates)/ {
        for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' /etc/apt/sources.list
}

# --- the chroot, made once ---------------------------------------------------------------------
t0=$(date +%s)
if [ ! -x "$DIR/usr/bin/apt-get" ]; then
    MIRROR=$(system_mirror | head -1)
    [ -n "$MIRROR" ] || fail "no Debian mirror in /etc/apt/sources.list{,.d/*.sources}: cannot debootstrap trixie"
    command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null 2>&1; } \
        || fail "debootstrap is missing and apt-get install debootstrap failed"
    say "trixie: making the chroot $DIR (debootstrap --variant=minbase trixie, the system's mirror)"
    rm -rf "$DIR.new"
    mkdir -p "$(dirname "$DIR")"
    debootstrap --variant=minbase trixie "$DIR.new" "$MIRROR" >"$DIR.debootstrap.log" 2>&1 \
        || { tail -5 "$DIR.debootstrap.log"; fail "debootstrap failed (log: $DIR.debootstrap.log)"; }
    rm -rf "$DIR"
    mv "$DIR.new" "$DIR"
fi

# --- mounts, undone on every exit --------------------------------------------------------------
MOUNTS=()
cleanup() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -R "${MOUNTS[i]}" 2>/dev/null || umount -R -l "${MOUNTS[i]}" 2>/dev/null
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
bind() { # bind SRC: SRC at the same path inside (recursively, no propagation back)
    mkdir -p "$DIR$1"
    mount --rbind "$1" "$DIR$1" && mount --make-rslave "$DIR$1" && MOUNTS+=("$DIR$1") \
        || fail "mount --rbind $1 $DIR$1 failed"
}
mount -t proc proc "$DIR/proc" && MOUNTS+=("$DIR/proc") || fail "mounting /proc in $DIR failed"
bind /sys
bind /dev
bind "$ROOT"
TARGET=$(cd "$ROOT" && cargo metadata --no-deps --format-version 1 2>/dev/null | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
TARGET=${TARGET:-$ROOT/target}
case "$TARGET/" in "$ROOT"/*) ;; *) bind "$TARGET" ;; esac
cp -L /etc/resolv.conf "$DIR/etc/resolv.conf" 2>/dev/null

IN_CHROOT=(chroot "$DIR" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
in_chroot() { "${IN_CHROOT[@]}" "$@"; }

# --- packages, (re)installed when the list changes ---------------------------------------------
if [ "$(cat "$DIR/.gba-packages" 2>/dev/null)" != "$PACKAGES" ]; then
    say "trixie: installing $PACKAGES"
    { in_chroot apt-get update -q && in_chroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $PACKAGES; } \
        >"$DIR.apt.log" 2>&1 || { tail -5 "$DIR.apt.log"; fail "apt-get install in the chroot failed (log: $DIR.apt.log)"; }
    # MPICH must not become the default MPI: mpicc/mpirun stay OpenMPI's (mpich.sh calls
    # mpicc.mpich and mpiexec.mpich by name)
    in_chroot update-alternatives --set mpi /usr/bin/mpicc.openmpi >/dev/null 2>&1
    in_chroot update-alternatives --set mpirun /usr/bin/mpirun.openmpi >/dev/null 2>&1
    in_chroot apt-get clean >/dev/null 2>&1
    echo "$PACKAGES" >"$DIR/.gba-packages"
fi
in_chroot mpicc --showme:version >/dev/null 2>&1 || fail "mpicc in the chroot is not OpenMPI's"

# Debian 13's libopenmpi-dev 5.0.7 leaves out the headers of the threads framework's selected
# component (opal_config.h names opal/mca/threads/pthreads/threads_pthreads_{threads,mutex,tsd}.h
# and every coll.h user includes them): take them from the same version's Debian source
# package, into the chroot's OpenMPI include tree. Nothing of them enters the repository.
OINC=$DIR/usr/lib/x86_64-linux-gnu/openmpi/include/openmpi
missing=$(for h in $(sed -n 's/^#define MCA_threads[a-z_]*_base_include_HEADER "\(.*\)"/\1/p' "$OINC/opal_config.h"); do
              [ -f "$OINC/$h" ] || echo "$h"; done)
if [ -n "$missing" ]; then
    say "trixie: libopenmpi-dev lacks $(echo $missing); taking them from Debian's openmpi source package"
    srcver=$(in_chroot dpkg-query -W -f='${source:Version}' libopenmpi-dev)
    sed -n 's/^deb \(.*\)/deb-src \1/p' "$DIR/etc/apt/sources.list" >"$DIR/etc/apt/sources.list.d/gba-src.list"
    mkdir -p "$DIR/var/cache/gba-src" "$OINC/opal/mca/threads/pthreads"
    { in_chroot apt-get update -q && in_chroot sh -c "cd /var/cache/gba-src && apt-get source -q --download-only openmpi=$srcver"; } \
        >"$DIR.src.log" 2>&1 || { tail -5 "$DIR.src.log"; fail "apt-get source openmpi=$srcver failed (log: $DIR.src.log)"; }
    orig=$(ls "$DIR"/var/cache/gba-src/openmpi_*.orig.tar.* | head -1)
    rm -rf "$DIR.src" && mkdir -p "$DIR.src"
    # the whole component's headers (they include each other)
    tar -xf "$orig" -C "$DIR.src" --strip-components=1 --wildcards '*/opal/mca/threads/pthreads/*.h' 2>>"$DIR.src.log" \
        && cp "$DIR.src"/opal/mca/threads/pthreads/*.h "$OINC/opal/mca/threads/pthreads/" \
        || fail "opal/mca/threads/pthreads/*.h not found in $orig"
    rm -rf "$DIR.src" "$DIR"/var/cache/gba-src
fi
say "trixie: chroot ready in $(($(date +%s) - t0)) s: $(in_chroot ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full:/OpenMPI /p'), $(in_chroot mpichversion 2>/dev/null | sed -n 's/^MPICH Version: */MPICH /p')"
[ "$MODE" = prepare ] && exit 0

# --- each build refuses the other line ---------------------------------------------------------
# The host's 4.1 build (runtimes/openmpi/build, from test.sh) under the chroot's 5.0, and the
# chroot's 5.0 build under the host's 4.1: each must say both versions and stay out of the way
# (the job completes on OpenMPI's own barrier).
cross_lines() {
    local p=0 f=0 out v41 v50 fabric=/dev/shm/gba-trixie-cross-$$
    v41=$(ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')
    v50=$(in_chroot ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full://p')
    [ -f "$HERE/build/mca_coll_gba_barrier.so" ] && [ -f "$HERE/build/semantics" ] \
        || make -C "$HERE" BUILD="$HERE/build" all tests >/dev/null 2>&1
    cross_one() { # NAME PATTERN COMMAND...
        local name=$1 pat=$2; shift 2
        if out=$(timeout 120 "$@" 2>&1) && grep -q -- "$pat" <<<"$out"; then
            p=$((p + 1)); say "ok   $name"
        else
            f=$((f + 1)); say "FAIL $name: output lacks /$pat/ or the command failed"; tail -5 <<<"$out" | sed 's/^/     /'
        fi
    }
    say "--- each build refuses the other OpenMPI line (host $v41, chroot $v50)"
    local d50 d41
    d50=$(in_chroot ompi_info --parsable --all 2>/dev/null | sed -n 's/^mca:mca:base:param:mca_base_component_path:value:"\{0,1\}\([^:"]*\).*/\1/p' | head -1)
    d41=$(ompi_info --parsable --all 2>/dev/null | sed -n 's/^mca:mca:base:param:mca_base_component_path:value:"\{0,1\}\([^:"]*\).*/\1/p' | head -1)
    local want41="this build is for OpenMPI $v41 but the running OpenMPI is $v50"
    local want50="this build is for OpenMPI $v50 but the running OpenMPI is $v41"
    cross_one "the $v41 build under OpenMPI $v50: ompi_info names both versions" "coll:gba_barrier: $want41" \
        "${IN_CHROOT[@]}" OMPI_MCA_mca_base_component_path="$d50:$HERE/build" ompi_info --param coll gba_barrier --level 9
    cross_one "the $v50 build under OpenMPI $v41: ompi_info names both versions" "coll:gba_barrier: $want50" \
        env OMPI_MCA_mca_base_component_path="$d41:$HERE/build-trixie" ompi_info --param coll gba_barrier --level 9
    "$TARGET/debug/gba" sim create --ports 2 --path "$fabric" >/dev/null
    cross_one "the $v41 build under OpenMPI $v50: a job runs on OpenMPI's barrier, said why" "coll:gba_barrier: $want41" \
        "${IN_CHROOT[@]}" GBA_BIN="$TARGET/debug/gba" GBA_FABRIC="$fabric" OMPI_MCA_mca_base_component_path="$d50:$HERE/build" \
        OMPI_MCA_coll_gba_barrier_device_path="sim:$fabric#0" mpirun --allow-run-as-root --oversubscribe -x GBA_BIN -x GBA_FABRIC \
        -np 2 "$HERE/build-trixie/semantics" 200 0
    cross_one "the $v50 build under OpenMPI $v41: a job runs on OpenMPI's barrier, said why" "coll:gba_barrier: $want50" \
        env GBA_BIN="$TARGET/debug/gba" GBA_FABRIC="$fabric" OMPI_MCA_mca_base_component_path="$d41:$HERE/build-trixie" \
        OMPI_MCA_coll_gba_barrier_device_path="sim:$fabric#0" mpirun --allow-run-as-root --oversubscribe -x GBA_BIN -x GBA_FABRIC \
        -np 2 "$HERE/build/semantics" 200 0
    "$TARGET/debug/gba" sim destroy --path "$fabric" >/dev/null 2>&1
    say "ompi-lines: $p passed, $f failed"
    [ $f -eq 0 ]
}

# --- the suites --------------------------------------------------------------------------------
# prebuilt: test.sh and mpich.sh use $GBA_LIBDIR/libgba_barrier.so and the tool $GBA_BIN as they
# are (no cargo inside; as build_host_stack in runtimes/checks.sh builds them)
RUN=(in_chroot GBA_PREBUILT=1 GBA_LIBDIR="$TARGET/release" GBA_BIN="$TARGET/debug/gba" GBA_OMPI_BUILD="$HERE/build-trixie" KEEP_LOGS="${KEEP_LOGS:-}")
# passed on only when set: test.sh and bench.sh keep their own default otherwise
[ -n "${GBA_TEST_HOST_COMBINING:-}" ] && RUN+=(GBA_TEST_HOST_COMBINING="$GBA_TEST_HOST_COMBINING")
[ -n "${GBA_BENCH_SHAPES:-}" ] && RUN+=(GBA_BENCH_SHAPES="$GBA_BENCH_SHAPES")
[ -n "${GBA_BENCH_NPS:-}" ] && RUN+=(GBA_BENCH_NPS="$GBA_BENCH_NPS")
case $MODE in
    test)
        [ -x "$TARGET/debug/gba" ] && [ -f "$TARGET/release/libgba_barrier.so" ] \
            || { say "building libgba_barrier (cargo build --release -p gba-barrier-c) and gba (cargo build -p gba) on the host"
                 (cd "$ROOT" && cargo build --release -q -p gba-barrier-c && cargo build -q -p gba) || fail "cargo build failed"; }
        rc=0
        "${RUN[@]}" bash "$HERE/test.sh" | sed "s/^openmpi: /openmpi5: /" || rc=1
        "${RUN[@]}" bash "$HERE/mpich.sh" || rc=1
        cross_lines || rc=1
        exit $rc ;;
    bench) # the 5.0 build of the component and the programs, then bench.sh's cases
        "${RUN[@]}" make -s -C "$HERE" BUILD="$HERE/build-trixie" GBA_LIBDIR="$TARGET/release" all tests >/dev/null \
            || fail "make -C runtimes/openmpi BUILD=build-trixie all tests failed in the chroot"
        "${RUN[@]}" bash "$HERE/bench.sh" "$@" ;;
    mpich-bench) "${RUN[@]}" bash "$HERE/mpich.sh" bench "$@" ;;
    shell) chroot "$DIR" /bin/bash ;;
    run) "${RUN[@]}" "$@" ;;
    cross) cross_lines ;;
    *) say "usage: $0 [test|prepare|cross|run CMD...|bench [ITERS [ROUNDS]]|mpich-bench [ITERS [ROUNDS]]|shell]"; exit 2 ;;
esac
