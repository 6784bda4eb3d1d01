#!/usr/bin/env python3
"""What `gba import-svd` says about the vendor-SVD corpus, counted by class of warning: every
file of cmsis-svd 0.4 (tests/bench/svd_corpus.py fetches it) imported once, and each warning
line reduced to its class (names, numbers and item paths blanked), so that two importers can
be compared class by class ("second enumeratedValues … not represented": 1,434 → 0).

Usage:
  tests/bench/svd_warning_classes.py --gba GBA [--json OUT] [--compare BEFORE.json] [FILE.svd ...]
The import stage only (about 15 minutes for the 490 files on two shared cores). Not in CI.
"""

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import svd_corpus  # noqa: E402


def classify(line: str) -> str:
    """`warning: FILE:LINE: ITEM: message` → the message with its particulars blanked."""
    m = re.sub(r"^warning: \S+?:\d+: ", "", line)
    m = re.sub(r"^warning: \S+?: ", "", m)
    m = m.split(": ", 1)[1] if ": " in m else m
    m = re.sub(r"`[^`]*`", "`X`", m)
    m = re.sub(r"<(\w+)>[^<]*</\1>", r"<\1>…</\1>", m)
    m = re.sub(r"\b0x[0-9a-fA-F]+\b|\b\d+\b", "N", m)
    m = re.sub(r"interrupts not represented: .*", "interrupts not represented", m)
    m = re.sub(r"registers \S+ … \S+", "registers A … B", m)
    m = re.sub(r"blocks [^`]*`", "blocks A… `", m)
    m = re.sub(r"\(([^()]*)\)", lambda g: "(…)" if len(g.group(1)) > 25 else g.group(0), m)
    return m[:110]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gba", required=True)
    parser.add_argument("--json")
    parser.add_argument("--compare")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or sorted(svd_corpus.corpus_dir().rglob("*.svd"))
    counts: collections.Counter = collections.Counter()
    refused = []
    with tempfile.TemporaryDirectory() as tmp:
        for svd in files:
            run = subprocess.run([args.gba, "import-svd", str(svd), "--out", f"{tmp}/spec.yaml"],
                                 capture_output=True, text=True, errors="replace")
            if run.returncode != 0:
                refused.append(svd.name)
            for line in run.stderr.splitlines():
                if line.startswith("warning:"):
                    counts[classify(line)] += 1
    before = json.loads(Path(args.compare).read_text())["classes"] if args.compare else None
    print(f"{len(files)} files, {len(refused)} refused {refused[:5]}")
    for cls, n in counts.most_common():
        was = "" if before is None else f"{before.get(cls, 0):9d} → "
        print(f"{was}{n:9d}  {cls}")
    if before is not None:
        for cls in sorted(set(before) - set(counts)):
            print(f"{before[cls]:9d} → {0:9d}  {cls}")
    print(f"{sum(counts.values()):9d}  in all")
    if args.json:
        Path(args.json).write_text(json.dumps({"classes": counts, "refused": refused}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
