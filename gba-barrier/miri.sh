#!/usr/bin/env bash
# Miri over the crate's unsafe code: the shared-memory file layout and its raw-pointer atomics
# (laid out in heap memory: Miri cannot map files), and the offload barrier's small tests.
# Needs the nightly toolchain with miri (`rustup component add --toolchain nightly miri`).
# Measured here: first run 1m30s to build, then about 1.5 s per test binary.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo +nightly miri test -p gba-barrier --lib soft::shm
cargo +nightly miri test -p gba-barrier --test offload -- \
    single_member dropped_pending device_error timeout_names
