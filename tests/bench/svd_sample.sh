#!/usr/bin/env bash
# The vendor-SVD sample of tests/run.sh: 20 files of the PyPI package cmsis-svd 0.4 (fetched
# once into ${GBA_SVD_CACHE:-~/.cache/gba/cmsis-svd-0.4}, outside the repository), spread
# over the sizes up to 560 KiB (about 60 files are that small), plus the smallest file of
# each Cortex-M core kind the sample lacks (--cores), through import → check → gen → cargo
# check → gcc → XML parse → a build for the file's own core (thumbv6m/v7m/v7em: nightly's
# -Zbuild-std=core) (tests/bench/svd_corpus.py). The corpus names no Armv8-M core (CM23,
# CM33), so --stand-ins adds the smallest file with its <cpu><name> set to each: the
# thumbv8m.base and thumbv8m.main builds of the PAC and its vector table. Fails when a file that the import accepts
# fails a later stage (the firmware's PACs below are the thumbv6m and thumbv7m builds: --built).
# First, firmware on the PACs of two of those files runs under QEMU
# (tests/firmware/run.sh); it also fetches the crates (cortex-m, cortex-m-rt,
# critical-section) that the thumb builds, which are offline, need.
# The whole corpus: `python3 tests/bench/svd_corpus.py` (hours; not in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q -p gba
bash tests/firmware/run.sh
# The generated crates are other workspaces, some built by nightly: tests/run.sh's clippy
# wrapper (for this workspace's crates, on stable) stays out of their builds.
exec env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS python3 tests/bench/svd_corpus.py --gba target/debug/gba --sample 20 --max-size 560 \
    --cores --stand-ins --built thumbv6m-none-eabi,thumbv7m-none-eabi --target-dir target/svd-sample \
    --require-builds "$@"
