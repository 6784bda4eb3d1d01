#!/usr/bin/env python3
"""Elaborates a SystemRDL file with the reference front end, systemrdl-compiler, and prints
the elaborated register map as JSON for `gba import-rdl` (codegen/src/import/rdl.rs reads it;
the shape is `import::tree::Map`).

Usage: elaborate.py FILE.rdl [--top NAME] [--incdir DIR ...]
Exit status 0 with the JSON on stdout; 1 with systemrdl-compiler's messages on stderr when the
file does not compile; 3 when systemrdl-compiler is not installed.
"""

import argparse
import json
import sys

try:
    from systemrdl import RDLCompiler, RDLCompileError
    from systemrdl import node as rdlnode
    from systemrdl import rdltypes
except ImportError:
    print("systemrdl-compiler is not installed: run `python3 -m pip install systemrdl-compiler`",
          file=sys.stderr)
    sys.exit(3)

# Our own user-defined properties (codegen/src/interchange.rs, `udp`).
GBA = {"gba_element", "gba_version", "gba_constants", "gba_size", "gba_alternate_of", "gba_view_of",
       "gba_position", "gba_access", "gba_reset", "gba_implicit", "gba_reset_from",
       "gba_interrupts", "gba_cpu", "gba_nvic_prio_bits", "gba_address", "gba_split_read",
       "gba_onread"}
# Field behaviour the spec format has no place for, reported when set.
# (`singlepulse`, `swwe` and `swwel` are read by `field` below.)
FIELD_BEHAVIOUR = ["counter", "intr",
                   "sticky", "stickybit", "hwclr", "hwset", "paritycheck", "rclr", "rset",
                   "woset", "woclr", "we", "wel", "anded", "ored", "xored", "overflow",
                   "underflow", "incr", "decr", "threshold", "saturate"]
# Hardware-side field properties whose value is a reference or a number, reported when set:
# the RTL that `gba rtl` builds from the spec decides the hardware side uniformly
# (codegen/rdl/regblock.py), so none of these reaches it.
FIELD_HARDWARE = ["resetsignal", "hwmask", "hwenable", "incrvalue", "incrwidth", "decrvalue",
                  "decrwidth", "incrsaturate", "decrsaturate", "incrthreshold", "decrthreshold",
                  "enable", "mask", "haltenable", "haltmask", "dontcompare", "donttest"]
# Properties of registers, register files and maps the spec has no place for, reported when
# set to anything but their default.
NODE_PROPERTIES = ["dontcompare", "donttest", "hdl_path", "hdl_path_gate", "rsvdset",
                   "rsvdsetX", "sharedextbus", "errextbus", "bigendian", "littleendian",
                   "addressing"]


def hardware(node, unsupported):
    """The field's hardware-side properties that are set (see FIELD_HARDWARE)."""
    for prop in FIELD_HARDWARE:
        try:
            value = node.get_property(prop)
        except LookupError:
            continue
        if value in (None, False) or (prop in ("incrvalue", "decrvalue") and value == 1):
            continue
        shown = value.get_path() if hasattr(value, "get_path") else value
        unsupported.append(f"`{prop}` (`{shown}`)" if value is not True else f"`{prop}`")
    if enum_name(node.get_property("precedence")) == "hw":
        unsupported.append("`precedence = hw` (hardware wins a same-cycle write)")
    if node.get_property("intr"):
        kind = enum_name(node.get_property("intr type"))
        if kind not in (None, "level"):
            unsupported.append(f"interrupt modifier `{kind}`")


def text(value):
    return value if isinstance(value, str) else ""


def enum_name(value):
    return value.name if value is not None and hasattr(value, "name") else None


def gba_props(node):
    out = {}
    unsupported = []
    for prop in node.list_properties(include_native=False, include_udp=True):
        value = node.get_property(prop)
        if prop in GBA:
            if prop == "gba_constants":
                value = [{"name": c.name, "value": c.value, "desc": c.desc} for c in value]
            elif prop == "gba_interrupts":
                value = [{"name": i.name, "number": i.value, "desc": i.desc, "block": i.block,
                          "index": i.index, "indexed": i.indexed} for i in value]
            elif prop == "gba_element":
                value = {"array": value.array, "index": value.index, "count": value.count,
                         "stride": value.stride}
            out[prop] = value
        else:
            unsupported.append(f"user-defined property `{prop}`")
    return out, unsupported


def line_of(node):
    ref = node.inst.inst_src_ref or node.inst.def_src_ref
    try:
        return ref.line
    except Exception:
        return None


def lock(node, unsupported):
    """The field's write lock (`swwel`/`swwe`) when it references a field of a register
    beside the field's own register: {"property", "register", "field"}; anything else (a
    hardware signal, a bit elsewhere) is reported as not carried."""
    found = None
    for prop in ("swwel", "swwe"):
        value = node.get_property(prop)
        if value is False or value is None:
            continue
        if found is not None:
            unsupported.append("both `swwel` and `swwe`")
            return None
        if not isinstance(value, rdlnode.FieldNode):
            unsupported.append(f"`{prop}` from a hardware signal, not a register's bit")
            continue
        holder = value.parent
        if holder.parent.inst is not node.parent.parent.inst:
            unsupported.append(f"`{prop}` by `{value.get_path()}`, a bit outside this "
                               "register's block or register file")
            continue
        found = {"property": prop, "register": holder.inst_name, "field": value.inst_name}
    return found


def field(node):
    gba, unsupported = gba_props(node)
    locked = lock(node, unsupported)
    hardware(node, unsupported)
    for prop in FIELD_BEHAVIOUR:
        try:
            value = node.get_property(prop)
        except LookupError:
            continue
        # Booleans, and references or numbers (`incr = <signal>`, `threshold = 4`).
        if value is not None and value is not False:
            # rclr/woclr/woset as booleans are SystemRDL 1.0 spellings of onread/onwrite,
            # which systemrdl-compiler already folds in; they are read below.
            if prop not in ("rclr", "rset", "woset", "woclr"):
                unsupported.append(f"`{prop}`")
    reset = node.get_property("reset")
    # A reset from a signal is a value from outside the register block, fixed per instance
    # of the device: a strap. The element's index is our own property (see interchange.rs).
    reset_from = gba.get("gba_reset_from")
    if isinstance(reset, rdlnode.SignalNode):
        reset_from = "strap"
        reset = None
    elif reset is not None and not isinstance(reset, int):
        unsupported.append("a reset value that is a reference to a field, not a number or "
                           "a signal")
        reset = None
    if reset is None and reset_from is None:
        # No `reset`: the flop is not reset (not a reset of 0).
        reset_from = "none"
    encode = node.get_property("encode")
    values = []
    if encode is not None:
        values = [{"name": m.name, "value": m.value, "desc": text(m.rdl_desc)} for m in encode]
    return {
        "name": node.inst_name,
        "desc": text(node.get_property("desc")),
        "lsb": node.low,
        "msb": node.high,
        # msb0 (`TOP[0:3]`, elaborated `msb` 0, `lsb` 3): register bit `low` holds the
        # value's most significant bit. Carried (`bit_order: msb0`).
        "msb0": node.msb < node.lsb,
        "sw": enum_name(node.get_property("sw")),
        "onread": enum_name(node.get_property("onread")),
        "gba_onread": gba.get("gba_onread"),
        "onwrite": enum_name(node.get_property("onwrite")),
        "reset": reset,
        "reset_from": reset_from,
        "singlepulse": bool(node.get_property("singlepulse")),
        "lock": locked,
        "values": values,
        "gba_access": gba.get("gba_access"),
        "implicit": bool(gba.get("gba_implicit")),
        "position": gba.get("gba_position"),
        # Carried (`hardware: access` in the spec) where the file assigns it, to the field or
        # by `default`: left unsaid, SystemRDL's `rw` is the spec's absent access.
        "hw": enum_name(node.get_property("hw")) if "hw" in node.inst.properties else None,
        # Carried too (`hardware: { swmod, swacc }`): strobes to hardware.
        "swmod": bool(node.get_property("swmod")),
        "swacc": bool(node.get_property("swacc")),
        "unsupported": unsupported,
        "line": line_of(node),
    }


def addressable(node):
    gba, unsupported = gba_props(node)
    kind = {rdlnode.AddrmapNode: "map", rdlnode.RegfileNode: "regfile",
            rdlnode.RegNode: "reg", rdlnode.MemNode: "mem"}[type(node)]
    out = {
        "kind": kind,
        "name": node.inst_name,
        "desc": text(node.get_property("desc")),
        "offset": node.raw_address_offset,
        "dims": list(node.array_dimensions or []),
        "stride": node.array_stride or 0,
        "size": node.size,
        "gba": gba,
        "unsupported": unsupported,
        "line": line_of(node),
        "children": [],
        "fields": [],
        "width": 0,
    }
    # Address maps and memories are external by definition (a block, a memory); a register is
    # when the source says so, of it or of a register file holding it (systemrdl-compiler
    # marks each register): carried (`hardware: external` in the spec).
    if kind == "reg":
        out["external"] = bool(node.external)
    for prop in NODE_PROPERTIES:
        try:
            value = node.get_property(prop)
        except LookupError:
            continue
        default = "regalign" if prop == "addressing" else None
        if value not in (None, False) and enum_name(value) != default:
            unsupported.append(f"`{prop}` (`{enum_name(value) or value}`)")
    if kind == "reg":
        out["width"] = node.get_property("regwidth")
        # Carried (`Register::access_width`): the outputs split each access into pieces.
        accesswidth = node.get_property("accesswidth")
        if accesswidth < out["width"]:
            out["accesswidth"] = accesswidth
        if node.is_alias:
            out["unsupported"].append(f"an alias of `{node.alias_primary.inst_name}`")
        out["fields"] = [field(f) for f in node.fields()]
    elif kind != "mem":
        out["children"] = [addressable(c) for c in node.children(unroll=False)
                           if isinstance(c, rdlnode.AddressableNode)]
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--top")
    parser.add_argument("--incdir", action="append", default=[])
    args = parser.parse_args()
    # Descriptions exactly as written (the spec keeps its indentation); not dedented.
    compiler = RDLCompiler(dedent_desc=False)
    try:
        compiler.compile_file(args.file, incl_search_paths=args.incdir)
        root = compiler.elaborate(top_def_name=args.top)
    except RDLCompileError:
        sys.exit(1)
    top = addressable(root.top)
    top["name"] = root.top.type_name or root.top.inst_name
    json.dump(top, sys.stdout)


if __name__ == "__main__":
    main()
