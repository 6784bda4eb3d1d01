#!/usr/bin/env python3
"""The PAC each `gba` binary makes of a vendor SVD, side by side: its lines and its `cargo
build` time, the builds alternating (one of each binary's crate per round, so that every crate
sees the same load). For comparing two revisions of the generator, such as before and after
block types:

    python3 tests/bench/pac_pair.py --rounds 3 --gba before=/tmp/gba-a517353 \
        --gba after=target/release/gba FILE.svd...

Each crate is `gba import-svd FILE --out F.yaml && gba gen --spec F.yaml --out DIR --emit rust`;
its dependencies are built once before the first round; each round then times `touch
src/lib.rs && cargo build --offline` (debug, `CARGO_INCREMENTAL=0`): wall and CPU time (user +
system of cargo and rustc). Lines: every line of `src/*.rs`. Prints each build and, per file,
the medians and the median of the rounds' ratios of each crate to the first one's.
"""

import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv, cwd=None, env=None):
    """(wall, cpu) seconds of one command; its output is thrown away."""
    start = time.monotonic()
    before = os.times()
    result = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    after = os.times()
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(argv)}\n{result.stderr}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return time.monotonic() - start, cpu


def lines(crate):
    total = 0
    for path in glob.glob(os.path.join(crate, "src", "*.rs")):
        with open(path, encoding="utf-8") as f:
            total += sum(1 for _ in f)
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--gba", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--work", help="keep the crates here (default: a temporary directory)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    tools = [g.split("=", 1) for g in args.gba]
    env = dict(os.environ, CARGO_INCREMENTAL="0")
    work = args.work or tempfile.mkdtemp(prefix="pac_pair.")
    for svd in args.files:
        name = os.path.splitext(os.path.basename(svd))[0]
        crates = {}
        for tool, path in tools:
            crate = os.path.abspath(os.path.join(work, name, tool))
            shutil.rmtree(crate, ignore_errors=True)
            os.makedirs(os.path.dirname(crate), exist_ok=True)
            spec = crate + ".yaml"
            run([path, "import-svd", svd, "--out", spec])
            run([path, "gen", "--spec", spec, "--out", crate, "--emit", "rust"])
            # Dependencies (and the crate once) built before the first timed round.
            run(["cargo", "build", "--offline", "-q"], cwd=crate, env=env)
            crates[tool] = crate
            print(f"{name} {tool}: {lines(crate)} lines, "
                  f"{len(glob.glob(os.path.join(crate, 'src', '*.rs')))} files", flush=True)
        times = {tool: [] for tool, _ in tools}
        for round_ in range(1, args.rounds + 1):
            for tool, _ in tools:
                os.utime(os.path.join(crates[tool], "src", "lib.rs"))
                wall, cpu = run(["cargo", "build", "--offline", "-q"], cwd=crates[tool], env=env)
                times[tool].append((wall, cpu))
                print(f"{name} round {round_} {tool}: {wall:.2f} s wall, {cpu:.2f} s CPU",
                      flush=True)
        first = tools[0][0]
        for tool, _ in tools:
            walls = [w for w, _ in times[tool]]
            cpus = [c for _, c in times[tool]]
            line = (f"{name} {tool}: median {statistics.median(walls):.2f} s wall, "
                    f"{statistics.median(cpus):.2f} s CPU")
            if tool != first:
                wall_ratio = statistics.median(
                    w / f[0] for (w, _), f in zip(times[tool], times[first]))
                cpu_ratio = statistics.median(
                    c / f[1] for (_, c), f in zip(times[tool], times[first]))
                line += f"; ÷ {first}: {wall_ratio:.2f}× wall, {cpu_ratio:.2f}× CPU"
            print(line, flush=True)
    if not args.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
