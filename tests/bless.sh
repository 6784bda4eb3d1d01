#!/usr/bin/env bash
# The one command that regenerates and re-blesses everything a change can make stale, then
# shows what it changed. Every file it writes is committed: read each line of `git diff`
# before committing it, as you would review code (a blessed file is accepted as correct).
#
#   bash tests/bless.sh
#
# It drives the project's four mechanisms, so that nobody needs to know which file uses which:
#   1. `gba gen`: every file generated from a spec (gba-pac, the C header and its self-test,
#      SVD, SystemRDL, IP-XACT, docs/registers*, the fixtures' crates);
#   2. GBA_BLESS=1: files written by a test from another tool's output (cbindgen's
#      gba_barrier.h, svd2rust's tests/fixtures/gba-svd2rust);
#   3. insta: snapshots of output that is not a file of the repository (diagnostics, `gba diff`,
#      `gba scale`'s table, the public APIs);
#   4. TRYBUILD=overwrite: the compiler's errors for the compile-fail cases (tests/ui/*.stderr).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { echo "== bless: $*"; }

step "gba gen (generated files)"
cargo run -q -p gba -- gen
cargo run -q -p gba -- gen --spec tests/fixtures/uart/uart.yaml --out tests/fixtures/uart/pac
cargo run -q -p gba -- gen --spec tests/fixtures/rp2040/rp2040.yaml --out tests/fixtures/rp2040/pac --emit rust

step "GBA_BLESS=1 (gba_barrier.h by cbindgen, the svd2rust crate)"
GBA_BLESS=1 cargo test -q -p gba-barrier-c --test header
GBA_BLESS=1 cargo test -q -p gba-tests --test svd2rust

step "TRYBUILD=overwrite (tests/ui: the compiler's error for each misuse)"
TRYBUILD=overwrite cargo test -q -p gba-tests --test compile_fail

# INSTA_UPDATE=always writes each new snapshot over the old; INSTA_FORCE_PASS lets the run
# reach every snapshot instead of stopping at the first difference.
export INSTA_UPDATE=always INSTA_FORCE_PASS=1
step "insta (diagnostics, gba diff)"
cargo test -q -p gba-tests --test diagnostics
cargo test -q -p gba --test diff
if command -v smpicc >/dev/null 2>&1; then
    step "insta (gba scale's table)"
    cargo test -q -p gba --test scale -- table_for_a_small_host_set
else
    echo "bless: NOT blessed: cli/tests/snapshots/scale__*.snap (needs SimGrid: bash tests/install.sh simgrid)"
fi
if rustup run nightly rustdoc --version >/dev/null 2>&1; then
    step "insta (public APIs, rustdoc JSON from nightly)"
    cargo test -q -p gba-tests --test public_api -- --ignored
else
    echo "bless: NOT blessed: tests/tests/public_api/snapshots (needs the nightly toolchain)"
fi

echo "== bless: what changed (read all of it: git diff)"
git status --short
