#!/usr/bin/env python3
"""The SystemRDL corpus benchmark: register maps nobody here wrote, through `gba import-rdl`
and back, judged by the reference front end.

Corpus: every .rdl file in the source distributions of peakrdl-python, peakrdl-cheader and
peakrdl-ipxact on PyPI (their own examples and tests), fetched with `pip download --no-deps
--no-binary :all:` into $GBA_RDL_CACHE (default ~/.cache/gba/rdl-corpus, outside the
repository). For each file that systemrdl-compiler elaborates on its own:

  rdl     `gba import-rdl FILE` (or the refusal, with its reason), then `gba gen --emit
          systemrdl`, and the round-tripped file elaborated again: its register map must equal
          the original's (every register element's address and width; every field's bits,
          software access, onread/onwrite side effect and reset value; names are not compared,
          since flattened register files are renamed)
  ipxact  the original exported to IP-XACT 1685-2014 by peakrdl-ipxact, `gba import-ipxact`,
          exported back to SystemRDL by `gba gen`, and compared the same way

With --svd N, also N vendor SVD files of cmsis-svd 0.4 (tests/bench/svd_corpus.py fetches
them), spread over the sizes; `--svd all` takes all 490 (in an order whose every prefix is
spread over the sizes), and naming files takes only those: `gba import-svd` (or its refusal,
with the reason), `gba gen --emit systemrdl,ipxact`, the .rdl elaborated by
systemrdl-compiler and the .xml imported by peakrdl-ipxact. Every file's outcome is in the
--json report. --svd-only skips the SystemRDL corpus; --jobs runs that many SVD files at once;
--smallest-first takes `all` in size order; --verbose prints each file's outcome as a JSON
line when it ends.

Usage: tests/bench/rdl_corpus.py [--gba PATH] [--svd N|all] [--svd-only] [--jobs J]
                                 [--smallest-first] [--json FILE]
                                 [--verbose] [FILE.svd ...]
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from systemrdl import RDLCompiler, RDLCompileError
from systemrdl import node as rdlnode
from systemrdl.messages import MessagePrinter, Severity

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["peakrdl-python==4.0.0", "peakrdl-cheader==1.1.0", "peakrdl-ipxact==3.5.0",
            # Found by their names on PyPI (issue 38, item 4), each shipping register maps:
            # DESY's register tool (SystemRDL examples and tests), PeakRDL-html (an example)
            # and ipyxact (IP-XACT examples and golden files).
            "desyrdl==1.4.2", "peakrdl-html==2.12.2", "ipyxact==0.3.2"]
# Side effects the spec format carries (codegen/src/interchange.rs).
CARRIED = {"rclr", "woclr", "woset"}


def corpus() -> list[Path]:
    cache = Path(os.environ.get("GBA_RDL_CACHE", Path.home() / ".cache/gba/rdl-corpus"))
    cache.mkdir(parents=True, exist_ok=True)
    have = {a.name.split("-")[0].replace("_", "-").lower() for a in cache.glob("*.tar.gz")}
    missing = [p for p in PACKAGES if p.split("==")[0].lower() not in have]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                        "--no-binary", ":all:", *missing, "-d", str(cache)], check=True)
    files = []
    for archive in sorted(cache.glob("*.tar.gz")):
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers()
                       if m.isfile() and (m.name.endswith(".rdl") or m.name.endswith(".xml"))
                       and not m.name.startswith("/") and ".." not in Path(m.name).parts]
            missing = [m for m in members if not (cache / m.name).exists()]
            if missing:
                tar.extractall(cache, members=missing)
            files += [cache / m.name for m in members]
    # IP-XACT among the XML files (by its namespace: SPIRIT 1.x, 1685-2009 or 1685-2014).
    return sorted(f for f in files if f.suffix == ".rdl" or is_ipxact(f))


def is_ipxact(path: Path) -> bool:
    head = path.read_text(errors="replace")[:4000]
    return any(ns in head for ns in ("accellera.org/XMLSchema/SPIRIT",
                                     "accellera.org/XMLSchema/IPXACT",
                                     "spiritconsortium.org/XMLSchema/SPIRIT"))


def judge_one(gba, path: Path) -> dict:
    """One corpus file by the fuzzer's oracle (tests/bench/rdl_fuzz.py): per path `pass`,
    `named` (every difference warned at the file and line), `refused` (with its reason) or
    `silent` (a difference no warning names, with its classes); `exporter-lost` and
    `oracle-gap` are differences the reference tools make, not the importer."""
    sys.path.insert(0, str(Path(__file__).parent))
    import rdl_fuzz
    row = {"file": "/".join(path.parts[-3:])}
    with tempfile.TemporaryDirectory() as tmp:
        case = rdl_fuzz.Case(gba, "")
        try:
            if path.suffix == ".xml":
                case.go_xml(path, Path(tmp))
            else:
                case.go_file(path, Path(tmp))
        except Exception as e:  # the reference front end refuses it alone, or it is too big
            row["original"] = f"not judged: {str(e)[:100]}"
            return row
    for kind, (outcome, detail) in case.outcomes.items():
        classes = sorted({c for c, _ in case.silent if c.startswith(kind)})
        # What the reference exporter drops before `gba import-ipxact` sees the file (IP-XACT
        # cannot say it: rdl_fuzz.KNOWN) is no importer's silence: a column of its own.
        if outcome == "silent" and classes and all(c in rdl_fuzz.KNOWN for c in classes):
            outcome = "exporter-lost"
        elif outcome == "silent" and kind == "ipxact" and reader_lacks_spirit_values(
                path, [d for c, d in case.silent if c.startswith(kind)
                       and c not in rdl_fuzz.KNOWN]):
            outcome = "oracle-gap"
        row[kind] = outcome + (f" ({', '.join(classes)})" if classes else
                               f" ({detail})" if outcome == "refused" else "")
    return row


def reader_lacks_spirit_values(path: Path, differences: list) -> bool:
    """Whether every difference is an enumeration that SPIRIT 1.4's `<spirit:values>` (IP-XACT
    1.4's form, which 1685-2009 replaced by `<enumeratedValues>`) gives, `gba import-ipxact`
    reads and peakrdl-ipxact's reader, the oracle, does not: the oracle has no enumeration
    (`enum None -> ...`) and each value's name is one of the file's `<spirit:values>`. Then
    the import carries what the file says and the reference reader drops it: the oracle's
    gap, no importer's silence."""
    text = path.read_text(errors="replace")
    values = re.findall(r"<spirit:values>\s*<spirit:value>[^<]*</spirit:value>\s*"
                        r"<spirit:name>([^<]*)</spirit:name>", text)
    if not differences or not values:
        return False
    for detail in differences:
        match = re.fullmatch(r"0x[0-9a-f]+: field \[\d+:\d+\] enum None -> (\(.*\))", detail)
        if not match:
            return False
        names = re.findall(r"\('([^']*)', \d+\)", match.group(1))
        if not names or not all(name in values for name in names):
            return False
    return True


def judge(gba) -> list:
    """Every corpus file, each in a process of its own with a time limit (peakrdl-html's
    large-test.rdl unrolls to a million registers: the reference front end alone takes
    minutes and gigabytes)."""
    rows = []
    for path in corpus():
        name = "/".join(path.parts[-3:])
        try:
            p = subprocess.run([sys.executable, __file__, "--gba", gba, "--judge-one", str(path)],
                               capture_output=True, text=True, timeout=120)
            rows.append(json.loads(p.stdout.strip().splitlines()[-1]))
        except subprocess.TimeoutExpired:
            rows.append({"file": name, "original": "not judged: over 120 s"})
        except (json.JSONDecodeError, IndexError):
            rows.append({"file": name, "original": f"not judged: {p.stderr.strip()[-100:]}"})
    return rows


class Collect(MessagePrinter):
    """Keeps the compiler's errors for the report instead of printing every message."""

    def __init__(self):
        super().__init__()
        self.errors = []

    def print_message(self, severity, text, src_ref):
        if severity in (Severity.ERROR, Severity.FATAL):
            self.errors.append(text)


def elaborate(path: Path, ipxact: bool = False):
    printer = Collect()
    compiler = RDLCompiler(message_printer=printer)
    try:
        if ipxact:
            from peakrdl_ipxact import IPXACTImporter
            IPXACTImporter(compiler).import_file(str(path), remap_state="default")
        else:
            compiler.compile_file(str(path))
        return compiler.elaborate()
    except RDLCompileError as e:
        raise RDLCompileError(printer.errors[0] if printer.errors else str(e)) from None


def regmap(root) -> dict:
    """address -> sorted register descriptions (width, fields by bits)."""
    out = collections.defaultdict(list)
    for reg in root.descendants(unroll=True):
        if not isinstance(reg, rdlnode.RegNode):
            continue
        try:
            if reg.get_property("gba_implicit"):
                continue  # our stand-in for a block that kept no register
        except LookupError:
            pass
        fields = []
        for f in reg.fields():
            sw = f.get_property("sw").name
            sw = {"wr": "rw"}.get(sw, sw)
            onread = f.get_property("onread")
            onwrite = f.get_property("onwrite")
            reset = f.get_property("reset")
            if reset is not None and not isinstance(reset, int):
                reset = "ref"
            fields.append((f.low, f.high, sw, onread.name if onread else None,
                           onwrite.name if onwrite else None, reset))
        out[reg.absolute_address].append((reg.get_property("regwidth"), tuple(sorted(fields))))
        WHY.setdefault(reg.absolute_address, why_left_out(reg))
    return {a: sorted(v) for a, v in out.items()}


# address -> what the spec format lacks for the original register there (for the report).
WHY = {}


def why_left_out(reg) -> str:
    node = reg
    while node is not None:
        if isinstance(node, rdlnode.MemNode):
            return "a register inside a memory"
        if getattr(node, "array_dimensions", None) and len(node.array_dimensions) > 1:
            return "a multi-dimensional array"
        node = node.parent
    if reg.get_property("regwidth") > 64:
        return "a register wider than 64 bits"
    return "other"


def difference(original: dict, back: dict) -> str | None:
    """The class of the first difference between two register maps, or None."""
    for address in sorted(set(original) | set(back)):
        a, b = original.get(address), back.get(address)
        if a == b:
            continue
        if b is None:
            return f"register missing after the round trip: {WHY.get(address, 'other')} (left out, warned)"
        if a is None:
            return "register added by the round trip"
        if len(a) != len(b):
            return "overlapping registers at one address not all carried"
        for (wa, fa), (wb, fb) in zip(a, b):
            if wa != wb:
                return "register width differs"
            if [f[:2] for f in fa] != [f[:2] for f in fb]:
                return "field bits differ"
            for x, y in zip(fa, fb):
                if x[2] != y[2]:
                    return "software access differs"
                if x[3:5] != y[3:5]:
                    effects = {e for e in x[3:5] if e}
                    if effects - CARRIED:
                        return "side effect the spec lacks (warned)"
                    return "side effect differs"
                if x[5] != y[5]:
                    if x[5] == "ref":
                        return "reset is a reference (warned)"
                    # No reset is a statement (the flop is not reset), not a 0: compared as is.
                    if x[5] is None or y[5] is None:
                        return "reset present on one side only"
                    return "reset value differs"
    return None


def run(cmd, timeout=600):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return -1, "timed out"


def first_error(text: str) -> str:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if "error" in line.lower() or "refused" in line.lower():
            # `error: FILE: why`, without the file; a list's first item after its colon.
            line = line.split(": ", 2)[-1] if line.startswith("error: ") else line
            if line.endswith(":") and i + 1 < len(lines):
                line += " " + lines[i + 1].strip()
            return line.strip()[:160]
    return (text.strip().splitlines() or ["?"])[-1][:160]


def round_trip(gba, spec_source: Path, kind: str, work: Path, original: dict) -> tuple[str, str]:
    """(outcome, detail): `pass`, `refused`, `not elaborated` or `differs`."""
    spec = work / "spec.yaml"
    command = "import-rdl" if kind == "rdl" else "import-ipxact"
    rc, text = run([gba, command, str(spec_source), "--out", str(spec)])
    if rc != 0:
        return "refused", first_error(text)
    out = work / "out"
    rc, text = run([gba, "gen", "--spec", str(spec), "--out", str(out), "--emit", "systemrdl"])
    if rc != 0:
        return "gen failed", first_error(text)
    rdl = next(out.glob("*.rdl"))
    try:
        back = regmap(elaborate(rdl))
    except RDLCompileError as e:
        return "not elaborated", str(e)[:160]
    diff = difference(original, back)
    return ("pass", "") if diff is None else ("differs", diff)


def rdl_corpus(gba, verbose) -> dict:
    results = []
    for path in (p for p in corpus() if p.suffix == ".rdl"):
        name = "/".join(path.parts[-3:])
        entry = {"file": name}
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            WHY.clear()
            try:
                root = elaborate(path)
                original = regmap(root)
            except Exception as e:  # the file needs includes, defines or another file
                entry["original"] = f"does not elaborate alone: {str(e)[:120]}"
                results.append(entry)
                continue
            (work / "rdl").mkdir()
            entry["rdl"] = round_trip(gba, path, "rdl", work / "rdl", original)
            xml = work / "peakrdl.xml"
            try:
                from peakrdl_ipxact import IPXACTExporter
                IPXACTExporter().export(root.top, str(xml))
            except Exception as e:
                entry["ipxact"] = ("not exported", f"peakrdl-ipxact: {str(e)[:120]}")
            else:
                (work / "ipxact").mkdir()
                entry["ipxact"] = round_trip(gba, xml, "ipxact", work / "ipxact", original)
        if verbose:
            print(json.dumps(entry), flush=True)
        results.append(entry)
    return summarise(results)


def summarise(results) -> dict:
    summary = {"files": len(results),
               "elaborate alone": sum(1 for r in results if "original" not in r)}
    for kind in ("rdl", "ipxact"):
        outcomes = collections.Counter(r[kind][0] for r in results if kind in r)
        classes = collections.Counter(f"{r[kind][0]}: {r[kind][1]}" for r in results
                                      if kind in r and r[kind][0] != "pass")
        summary[kind] = {"outcomes": dict(outcomes), "classes": dict(classes.most_common())}
    summary["not elaborating alone"] = [r["file"] for r in results if "original" in r]
    summary["results"] = results
    return summary


def svd_one(gba, svd: Path) -> dict:
    """One vendor SVD: import, export, and the verdict of each reference front end."""
    entry = {"file": "/".join(svd.parts[-2:]), "size": svd.stat().st_size}
    t = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rc, text = run([gba, "import-svd", str(svd), "--out", str(work / "spec.yaml")])
        if rc != 0:
            entry["import"] = ("refused", first_error(text))
        else:
            entry["import"] = ("pass", "")
            rc, text = run([gba, "gen", "--spec", str(work / "spec.yaml"), "--out",
                            str(work / "out"), "--emit", "systemrdl,ipxact"])
            if rc != 0:
                entry["gen"] = ("failed", first_error(text))
            else:
                entry["gen"] = ("pass", "")
                for kind, pattern in (("rdl", "*.rdl"), ("ipxact", "*.xml")):
                    try:
                        elaborate(next((work / "out").glob(pattern)),
                                  ipxact=(kind == "ipxact"))
                        entry[kind] = ("pass", "")
                    except Exception as e:  # the front end's refusal, kept as the result
                        entry[kind] = ("refused", f"{type(e).__name__}: {str(e)[:200]}")
    entry["seconds"] = round(time.time() - t, 1)
    return entry


def svd_files(n: str, names: list[str], smallest_first: bool) -> list[Path]:
    """N files spread over the sizes, `all` of them (in spread order, or smallest first), or
    the named ones."""
    sys.path.insert(0, str(Path(__file__).parent))
    import svd_corpus
    every = list(svd_corpus.corpus_dir().rglob("*.svd"))
    if names:
        by_name = {**{f.name: f for f in every}, **{"/".join(f.parts[-2:]): f for f in every}}
        missing = [n for n in names if n not in by_name]
        if missing:
            sys.exit(f"error: not in the cmsis-svd corpus: {', '.join(missing)}")
        return [by_name[n] for n in names]  # in the order given
    if n == "all":
        if smallest_first:  # the most files in a run cut short: time grows with the size
            return sorted(every, key=lambda f: (f.stat().st_size, str(f)))
        return svd_corpus.spread(every)
    return svd_corpus.sample(every, int(n))


def svd_sample(gba, files: list[Path], jobs: int, verbose: bool) -> dict:
    results = []
    # Processes, not threads: the front ends are Python and would share one interpreter lock.
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
        for done in concurrent.futures.as_completed([pool.submit(svd_one, gba, f)
                                                     for f in files]):
            entry = done.result()
            if verbose:  # one JSON line per file as it ends: a run cut short keeps them
                print(json.dumps(entry), flush=True)
            results.append(entry)
    results.sort(key=lambda r: r["file"])
    counts = collections.Counter()
    classes = collections.Counter()
    for r in results:
        for kind in ("import", "gen", "rdl", "ipxact"):
            if kind in r:
                counts[f"{kind} {r[kind][0]}"] += 1
                if r[kind][0] != "pass":
                    classes[f"{kind} {r[kind][0]}: {r[kind][1][:120]}"] += 1
    failures = [(r["file"], kind, r[kind][1]) for r in results
                for kind in ("gen", "rdl", "ipxact") if kind in r and r[kind][0] != "pass"]
    return {"sampled": len(files), "counts": dict(sorted(counts.items())),
            "classes": dict(classes.most_common()), "failures": failures, "results": results}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gba", default=str(ROOT / "target/debug/gba"))
    parser.add_argument("--svd", default="0", help="N vendor SVD files, or `all` (490)")
    parser.add_argument("--svd-only", action="store_true", help="skip the SystemRDL corpus")
    parser.add_argument("--jobs", type=int, default=1, help="SVD files run at once")
    parser.add_argument("--smallest-first", action="store_true",
                        help="with --svd all: the smallest files first, not spread")
    parser.add_argument("--judge", action="store_true",
                        help="every corpus file (SystemRDL and IP-XACT) by the fuzzer's oracle: "
                             "a table of pass / named / refused / silent (and the reference tools' own losses)")
    parser.add_argument("--judge-one", help=argparse.SUPPRESS)
    parser.add_argument("--json")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("files", nargs="*", help="only these SVD files (name or vendor/name)")
    args = parser.parse_args()
    if args.svd != "all" and not args.svd.isdigit():
        parser.error(f"--svd takes a number of files or `all`, not `{args.svd}`")
    if args.judge_one:
        print(json.dumps(judge_one(args.gba, Path(args.judge_one))))
        return
    if args.judge:
        rows = judge(args.gba)
        print("| file | SystemRDL path | IP-XACT path |\n|---|---|---|")
        for r in rows:
            print(f"| {r['file']} | {r.get('rdl', r.get('original', '-'))} | "
                  f"{r.get('ipxact', '-')} |")
        for kind in ("rdl", "ipxact"):
            counts = collections.Counter(r[kind].split(" ")[0] for r in rows if kind in r)
            print(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        return
    report = {} if args.svd_only else {"rdl corpus": rdl_corpus(args.gba, args.verbose)}
    if args.svd != "0" or args.files:
        files = svd_files(args.svd, args.files, args.smallest_first)
        report["svd sample"] = svd_sample(args.gba, files, args.jobs, args.verbose)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    brief = {k: {kk: vv for kk, vv in v.items() if kk not in ("results", "failures")}
             for k, v in report.items()}
    print(json.dumps(brief, indent=1))


if __name__ == "__main__":
    main()
