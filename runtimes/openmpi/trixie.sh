#!/usr/bin/env bash
# OpenMPI 5.0 and MPICH on this machine: runs runtimes/openmpi/test.sh (the suite run against
# the host's OpenMPI 4.1) and runtimes/openmpi/mpich.sh inside a Debian 13 (trixie) chroot,
# whose libopenmpi-dev is OpenMPI 5.0 with its internal headers. Prints the suites' lines and
#   openmpi5: N passed, M failed
#   mpich: N passed, M failed
# and exits non-zero when any test failed. As root (debootstrap, chroot, mount).
#
#   runtimes/openmpi/trixie.sh                  both suites (the chroot is made when missing)
#   runtimes/openmpi/trixie.sh bench [ARGS]     bench.sh inside the chroot (OpenMPI 5.0)
#   runtimes/openmpi/trixie.sh mpich-bench [ARGS]   mpich.sh bench inside the chroot
#   runtimes/openmpi/trixie.sh shell            an interactive shell inside it
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

in_chroot() { chroot "$DIR" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

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
say "trixie: chroot ready in $(($(date +%s) - t0)) s: $(in_chroot ompi_info --parsable 2>/dev/null | sed -n 's/^ompi:version:full:/OpenMPI /p'), $(in_chroot mpichversion 2>/dev/null | sed -n 's/^MPICH Version: */MPICH /p')"

# --- the suites --------------------------------------------------------------------------------
# prebuilt: test.sh and mpich.sh use $GBA_LIBDIR/libgba_barrier.so and $GBA_LIBDIR/gba as they
# are (no cargo inside)
RUN=(in_chroot GBA_PREBUILT=1 GBA_LIBDIR="$TARGET/release" GBA_OMPI_BUILD="$HERE/build-trixie"
     GBA_TEST_HOST_COMBINING="${GBA_TEST_HOST_COMBINING:-0}" KEEP_LOGS="${KEEP_LOGS:-}")
case $MODE in
    test)
        [ -x "$TARGET/release/gba" ] && [ -f "$TARGET/release/libgba_barrier.so" ] \
            || { say "building libgba_barrier and gba on the host (cargo build --release -p gba-barrier -p gba)"
                 (cd "$ROOT" && cargo build --release -q -p gba-barrier -p gba) || fail "cargo build failed"; }
        rc=0
        "${RUN[@]}" bash "$HERE/test.sh" | sed "s/^openmpi: /openmpi5: /" || rc=1
        "${RUN[@]}" bash "$HERE/mpich.sh" || rc=1
        exit $rc ;;
    bench) "${RUN[@]}" bash "$HERE/bench.sh" "$@" ;;
    mpich-bench) "${RUN[@]}" bash "$HERE/mpich.sh" bench "$@" ;;
    shell) chroot "$DIR" /bin/bash ;;
    *) say "usage: $0 [test|bench [ITERS [ROUNDS]]|mpich-bench [ITERS [ROUNDS]]|shell]"; exit 2 ;;
esac
