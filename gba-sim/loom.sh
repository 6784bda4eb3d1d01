#!/usr/bin/env bash
# loom model checks of the simulator's fast path (tests/loom.rs), in their own target directory
# so that the `--cfg loom` build does not evict the normal one.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom exec cargo test -p gba-sim --release --test loom "$@"
