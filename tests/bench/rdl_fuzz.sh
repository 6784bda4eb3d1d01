#!/usr/bin/env bash
# The SystemRDL differential fuzzing of tests/run.sh (issue 38): the named regression files
# (tests/fixtures/rdl_fuzz), then 200 generated cases on a seed that changes every run (printed
# with the command that reproduces it) through `gba import-rdl` and `gba import-ipxact` against
# systemrdl-compiler (tests/bench/rdl_fuzz.py). GBA_RDL_FUZZ_CASES and GBA_RDL_FUZZ_SEED change
# the count and fix the seed; the long run: `python3 tests/bench/rdl_fuzz.py --cases 10000`.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q -p gba
python3 tests/bench/rdl_fuzz.py --regressions
exec python3 tests/bench/rdl_fuzz.py --cases "${GBA_RDL_FUZZ_CASES:-200}" \
    ${GBA_RDL_FUZZ_SEED:+--seed "$GBA_RDL_FUZZ_SEED"}
