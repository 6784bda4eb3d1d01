#!/usr/bin/env bash
# Runs every test of the project. Installs what the tests need when it is missing, so that it
# works on a fresh machine (CI runs it as root through .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

need_packages=()
command -v gcc >/dev/null 2>&1 || need_packages+=(gcc libc6-dev)
command -v python3 >/dev/null 2>&1 || need_packages+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need_packages+=(python3-pip)
# gba scale's model (cli/tests/scale.rs): SimGrid's SMPI and S4U, and a C++ compiler.
command -v smpicc >/dev/null 2>&1 || need_packages+=(libsimgrid-dev)
command -v g++ >/dev/null 2>&1 || need_packages+=(g++)
# The virtual-machine stage (tests/vm/cluster.sh): QEMU, a static busybox, cpio.
command -v qemu-system-x86_64 >/dev/null 2>&1 || need_packages+=(qemu-system-x86)
[ -x /bin/busybox ] || need_packages+=(busybox-static)
command -v cpio >/dev/null 2>&1 || need_packages+=(cpio)
if ((${#need_packages[@]})); then
    echo "installing ${need_packages[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_packages[@]}"
fi
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    rustup component add rustfmt clippy
fi

# The Debian 13 chroot of the OpenMPI 5.0 / MPICH stage is made (first run: debootstrap and
# apt, minutes of mostly waiting on the package registry) in the background while the stages
# before it build and lint; that stage waits for it.
trixie_log=$(mktemp)
bash runtimes/openmpi/trixie.sh prepare >"$trixie_log" 2>&1 &
trixie_prepare=$!
log=$(mktemp)
# An early exit stops the preparation (its own trap undoes its mounts).
# (`|| true`: errexit holds inside the trap, and by the end the job has long been reaped.)
trap 'kill "$trixie_prepare" 2>/dev/null || true; wait "$trixie_prepare" 2>/dev/null || true; rm -f "$log" "$trixie_log"' EXIT
# Each stage's header says when it started (seconds since the run began), for CI's budget.
stage() { echo "== $* [${SECONDS}s]"; }

stage formatting
cargo fmt --all -- --check
stage "lints"
cargo clippy --workspace --all-targets -- -D warnings
stage "generated files"
cargo run -q -p gba -- gen --check
stage "miri: the register handles' memory accesses and threaded use"
# Miri checks that the handles never reference the window and that the atomic mechanism is
# free of data races. It needs a nightly toolchain; where there is none, say so and go on.
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    rustup component add --toolchain nightly miri rust-src >/dev/null 2>&1 || true
fi
if cargo +nightly miri --version >/dev/null 2>&1; then
    MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -p gba-pac
    bash gba-barrier/miri.sh
    # The configuration a member writes happens-before its ENABLE (a toy switch reading
    # CONTROL with acquire), over several schedules of Miri's weak-memory emulation.
    MIRIFLAGS=-Zmiri-many-seeds=0..8 cargo +nightly miri test -p gba-hal --test ordering
    # The switch engine with members on threads, over a fabric in ordinary memory.
    MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -p gba-sim --test miri
    # The host segment (claims, joins, combining) with two threads as two local processes.
    MIRIFLAGS=-Zmiri-strict-provenance cargo +nightly miri test -p gba-hal --lib -- host:: claim::
else
    echo "miri: not run: no nightly toolchain with the miri component on this machine"
fi
stage "gba-hal's protocol core builds without std"
cargo build -q -p gba-hal --no-default-features
stage "loom model checks (gba-barrier, and gba-sim's fast path)"
bash gba-barrier/loom.sh -q
bash gba-sim/loom.sh -q
stage "vendor SVD sample (cmsis-svd 0.4 from PyPI): import, check, gen, cargo check, gcc, XML"
bash tests/bench/svd_sample.sh
stage "tests"
cargo test --workspace 2>&1 | tee "$log"
stage "OpenMPI and OpenSHMEM: the coll component on the simulator (installs OpenMPI when missing)"
bash runtimes/openmpi/test.sh 2>&1 | tee -a "$log"
stage "OpenMPI 5.0 and MPICH: the same suite in a Debian 13 chroot (made once, kept in /var/cache/gba/trixie)"
wait "$trixie_prepare" || true  # a failed preparation is retried, and reported, by the run below
cat "$trixie_log"
bash runtimes/openmpi/trixie.sh 2>&1 | tee -a "$log"
stage "several hosts on one machine: network + UTS namespaces, one fabric port per host"
bash runtimes/cluster/test.sh 2>&1 | tee -a "$log"
stage "a driver's real path: QEMU guests (TCG) running barriers over VFIO and UIO (ivshmem BARs)"
# tests/vm/cluster.sh: 3 guests against `gba sim run`, an observer, one guest killed. The soak
# (GBA_VM_SOAK=1) adds 20,000 episodes between 2 guests and between 3.
cargo build -q -p gba -p gba-hal -p gba-barrier -p gba-sim --lib --bins \
    --example vfio_dma --example vm_member --example vm_observer --example vm_team
vm_runs=("GBA_VM_GUESTS=3")
if [ -n "${GBA_VM_SOAK:-}" ]; then
    vm_runs+=("GBA_VM_GUESTS=2 GBA_VM_EPISODES=20000" "GBA_VM_GUESTS=3 GBA_VM_EPISODES=20000")
fi
for vm_run in "${vm_runs[@]}"; do
    vm_rc=0
    env $vm_run bash tests/vm/cluster.sh target/debug 2>&1 | tee -a "$log" || vm_rc=${PIPESTATUS[0]}
    if [ "$vm_rc" != 0 ] && [ "$vm_rc" != 77 ]; then
        echo "vm: FAILED ($vm_run)"
        exit 1
    fi
done
echo "== done [${SECONDS}s]"
# One closing line for the whole run (cargo prints one per test binary, the OpenMPI (4.1 and,
# in the chroot, 5.0), MPICH, cluster and VM suites one each).
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
     /^(openmpi|openmpi5|mpich|ompi-lines|cluster|vm): [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 }
     END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
