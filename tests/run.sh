#!/usr/bin/env bash
# Runs the project's tests: every stage, or the ones named.
#
#   bash tests/run.sh quick           the inner loop, before every commit: fmt, clippy and every
#                                     test that needs only the Rust toolchain; installs nothing
#   bash tests/run.sh                 every stage but quick, in order (what CI runs)
#   bash tests/run.sh STAGE...        only those stages, e.g. `tests/run.sh lint unit`
#   bash tests/run.sh --list          the stages, one a line, with what each installs
#   bash tests/run.sh --install ...   first install everything any stage needs (tests/install.sh)
#
# Each stage names the parts of tests/install.sh it needs; those are installed (when missing)
# before the first stage runs, and nothing else. It ends with each stage's time and one
# closing line for everything it ran: `all tests: N passed, M failed`.
set -euo pipefail
cd "$(dirname "$0")/.."

# name|tests/install.sh parts it needs (- for none)|what it checks (the order is a run's order)
STAGES=(
    "quick|-|the inner loop: fmt, clippy, every test that needs only the Rust toolchain (not in a whole run: lint and unit cover it)"
    "lint|rust|formatting, clippy -D warnings, public-API snapshots"
    "miri|rust|Miri over the register handles, the barrier, the HAL's ordering and host segment, the engine"
    "nostd|-|gba-hal's protocol core builds without std; gba-barrier and libgba_barrier build without the simulator"
    "loom|-|loom model checks (gba-barrier, and gba-sim's fast path)"
    "svd|rust c python firmware|vendor SVD sample (cmsis-svd 0.4 from PyPI): QEMU firmware (microbit, netduino2), import, check, gen, cargo check, gcc, XML, thumb build per core"
    "rdlfuzz|python|SystemRDL differential fuzzing against systemrdl-compiler: regression files, 200 cases on a new seed"
    "unit|c simgrid python|cargo test --workspace (generated files current, C headers, SimGrid, nested builds)"
    "security|c|a second user made by the test attacks root's jobs (simulator, UIO, VFIO socket): each refused by name"
    "cosim|c python verilator|gba.yaml's RTL (PeakRDL-regblock, Verilator; 2 groups, GBA_COSIM_FULL=1: 32) against checks generated from the spec; a mutated RTL and mutation testing of the checks (gba verify --mutants); the typed PAC over the RTL"
    "openmpi|c|OpenMPI 4.1 and OpenSHMEM: the coll component on the simulator (installs OpenMPI)"
    "openmpi5|-|OpenMPI 5.0 and MPICH in a Debian 13 chroot (made once, kept in /var/cache/gba/trixie)"
    "cluster|c|several hosts on one machine: network + UTS namespaces, one fabric port per host"
    "vm|c vm|a driver's real path: QEMU guests (TCG) running barriers over VFIO and UIO"
    "kernel|c vm kernel python|the kernel driver gba.ko in a QEMU guest: two users' teams on one port, the attacks refused; the port pulled away under them (lifecycle), an ioctl fuzzer"
)
stage_field() { # stage_field NAME N: field N (1 name, 2 needs, 3 description) of stage NAME
    local s
    for s in "${STAGES[@]}"; do
        [ "${s%%|*}" = "$1" ] && { echo "$s" | cut -d'|' -f"$2"; return 0; }
    done
    return 1
}

install_all=
if [ "${1:-}" = --install ]; then
    install_all=1
    shift
fi
if [ "${1:-}" = --list ]; then
    for s in "${STAGES[@]}"; do
        IFS='|' read -r name needs what <<<"$s"
        printf '%-10s %s [installs: %s]\n' "$name" "$what" "${needs/-/nothing}"
    done
    exit 0
fi
wanted=("$@")
if ((${#wanted[@]} == 0)); then
    for s in "${STAGES[@]}"; do [ "${s%%|*}" = quick ] || wanted+=("${s%%|*}"); done
fi
for w in "${wanted[@]}"; do
    if ! stage_field "$w" 1 >/dev/null; then
        echo "tests/run.sh: no stage '$w' (stages: $(for s in "${STAGES[@]}"; do printf '%s ' "${s%%|*}"; done))" >&2
        exit 2
    fi
done
wants() { local w; for w in "${wanted[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }

# A stage that cannot run here says why. On a developer's machine it is skipped and named in
# the closing lines; under CI (CI=true) it fails the run, since a skipped test is not a pass.
skipped=()
skip() {
    echo "$1: NOT RUN: $2"
    skipped+=("$1")
    if [ "${CI:-}" = true ]; then
        echo "$1: a stage cannot be skipped under CI=true" >&2
        return 1
    fi
}

# What the wanted stages need, installed once before the first of them.
if [ -n "$install_all" ]; then
    bash tests/install.sh
else
    parts=()
    for w in "${wanted[@]}"; do
        for p in $(stage_field "$w" 2); do
            [ "$p" = - ] && continue
            [[ " ${parts[*]} " == *" $p "* ]] || parts+=("$p")
        done
    done
    if ((${#parts[@]})); then bash tests/install.sh "${parts[@]}"; fi
fi

# In a run with lint, one build serves lint and the stages after it. Clippy's driver wraps
# rustc for this workspace's own crates, with the two variables `cargo clippy -- -D warnings`
# sets itself, so lint's `cargo test --no-run` lints every target and builds the test binaries
# that unit and the later stages run: one type-check, not a check build and then a second, full
# one. Builds with another toolchain or other flags (Miri, loom) and of other workspaces (the
# crates tests generate, the thumb firmware) run without it (`no_lint_wrapper`, or
# `env_remove` in tests). Without lint (`quick`, or a stage alone) cargo runs as a developer
# runs it, so that their builds and these share the target directory's artifacts: cargo
# rebuilds the workspace's crates whenever the wrapper comes or goes.
if wants lint; then
    if ! clippy_driver=$(rustup which clippy-driver 2>/dev/null); then
        echo "tests/run.sh: lint needs clippy: rustup component add clippy" >&2
        exit 1
    fi
    export RUSTC_WORKSPACE_WRAPPER=$clippy_driver
    export CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
fi
no_lint_wrapper() { env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS "$@"; }

log=$(mktemp)
trixie_log=$(mktemp)
trixie_prepare=
# The Debian 13 chroot of the openmpi5 stage is made (first run: debootstrap and apt, minutes
# of mostly waiting on the package registry) in the background while the stages before it
# run; that stage waits for it. An early exit stops the preparation (its own trap undoes its
# mounts). (`|| true`: errexit holds inside the trap.)
if wants openmpi5; then
    bash runtimes/openmpi/trixie.sh prepare >"$trixie_log" 2>&1 &
    trixie_prepare=$!
fi
trap '[ -n "$trixie_prepare" ] && { kill "$trixie_prepare" 2>/dev/null || true; wait "$trixie_prepare" 2>/dev/null || true; }; [ -n "${rdlfuzz_pid:-}" ] && { kill "$rdlfuzz_pid" 2>/dev/null || true; }; rm -f "$log" "$trixie_log" "${rdlfuzz_log:-}"' EXIT
# Each stage's header says when it started (seconds since the run began), for CI's budget.
header() { echo "== $1: $(stage_field "$1" 3) [${SECONDS}s]"; }

# The tests `quick` leaves out: name (a substring of the test's path, as `cargo test -- --skip`
# takes it)|what it needs beyond the Rust toolchain. Each runs in the unit stage, which installs
# what they need; quick names them (and fails when a name no longer matches a test).
QUICK_LEAVES_OUT=(
    "every_accepted_spec_has_outputs_that_build|gcc (each generated C header is compiled)"
    "a_sample_of_accepted_specs_compiles|nested cargo builds of generated crates"
    "header_agrees_with_the_spec|gcc"
    "generated_self_tests_compile_and_pass|gcc"
    "the_self_test_refuses_a_header_that_disagrees_with_the_spec|gcc"
    "the_mirror_matches_the_header_as_gcc_compiles_it|gcc"
    "c_program_|gcc and a nested cargo build of libgba_barrier.a"
    "c_team_handle_entered_by_two_threads|gcc and a nested cargo build of libgba_barrier.a"
    "both_headers_in_one_translation_unit|gcc"
    "the_crate_rebuilds_when_the_spec_changes|nested cargo builds of an include_spec! crate"
    "a_driver_generic_over_a_port_serves_two_instances|a nested cargo build of a generated crate"
    "the_c_header_of_a_block_type_compiles_and_its_self_test_passes|gcc"
    "the_generated_c_reads_and_writes_msb0_values_not_mirrored_bits|a C compiler"
    "the_generated_rust_reads_and_writes_msb0_values_not_mirrored_bits|a nested cargo build of a generated crate"
    "a_register_holding_a_write_once_field_has_whole_writes_and_no_modify|gcc and a nested cargo build of a generated crate"
    "gen_writes_a_crate_that_builds_with_nothing_added|a nested cargo build of a generated crate"
    "rp2040_imports_and_its_committed_spec|the network (cargo metadata fetches rp2040-pac's sources)"
    "software_barriers_grow_with_the_host_count|SimGrid"
    "the_gba_stays_within_its_band|SimGrid"
    "results_are_deterministic|SimGrid"
    "table_for_a_small_host_set|SimGrid"
    "plot_draws_every_contender_and_the_measurements|SimGrid"
    "committed_plot_is_current|SimGrid"
    "yaml_to_systemrdl_to_yaml_is_the_identity|python3 with systemrdl-compiler"
    "peakrdl_ipxact_imports_every_export|python3 with systemrdl-compiler and peakrdl-ipxact"
    "systemrdl_compiler_elaborates_the_committed_exports|python3 with systemrdl-compiler"
    "foreign_systemrdl_warns_and_strict_refuses|python3 with systemrdl-compiler"
    "invalid_systemrdl_is_refused_with_the_compilers_message|python3 with systemrdl-compiler"
    "a_systemrdl_field_without_reset_is_not_reset_in_every_output|python3 with systemrdl-compiler and peakrdl-ipxact"
)

stage_quick() {
    local entry skips=() names
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings
    for entry in "${QUICK_LEAVES_OUT[@]}"; do skips+=(--skip "${entry%%|*}"); done
    # --no-fail-fast: every failure in one run, not the first test binary's only.
    cargo test --workspace --no-fail-fast -- "${skips[@]}" 2>&1 | tee -a "$log"
    # A name that matches no test any more would leave nothing out, silently: refuse it.
    names=$(cargo test -q --workspace --lib --bins --tests -- --list 2>/dev/null | sed -n 's/: test$//p')
    echo "quick: NOT RUN here (the unit stage runs them, with what they need):"
    for entry in "${QUICK_LEAVES_OUT[@]}"; do
        if ! grep -qF -- "${entry%%|*}" <<<"$names"; then
            echo "quick: '${entry%%|*}' in tests/run.sh's QUICK_LEAVES_OUT matches no test: remove or rename it" >&2
            return 1
        fi
        printf '  %-62s needs %s\n' "${entry%%|*}" "${entry#*|}"
    done
}

stage_lint() {
    cargo fmt --all -- --check
    # Clippy -D warnings over every target (the wrapper above), building the tests as it goes.
    cargo test --workspace --all-targets --no-run
    # (Generated files are checked once, by tests/tests/generated.rs in the unit stage.)
    # Each library crate's public API against its reviewed snapshot (rustdoc JSON: nightly).
    # `--workspace`, not `-p gba-tests`: the same features as the unit stage's build, which
    # then reuses this one instead of building the test crate's dependencies a second time.
    if ! rustup run nightly rustdoc --version >/dev/null 2>&1; then
        skip lint "no nightly toolchain for the public-API snapshots (tests/tests/public_api)"
        return
    fi
    cargo test -q --workspace --test public_api -- --ignored 2>&1 | tee -a "$log"
}

stage_miri() {
    # Miri checks that the handles never reference the window and that the atomic mechanism
    # is free of data races.
    if ! no_lint_wrapper cargo +nightly miri --version >/dev/null 2>&1; then
        skip miri "no nightly toolchain with the miri component on this machine"
        return
    fi
    MIRIFLAGS=-Zmiri-strict-provenance no_lint_wrapper cargo +nightly miri test -p gba-pac
    no_lint_wrapper bash gba-barrier/miri.sh
    # The configuration a member writes happens-before its ENABLE (a toy switch reading
    # CONTROL with acquire), over several schedules of Miri's weak-memory emulation.
    MIRIFLAGS=-Zmiri-many-seeds=0..8 no_lint_wrapper cargo +nightly miri test -p gba-hal --test ordering
    # The switch engine with members on threads, over a fabric in ordinary memory.
    MIRIFLAGS=-Zmiri-strict-provenance no_lint_wrapper cargo +nightly miri test -p gba-sim --test miri
    # The host segment (claims, joins, combining) with two threads as two local processes.
    MIRIFLAGS=-Zmiri-strict-provenance no_lint_wrapper cargo +nightly miri test -p gba-hal --lib -- host:: claim::
}

stage_nostd() {
    cargo build -q -p gba-hal --no-default-features
    # Without std nothing may be left unused either (warnings are errors here, as in lint); a
    # hardware build ships no simulator: neither barrier crate may need gba-sim without `sim`.
    cargo clippy -q -p gba-hal -p gba-barrier -p gba-barrier-c --no-default-features -- -D warnings
    if cargo tree -q -p gba-barrier-c --no-default-features -e normal | grep -q gba-sim; then
        echo "gba-barrier-c without default features still depends on gba-sim" >&2
        return 1
    fi
}

stage_loom() {
    no_lint_wrapper bash gba-barrier/loom.sh -q
    no_lint_wrapper bash gba-sim/loom.sh -q
}

stage_svd() { bash tests/bench/svd_sample.sh; }

# The fuzzer is one Python process (and systemrdl-compiler's), so in a run of several stages it
# starts in the background once lint has built `gba`, beside the mostly single-threaded Miri
# and loom stages; its own stage then waits for it and prints what it said.
rdlfuzz_pid=
rdlfuzz_log=$(mktemp)
rdlfuzz_start() { bash tests/bench/rdl_fuzz.sh >"$rdlfuzz_log" 2>&1 & rdlfuzz_pid=$!; }
stage_rdlfuzz() {
    local rc=0
    [ -n "$rdlfuzz_pid" ] || rdlfuzz_start
    wait "$rdlfuzz_pid" || rc=$?
    rdlfuzz_pid=
    tee -a "$log" <"$rdlfuzz_log"
    return "$rc"
}

stage_unit() { cargo test --workspace 2>&1 | tee -a "$log"; }

stage_security() {
    local rc=0
    cargo build -q -p gba -p gba-barrier --bin gba --example security_victim
    bash tests/security/userspace.sh target/debug 2>&1 | tee -a "$log" || rc=${PIPESTATUS[0]}
    if [ "$rc" = 77 ]; then
        skip security "not root: the stage creates a second user"
    elif [ "$rc" != 0 ]; then
        return 1
    fi
}

stage_cosim() {
    # `gba rtl` and `gba verify` (cli/tests/cosim.rs): minutes of Verilator builds, kept in
    # target/ and reused while the RTL is the same.
    if ! command -v verilator >/dev/null 2>&1 || ! python3 -c 'import peakrdl_regblock, systemrdl' 2>/dev/null; then
        skip cosim "verilator or peakrdl-regblock is missing (tests/install.sh installs them)"
        return
    fi
    # By default gba.yaml's register block with 2 groups instead of 32 (the same registers;
    # clean, with gba-hal's configure sequence, and mutated three ways) and tests/fixtures/cosim/effects.yaml's (every side
    # effect, locks, views; clean, and three effects swapped), with mutation testing of the
    # checks (`gba verify --mutants`: all 147 mutants of effects.yaml's RTL, 40 of gba.yaml's
    # 291 and those of the classes that survived before the hardware side, the words and the
    # byte strobes were checked, each set built once; about 3.5 minutes); GBA_COSIM_FULL=1 adds the whole 32-group
    # window (a Verilator build of minutes and every check, the hardware side's included:
    # 26.5 minutes in all at load average 30 to 70).
    local skip="--skip gba_yaml_rtl_conforms_to_the_spec"
    [ -n "${GBA_COSIM_FULL:-}" ] && skip=
    cargo test -p gba --test cosim -- --ignored $skip 2>&1 | tee -a "$log"
    # The generated PAC's typed handles over the RTL (`gba_pac::Device::on_bus`): a unit test
    # of the gba binary, which has no library for an integration test to reach `RtlBus`.
    cargo test -p gba --bin gba -- --ignored verify::rtl::pac 2>&1 | tee -a "$log"
}

stage_openmpi() { bash runtimes/openmpi/test.sh 2>&1 | tee -a "$log"; }

stage_openmpi5() {
    if [ -n "$trixie_prepare" ]; then
        wait "$trixie_prepare" || true # a failed preparation is retried, and reported, below
        trixie_prepare=
        cat "$trixie_log"
    fi
    bash runtimes/openmpi/trixie.sh 2>&1 | tee -a "$log"
}

stage_cluster() { bash runtimes/cluster/test.sh 2>&1 | tee -a "$log"; }

stage_vm() {
    # tests/vm/cluster.sh: 3 guests against `gba sim run`, an observer, one guest killed. The
    # soak (GBA_VM_SOAK=1) adds 20,000 episodes between 2 guests and between 3.
    cargo build -q -p gba -p gba-hal -p gba-barrier -p gba-barrier-c -p gba-sim --lib --bins \
        --example vfio_dma --example vm_member --example vm_observer --example vm_team
    local vm_runs=("GBA_VM_GUESTS=3") vm_run vm_rc
    if [ -n "${GBA_VM_SOAK:-}" ]; then
        vm_runs+=("GBA_VM_GUESTS=2 GBA_VM_EPISODES=20000" "GBA_VM_GUESTS=3 GBA_VM_EPISODES=20000")
    fi
    for vm_run in "${vm_runs[@]}"; do
        vm_rc=0
        env $vm_run bash tests/vm/cluster.sh target/debug 2>&1 | tee -a "$log" || vm_rc=${PIPESTATUS[0]}
        if [ "$vm_rc" = 77 ]; then
            skip vm "QEMU cannot run here (see the line above)"
            return
        elif [ "$vm_rc" != 0 ]; then
            echo "vm: FAILED ($vm_run)"
            return 1
        fi
    done
}

stage_kernel() {
    # tests/vm/kernel.sh: gba.ko built by DKMS against the guest kernel's headers, loaded in one
    # guest, where udev applies its rule.
    cargo build -q -p gba -p gba-barrier -p gba-sim --bins --example vm_team --example vm_member --example conformance
    local rc=0
    bash tests/vm/kernel.sh target/debug 2>&1 | tee -a "$log" || rc=${PIPESTATUS[0]}
    if [ "$rc" = 77 ]; then
        skip kernel "QEMU cannot run here (see the line above)"
    elif [ "$rc" != 0 ]; then
        echo "kernel: FAILED"
        return 1
    fi
    # tests/vm/lifecycle.sh: the port unbound, removed, reset and swapped under users' jobs
    # and old mappings; the ioctl fuzzer (GBA_LIFECYCLE_FUZZ_CALLS, default 20000).
    rc=0
    bash tests/vm/lifecycle.sh target/debug 2>&1 | tee -a "$log" || rc=${PIPESTATUS[0]}
    if [ "$rc" != 0 ]; then
        echo "lifecycle: FAILED"
        return 1
    fi
}

times=()
for s in "${STAGES[@]}"; do
    name=${s%%|*}
    wants "$name" || continue
    header "$name"
    began=$SECONDS
    "stage_$name"
    if [ "$name" = lint ] && wants rdlfuzz; then rdlfuzz_start; fi
    times+=("$name $((SECONDS - began))s")
    echo "== $name: done in $((SECONDS - began))s"
done
echo "== done [${SECONDS}s]; each stage: ${times[*]/%/,}"
# One closing line for the whole run (cargo prints one per test binary; the OpenMPI (4.1 and,
# in the chroot, 5.0), MPICH, cluster and VM suites one each).
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^passed/) p += $(i-1); if ($i ~ /^failed/) f += $(i-1) } }
     /^(openmpi|openmpi5|mpich|ompi-lines|cluster|vm|security|kernel|lifecycle|rdlfuzz): [0-9]+ passed, [0-9]+ failed/ { p += $2; f += $4 }
     END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
if ((${#skipped[@]})); then echo "stages NOT RUN: ${skipped[*]}"; fi
