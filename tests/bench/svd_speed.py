#!/usr/bin/env python3
"""Generation time against svd2rust: `gba import-svd F --out F.yaml` + `gba gen --spec F.yaml
--emit rust` of each `gba` binary given, and `svd2rust -i F`, one after the other in each round
(alternating, so that every tool sees the same load). Prints each run's wall and CPU time
(user + system) and, per file, the medians and the median of each round's ratio to svd2rust.

    python3 tests/bench/svd_speed.py --rounds 5 --svd2rust /tmp/svd2rust/bin/svd2rust \
        --gba before=/tmp/gba-before --gba after=target/release/gba FILE.svd...

svd2rust 0.37.1: `cargo install svd2rust --version 0.37.1 --root /tmp/svd2rust`.

svd2rust writes one unformatted `lib.rs` (`# ! [doc = …]`), while `gba gen` writes formatted
modules; with `--rustfmt` each round also times `rustfmt` over svd2rust's `lib.rs` (the step
svd2rust's documentation gives for a readable crate, less `form`'s split into modules), and
the ratios are given against that peer too.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv):
    """(wall, cpu) seconds of one command; its output is thrown away."""
    start = time.monotonic()
    before = os.times()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    wall = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(argv)}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--svd2rust", default="svd2rust")
    parser.add_argument("--gba", action="append", required=True, help="NAME=PATH")
    parser.add_argument("--rustfmt", action="store_true",
                        help="also time svd2rust followed by rustfmt of its lib.rs")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    tools = [g.split("=", 1) for g in args.gba]
    with tempfile.TemporaryDirectory() as work:
        for svd in args.files:
            name = os.path.basename(svd)
            times = {tool: [] for tool, _ in tools}
            times["svd2rust"] = []
            if args.rustfmt:
                times["svd2rust+rustfmt"] = []
            for round_ in range(1, args.rounds + 1):
                for tool, path in tools:
                    spec = os.path.join(work, "spec.yaml")
                    out = os.path.join(work, "gba")
                    shutil.rmtree(out, ignore_errors=True)
                    iw, ic = run([path, "import-svd", svd, "--out", spec])
                    gw, gc = run([path, "gen", "--spec", spec, "--out", out, "--emit", "rust"])
                    times[tool].append((iw + gw, ic + gc))
                    print(
                        f"{name} round {round_} {tool}: import {iw:.2f} s + gen {gw:.2f} s "
                        f"wall, {ic + gc:.2f} s CPU",
                        flush=True,
                    )
                out = os.path.join(work, "svd2rust")
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                sw, sc = run([args.svd2rust, "-i", svd, "-o", out])
                times["svd2rust"].append((sw, sc))
                print(f"{name} round {round_} svd2rust: {sw:.2f} s wall, {sc:.2f} s CPU", flush=True)
                if args.rustfmt:
                    fw, fc = run(["rustfmt", "--edition", "2021", os.path.join(out, "lib.rs")])
                    times["svd2rust+rustfmt"].append((sw + fw, sc + fc))
                    print(f"{name} round {round_} rustfmt: {fw:.2f} s wall, {fc:.2f} s CPU",
                          flush=True)
            peers = ["svd2rust"] + (["svd2rust+rustfmt"] if args.rustfmt else [])
            for tool, runs in times.items():
                # The ratio within each round (same load), then the median over the rounds.
                ratios = []
                for peer in peers:
                    wall = statistics.median(w / p for (w, _), (p, _) in zip(runs, times[peer]))
                    cpu = statistics.median(c / p for (_, c), (_, p) in zip(runs, times[peer]))
                    ratios.append(f"{wall:.2f}x, {cpu:.2f}x {peer}")
                print(
                    f"{name} median {tool}: {statistics.median(w for w, _ in runs):.2f} s wall, "
                    f"{statistics.median(c for _, c in runs):.2f} s CPU "
                    f"(wall, CPU: {'; '.join(ratios)})"
                )

if __name__ == "__main__":
    main()
