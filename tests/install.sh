#!/usr/bin/env bash
# Installs what the test stages need, when it is missing, so that `tests/run.sh` works on a
# fresh Debian 12 machine with Rust (CI runs it as root through .ci/run). Idempotent: a second
# run installs nothing.
#
#   bash tests/install.sh            everything any stage needs
#   bash tests/install.sh PART...    only those parts (each stage of tests/run.sh names its own):
#     rust      rustfmt, clippy; nightly's miri and rust-src (the lint and miri stages)
#     c         gcc, g++, make (C programs, headers and the runtimes' builds)
#     simgrid   SimGrid (`gba scale`'s model, cli/tests/scale.rs)
#     python    python3, pip, systemrdl-compiler, peakrdl-ipxact, peakrdl-regblock
#     firmware  qemu-system-arm, binutils-arm-none-eabi (the svd stage's firmware on QEMU's boards)
#     verilator Verilator (the cosim stage)
#     vm        QEMU, a static busybox, cpio (the vm and kernel stages)
#     kernel    the guest kernel's headers, dkms, udev (the kernel stage)
set -euo pipefail
cd "$(dirname "$0")/.."

parts=("$@")
((${#parts[@]})) || parts=(rust c simgrid python firmware verilator vm kernel)
for p in "${parts[@]}"; do
    case $p in
    rust | c | simgrid | python | firmware | verilator | vm | kernel) ;;
    *)
        echo "tests/install.sh: no part '$p' (parts: rust c simgrid python firmware verilator vm kernel)" >&2
        exit 2
        ;;
    esac
done
part() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }

need_packages=()
need() { command -v "$1" >/dev/null 2>&1 || need_packages+=("${@:2}"); }
if part c; then
    need gcc gcc libc6-dev
    need g++ g++
    need make make
fi
if part python; then
    need python3 python3
    command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1 || need_packages+=(python3-pip)
fi
# gba scale's model (cli/tests/scale.rs): SimGrid's SMPI and S4U, and a C++ compiler.
if part simgrid; then
    need smpicc libsimgrid-dev
    need g++ g++
fi
# The virtual-machine stages (tests/vm/cluster.sh, tests/vm/kernel.sh): QEMU, a static busybox, cpio.
if part vm; then
    need qemu-system-x86_64 qemu-system-x86
    [ -x /bin/busybox ] || need_packages+=(busybox-static)
    need cpio cpio
fi
# The kernel stage (tests/vm/kernel.sh): gba.ko is built against the guest kernel's headers, the
# newest linux-image-6.1.0-N-amd64 apt knows (tests/vm/lib.sh picks the same one), and make.
# It is built there by DKMS (driver/dkms.conf), and the guest runs the host's systemd-udevd to
# apply driver/99-gba.rules. Without recommends: dkms's would pull in linux-headers-amd64 (the
# newest kernel's headers, not the guest's) and sudo.
norecommends=()
if part kernel; then
    need make make
    # Its own build is checked by sparse and by checkpatch.pl --strict (which Debian ships in
    # the kernel's source package, linux-source-6.1).
    need sparse sparse
    [ -e /usr/src/linux-source-6.1.tar.xz ] || need_packages+=(linux-source-6.1)
    command -v dkms >/dev/null 2>&1 || norecommends+=(dkms)
    command -v udevadm >/dev/null 2>&1 || norecommends+=(udev)
fi
if part kernel && command -v apt-cache >/dev/null; then
    # shellcheck source=tests/vm/lib.sh
    . tests/vm/lib.sh
    # An old package list can name a kernel the archive no longer serves (its headers then
    # cannot be installed, nor its image downloaded): refresh it when the newest image it
    # names has no installable headers package.
    guest_kernel=$(vm_kernel_package)
    if [ -z "$guest_kernel" ] || ! apt-cache show "linux-headers-${guest_kernel#linux-image-}" >/dev/null 2>&1 ||
        [ -z "$(apt-cache policy "linux-headers-${guest_kernel#linux-image-}" | awk '/Candidate:/ && $2 != "(none)"')" ]; then
        apt-get update -qq
        guest_kernel=$(vm_kernel_package)
    fi
    if [ -n "$guest_kernel" ] && [ ! -d "/lib/modules/${guest_kernel#linux-image-}/build" ]; then
        need_packages+=("linux-headers-${guest_kernel#linux-image-}")
    fi
fi
# The svd stage's firmware (tests/firmware/run.sh): QEMU's Arm boards (microbit, netduino2)
# and arm-none-eabi-size for the firmware's .text.
if part firmware; then
    need qemu-system-arm qemu-system-arm
    need arm-none-eabi-size binutils-arm-none-eabi
fi
# The co-simulation stage (cli/tests/cosim.rs): Verilator builds the register block's RTL.
if part verilator; then
    need verilator verilator
fi
if ((${#need_packages[@]})); then
    echo "installing ${need_packages[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_packages[@]}"
fi
if ((${#norecommends[@]})); then
    echo "installing ${norecommends[*]} (no recommends)"
    ((${#need_packages[@]})) || apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${norecommends[@]}"
fi
# SystemRDL's and IP-XACT's reference front ends and PeakRDL-regblock: `gba import-rdl`
# elaborates with systemrdl-compiler, codegen/tests/interchange.rs checks every export with it
# and with peakrdl-ipxact, and the co-simulation stage writes the RTL with peakrdl-regblock
# (those tests fail under CI=true when these are missing). Debian 12's own Python refuses a
# plain `pip install` outside a virtual environment.
# hypothesis: the generator and shrinker of the SystemRDL differential fuzzing
# (tests/bench/rdl_fuzz.py, the rdlfuzz stage).
if part python && ! python3 -c "import systemrdl, peakrdl_ipxact, peakrdl_regblock, hypothesis" >/dev/null 2>&1; then
    echo "installing systemrdl-compiler peakrdl-ipxact peakrdl-regblock hypothesis (pip)"
    python3 -m pip install -q systemrdl-compiler peakrdl-ipxact peakrdl-regblock hypothesis 2>/dev/null ||
        python3 -m pip install -q --break-system-packages systemrdl-compiler peakrdl-ipxact peakrdl-regblock hypothesis
fi
if part rust; then
    if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
        rustup component add rustfmt clippy
    fi
    # Miri needs a nightly toolchain; where there is none, the miri stage says so and goes on.
    if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
        rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
    fi
fi
# OpenMPI and the Debian 13 chroot are installed by their own stages' scripts
# (runtimes/openmpi/test.sh, trixie.sh prepare), which also run alone.
