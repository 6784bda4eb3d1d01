#!/usr/bin/env bash
# The vendor-SVD sample of tests/run.sh: 20 files of the PyPI package cmsis-svd 0.4 (fetched
# once into ${GBA_SVD_CACHE:-~/.cache/gba/cmsis-svd-0.4}, outside the repository), spread
# over the sizes up to 560 KiB (about 60 files are that small), through import → check →
# gen → cargo check → gcc → XML parse (tests/bench/svd_corpus.py). Fails when a file that the import accepts fails a later stage.
# The whole corpus: `python3 tests/bench/svd_corpus.py` (hours; not in CI).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build -q -p gba
exec python3 tests/bench/svd_corpus.py --gba target/debug/gba --sample 20 --max-size 560 \
    --target-dir target/svd-sample --require-builds "$@"
