//! Issue 38's silent changes, one named test per class, each from a small file written the
//! way a SoC team writes it: what a hardware description says comes back out of every output,
//! or the importer names what it cannot carry, at the input's line.
//!
//! - "No reset" is a value of the spec (`reset: none`): a status or data field without
//!   `reset` (SystemRDL), without `<resets>` (IP-XACT), outside `<resetMask>` (SVD) comes
//!   back without a reset from every export, and the C, Rust and docs say so. The reference
//!   front ends judge the meaning: systemrdl-compiler elaborates our SystemRDL export, and
//!   peakrdl-ipxact reads our IP-XACT export, each finding no reset on the field.
//! - IP-XACT numbers are expressions (1685-2014): evaluated over the component's parameters
//!   with overrides, in both the `ipxact:` and the `spirit:` (1685-2009) forms, or the file is
//!   refused naming the expression and its line; never read as 0.
//!
//! The Python front ends come from `tests/install.sh`; without them a test that needs them
//! says so and passes only outside CI (under `CI=true` it fails).

mod common;
use common::{python_has, scratch};

use gba_codegen::emit::{self, Provenance};
use gba_codegen::import::{ipxact as ipxact_import, rdl, svd};
use gba_codegen::model::{Device, Field, ResetFrom};
use gba_codegen::{parse_str, write_spec};

fn provenance() -> Provenance {
    Provenance {
        spec: "timer.yaml".into(),
        command: "gba gen".into(),
    }
}

fn field<'d>(device: &'d Device, register: &str, name: &str) -> &'d Field {
    device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .find(|r| *r.name == register)
        .unwrap_or_else(|| panic!("no register {register}"))
        .fields
        .iter()
        .find(|f| *f.name == name)
        .unwrap_or_else(|| panic!("no field {register}.{name}"))
}

fn reset_from(device: &Device, register: &str, name: &str) -> Option<ResetFrom> {
    field(device, register, name).reset_from.map(|r| *r)
}

/// A timer as a SoC team writes it in SystemRDL: a control register with resets, a counter
/// that hardware writes and nothing resets, a compare value software sets before enabling.
const TIMER_RDL: &str = r#"
addrmap timer_block {
    name = "Timer";
    default regwidth = 32;
    default sw = rw;
    default hw = r;
    reg {
        desc = "Control.";
        field { desc = "Counts while 1."; } ENABLE[0:0] = 0;
        field { desc = "Clock divider minus one."; } PRESCALE[15:8] = 0x3;
    } CTRL @ 0x0;
    reg {
        desc = "The running count.";
        field { sw = r; hw = w; desc = "Current count."; } COUNT[31:0];
    } VALUE @ 0x4;
    reg {
        desc = "Match value; software writes it before setting ENABLE.";
        field { desc = "Compared with COUNT."; } TARGET[31:0];
    } COMPARE @ 0x8;
};

addrmap soc {
    timer_block timer0 @ 0x4000;
};
"#;

/// The reset of `timer`'s fields as systemrdl-compiler elaborates `file` (SystemRDL, or
/// IP-XACT through peakrdl-ipxact): one `REG.FIELD=value|None` line each.
fn reference_resets(file: &std::path::Path, ipxact: bool) -> Vec<String> {
    let script = r#"
import sys
from systemrdl import RDLCompiler, node
compiler = RDLCompiler()
path, kind = sys.argv[1], sys.argv[2]
if kind == "ipxact":
    from peakrdl_ipxact import IPXACTImporter
    IPXACTImporter(compiler).import_file(path)
else:
    compiler.compile_file(path)
root = compiler.elaborate()
for f in root.descendants(unroll=True):
    if isinstance(f, node.FieldNode):
        print(f"{f.parent.inst_name}.{f.inst_name}={f.get_property('reset')}")
"#;
    let kind = if ipxact { "ipxact" } else { "rdl" };
    common::reference_lines(script, &[file.as_os_str(), kind.as_ref()])
}

#[test]
fn a_systemrdl_field_without_reset_is_not_reset_in_every_output() {
    if !python_has("systemrdl, peakrdl_ipxact") {
        return;
    }
    let dir = scratch("silent-noreset");
    let source = dir.path().join("timer.rdl");
    std::fs::write(&source, TIMER_RDL).unwrap();
    // The resets are carried as they are, and so is the hardware side's access (`default
    // hw = r`, `hw = w`: the spec's `hardware: { access }`, tests/hardware_side.rs): nothing
    // to warn about, so `--strict` imports it.
    let imported = rdl::import(&source, true).expect("imports strictly");
    assert!(imported.warnings.is_empty(), "{:#?}", imported.warnings);
    let device = &imported.device;
    assert_eq!(
        reset_from(device, "VALUE", "COUNT"),
        Some(ResetFrom::NotReset)
    );
    assert_eq!(
        reset_from(device, "COMPARE", "TARGET"),
        Some(ResetFrom::NotReset)
    );
    assert_eq!(reset_from(device, "CTRL", "PRESCALE"), None);
    // The spec says it, and reads back the same.
    let text = write_spec(device, "h");
    assert!(text.contains("reset: none"), "{text}");
    let validated = parse_str(&text).expect("the written spec validates");
    assert_eq!(*validated, *device);

    // The reference front end reads our exports as the source says: no reset on the
    // counter and the match value, 3 on the divider.
    let want = [
        "CTRL.ENABLE=0",
        "CTRL.PRESCALE=3",
        "VALUE.COUNT=None",
        "COMPARE.TARGET=None",
    ];
    assert_eq!(reference_resets(&source, false), want, "the source itself");
    let rdl_out = dir.path().join("out.rdl");
    std::fs::write(&rdl_out, emit::render_systemrdl(&validated, &provenance())).unwrap();
    assert_eq!(reference_resets(&rdl_out, false), want, "our SystemRDL");
    let xml_out = dir.path().join("out.xml");
    let xml = emit::render_ipxact(&validated, &provenance());
    std::fs::write(&xml_out, &xml).unwrap();
    assert_eq!(reference_resets(&xml_out, true), want, "our IP-XACT");
    // ... and our own importers read them back unchanged.
    let back = ipxact_import::from_str(&xml, true).expect("imports strictly");
    assert_eq!(back.device, *device);

    // Software outputs: the reset constant comes with the mask of the bits it states.
    let files = emit::all(&validated, &provenance()).expect("emits");
    let contents = |suffix: &str| {
        files
            .iter()
            .filter(|f| f.path.ends_with(suffix))
            .map(|f| f.contents.clone())
            .collect::<String>()
    };
    let header = contents(".h");
    assert!(
        header.contains("#define SOC_TIMER0_VALUE_RESET_FIXED_MASK 0x0U"),
        "{header}"
    );
    assert!(
        header.contains("#define SOC_TIMER0_CTRL_RESET_VALUE 0x300U")
            && !header.contains("SOC_TIMER0_CTRL_RESET_FIXED_MASK"),
        "a register whose fields are all reset keeps its one constant:\n{header}"
    );
    assert!(header.contains("`COUNT` is not reset"), "{header}");
    let rust = contents(".rs");
    let masks = rust
        .split("pub mod reset_mask {")
        .nth(1)
        .and_then(|rest| rest.split('}').next())
        .unwrap_or_else(|| panic!("no reset_mask module:\n{rust}"));
    assert!(masks.contains("pub const VALUE: u32 = 0x0;"), "{masks}");
    assert!(masks.contains("pub const COMPARE: u32 = 0x0;"), "{masks}");
    assert!(!masks.contains("CTRL"), "{masks}");
    let docs = contents(".md");
    assert!(docs.contains("not reset"), "{docs}");
    // SVD: the bits are out of resetMask, and the import reads them back as not reset.
    let svd_text = contents(".svd");
    assert!(
        svd_text.contains("<resetMask>0x00000000</resetMask>"),
        "{svd_text}"
    );
    let from_svd = svd::from_str(&svd_text).expect("imports");
    assert_eq!(
        reset_from(&from_svd.device, "VALUE", "COUNT"),
        Some(ResetFrom::NotReset)
    );
    assert_eq!(reset_from(&from_svd.device, "CTRL", "PRESCALE"), None);
}

/// A vendor SVD's `resetMask` is the statement: a whole field outside it is not reset; a
/// mask that cuts a field cannot be said (the spec resets whole fields) and is warned about.
#[test]
fn svd_bits_outside_reset_mask_are_not_reset() {
    let xml = r#"<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3">
  <name>soc</name><version>1</version><description>d</description>
  <addressUnitBits>8</addressUnitBits><width>32</width><size>32</size>
  <access>read-write</access><resetValue>0</resetValue><resetMask>0xFFFFFFFF</resetMask>
  <peripherals><peripheral><name>ADC</name><baseAddress>0x40000000</baseAddress>
    <addressBlock><offset>0</offset><size>0x10</size><usage>registers</usage></addressBlock>
    <registers>
      <register><name>DR</name><addressOffset>0x0</addressOffset>
        <resetValue>0x00000000</resetValue><resetMask>0xFFFF0000</resetMask>
        <fields>
          <field><name>DATA</name><bitRange>[15:0]</bitRange><access>read-only</access></field>
          <field><name>CH</name><bitRange>[20:16]</bitRange></field>
        </fields>
      </register>
      <register><name>CAL</name><addressOffset>0x4</addressOffset>
        <resetValue>0x00000012</resetValue><resetMask>0x0000000F</resetMask>
        <fields><field><name>OFFSET</name><bitRange>[7:0]</bitRange></field></fields>
      </register>
    </registers>
  </peripheral></peripherals>
</device>"#;
    let imported = svd::from_str(xml).expect("imports");
    assert_eq!(
        reset_from(&imported.device, "DR", "DATA"),
        Some(ResetFrom::NotReset)
    );
    assert_eq!(reset_from(&imported.device, "DR", "CH"), None);
    assert_eq!(reset_from(&imported.device, "CAL", "OFFSET"), None);
    let warnings: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("CAL") && w.contains("bits 0xf0 not reset")),
        "{warnings:#?}"
    );
    assert!(!warnings.iter().any(|w| w.contains("DR")), "{warnings:#?}");
}

/// A Kactus2-style 1685-2014 component: parameters referenced by id, SystemVerilog literals
/// and operators in every number the map has, a field without `<resets>`.
const PARAMETRISED: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ipxact:component xmlns:ipxact="http://www.accellera.org/XMLSchema/IPXACT/1685-2014">
  <ipxact:vendor>soc.example</ipxact:vendor>
  <ipxact:library>ip</ipxact:library>
  <ipxact:name>gpio</ipxact:name>
  <ipxact:version>1.0</ipxact:version>
  <ipxact:memoryMaps>
    <ipxact:memoryMap>
      <ipxact:name>regs</ipxact:name>
      <ipxact:addressBlock>
        <ipxact:name>gpio</ipxact:name>
        <ipxact:baseAddress>uuid_base + 'h10</ipxact:baseAddress>
        <ipxact:range>4 * uuid_ports + 'h10</ipxact:range>
        <ipxact:width>DATA_WIDTH</ipxact:width>
        <ipxact:register>
          <ipxact:name>DIR</ipxact:name>
          <ipxact:addressOffset>'h0</ipxact:addressOffset>
          <ipxact:size>DATA_WIDTH</ipxact:size>
          <ipxact:access>read-write</ipxact:access>
          <ipxact:field>
            <ipxact:name>OUT</ipxact:name>
            <ipxact:bitOffset>0</ipxact:bitOffset>
            <ipxact:resets><ipxact:reset><ipxact:value>32'h0</ipxact:value></ipxact:reset></ipxact:resets>
            <ipxact:bitWidth>uuid_ports</ipxact:bitWidth>
          </ipxact:field>
        </ipxact:register>
        <ipxact:register>
          <ipxact:name>IN</ipxact:name>
          <ipxact:dim>$clog2(uuid_ports * 2)</ipxact:dim>
          <ipxact:addressOffset>uuid_in_offset</ipxact:addressOffset>
          <ipxact:size>DATA_WIDTH</ipxact:size>
          <ipxact:access>read-only</ipxact:access>
          <ipxact:field>
            <ipxact:name>LEVEL</ipxact:name>
            <ipxact:bitOffset>0</ipxact:bitOffset>
            <ipxact:bitWidth>uuid_ports</ipxact:bitWidth>
          </ipxact:field>
        </ipxact:register>
        <ipxact:register>
          <ipxact:name>DIR_HIGH</ipxact:name>
          <ipxact:isPresent>uuid_ports &gt; 8</ipxact:isPresent>
          <ipxact:addressOffset>'h20</ipxact:addressOffset>
          <ipxact:size>DATA_WIDTH</ipxact:size>
          <ipxact:field>
            <ipxact:name>OUT</ipxact:name>
            <ipxact:bitOffset>0</ipxact:bitOffset>
            <ipxact:resets><ipxact:reset><ipxact:value>0</ipxact:value></ipxact:reset></ipxact:resets>
            <ipxact:bitWidth>uuid_ports - 8</ipxact:bitWidth>
          </ipxact:field>
        </ipxact:register>
      </ipxact:addressBlock>
    </ipxact:memoryMap>
  </ipxact:memoryMaps>
  <ipxact:parameters>
    <ipxact:parameter parameterId="uuid_base" resolve="user" type="longint">
      <ipxact:name>BASE</ipxact:name><ipxact:value>'h1000</ipxact:value>
    </ipxact:parameter>
    <ipxact:parameter parameterId="uuid_ports" resolve="user" type="longint">
      <ipxact:name>PORTS</ipxact:name><ipxact:value>8</ipxact:value>
    </ipxact:parameter>
    <ipxact:parameter parameterId="uuid_width" resolve="user" type="longint">
      <ipxact:name>DATA_WIDTH</ipxact:name><ipxact:value>32</ipxact:value>
    </ipxact:parameter>
    <ipxact:parameter parameterId="uuid_in_offset" type="longint">
      <ipxact:name>IN_OFFSET</ipxact:name><ipxact:value>(DATA_WIDTH / 8) * 2</ipxact:value>
    </ipxact:parameter>
  </ipxact:parameters>
</ipxact:component>
"#;

#[test]
fn ipxact_expressions_are_evaluated_over_parameters_with_overrides() {
    let imported = ipxact_import::from_str(PARAMETRISED, false).expect("imports");
    let block = &imported.device.blocks[0];
    assert_eq!(*block.offset, 0x1010, "BASE + 'h10");
    assert_eq!(
        block.registers.len(),
        2,
        "DIR_HIGH's isPresent is PORTS > 8: absent"
    );
    let dir = &block.registers[0];
    assert_eq!(*dir.width, 32);
    assert_eq!(dir.fields[0].bits.width(), 8, "bitWidth PORTS");
    let input = &block.registers[1];
    assert_eq!(*input.offset, 8, "(DATA_WIDTH / 8) * 2");
    assert_eq!(
        input.array.as_ref().map(|a| *a.count),
        Some(4),
        "$clog2(PORTS * 2)"
    );
    assert_eq!(
        input.fields[0].reset_from.map(|r| *r),
        Some(ResetFrom::NotReset),
        "a field without <resets> is not reset"
    );
    // An override (by name or by id) reaches every expression that uses the parameter.
    let overrides = [
        ("PORTS".to_string(), "16".to_string()),
        ("uuid_base".to_string(), "32'h2000".to_string()),
    ];
    let imported = ipxact_import::from_str_with(PARAMETRISED, false, &overrides).expect("imports");
    let block = &imported.device.blocks[0];
    assert_eq!(*block.offset, 0x2010);
    assert_eq!(block.registers[0].fields[0].bits.width(), 16);
    assert_eq!(block.registers[1].array.as_ref().map(|a| *a.count), Some(5));
    assert_eq!(
        *block.registers[2].name, "DIR_HIGH",
        "present with 16 ports"
    );
    assert_eq!(block.registers[2].fields[0].bits.width(), 8);
    // An override that names nothing is refused, not ignored.
    let typo = [("PORT".to_string(), "4".to_string())];
    let error = ipxact_import::from_str_with(PARAMETRISED, false, &typo)
        .expect_err("refused")
        .to_string();
    assert!(error.contains("`PORT=4` names no parameter"), "{error}");
}

#[test]
fn an_ipxact_expression_that_cannot_be_evaluated_is_refused_with_its_text_and_line() {
    // Two problems, both reported: a parameter the file does not define, and an operator
    // whose value depends on SystemVerilog widths. Neither becomes 0.
    let xml = PARAMETRISED
        .replace("uuid_base + 'h10", "uuid_bsae + 'h10")
        .replace(
            "<ipxact:dim>$clog2(uuid_ports * 2)",
            "<ipxact:dim>~uuid_ports",
        );
    let error = ipxact_import::from_str(&xml, false)
        .expect_err("refused")
        .to_string();
    let line_of = |needle: &str| {
        xml.lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .unwrap()
    };
    assert!(
        error.contains(&format!(
            "line {}: <baseAddress> `uuid_bsae + 'h10`: `uuid_bsae` is no parameter",
            line_of("uuid_bsae")
        )),
        "{error}"
    );
    assert!(
        error.contains(&format!(
            "line {}: <dim> `~uuid_ports`: `~` depends on SystemVerilog's expression widths",
            line_of("~uuid_ports")
        )),
        "{error}"
    );
    assert!(error.contains("2 number(s) cannot be evaluated"), "{error}");
    // A required number that is missing is refused too, not taken as 0.
    let xml = PARAMETRISED.replace("<ipxact:addressOffset>'h0</ipxact:addressOffset>", "");
    let error = ipxact_import::from_str(&xml, false)
        .expect_err("refused")
        .to_string();
    assert!(
        error.contains("<register> `DIR` has no <addressOffset>"),
        "{error}"
    );
}

/// 1685-2009: plain numbers in its `scaledNonNegativeInteger` forms, a register-level reset
/// with a mask, SPIRIT 1.4's `<values>`, a value a design may override (`spirit:id`, `resolve="user"`), and one that
/// depends on others by an XPath expression, which is refused by name.
#[test]
fn ipxact_2009_values_overrides_and_dependencies() {
    let xml = r#"<?xml version="1.0"?>
<spirit:component xmlns:spirit="http://www.spiritconsortium.org/XMLSchema/SPIRIT/1.5">
  <spirit:vendor>v</spirit:vendor><spirit:library>l</spirit:library>
  <spirit:name>uart</spirit:name><spirit:version>2</spirit:version>
  <spirit:memoryMaps><spirit:memoryMap><spirit:name>main</spirit:name>
    <spirit:addressBlock><spirit:name>regs</spirit:name>
      <spirit:baseAddress spirit:id="uart_base" spirit:resolve="user">0x4K</spirit:baseAddress>
      <spirit:range>#20</spirit:range><spirit:width>32</spirit:width>
      <spirit:register><spirit:name>RXD</spirit:name><spirit:addressOffset>0x0</spirit:addressOffset>
        <spirit:size>32</spirit:size><spirit:access>read-only</spirit:access>
        <spirit:reset><spirit:value>0x100</spirit:value><spirit:mask>0xFFFFFF00</spirit:mask></spirit:reset>
        <spirit:field><spirit:name>DATA</spirit:name><spirit:bitOffset>0</spirit:bitOffset>
          <spirit:bitWidth>8</spirit:bitWidth></spirit:field>
        <spirit:field><spirit:name>VALID</spirit:name><spirit:bitOffset>8</spirit:bitOffset>
          <spirit:bitWidth>1</spirit:bitWidth></spirit:field>
        <spirit:field><spirit:name>STATE</spirit:name><spirit:bitOffset>9</spirit:bitOffset>
          <spirit:bitWidth>2</spirit:bitWidth>
          <spirit:values><spirit:value>0x0</spirit:value><spirit:name>IDLE</spirit:name></spirit:values>
          <spirit:values><spirit:value>0x2</spirit:value><spirit:name>BUSY</spirit:name></spirit:values>
        </spirit:field>
      </spirit:register>
    </spirit:addressBlock>
  </spirit:memoryMap></spirit:memoryMaps>
</spirit:component>"#;
    let imported = ipxact_import::from_str(xml, true).expect("imports strictly");
    let device = &imported.device;
    assert_eq!(
        *device.blocks[0].offset, 0x1000,
        "0x4K: 1685-2009's K multiplier"
    );
    assert_eq!(reset_from(device, "RXD", "DATA"), Some(ResetFrom::NotReset));
    assert_eq!(reset_from(device, "RXD", "VALID"), None);
    // SPIRIT 1.4's `<values>` (the form generic_example.xml of ipyxact uses) are carried as
    // enumerated values.
    let names: Vec<(String, u64)> = field(device, "RXD", "STATE")
        .values
        .iter()
        .map(|v| (v.name.to_string(), *v.value))
        .collect();
    assert_eq!(names, [("IDLE".to_string(), 0), ("BUSY".to_string(), 2)]);
    assert_eq!(*device.blocks[0].registers[0].reset, 0x100);
    let overrides = [("uart_base".to_string(), "0x2000".to_string())];
    let imported = ipxact_import::from_str_with(xml, true, &overrides).expect("imports");
    assert_eq!(*imported.device.blocks[0].offset, 0x2000);
    let dependent = xml.replace(
        r#"spirit:resolve="user">0x4K"#,
        r#"spirit:resolve="dependent" spirit:dependency="id('base') * 2">0x1000"#,
    );
    let error = ipxact_import::from_str(&dependent, false)
        .expect_err("refused")
        .to_string();
    assert!(
        error.contains("line 7: <baseAddress> `0x1000` depends on others by the XPath expression `id('base') * 2`"),
        "{error}"
    );
}

/// What the spec cannot carry of a SoC team's SystemRDL, each named at its line, and refused
/// by `--strict`: the hardware side (a reset signal of its own, hardware precedence, a write
/// mask, an edge interrupt, a counter's increment value). An msb0 field and an `external`
/// register are carried (tests/msb0.rs, tests/hardware_side.rs follow them), not warned about.
#[test]
fn systemrdl_constructs_the_spec_cannot_carry_are_named_at_their_line() {
    if !python_has("systemrdl") {
        return;
    }
    let source = r#"signal { activelow; async; } wdt_rst_n;
addrmap soc_timer_block {
    default sw = rw;
    default hw = r;
    reg {
        regwidth = 64;
        accesswidth = 32;
        field { sw = r; hw = w; } COUNT[63:0] = 0;
    } MTIME @ 0x0;
    reg {
        field { resetsignal = wdt_rst_n; } KICK[0:0] = 0;
        field { precedence = hw; hw = rw; } MODE[2:1] = 0;
        field { sw = r; hw = w; posedge intr; } WRAP[8:8] = 0;
        field { sw = r; hw = w; counter; incrvalue = 2; } TICKS[31:16] = 0;
    } CTRL @ 0x8;
    reg { field { } MASK[1:0] = 0; } MASKS @ 0xC;
    reg { field { } LANES[4:7] = 0; } ORDER @ 0x14;
    external reg { field { } DATA[31:0] = 0; } MAILBOX @ 0x10;
    CTRL.MODE->hwmask = MASKS.MASK;
};
addrmap soc { soc_timer_block timer @ 0x0; };
"#;
    let dir = scratch("silent-hardware");
    let path = dir.path().join("timer.rdl");
    std::fs::write(&path, source).unwrap();
    let line = |needle: &str| {
        source
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i as u32 + 1)
            .unwrap()
    };
    let imported = rdl::import(&path, false).expect("imports leniently");
    let warnings: Vec<(Option<u32>, String)> = imported
        .warnings
        .iter()
        .map(|w| (w.line, w.to_string()))
        .collect();
    for (needle, at_line, text) in [
        (
            "KICK[0:0]",
            line("KICK[0:0]"),
            "`resetsignal` (`wdt_rst_n`)",
        ),
        ("MODE[2:1]", line("MODE[2:1]"), "`precedence = hw`"),
        ("MODE[2:1]", line("MODE[2:1]"), "`hwmask`"),
        ("WRAP", line("WRAP"), "interrupt modifier `posedge`"),
        ("WRAP", line("WRAP"), "`intr`"),
        ("TICKS", line("TICKS"), "`counter`"),
        ("TICKS", line("TICKS"), "`incrvalue` (`2`)"),
    ] {
        assert!(
            warnings
                .iter()
                .any(|(l, w)| *l == Some(at_line) && w.contains(text)),
            "{needle}: no warning `{text}` at line {at_line}: {warnings:#?}"
        );
    }
    // The 64-bit timer on a 32-bit bus is carried (`access_width`), not warned about
    // (tests/access_width.rs follows it through every output).
    assert!(
        !warnings.iter().any(|(_, w)| w.contains("accesswidth")),
        "{warnings:#?}"
    );
    let mtime = imported.device.blocks[0]
        .registers
        .iter()
        .find(|r| *r.name == "MTIME")
        .expect("MTIME imported");
    assert_eq!(mtime.access_width.as_deref(), Some(&32));
    assert!(
        !warnings.iter().any(|(_, w)| w.contains("external")),
        "{warnings:#?}"
    );
    let mailbox = imported.device.blocks[0]
        .registers
        .iter()
        .find(|r| *r.name == "MAILBOX")
        .expect("MAILBOX imported");
    assert!(mailbox.hardware.external);
    // The msb0 field is carried (`bit_order: msb0`; tests/msb0.rs follows it through every
    // output), not warned about.
    assert!(
        !warnings.iter().any(|(_, w)| w.contains("msb0")),
        "{warnings:#?}"
    );
    let lanes = field(&imported.device, "ORDER", "LANES");
    assert_eq!(
        (lanes.bits.msb, lanes.bits.lsb, lanes.is_msb0()),
        (7, 4, true)
    );
    let refused = rdl::import(&path, true).expect_err("--strict refuses");
    assert!(!refused.to_string().contains("msb0"), "{refused}");
}

/// Kactus2 writes `<dim>0</dim>` on a register that is not an array; 1685-2014 has no array
/// of no element (a dim is positive). Read as no array and said, not refused as "an array of
/// 0 elements" (how the import refused Kactus2's sum_buffer before).
#[test]
fn a_kactus2_dim_of_zero_is_no_array_and_is_said() {
    let xml = PARAMETRISED.replace(
        "<ipxact:name>DIR</ipxact:name>",
        "<ipxact:name>DIR</ipxact:name>\n          <ipxact:dim>0</ipxact:dim>",
    );
    let imported = ipxact_import::from_str(&xml, false).expect("imports");
    let dir = &imported.device.blocks[0].registers[0];
    assert_eq!((dir.name.as_str(), dir.array.is_none()), ("DIR", true));
    let warnings: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("gpio.DIR") && w.contains("`<dim>0</dim>`")),
        "{warnings:#?}"
    );
    assert!(
        ipxact_import::from_str(&xml, true).is_err(),
        "--strict refuses"
    );
}

/// The warnings given by the passes over the converted device (a name `gba check` refuses,
/// renamed; a field that overlaps another, left out) carry the line of their item too, like
/// the warnings given while converting: `FILE:LINE` for every one.
#[test]
fn renamed_values_and_overlapping_fields_are_named_at_their_line() {
    if !python_has("systemrdl") {
        return;
    }
    let source = r#"addrmap uart_block {
    enum speed_e {
        match = 0 { desc = "A Rust keyword."; };
        other = 1;
    };
    reg {
        field { sw = rw; encode = speed_e; } SPEED[1:0] = 0;
    } CTRL @ 0x0;
    reg {
        field { sw = r; } RX[7:0];
        field { sw = w; } TX[7:0];
    } DATA @ 0x4;
};
addrmap uart { uart_block regs @ 0x0; };
"#;
    let dir = scratch("silent-lines");
    let path = dir.path().join("uart.rdl");
    std::fs::write(&path, source).unwrap();
    let line = |needle: &str| {
        source
            .lines()
            .position(|l| l.contains(needle))
            .map(|i| i as u32 + 1)
            .unwrap()
    };
    let imported = rdl::import(&path, false).expect("imports leniently");
    let found = |text: &str| {
        imported
            .warnings
            .iter()
            .find(|w| w.to_string().contains(text))
            .unwrap_or_else(|| panic!("no warning `{text}`: {:#?}", imported.warnings))
            .line
    };
    // The value's own line is not in the elaborated map: its field's is the nearest.
    assert_eq!(found("`match` renamed"), Some(line("SPEED[1:0]")));
    assert_eq!(
        found("overlaps field `RX`: left out"),
        Some(line("TX[7:0]"))
    );
    assert!(
        imported.warnings.iter().all(|w| w.line.is_some()),
        "{:#?}",
        imported.warnings
    );
}
