#!/usr/bin/env python3
"""The vendor-SVD corpus benchmark: every CMSIS-SVD file of the PyPI package `cmsis-svd`
0.4 (490 files, 12 vendors, 2016) through the generator's whole path, one stage after the
other, and the pass rate of each stage with the failures grouped by class.

Stages, each run only when the one before passed:
  import  `gba import-svd FILE --out spec.yaml` (lenient, or `--strict` with --strict)
  check   `gba check spec.yaml`
  gen     `gba gen --spec spec.yaml --out crate` (Rust, C, SVD, docs)
  cargo   `cargo check --offline` of the generated crate (one target dir for all crates)
  gcc     the generated C header compiled with -std=c11 -Wall -Wextra -Werror
  xml     the generated SVD parsed back as XML
  thumb   for an SVD whose <cpu><name> is a Cortex-M core, the crate built for that core
          (`cargo +nightly build -Zbuild-std=core --target thumbv…`, features rt and
          critical-section: the vector table too); files naming no such core skip it

Usage:
  tests/bench/svd_corpus.py [--sample N] [--max-size KIB] [--gba PATH] [--strict]
                            [--spread] [--stop-after STAGE] [--target-dir DIR]
                            [--work DIR] [--json FILE] [--cores] [FILE.svd ...]
With no files, the corpus is fetched with `pip download --no-deps cmsis-svd==0.4` into
$GBA_SVD_CACHE (default ~/.cache/gba/cmsis-svd-0.4, outside the repository) and every file
in it is taken (or N of them, spread over the sizes, with --sample; --max-size skips larger
files). The whole corpus takes hours on two cores: cargo check of the big crates dominates.
Not part of CI; tests/run.sh runs a small sample (tests/bench/svd_sample.sh).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STAGES = ["import", "check", "gen", "cargo", "gcc", "xml", "thumb"]
# The Rust target of each Cortex-M core, by the SVD's <cpu><name> (upper case), as
# codegen/src/interrupts.rs maps them.
THUMB = {
    "CM0": "thumbv6m-none-eabi", "CM0PLUS": "thumbv6m-none-eabi", "CM0+": "thumbv6m-none-eabi",
    "CM1": "thumbv6m-none-eabi", "SC000": "thumbv6m-none-eabi",
    "CM3": "thumbv7m-none-eabi", "SC300": "thumbv7m-none-eabi",
    "CM4": "thumbv7em-none-eabihf", "CM7": "thumbv7em-none-eabihf",
    "CM23": "thumbv8m.base-none-eabi",
    "CM33": "thumbv8m.main-none-eabihf", "CM35P": "thumbv8m.main-none-eabihf",
    "CM55": "thumbv8m.main-none-eabihf", "CM85": "thumbv8m.main-none-eabihf",
}


def core_of(svd: Path):
    """The <cpu><name> of the file (upper case), or None."""
    m = re.search(r"<cpu>\s*<name>\s*([^<\s]+)\s*</name>",
                  svd.read_text(errors="replace"))
    return m.group(1).upper() if m else None


def with_cores(files: list[Path], pool: list[Path], built: set[str]) -> list[Path]:
    """`files`, plus the smallest file of `pool` for each core kind (target) that neither
    `files` nor `built` (targets another test builds for) covers yet: a sample that builds
    for every Cortex-M target the corpus has."""
    covered = {THUMB.get(core_of(f) or "") for f in files} | built
    out = list(files)
    for f in sorted(pool, key=lambda f: (f.stat().st_size, str(f))):
        target = THUMB.get(core_of(f) or "")
        if target and target not in covered:
            covered.add(target)
            out.append(f)
    return out
def stand_ins(files: list[Path], pool: list[Path], built: set[str], work: Path) -> list[Path]:
    """`files`, plus a stand-in for each thumb target no file of `files` or `pool` names a core
    of (cmsis-svd 0.4 has no CM23 or CM33 file, so Armv8-M would never be built): the smallest
    file of `pool` with its <cpu><name> replaced by the first core of that target (and an FPU
    for the hard-float one), written to `work`."""
    covered = {THUMB.get(core_of(f) or "") for f in files + pool} | built
    smallest = min((f for f in pool if core_of(f)), key=lambda f: (f.stat().st_size, str(f)))
    out = list(files)
    for core, target in THUMB.items():
        if target in covered:
            continue
        covered.add(target)
        text = re.sub(r"(<cpu>\s*<name>)\s*[^<\s]+\s*(</name>)", rf"\g<1>{core}\g<2>",
                      smallest.read_text(errors="replace"), count=1)
        if target.endswith("eabihf"):
            text = re.sub(r"<fpuPresent>\s*\w+\s*</fpuPresent>", "<fpuPresent>1</fpuPresent>",
                          text, count=1)
        work.mkdir(parents=True, exist_ok=True)
        stand_in = work / f"{smallest.stem}_as_{core}.svd"
        stand_in.write_text(text)
        out.append(stand_in)
    return out


PACKAGE = "cmsis-svd==0.4"


def corpus_dir() -> Path:
    """The unpacked package's data directory, downloaded once into the cache."""
    cache = Path(os.environ.get("GBA_SVD_CACHE", Path.home() / ".cache/gba/cmsis-svd-0.4"))
    data = cache / "cmsis-svd-0.4/cmsis_svd/data"
    if data.is_dir():
        return data
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", PACKAGE, "-d", str(cache)],
        check=True,
    )
    archive = next(cache.glob("cmsis-svd-0.4*.tar.gz"))
    with tarfile.open(archive) as tar:
        # Only plain .svd files, and none that would land outside the cache.
        members = [m for m in tar.getmembers()
                   if m.isfile() and m.name.endswith(".svd")
                   and not m.name.startswith("/") and ".." not in Path(m.name).parts]
        tar.extractall(cache, members=members)
    return data


def sample(files: list[Path], n: int) -> list[Path]:
    """N files spread evenly over the size order (small, medium and large alike)."""
    files = sorted(files, key=lambda f: (f.stat().st_size, str(f)))
    if n >= len(files):
        return files
    step = len(files) / n
    return [files[int(i * step + step / 2)] for i in range(n)]


def spread(files: list[Path]) -> list[Path]:
    """Every file, ordered so that any prefix of the order is itself spread over the sizes:
    a run stopped part-way has covered small, medium and large files alike rather than only
    the smallest (bit-reversed positions in the size order)."""
    files = sorted(files, key=lambda f: (f.stat().st_size, str(f)))
    bits = max(1, (len(files) - 1).bit_length())
    order = sorted(range(len(files)),
                   key=lambda i: int(format(i, f"0{bits}b")[::-1], 2))
    return [files[i] for i in order]


def first_error(text: str) -> str:
    """The class of a failure: an error code, or the first error line with its numbers and
    quoted names blanked, so that the same fault in two files falls into one class."""
    codes = re.findall(r"error\[(E\d{4})\]", text)
    if codes:
        return "rustc " + max(set(codes), key=codes.count)
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("error") or "error:" in line:
            # Where in the SVD the importer was: not part of the class.
            line = re.sub(r"(In \w+ `[^`]*`: |Parsing \w+ `[^`]*` at \d+:\d+: )", "", line)
            line = re.sub(r"`[^`]*`", "`…`", line)
            line = re.sub(r"0x[0-9a-fA-F]+|\d+", "N", line)
            line = re.sub(r"/\S+", "PATH", line)
            return line[:120]
    lines = [l for l in text.splitlines() if l.strip()]
    return (lines[-1][:120] if lines else "(no output)")


def run(cmd, cwd=None, timeout=1800, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=env)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "error: timed out"


def prune_crate(crate: Path, target: Path) -> None:
    """Deletes the checked crate's own artifacts from the shared target directory (its
    dependencies stay): 490 crates' metadata would fill the disk."""
    m = re.search(r'^name = "([^"]+)"', (crate / "Cargo.toml").read_text(), re.M)
    if not m:
        return
    name = m.group(1)
    for sub, prefix in [("deps", "lib" + name.replace("-", "_") + "-"),
                        ("deps", name.replace("-", "_") + "-"), (".fingerprint", name + "-")]:
        for p in (target / "debug" / sub).glob(prefix + "*"):
            shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)


def one(gba: str, svd: Path, work: Path, target: Path, strict: bool, last: str,
        prune: bool = False, built: frozenset = frozenset()) -> dict:
    out = {"file": str(svd), "size": svd.stat().st_size, "stages": {}, "warnings": 0}
    work.mkdir(parents=True, exist_ok=True)
    spec = work / "spec.yaml"
    crate = work / "crate"

    def stage(name, ok, text, seconds):
        out["stages"][name] = {"ok": ok, "seconds": round(seconds, 2),
                               "class": None if ok else first_error(text)}
        return ok

    t = time.time()
    rc, text = run([gba, "import-svd", str(svd), "--out", str(spec)]
                   + (["--strict"] if strict else []))
    out["warnings"] = len(re.findall(r"^warning", text, re.M))
    # The summary line's "(12 renamed, 3 left out)": what the import did, by treatment.
    summary = re.search(r"not carried over as they are \(([^)]*)\)", text)
    out["treatments"] = {t: int(n) for n, t in
                         (part.split(" ", 1) for part in summary.group(1).split(", "))
                         } if summary else {}
    if not stage("import", rc == 0, text, time.time() - t) or last == "import":
        return out
    t = time.time()
    rc, text = run([gba, "check", str(spec)])
    if not stage("check", rc == 0, text, time.time() - t) or last == "check":
        return out
    t = time.time()
    rc, text = run([gba, "gen", "--spec", "spec.yaml", "--out", "crate"], cwd=work)
    if not stage("gen", rc == 0, text, time.time() - t) or last == "gen":
        return out
    t = time.time()
    # Not incremental: each crate is checked once, and cargo would otherwise keep an
    # incremental cache per crate (gigabytes over the corpus) that --prune cannot name.
    rc, text = run(["cargo", "check", "-q", "--offline", "--target-dir", str(target)],
                   cwd=crate, env=dict(os.environ, CARGO_TERM_COLOR="never",
                                       CARGO_INCREMENTAL="0"))
    stage("cargo", rc == 0, text, time.time() - t)
    if prune:
        prune_crate(crate, target)
    # The C header and the SVD do not depend on the Rust crate: both always run.
    t = time.time()
    headers = list((crate / "include").glob("*.h"))
    if headers:
        c = work / "use.c"
        c.write_text(f'#include "{headers[0]}"\nint main(void) {{ return 0; }}\n')
        rc, text = run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
                        str(c)])
    else:
        rc, text = 1, "error: no header generated"
    stage("gcc", rc == 0, text, time.time() - t)
    t = time.time()
    try:
        svds = list(crate.glob("*.svd"))
        ET.parse(svds[0])
        ok, text = True, ""
    except (IndexError, ET.ParseError) as e:
        ok, text = False, f"error: {e}"
    stage("xml", ok, text, time.time() - t)
    thumb = THUMB.get(core_of(svd) or "")
    if thumb and thumb not in built and out["stages"]["cargo"]["ok"]:
        # The crate for its own core, with the vector table: nightly's build-std, since
        # `rustup target add` cannot reach its server here (rust-src is installed).
        t = time.time()
        rc, text = run(["cargo", "+nightly", "build", "-q", "--offline", "-Zbuild-std=core",
                        "--target", thumb, "--features", "rt,critical-section",
                        "--target-dir", str(target)],
                       cwd=crate, env=dict(os.environ, CARGO_TERM_COLOR="never",
                                           CARGO_INCREMENTAL="0"))
        stage("thumb", rc == 0, text, time.time() - t)
        out["thumb"] = thumb
    return out


def report(results: list[dict], seconds: float) -> str:
    n = len(results)
    lines = [f"{n} files, {seconds:.0f} s"]
    lines.append("stage    reached  passed  pass rate (of all files)")
    ran = [s for s in STAGES if any(s in r["stages"] for r in results)]
    for s in ran:
        reached = sum(1 for r in results if s in r["stages"])
        passed = sum(1 for r in results if r["stages"].get(s, {}).get("ok"))
        lines.append(f"{s:8} {reached:7}  {passed:6}  {100 * passed / max(n, 1):5.1f} %")
    # The thumb stage counts only for the files that name a Cortex-M core.
    whole = sum(1 for r in results
                if all(r["stages"].get(s, {}).get("ok") for s in ran
                       if s != "thumb" or "thumb" in r))
    # A run cut short by --stop-after counts what it ran, and says so.
    label = "all stages" if ran == STAGES else f"every stage run (to {ran[-1] if ran else '-'})"
    lines.append(f"{label}: {whole} of {n} ({100 * whole / max(n, 1):.1f} %)")
    classes: dict[tuple, list] = {}
    for r in results:
        for s in STAGES:
            st = r["stages"].get(s)
            if st and not st["ok"]:
                classes.setdefault((s, st["class"]), []).append(r["file"])
    if classes:
        lines.append("failure classes (stage, count, class, one example):")
        for (s, c), files in sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            example = "/".join(Path(files[0]).parts[-2:])
            lines.append(f"  {s:7} {len(files):4}  {c}  (e.g. {example})")
    lines.append(f"import warnings in all: {sum(r['warnings'] for r in results)}")
    totals: dict[str, int] = {}
    for r in results:
        for t, k in r.get("treatments", {}).items():
            totals[t] = totals.get(t, 0) + k
    if totals:
        order = ["renamed", "reshaped", "repaired", "not represented", "left out"]
        ranked = sorted(totals.items(), key=lambda tk: order.index(tk[0]) if tk[0] in order
                        else len(order))
        lines.append("  of which: " + ", ".join(f"{k} {t}" for t, k in ranked)
                     + f"; files with an item left out: "
                     f"{sum(1 for r in results if r.get('treatments', {}).get('left out'))}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--gba", help="the gba binary (default: built here, release)")
    ap.add_argument("--sample", type=int, help="take N files spread over the sizes")
    ap.add_argument("--max-size", type=int, help="skip files larger than this many KiB")
    ap.add_argument("--strict", action="store_true", help="import with --strict")
    ap.add_argument("--work", type=Path, help="keep the specs and crates here")
    ap.add_argument("--stop-after", choices=STAGES[:3],
                    help="run the stages up to this one only (import, check or gen): the fast "
                         "part, for a look at the whole corpus")
    ap.add_argument("--json", type=Path,
                    help="write every file's result here (rewritten after each file, so a run "
                         "stopped part-way leaves what it did)")
    ap.add_argument("--prune", action="store_true",
                    help="delete each checked crate's own artifacts from the target directory "
                         "once checked (the whole corpus's would fill the disk)")
    ap.add_argument("--spread", action="store_true",
                    help="take the files in an order whose every prefix is spread over the "
                         "sizes (for a run that may be stopped before the end)")
    ap.add_argument("--require-builds", action="store_true",
                    help="exit 1 unless every file the import accepts passes every stage "
                         "(the goal; tests/run.sh runs the sample so)")
    ap.add_argument("--cores", action="store_true",
                    help="add to the files the smallest of each Cortex-M core kind they lack "
                         "(of any size), so that the thumb stage builds for every target")
    ap.add_argument("--stand-ins", action="store_true",
                    help="add, for each thumb target no file names a core of (Armv8-M in "
                         "cmsis-svd 0.4), the smallest file with its <cpu><name> set to that "
                         "core (a stand-in: the PAC is the file's, the build is the core's)")
    ap.add_argument("--built", default="",
                    help="comma-separated thumb targets another test already builds a PAC for "
                         "with its vector table (tests/firmware/run.sh): --cores adds no file "
                         "for them and the thumb stage skips them")
    ap.add_argument("--target-dir", type=Path,
                    help="cargo's target directory for the crates (default: in the work dir)")
    args = ap.parse_args()

    files = args.files or sorted(corpus_dir().rglob("*.svd"))
    built = {t for t in args.built.split(",") if t}
    unknown = built - set(THUMB.values())
    if unknown:
        ap.error(f"--built: not a thumb target of a Cortex-M core: {', '.join(sorted(unknown))}")
    # --cores draws from every file, whatever --max-size: the small files name only
    # Armv6-M cores (the smallest CM3 and CM4 files are 895 and 666 KiB).
    pool = files
    if args.max_size:
        files = [f for f in files if f.stat().st_size <= args.max_size * 1024]
    if args.sample:
        files = sample(files, args.sample)
    if args.cores:
        files = with_cores(files, pool, built)
    if args.spread:
        files = spread(files)
    work = (args.work or Path(tempfile.mkdtemp(prefix="svd-corpus."))).resolve()
    if args.stand_ins:
        files = stand_ins(files, pool, built, work / "stand-ins")
    gba = args.gba
    if not gba:
        subprocess.run(["cargo", "build", "-q", "--release", "-p", "gba"], cwd=ROOT,
                       check=True)
        gba = str(ROOT / "target/release/gba")
    # Stages run with the sample's directory as their working directory: paths given
    # relative to the caller's must not change meaning there.
    gba = str(Path(gba).resolve())
    target = Path(args.target_dir or work / "target").resolve()
    results = []
    start = time.time()
    for i, svd in enumerate(files):
        name = f"{i:03}-{svd.parent.name}-{svd.stem}"
        r = one(gba, svd, work / name, target, args.strict, args.stop_after or "xml",
                args.prune, frozenset(built))
        failed = [s for s in STAGES if s in r["stages"] and not r["stages"][s]["ok"]]
        status = "ok" if not failed else (
            "FAIL " + ", ".join(f"{s}: {r['stages'][s]['class']}" for s in failed))
        took = sum(st["seconds"] for st in r["stages"].values())
        core = f", {r['thumb']}" if "thumb" in r else ""
        print(f"[{i + 1}/{len(files)}] {svd.parent.name}/{svd.name} "
              f"({r['size'] // 1024} KiB{core}, {took:.0f} s): {status}", flush=True)
        results.append(r)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1))
        if not args.work:
            shutil.rmtree(work / name, ignore_errors=True)
    text = report(results, time.time() - start)
    print()
    print(text)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    broken = [r["file"] for r in results
              if "import" in r["stages"] and r["stages"]["import"]["ok"]
              and not all(st["ok"] for st in r["stages"].values())]
    if args.require_builds and broken:
        print(f"{len(broken)} imported file(s) fail a later stage: {', '.join(broken)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
