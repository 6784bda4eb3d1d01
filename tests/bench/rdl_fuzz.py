#!/usr/bin/env python3
"""Differential fuzzing of `gba import-rdl` / `gba import-ipxact` against the reference front
end, systemrdl-compiler (issue 38, item 3).

A hypothesis strategy writes random SystemRDL that systemrdl-compiler elaborates: register
widths 8-64, accesswidth, fields at random positions with gaps, msb0 ranges, every sw/hw
access, onread/onwrite, singlepulse, write locks (a bit of another register, or a hardware
input), reset present or absent, enums, regfiles and arrays with strides, nested addrmaps,
alias registers, external registers and register files, hardware-side properties
(resetsignal, precedence, hwmask/hwenable, we/wel, swacc, swmod, sticky, intr, counter,
paritycheck, hwset/hwclr) and user-defined properties. Each case takes two paths:

  rdl     `gba import-rdl CASE.rdl`, `gba gen --emit systemrdl,ipxact`, the .rdl elaborated again
  ipxact  CASE.rdl exported by peakrdl-ipxact, `gba import-ipxact`, the same export

and the two elaborated maps are compared register by register and field by field (address,
regwidth, accesswidth, external, bits, msb0, sw, hw, onread, onwrite, singlepulse, reset or
none, write lock, enum, hardware-side properties). The oracle: every difference is absent, or
named by a warning of the import at the input's file and a line of the register concerned
(`CASE.rdl:LINE` / `CASE.xml:LINE`); a class the import carries (CARRIED: msb0 on the rdl
path) must show no difference at all. An import refused with a reason is not a failure. A
difference with no warning is; hypothesis shrinks it to a minimal file, printed with the
command that reproduces it.

Differences the importers do not name yet are known classes (KNOWN: each keyed by its class
and naming the issue item that removes it): reported and counted, not failures, so that the
run stays green and honest. `--strict-known` fails on them too.

Usage: tests/bench/rdl_fuzz.py [--cases N] [--seed S] [--gba PATH] [--strict-known]
                               [--show CLASS] [--json FILE]
  default: 200 cases on a seed that changes every run (printed);
  `--seed S` reproduces a run; `--cases 10000` is the long run.
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings, seed as hseed, strategies as st
from hypothesis.errors import Unsatisfiable

from systemrdl import RDLCompiler, RDLCompileError
from systemrdl import node as rdlnode
from systemrdl.messages import MessagePrinter

ROOT = Path(__file__).resolve().parents[2]

# A difference that no warning names: class -> why (what IP-XACT cannot say, or the issue item
# whose fix removes it). Reported by count; `--strict-known` fails on them.
KNOWN = {
    # What IP-XACT cannot say, which the reference exporter (peakrdl-ipxact) therefore drops
    # before `gba import-ipxact` sees the file: no importer can warn of it.
    "ipxact: accesswidth": "not in IP-XACT's field model: peakrdl-ipxact's export drops it",
    "ipxact: msb0": "not in IP-XACT's field model: peakrdl-ipxact's export drops it (our own "
                    "IP-XACT export carries it as `gba:bitOrder`)",
    "ipxact: external": "not in IP-XACT's field model: peakrdl-ipxact's export drops it",
    "ipxact: hw": "not in IP-XACT's field model: peakrdl-ipxact's export drops it",
}

# Classes the importer carries on a path: any difference of them is a failure, even one a
# warning names (a warning would mean the carrying broke). msb0: the spec's `bit_order`.
CARRIED = {"rdl: msb0"}

HW_PROPS = ["precedence", "hwmask", "hwenable", "we", "wel", "swacc", "swmod", "sticky",
            "stickybit", "intr", "counter", "paritycheck", "hwset", "hwclr", "resetsignal"]

# ---------------------------------------------------------------------------------------
# The generator.

SW = ["rw", "r", "w", "rw1", "w1"]
HW = ["rw", "r", "w", "na"]
ONREAD = ["rclr", "rset"]
ONWRITE = ["woset", "woclr", "wot", "wzs", "wzc", "wzt", "wclr", "wset"]


@st.composite
def fields(draw, width, locks):
    """The fields of a register of `width` bits: (text lines, list of field names)."""
    out, names, dynamic = [], [], []
    pos = 0
    msb0 = draw(st.integers(0, 7)) == 0
    # Fields placed by the compiler (`F[4]`, no position; systemrdl-compiler's field_packing)
    auto = not msb0 and draw(st.integers(0, 5)) == 0
    n = draw(st.integers(1, 4))
    for i in range(n):
        if pos >= width:
            break
        pos += 0 if auto else draw(st.sampled_from([0, 0, 0, 1, 3]))  # a gap
        if pos >= width:
            break
        w = draw(st.integers(1, min(width - pos, 16 if width > 8 else width - pos)))
        lo, hi = pos, pos + w - 1
        pos = hi + 1
        name = f"F{i}"
        sw = draw(st.sampled_from(SW))
        hw = draw(st.sampled_from(HW))
        if sw in ("r",) and hw in ("r", "na"):
            hw = "w"  # a read-only field nothing writes is a constant: keep it defined
        if sw in ("w", "w1") and hw in ("w", "na"):
            hw = "r"  # systemrdl-compiler: "access property combination is meaningless"
        props = [f"sw = {sw};", f"hw = {hw};"]
        readable = sw in ("rw", "r", "rw1")
        writable = sw != "r"
        if readable and draw(st.integers(0, 5)) == 0:
            props.append(f"onread = {draw(st.sampled_from(ONREAD))};")
        if writable and draw(st.integers(0, 4)) == 0:
            props.append(f"onwrite = {draw(st.sampled_from(ONWRITE))};")
        elif writable and w == 1 and draw(st.integers(0, 4)) == 0:
            props.append("singlepulse;")
        if writable and draw(st.integers(0, 8)) == 0:
            if locks and draw(st.booleans()):
                # A reference resolves where the register is instantiated: a dynamic assignment.
                dynamic.append(f"{name}->{draw(st.sampled_from(['swwe', 'swwel']))} = {draw(st.sampled_from(locks))};")
            else:
                props.append(f"{draw(st.sampled_from(['swwe', 'swwel']))} = true;")
        if draw(st.integers(0, 5)) == 0:
            hw_writes = ["intr; sticky;", "intr; stickybit;", "we;", "wel;"]
            props.append(draw(st.sampled_from([
                "precedence = hw;", "swacc;", "swmod;", "paritycheck;", "hwset;", "hwclr;",
                "intr;", "posedge intr;", "nonsticky intr;", "counter;",
                "counter; incrvalue = 2;", "resetsignal = fuzz_rst;", "fuzz_udp = true;"]
                + (hw_writes if hw in ("rw", "w") else []))))
        if w <= 3 and draw(st.integers(0, 5)) == 0:
            props.append(f"encode = fuzz_enum{w};")
        reset = ""
        if "singlepulse;" in props:
            reset = " = 0x0"
        elif draw(st.integers(0, 2)) > 0:
            reset = f" = {draw(st.integers(0, (1 << w) - 1)):#x}"
            if draw(st.integers(0, 5)) == 0:
                # The reset by dynamic assignment where the register is instantiated.
                dynamic.append(f"{name}->reset = {reset[3:]};")
                reset = ""
        if i > 0 and draw(st.integers(0, 12)) == 0:
            props.append("ispresent = false;")
        # msb0: the range written low index first (`TOP[0:3]`).
        bits = f"[{lo}:{hi}]" if msb0 and hi > lo else f"[{hi}:{lo}]"
        if auto:
            bits = f"[{w}]"
        out.append(f"field {{ {' '.join(props)} }} {name}{bits}{reset};")
        names.append((name, w))
    return out, names, dynamic


@st.composite
def register(draw, name, locks, offset):
    width = draw(st.sampled_from([8, 16, 32, 32, 32, 64]))
    access = width
    if width > 8 and draw(st.integers(0, 3)) == 0:
        access = draw(st.sampled_from([w for w in (8, 16, 32) if w < width]))
    body, names, dynamic = draw(fields(width, locks))
    props = [f"regwidth = {width};"]
    if access != width:
        props.append(f"accesswidth = {access};")
    external = "external " if draw(st.integers(0, 9)) == 0 else ""
    align = width // 8
    offset = (offset + align - 1) // align * align
    text = [f"{external}reg {{", *["    " + p for p in props], *["    " + b for b in body],
            f"}} {name} @ {offset:#x};", *[f"{name}.{d}" for d in dynamic]]
    return text, width, offset + align, names


@st.composite
def block(draw, prefix, depth, regfile=False):
    """The body of an addrmap or regfile: its lines and its size in bytes."""
    lines, offset, locks = [], 0, []
    n = draw(st.integers(1, 4))
    for i in range(n):
        kind = draw(st.sampled_from(["reg"] * 6 + (["regfile"] + ([] if regfile else ["addrmap"]) if depth < 2 else [])
                                    + ["alias", "param"] + ([] if regfile else ["mem"])))
        offset += draw(st.sampled_from([0, 0, 4, 16]))
        name = f"{prefix}{i}"
        if kind == "param":
            # A parameterised type (systemrdl-compiler's parameters.rdl).
            offset = (offset + 3) // 4 * 4
            lines.append(f"fuzz_param_reg #(.W({draw(st.integers(1, 32))})) {name} @ {offset:#x};")
            offset += 4
        elif kind == "mem":
            offset = (offset + 15) // 16 * 16
            lines.append(f"external mem {{ mementries = 4; memwidth = 32; }} {name} @ {offset:#x};")
            offset += 16
        elif kind in ("reg", "alias"):
            text, width, offset, names = draw(register(name, locks, offset))
            lines += text
            locks += [f"{name}.{n}" for n, w in names if w == 1]
            if (kind == "alias" or draw(st.integers(0, 9)) == 0) and not any(
                    l.startswith(f"{name}.") for l in text):
                # An alias of this register: the same fields, another software access.
                start = len(lines) - len(text)
                primary = [l for l in lines[start:] if not l.startswith(f"{name}.")]
                align = width // 8
                offset = (offset + align - 1) // align * align
                alias = [re.sub(r"on(read|write) = \w+;|singlepulse;", "", l) for l in primary]
                alias = [l if "swwe" in l else l.replace("sw = rw;", "sw = r;") for l in alias]
                alias[0] = f"reg {name}_alias_t {{"
                alias[-1] = "};"
                lines += alias + [f"alias {name} {name}_alias_t {name}_ALIAS @ {offset:#x};"]
                offset += align
        else:
            keyword = "regfile" if kind == "regfile" else "addrmap"
            body, size = draw(block(f"{name}_", depth + 1, regfile or kind == "regfile"))
            external = "external " if kind == "regfile" and draw(st.integers(0, 9)) == 0 else ""
            count = draw(st.sampled_from([1, 1, 2, 4]))
            align = 8
            size = max(size, 8)
            offset = (offset + align - 1) // align * align
            stride = (size + 7) // 8 * 8 + draw(st.sampled_from([0, 0, 8, 32]))
            array = f"[{count}]" if count > 1 else ""
            at = f" @ {offset:#x}" + (f" += {stride:#x}" if count > 1 else "")
            lines += [f"{external}{keyword} {{", *["    " + l for l in body],
                      f"}} {name}{array}{at};"]
            offset += (stride * count if count > 1 else size)
    return lines, offset


@st.composite
def rdl_source(draw):
    body, _ = draw(block("R", 0))
    head = [
        "property fuzz_udp { type = boolean; component = field; };",
        "enum fuzz_enum1 { ZERO = 0; ONE = 1; };",
        "enum fuzz_enum2 { A = 0; B = 1; C = 3; };",
        "enum fuzz_enum3 { X = 0; Y = 5; Z = 7; };",
        "reg fuzz_param_reg #(longint unsigned W = 4) { field { sw = rw; hw = r; } P[W] = 0; };",
        "addrmap fuzz {",
        "    signal { activelow; async; } fuzz_rst;",
    ]
    return "\n".join(head + ["    " + l for l in body] + ["};", ""])


# ---------------------------------------------------------------------------------------
# The oracle.

class Quiet(MessagePrinter):
    def __init__(self):
        super().__init__()
        self.errors = []

    def print_message(self, severity, text, src_ref):
        if severity.name in ("ERROR", "FATAL"):
            self.errors.append(text)


def elaborate(path: Path, ipxact=False):
    printer = Quiet()
    compiler = RDLCompiler(message_printer=printer)
    try:
        if ipxact:
            from peakrdl_ipxact import IPXACTImporter
            IPXACTImporter(compiler).import_file(str(path), remap_state="default")
        else:
            compiler.compile_file(str(path))
        return compiler.elaborate()
    except RDLCompileError as e:
        raise RDLCompileError("; ".join(printer.errors) or str(e)) from None


def lines_of(node):
    out = set()
    for ref in (node.inst.def_src_ref, node.inst.inst_src_ref):
        try:
            if ref is not None and ref.line is not None:
                out.add(ref.line)
                end = getattr(ref, "end_line", None)
                if end:
                    out.update(range(ref.line, end + 1))
        except Exception:
            pass
    if out:
        out.update(range(min(out), max(out) + 1))
    return out


def prop(node, name):
    try:
        return node.get_property(name)
    except LookupError:
        return None


def describe(value):
    if isinstance(value, rdlnode.Node):
        return f"ref {value.get_path()}"
    if hasattr(value, "name") and not isinstance(value, (int, bool, str)):
        return value.name
    return value


class TooLarge(Exception):
    pass


def registers(node, scale=1):
    """How many register elements `node` unrolls into (without unrolling them)."""
    total = 0
    for child in node.children(unroll=False):
        count = 1
        for d in getattr(child, "array_dimensions", None) or []:
            count *= d
        if isinstance(child, rdlnode.RegNode):
            total += count
        elif isinstance(child, (rdlnode.AddrmapNode, rdlnode.RegfileNode, rdlnode.MemNode)):
            total += count * registers(child)
        if total > 50_000:
            break
    return total


def regmap(root):
    """address -> list of (register attributes, fields, lines)."""
    n = registers(root.top)
    if n > 50_000:
        raise TooLarge(f"{n}+ register elements unrolled: too many to compare one by one")
    out = collections.defaultdict(list)
    for reg in root.descendants(unroll=True):
        if not isinstance(reg, rdlnode.RegNode):
            continue
        if prop(reg, "gba_implicit"):
            continue
        fields = {}
        for f in reg.fields():
            reset = prop(f, "reset")
            if reset is not None and not isinstance(reset, int):
                reset = "ref"
            hwp = {}
            for p in HW_PROPS:
                v = prop(f, p)
                if v not in (None, False, 0) and not (p == "precedence" and describe(v) == "sw"):
                    hwp[p] = describe(v)
            encode = prop(f, "encode")
            lock = next((f"{p}" for p in ("swwe", "swwel") if prop(f, p) not in (None, False)), None)
            sw = prop(f, "sw").name
            # Keyed by low bit; fields that overlap (a read-only and a write-only one on the
            # same bits) by their order at it, which `differences` pairs by access.
            key = (f.low, sum(1 for k in fields if k[0] == f.low))
            fields[key] = {
                "bits": (f.low, f.high),
                "msb0": f.msb < f.lsb,
                "sw": {"wr": "rw"}.get(sw, sw),
                "hw": prop(f, "hw").name,
                "onread": describe(prop(f, "onread")),
                "onwrite": describe(prop(f, "onwrite")),
                "singlepulse": bool(prop(f, "singlepulse")),
                "reset": reset,
                "lock": lock,
                "enum": tuple((m.name, m.value) for m in encode) if encode else None,
                "hwprops": tuple(sorted(hwp)),
            }
        attrs = {
            "regwidth": prop(reg, "regwidth"),
            "accesswidth": prop(reg, "accesswidth"),
            "external": any(bool(getattr(n.inst, "external", False)) for n in [reg, *ancestors(reg)]
                            if not isinstance(n, rdlnode.AddrmapNode)),
            "alias": reg.is_alias,
        }
        # A warning may name the register, or an enclosing instance (a memory left out).
        lines = lines_of(reg)
        for a in ancestors(reg):
            ref = a.inst.inst_src_ref
            if ref is not None and getattr(ref, "line", None):
                lines.add(ref.line)
        out[reg.absolute_address].append((attrs, fields, lines))
    return out


def ancestors(node):
    p = node.parent
    while p is not None and not isinstance(p, rdlnode.RootNode):
        if isinstance(p, (rdlnode.RegfileNode, rdlnode.AddrmapNode, rdlnode.MemNode)) \
                and p.parent is not None \
                and not isinstance(p.parent, rdlnode.RootNode):
            yield p
        p = p.parent


def differences(original, back):
    """[(class, address, detail, lines)] between two register maps."""
    out = []
    for address in sorted(set(original) | set(back)):
        a, b = original.get(address, []), back.get(address, [])
        if len(a) != len(b):
            lines = set().union(*(x[2] for x in a)) if a else set()
            kinds = "alias" if any(x[0]["alias"] for x in a) else "register"
            out.append(("register count" if kinds == "register" else "alias", address,
                        f"{len(a)} register(s) at {address:#x}, {len(b)} after", lines))
            continue
        # Registers at one address (an alias and its primary): compared in a stable order.
        key = lambda x: (x[0]["alias"], sorted((low, f["sw"]) for low, f in x[1].items()))
        # Overlapping fields at one low bit: paired by access, not by the order written.
        def by_access(fields):
            out, at = {}, collections.defaultdict(list)
            for (low, _), f in fields.items():
                at[low].append(f)
            for low, fs in at.items():
                for i, f in enumerate(sorted(fs, key=lambda f: f["sw"])):
                    out[(low, i)] = f
            return out
        for (ra, fa, lines), (rb, fb, _) in zip(sorted(a, key=key), sorted(b, key=key)):
            fa, fb = by_access(fa), by_access(fb)
            for k in ("regwidth", "accesswidth", "external"):
                if ra[k] != rb[k]:
                    out.append((k if k != "regwidth" else "width", address,
                                f"{k} {ra[k]} -> {rb[k]}", lines))
            if sorted(fa) != sorted(fb) or any(fa[l]["bits"] != fb[l]["bits"] for l in fa if l in fb):
                extra, missing = set(fb) - set(fa), set(fa) - set(fb)
                moved = any(fa[l]["bits"] != fb[l]["bits"] for l in fa if l in fb)
                cls = ("field added" if extra and not missing and not moved else
                       "field missing" if missing and not extra and not moved else "bits")
                out.append((cls, address, f"fields {sorted(v['bits'] for v in fa.values())} -> "
                            f"{sorted(v['bits'] for v in fb.values())}", lines))
                continue
            for low in sorted(fa):
                x, y = fa[low], fb[low]
                for k in ("msb0", "sw", "onread", "onwrite", "singlepulse", "reset", "lock",
                          "enum", "hw", "hwprops"):
                    if x[k] != y[k]:
                        cls = {"hwprops": "hw", "onread": "side effect",
                               "onwrite": "side effect"}.get(k, k)
                        out.append((cls, address, f"field [{x['bits'][1]}:{x['bits'][0]}] {k} "
                                    f"{x[k]!r} -> {y[k]!r}", lines))
    return out


# What a warning about each class must say (case-insensitive, any of these words).
WORDS = {
    "reset": ["reset"], "accesswidth": ["accesswidth", "access width"], "msb0": ["msb0"],
    "external": ["external"], "hw": ["hw", "hardware"] + HW_PROPS,
    "side effect": ["onread", "onwrite", "side effect", "rclr", "rset", "woset", "woclr",
                    "wot", "wzs", "wzc", "wzt", "wclr", "wset", "modifiedwritevalue",
                    "readaction"],
    "singlepulse": ["singlepulse", "pulse"], "lock": ["swwe", "swwel", "lock"],
    "enum": ["enum", "encode", "enumeratedvalues", "enumerated value"], "sw": ["sw", "access"], "width": ["width"],
    "bits": ["bit", "field"], "field added": ["field", "ispresent", "present"],
    "field missing": ["field", "left out"], "alias": ["alias"], "register count": ["register", "left out"],
}


def warnings_at(text, filename):
    """[(line, message)] of the warnings that name the input file and a line."""
    out = []
    for line in text.splitlines():
        for m in re.finditer(re.escape(filename) + r":(\d+)", line):
            out.append((int(m.group(1)), line))
    return out


def named(diff, warnings):
    cls, _, _, lines = diff
    words = WORDS.get(cls, [cls])
    for line, message in warnings:
        if lines and line not in lines:
            continue
        low = message.lower()
        if any(re.search(r"\b" + re.escape(w.lower()) + r"\b", low) for w in words):
            return True
    return False


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


class Case:
    """The outcome of one input through both paths."""

    def __init__(self, gba, source):
        self.gba, self.source = gba, source
        self.outcomes = {}  # path -> ("pass"|"refused"|"named"|"silent", detail)
        self.silent = []    # (class, detail)
        self.named = []     # (class, detail): differences a warning names

    def go(self, work: Path):
        rdl = work / "case.rdl"
        rdl.write_text(self.source)
        self.go_file(rdl, work)

    def go_file(self, rdl: Path, work: Path):
        """Both paths from a SystemRDL file (`rdl`, kept where it is: its includes)."""
        root = elaborate(rdl)
        original = regmap(root)
        # The two paths at once: most of each is waiting on `gba` and Python processes.
        rdl_path = threading.Thread(target=self.path,
                                    args=("rdl", "import-rdl", rdl, work / "rdl", original))
        rdl_path.start()
        try:
            self.ipxact(root, work)
        finally:
            rdl_path.join()

    def go_xml(self, xml: Path, work: Path):
        """The IP-XACT path from an IP-XACT file, peakrdl-ipxact's reading of it the oracle."""
        original = regmap(elaborate(xml, ipxact=True))
        self.path("ipxact", "import-ipxact", xml, work / "ipxact", original)

    def ipxact(self, root, work: Path):
        xml = work / "case.xml"
        try:
            from peakrdl_ipxact import IPXACTExporter
            IPXACTExporter().export(root.top, str(xml))
        except Exception as e:
            self.outcomes["ipxact"] = ("not exported", str(e)[:100])
            return
        # What peakrdl-ipxact's IP-XACT says is the input of the second path.
        try:
            via = regmap(elaborate(xml, ipxact=True))
        except RDLCompileError as e:
            self.outcomes["ipxact"] = ("not exported", str(e)[:100])
            return
        self.path("ipxact", "import-ipxact", xml, work / "ipxact", via)

    def path(self, kind, command, source, work, original):
        work.mkdir()
        rc, text = run([self.gba, command, str(source), "--out", str(work / "spec.yaml")])
        if rc != 0:
            if "panicked" in text or rc not in (1, 2):
                self.silent.append((f"{kind}: crash", text[-300:]))
                self.outcomes[kind] = ("silent", "crash")
            else:
                self.outcomes[kind] = ("refused", text.strip().splitlines()[0][:140] if text.strip() else "?")
            return
        warnings = warnings_at(text, source.name)
        rc, gen = run([self.gba, "gen", "--spec", str(work / "spec.yaml"), "--out",
                       str(work / "out"), "--emit", "systemrdl,ipxact"])
        if rc != 0:
            self.silent.append((f"{kind}: gen failed", gen[-300:]))
            self.outcomes[kind] = ("silent", "gen failed")
            return
        try:
            back = regmap(elaborate(next((work / "out").glob("*.rdl"))))
        except RDLCompileError as e:
            self.silent.append((f"{kind}: export not elaborated", str(e)[:200]))
            self.outcomes[kind] = ("silent", "export not elaborated")
            return
        diffs = differences(original, back)
        unnamed = [d for d in diffs
                   if f"{kind}: {d[0]}" in CARRIED or not named(d, warnings)]
        self.named += [(f"{kind}: {d[0]}", f"{d[1]:#x}: {d[2]}") for d in diffs if d not in unnamed]
        # Warnings that name no file and line: a difference one of them names is still a
        # failure (nothing points at the source), in a class of its own.
        unlocated = [(0, l) for l in text.splitlines()
                     if l.startswith("warning:") and not re.search(r":\d+:", l)]
        for cls, address, detail, lines in unnamed:
            if named((cls, address, detail, set()), unlocated):
                cls += " (warned without file and line)"
            self.silent.append((f"{kind}: {cls}", f"{address:#x}: {detail}"))
        self.outcomes[kind] = ("silent" if unnamed else "named" if diffs else "pass",
                               unnamed[0][2] if unnamed else "")


def compiles(source: str) -> bool:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "case.rdl"
        path.write_text(source)
        try:
            elaborate(path)
            return True
        except RDLCompileError:
            return False


REGRESSIONS = ROOT / "tests/fixtures/rdl_fuzz"


def regressions(gba) -> int:
    """Each file of tests/fixtures/rdl_fuzz is a class of failure the fuzzer found, shrunk:
    its first line says `// expect: CLASS, CLASS` (the warning-less differences it shows
    today, each a KNOWN class) or `// expect: nothing silent`. The run fails when a file shows
    a class it does not expect, or when an expected class is gone (then the file's line is
    updated and the class taken out of KNOWN: the fix is proven). `carried` among them
    (`// expect: carried`, `// expect: carried, ipxact: hw`) is stronger than nothing silent:
    the SystemRDL path shows no difference at all (what the file says is carried, not only
    named)."""
    failed = 0
    for path in sorted(REGRESSIONS.glob("*.rdl")):
        first = path.read_text().splitlines()[0]
        expect = set() if "nothing silent" in first else {
            c.strip() for c in first.split("expect:", 1)[1].split(",")}
        carried = "carried" in expect
        expect.discard("carried")
        case = Case(gba, path.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            case.go(Path(tmp))
        got = {c for c, _ in case.silent}
        if carried and case.outcomes.get("rdl", ("?",))[0] != "pass":
            got.add(f"rdl: {case.outcomes.get('rdl', ('no outcome',))[0]}, not carried")
        ok = got == expect
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {path.name}: silent {sorted(got) or 'nothing'}"
              + ("" if ok else f", expected {sorted(expect) or 'nothing'}"))
        if not ok:
            for cls, detail in case.silent:
                print(f"       {cls}: {detail}")
    print(f"rdlfuzz: {len(list(REGRESSIONS.glob('*.rdl'))) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, help="reproduce a run (default: a new seed, printed)")
    parser.add_argument("--gba", default=str(ROOT / "target/debug/gba"))
    parser.add_argument("--strict-known", action="store_true",
                        help="fail on the known classes too (KNOWN)")
    parser.add_argument("--json", help="write every case's outcome here")
    parser.add_argument("--regressions", action="store_true",
                        help="run the named regression files (tests/fixtures/rdl_fuzz) instead")
    args = parser.parse_args()
    if args.regressions:
        sys.exit(regressions(args.gba))
    run_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    print(f"rdl_fuzz: seed {run_seed}, {args.cases} cases (reproduce: python3 "
          f"tests/bench/rdl_fuzz.py --seed {run_seed} --cases {args.cases})", flush=True)
    started = time.time()
    counts = collections.Counter()
    classes = collections.Counter()
    named_classes = collections.Counter()
    examples = {}
    rejected = [0]
    failing = {}

    def fails(case: Case) -> list:
        return [(c, d) for c, d in case.silent if args.strict_known or c not in KNOWN]

    @hseed(run_seed)
    @settings(max_examples=args.cases, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
              report_multiple_bugs=False)
    @given(rdl_source())
    def property_(source):
        from hypothesis import assume
        if not compiles(source):
            rejected[0] += 1
            assume(False)
        case = Case(args.gba, source)
        with tempfile.TemporaryDirectory() as tmp:
            case.go(Path(tmp))
        shrinking = failing.get("source") is not None
        if not shrinking:
            for kind, (outcome, _) in case.outcomes.items():
                counts[f"{kind} {outcome}"] += 1
            for cls in {c for c, _ in case.silent}:
                classes[cls] += 1
            for cls in {c for c, _ in case.named}:
                named_classes[cls] += 1
            for cls, detail in case.silent:
                if cls not in examples or len(source) < len(examples[cls][0]):
                    examples[cls] = (source, detail)
        bad = fails(case)
        if bad:
            failing["source"], failing["bad"] = source, bad
            raise AssertionError(bad)

    try:
        property_()
        status = 0
    except Unsatisfiable:
        print("rdl_fuzz: the generator wrote nothing systemrdl-compiler accepts", file=sys.stderr)
        status = 2
    except AssertionError:
        if "source" not in failing:
            raise
        status = 1
    print(f"rdl_fuzz: {sum(counts.values()) // 2} cases judged, {rejected[0]} generated "
          f"files refused by systemrdl-compiler and discarded, {time.time() - started:.0f} s")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print("named differences (cases): "
          + (", ".join(f"{k} {v}" for k, v in sorted(named_classes.items())) or "none"))
    for cls, n in classes.most_common():
        known = KNOWN.get(cls)
        mark = f"known: {known}" if known else "NOT KNOWN"
        print(f"  silent difference, {cls}: {n} case(s) [{mark}]; e.g. {examples[cls][1]}")
    if status == 1:
        print("\nrdl_fuzz: FAIL: a difference no warning names; the minimal file:\n")
        print(failing["source"])
        for cls, detail in failing["bad"]:
            print(f"  {cls}: {detail}")
        print(f"\nreproduce: python3 tests/bench/rdl_fuzz.py --seed {run_seed} --cases {args.cases}")
    judged = sum(counts.values()) // 2
    print(f"rdlfuzz: {judged - (status == 1)} passed, {int(status != 0)} failed")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "seed": run_seed, "counts": counts, "classes": classes, "named": named_classes,
            "examples": {k: {"source": v[0], "detail": v[1]} for k, v in examples.items()},
        }, indent=1))
    sys.exit(status)


if __name__ == "__main__":
    main()
