"""The register block's RTL from a spec's SystemRDL: PeakRDL-regblock with an APB4 CPU
interface, and a wrapper with flat ports.

Run by `gba rtl` (from standard input): python3 - SPEC.rdl OUTDIR NAME. Writes into OUTDIR,
with NAME the device's name in lower case:
  <name>_regs.sv, <name>_regs_pkg.sv   PeakRDL-regblock's module and package
  <name>_regs_hwif.rpt                  its report of the hardware interface
  <name>_rtl.sv                         the wrapper: flat ports (Verilator 5.006 cannot take
                                        the struct ports as top), hardware writes by index
  <name>_hwif.tsv                       index, field path, width of each hardware write
  <name>_straps.tsv                     index, port, field path, width of each strap input
  <name>_hwout.tsv                      index, kind, field path, signal, width of each output
                                        to hardware the wrapper shows (hwif_out)
  <name>_external.tsv                   index, register path, width of each external register
  regblock_input.rdl                    the SystemRDL as regblock elaborated it

Exit status 3: a package is missing (the message names it); 1: regblock refused the map.

What the spec does not say about the hardware side is decided here, uniformly (a field's
hardware access the spec states, `hardware: { access }`, is kept: `stated_hardware_side`):
  - a field software can write is read by hardware (hw = r); a field of a write-only
    register also tells hardware that software wrote it (swmod), a doorbell's strobe;
  - a field software can only read, or one software clears (woclr, rclr), is written by
    hardware, with a write enable (hw = w, we), so that it keeps its reset value until
    hardware writes it;
  - a register wider than 32 bits is accessed in 32-bit halves (APB4's widest data bus),
    low half first: reading the low half latches the whole register (buffer_reads) and
    writing the high half commits the whole register (buffer_writes), so that a 64-bit
    access is atomic;
  - the spec's blocks become regfiles: regblock treats a nested addrmap as an external
    block with its own bus, while a regfile has the same layout inside this block;
  - a strapped field (`reset = <signal>`) resets from an input of the wrapper,
    `strap_<BLOCK>_<REGISTER>_<FIELD>` (the unrolled names), which the instantiating design
    drives: the field takes the input's value at reset;
  - its structures are packed (see below), which needs the map without arrays: `gba rtl`
    unrolls them before this script sees the map.

An `external` register (the spec's `hardware: external`) is the exception: regblock decodes
its address and routes each access to an interface of its own (hwif_out: req, req_is_wr,
wr_data, wr_biten; hwif_in: rd_ack, rd_data, wr_ack), and the logic behind it is the
instantiating design's. The wrapper stands in for that logic (`external_stand_ins`): it stores the
bits software can write, resets to the spec's reset and acknowledges each access one cycle
later, so that `gba verify` can check the routing of the register's accesses. Its fields get
no hardware side here: their behaviour is the external logic's.
"""

import os
import re
import sys

try:
    from systemrdl import RDLCompiler, RDLCompileError
    from systemrdl.node import FieldNode, RegNode, SignalNode
    from systemrdl.rdltypes import AccessType, OnReadType, OnWriteType
    from peakrdl_regblock import RegblockExporter
    from peakrdl_regblock.cpuif.apb4 import APB4_Cpuif_flattened
    from peakrdl_regblock.udps import ALL_UDPS
    from peakrdl_regblock.identifier_filter import kw_filter
except ImportError as e:
    print(f"{e.name or e}: run `python3 -m pip install peakrdl-regblock systemrdl-compiler`",
          file=sys.stderr)
    sys.exit(3)


def regblock_source(text):
    """The exported SystemRDL with the spec's blocks as regfiles (see the module's doc)."""
    if re.search(r"^addrmap\s+\w+\s*\{", text, flags=re.M) is None or "bridge" in text:
        raise ValueError("the register block is made of one address map; a spec with "
                         "alternate blocks (a SystemRDL bridge) has none")
    # User-defined properties that the blocks carry must be allowed on a regfile too.
    text = re.sub(r"component = ([a-z |]*)addrmap", r"component = \1addrmap | regfile", text)
    return re.sub(r"^(\s+)addrmap \{", r"\1regfile {", text, flags=re.M)


def decide_hardware_side(top):
    seen = set()
    for node in top.descendants():
        if id(node.inst) in seen:
            continue
        seen.add(id(node.inst))
        if is_external(node):
            # The external logic decides its hardware side (see the module's doc); only the
            # bus's access width applies.
            if isinstance(node, RegNode):
                node.inst.properties["accesswidth"] = min(32, node.get_property("accesswidth"))
            continue
        if isinstance(node, RegNode) and (
                node.get_property("regwidth") > 32
                or node.get_property("accesswidth") < node.get_property("regwidth")):
            # A 32-bit bus; a narrower `access_width` of the spec is kept as it is (regblock
            # refuses, by name, one that differs from the bus width).
            node.inst.properties["accesswidth"] = min(32, node.get_property("accesswidth"))
            if node.has_sw_writable:
                node.inst.properties["buffer_writes"] = True
            if node.has_sw_readable:
                node.inst.properties["buffer_reads"] = True
        elif isinstance(node, FieldNode) and "hw" in node.inst.properties:
            stated_hardware_side(node)
        elif isinstance(node, FieldNode):
            status = (node.get_property("onwrite") in (OnWriteType.woclr, OnWriteType.wzc)
                      or node.get_property("onread") == OnReadType.rclr)
            if node.is_sw_writable and not status:
                node.inst.properties["hw"] = AccessType.r
                if not node.parent.has_sw_readable:
                    node.inst.properties["swmod"] = True
            else:
                node.inst.properties["hw"] = AccessType.w
                node.inst.properties["we"] = True


def stated_hardware_side(node):
    """A field whose hardware access the spec states (`hardware: { access }`, the exported
    SystemRDL's `hw`): kept, with what the uniform rule would add to it: a field hardware
    writes has a write enable (it keeps its value until hardware writes it), and a field of
    a write-only register that hardware reads has its doorbell strobe (swmod)."""
    hw = node.get_property("hw")
    if hw in (AccessType.w, AccessType.rw):
        node.inst.properties["we"] = True
    if hw == AccessType.r and node.is_sw_writable and not node.parent.has_sw_readable:
        node.inst.properties["swmod"] = True


def sv_path(node, top):
    """hwif_in's member path of an unrolled field: global_.DEVICE_ID.ID, group[3].STATUS.READY."""
    parts = []
    while node is not top:
        name = kw_filter(node.inst_name)
        if getattr(node, "is_array", False) and node.current_idx is not None:
            name += "".join(f"[{i}]" for i in node.current_idx)
        parts.append(name)
        node = node.parent
    return ".".join(reversed(parts))


def spec_path(node, top):
    """The same path in the spec's names (global.DEVICE_ID.ID)."""
    parts = []
    while node is not top:
        name = node.inst_name
        if getattr(node, "is_array", False) and node.current_idx is not None:
            name += "".join(f"[{i}]" for i in node.current_idx)
        parts.append(name)
        node = node.parent
    return ".".join(reversed(parts))


def strap_port(field_path):
    """The wrapper's input for a strapped field (regs.IDS_0.STRAP): strap_regs_IDS_0_STRAP."""
    return "strap_" + field_path.replace(".", "_")


def hardware_outputs(top):
    """The block's outputs to hardware (hwif_out), as (hwif_out member, field path, signal,
    width, kind): a field's value where hardware reads it, and its strobes (swmod, swacc).
    kind is "pulse" for a strobe and for a single pulse's value (high for one cycle), which
    the wrapper counts; "value" for a level, which it shows as it is."""
    out = []
    for node in top.descendants(unroll=True):
        if not isinstance(node, FieldNode) or is_external(node):
            continue
        member, path = sv_path(node, top), spec_path(node, top)
        if node.is_hw_readable:
            kind = "pulse" if node.get_property("singlepulse") else "value"
            out.append((f"{member}.value", path, "value", node.width, kind))
        for strobe in ("swmod", "swacc"):
            if node.get_property(strobe):
                out.append((f"{member}.{strobe}", path, strobe, 1, "pulse"))
    return out


def is_external(node):
    """True for an external register or a field of one (systemrdl-compiler marks each
    register of an external register file external too)."""
    if isinstance(node, FieldNode):
        node = node.parent
    return isinstance(node, RegNode) and bool(node.external)


class External:
    """An external register as the wrapper's stand-in sees it (unrolled)."""

    def __init__(self, node, top):
        self.member = sv_path(node, top)
        self.path = spec_path(node, top)
        self.width = node.get_property("regwidth")
        self.word = node.get_property("accesswidth")
        self.reset = 0
        self.writable = 0
        self.readable = 0
        for f in node.fields():
            mask = ((1 << f.width) - 1) << f.low
            reset = f.get_property("reset")
            if isinstance(reset, int):
                self.reset |= (reset << f.low) & mask
            if f.is_sw_writable:
                self.writable |= mask
            if f.is_sw_readable:
                self.readable |= mask


def external_registers(top):
    return [External(node, top) for node in top.descendants(unroll=True)
            if isinstance(node, RegNode) and node.external]


def external_stand_ins(externals):
    """The wrapper's stand-in for each external register's logic: storage of the bits
    software can write, reset to the spec's reset; each request acknowledged the next cycle,
    a read returning the readable bits of the requested word. A register of several words
    (req is one bit per word) stores each word alone."""
    out = []
    for index, reg in enumerate(externals):
        words, w = reg.width // reg.word, reg.word
        name, hw = f"ext_{index}", reg.member
        out += [f"    // External register {reg.path}: a stand-in for the logic outside the block.",
                f"    logic [{reg.width - 1}:0] {name};",
                f"    logic {name}_rd_ack, {name}_wr_ack;",
                f"    logic [{w - 1}:0] {name}_rd_data;",
                "    always_ff @(posedge clk) begin",
                "        if (rst) begin",
                f"            {name} <= {reg.width}'h{reg.reset:x};",
                f"            {name}_rd_ack <= 1'b0;",
                f"            {name}_wr_ack <= 1'b0;",
                f"            {name}_rd_data <= '0;",
                "        end else begin",
                f"            {name}_rd_ack <= 1'b0;",
                f"            {name}_wr_ack <= 1'b0;"]
        for k in range(words):
            req = f"hwif_out.{hw}.req" + (f"[{k}]" if words > 1 else "")
            part = f"{name}[{(k + 1) * w - 1}:{k * w}]"
            mask = (reg.writable >> (k * w)) & ((1 << w) - 1)
            rmask = (reg.readable >> (k * w)) & ((1 << w) - 1)
            out += [f"            if ({req} && hwif_out.{hw}.req_is_wr) begin",
                    f"                {part} <= ({part} & ~({w}'h{mask:x} & hwif_out.{hw}.wr_biten))"
                    f" | (hwif_out.{hw}.wr_data & hwif_out.{hw}.wr_biten & {w}'h{mask:x});",
                    f"                {name}_wr_ack <= 1'b1;",
                    f"            end else if ({req}) begin",
                    f"                {name}_rd_data <= {part} & {w}'h{rmask:x};",
                    f"                {name}_rd_ack <= 1'b1;",
                    "            end"]
        out += ["        end", "    end", ""]
    return out


def external_inputs(externals):
    """The stand-ins' answers, in the wrapper's one process that drives hwif_in."""
    out = []
    for index, reg in enumerate(externals):
        for signal in ("rd_ack", "rd_data", "wr_ack"):
            out.append(f"        hwif_in.{reg.member}.{signal} = ext_{index}_{signal};")
    return out


def selector(count):
    return max(1, (count - 1).bit_length())


def outputs_logic(outputs):
    """The wrapper's view of hwif_out for the harness: out_sel shows a level on out_value;
    each pulse has a counter of the cycles it was high (saturating), cleared by pulse_clear,
    which pulse_sel shows on pulse_count."""
    values = [o for o in outputs if o[4] == "value"]
    pulses = [o for o in outputs if o[4] == "pulse"]
    vsel, psel = selector(len(values)), selector(len(pulses))
    out = ["    always_comb begin", "        out_value = '0;", "        case (out_sel)"]
    for index, (member, _, _, width, _) in enumerate(values):
        out.append(f"            {vsel}'d{index}: out_value[{width - 1}:0] = hwif_out.{member};")
    out += ["            default: ;", "        endcase", "    end", ""]
    for index, _ in enumerate(pulses):
        out.append(f"    logic [15:0] pulse_{index};")
    out += ["    always_ff @(posedge clk) begin", "        if (pulse_clear) begin"]
    for index, _ in enumerate(pulses):
        out.append(f"            pulse_{index} <= '0;")
    out.append("        end else begin")
    for index, (member, _, _, _, _) in enumerate(pulses):
        out.append(f"            if (|hwif_out.{member} && pulse_{index} != '1) "
                   f"pulse_{index} <= pulse_{index} + 16'd1;")
    out += ["        end", "    end", "    always_comb begin", "        pulse_count = '0;",
            "        case (pulse_sel)"]
    for index, _ in enumerate(pulses):
        out.append(f"            {psel}'d{index}: pulse_count = pulse_{index};")
    out += ["            default: ;", "        endcase", "    end", ""]
    return out


def wrapper(name, top, hw_fields, straps, outputs, addr_width, externals, hwif):
    """`hwif`: which of regblock's hardware interfaces exist ("in", "out"): it leaves out a
    structure with no member (a block no field of which hardware writes has no hwif_in)."""
    regs = f"{name}_regs"
    pkg = f"{regs}_pkg"
    sel_width = max(1, (len(hw_fields) - 1).bit_length())
    values = sum(1 for o in outputs if o[4] == "value")
    pulses = len(outputs) - values
    out = [
        f"// The register block {regs} with flat ports: APB4, and hardware writes by index",
        f"// ({name}_hwif.tsv lists them). Generated by `gba rtl`; do not edit.",
        f"module {name}_rtl (",
        "    input wire clk,",
        "    input wire rst,",
        "    input wire s_apb_psel,",
        "    input wire s_apb_penable,",
        "    input wire s_apb_pwrite,",
        "    input wire [2:0] s_apb_pprot,",
        f"    input wire [{addr_width - 1}:0] s_apb_paddr,",
        "    input wire [31:0] s_apb_pwdata,",
        "    input wire [3:0] s_apb_pstrb,",
        "    output logic s_apb_pready,",
        "    output logic [31:0] s_apb_prdata,",
        "    output logic s_apb_pslverr,",
        "    // One hardware write per cycle: the field hw_sel takes hw_next while hw_we is 1.",
        f"    input wire [{sel_width - 1}:0] hw_sel,",
        "    input wire [63:0] hw_next,",
        "    input wire hw_we,",
        f"    // The outputs to hardware ({name}_hwout.tsv): out_sel shows a level, pulse_sel",
        "    // the cycles a pulse was high since pulse_clear.",
        f"    input wire [{selector(values) - 1}:0] out_sel,",
        "    output logic [63:0] out_value,",
        f"    input wire [{selector(pulses) - 1}:0] pulse_sel,",
        "    output logic [15:0] pulse_count,",
        "    input wire pulse_clear" + ("," if straps else ""),
    ]
    if straps:
        out.append("    // Straps: each strapped field takes its input's value at reset.")
    for i, (_, port, _, width) in enumerate(straps):
        comma = "," if i + 1 < len(straps) else ""
        out.append(f"    input wire [{width - 1}:0] {port}{comma}")
    out.append(");")
    out += [f"    {pkg}::{top.type_name}__{d}_t hwif_{d};" for d in ("in", "out") if d in hwif]
    out += [
        "",
        "    always_comb begin",
    ]
    # A strapped field resets from a signal (`reset: strap`): the wrapper's input.
    for signal, port, _, _ in straps:
        out.append(f"        hwif_in.{signal} = {port};")
    out += external_inputs(externals)
    for path, _, width in hw_fields:
        out.append(f"        hwif_in.{path}.next = '0;")
        out.append(f"        hwif_in.{path}.we = 1'b0;")
    out.append("        case (hw_sel)")
    for index, (path, _, width) in enumerate(hw_fields):
        out.append(f"            {sel_width}'d{index}: begin")
        out.append(f"                hwif_in.{path}.next = hw_next[{width - 1}:0];")
        out.append(f"                hwif_in.{path}.we = hw_we;")
        out.append("            end")
    out += [
        "            default: ;",
        "        endcase",
        "    end",
        "",
    ]
    out += outputs_logic(outputs)
    out += external_stand_ins(externals)
    out += [
        f"    {regs} regs (",
        "        .clk, .rst,",
        "        .s_apb_psel, .s_apb_penable, .s_apb_pwrite, .s_apb_pprot, .s_apb_paddr,",
        "        .s_apb_pwdata, .s_apb_pstrb, .s_apb_pready, .s_apb_prdata, .s_apb_pslverr"
        + ("," if hwif else ""),
        "        " + ", ".join(f".hwif_{d}" for d in ("in", "out") if d in hwif),
        "    );",
        "endmodule",
        "",
    ]
    return "\n".join(out)


def main():
    rdl, out, name = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    with open(rdl, encoding="utf-8") as f:
        try:
            text = regblock_source(f.read())
        except ValueError as e:
            print(f"{rdl}: {e}", file=sys.stderr)
            return 1
    source = os.path.join(out, "regblock_input.rdl")
    with open(source, "w", encoding="utf-8") as f:
        f.write(text)
    rdlc = RDLCompiler()
    for udp in ALL_UDPS:
        rdlc.register_udp(udp)
    try:
        rdlc.compile_file(source)
        top = rdlc.elaborate().top
        decide_hardware_side(top)
        exporter = RegblockExporter()
        exporter.export(top, out, cpuif_cls=APB4_Cpuif_flattened, module_name=f"{name}_regs",
                        package_name=f"{name}_regs_pkg", generate_hwif_report=True)
    except RDLCompileError:
        # systemrdl-compiler has printed the reasons on stderr.
        return 1
    # Verilator 5.006 writes C++ that does not compile for a bit-select of an unpacked
    # structure's member (regblock's strobes of wide registers); with no arrays left every
    # structure can be packed, which Verilator handles fully.
    for sv in (f"{name}_regs.sv", f"{name}_regs_pkg.sv"):
        path = os.path.join(out, sv)
        with open(path, encoding="utf-8") as f:
            code = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(code.replace("struct {", "struct packed {"))
    hw_fields = [
        (sv_path(node, top), spec_path(node, top), node.width)
        for node in top.descendants(unroll=True)
        if isinstance(node, FieldNode) and node.get_property("we")
    ]
    if len(hw_fields) == 0:
        # The wrapper's selector needs one entry; a map with no hardware-written field has
        # nothing to drive.
        print(f"{rdl}: no field is written by hardware", file=sys.stderr)
    # (hwif_in member, wrapper port, field path, width); the signal is named
    # gba_strap_<FIELD> in the field's register (codegen's udp::STRAP_PREFIX).
    straps = []
    for node in top.descendants(unroll=True):
        if isinstance(node, SignalNode):
            path = spec_path(node, top)
            register, _, signal = path.rpartition(".")
            field = f"{register}.{signal.removeprefix('gba_strap_')}"
            straps.append((sv_path(node, top), strap_port(field), field, node.width))
    addr_width = exporter.cpuif.addr_width
    outputs = hardware_outputs(top)
    externals = external_registers(top)
    with open(os.path.join(out, f"{name}_regs_pkg.sv"), encoding="utf-8") as f:
        package = f.read()
    hwif = {d for d in ("in", "out") if f"}} {top.type_name}__{d}_t;" in package}
    with open(os.path.join(out, f"{name}_rtl.sv"), "w", encoding="utf-8") as f:
        f.write(wrapper(name, top, hw_fields, straps, outputs, addr_width, externals, hwif))
    with open(os.path.join(out, f"{name}_external.tsv"), "w", encoding="utf-8") as f:
        f.write(f"# index\tregister\twidth (external registers of {name}_rtl, each with a "
                "stand-in in the wrapper)\n")
        for index, reg in enumerate(externals):
            f.write(f"{index}\t{reg.path}\t{reg.width}\n")
    with open(os.path.join(out, f"{name}_hwif.tsv"), "w", encoding="utf-8") as f:
        f.write(f"# index\tfield\twidth (hardware writes of {name}_rtl: hw_sel, hw_next, hw_we)\n")
        for index, (_, path, width) in enumerate(hw_fields):
            f.write(f"{index}\t{path}\t{width}\n")
    with open(os.path.join(out, f"{name}_straps.tsv"), "w", encoding="utf-8") as f:
        f.write(f"# index\tport\tfield\twidth (strap inputs of {name}_rtl)\n")
        for index, (_, port, field, width) in enumerate(straps):
            f.write(f"{index}\t{port}\t{field}\t{width}\n")
    with open(os.path.join(out, f"{name}_hwout.tsv"), "w", encoding="utf-8") as f:
        f.write(f"# index\tkind\tfield\tsignal\twidth (outputs to hardware of {name}_rtl: "
                "out_sel/out_value for a value, pulse_sel/pulse_count for a pulse)\n")
        for kind in ("value", "pulse"):
            rows = [o for o in outputs if o[4] == kind]
            for index, (_, path, signal, width, _) in enumerate(rows):
                f.write(f"{index}\t{kind}\t{path}\t{signal}\t{width}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
