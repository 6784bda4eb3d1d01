//! The SVD emitter and importer against each other, and the importer on a real vendor file.
//!
//! Round trip: the committed `.svd` of each spec, read back with svd-parser at its strict
//! level and imported, must equal the model parsed from the spec: every name, offset, width,
//! access, reset value, side effect, enumerated value, description and constant (constants,
//! single pulses, locks and index or strap resets travel in `<vendorExtensions>`). Equality is the model's own `PartialEq` (locations
//! ignored), so nothing is compared more loosely than the model defines.

mod common;

use std::path::PathBuf;
use std::process::Command;

use gba_codegen::emit::Output;
use gba_codegen::import::svd::{ImportError, from_str};
use gba_codegen::project::{self, Target};
use gba_codegen::{parse_str, write_spec};

use common::root;

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn strict_parse(xml: &str) -> svd_parser::svd::Device {
    let config = svd_parser::Config::default().validate_level(svd_parser::ValidateLevel::Strict);
    svd_parser::parse_with_config(xml, &config).unwrap_or_else(|e| panic!("strict parse: {e:#}"))
}

fn round_trip(spec: &str, svd: &str) {
    let expected = parse_str(&read(spec)).expect("the spec is valid");
    let xml = read(svd);
    let lines: Vec<&str> = xml.lines().take(3).collect();
    assert!(
        lines[0].starts_with("<?xml "),
        "{svd}: XML declaration first"
    );
    assert!(
        lines[1].starts_with("<!--"),
        "{svd}: preamble comment on line 2"
    );
    assert!(
        lines.join("\n").contains(gba_codegen::emit::MARKER),
        "{svd}: generated-file marker in the first 3 lines"
    );
    let parsed = strict_parse(&xml);
    assert_eq!(parsed.peripherals.len(), expected.blocks.len());
    let imported = from_str(&xml).expect("our own SVD imports");
    assert_eq!(imported.warnings, vec![], "{svd}: nothing should be lost");
    // A reset that is the element's index or a strap travels in `<vendorExtensions>` and
    // the import drops the description note the export adds for it: no exception left.
    let imported = imported.device;
    let expected = (*expected).clone();
    assert_eq!(imported, expected, "{svd} does not read back as {spec}");
    assert!(!expected.constants.is_empty() || spec.contains("rp2040"));
}

/// Single pulses and locks travel under `<vendorExtensions>` (SVD has no element for them):
/// read back as written, and an entry that names nothing of the device is reported, not
/// applied.
#[test]
fn pulses_and_locks_read_back_from_vendor_extensions() {
    use gba_codegen::model::SideEffect;
    let xml = read("tests/fixtures/uart/pac/uart.svd");
    let imported = from_str(&xml).expect("imports");
    let regs = &imported.device.blocks[0];
    let register = |name: &str| regs.registers.iter().find(|r| *r.name == name).unwrap();
    let flush = register("EVENTS")
        .fields
        .iter()
        .find(|f| *f.name == "FLUSH")
        .unwrap();
    assert_eq!(flush.side_effect.map(|s| *s), Some(SideEffect::SinglePulse));
    let lock = register("TEST_CTRL")
        .lock
        .as_ref()
        .expect("TEST_CTRL is locked");
    assert_eq!(
        (
            lock.register.as_str(),
            lock.field.as_str(),
            lock.locked_when
        ),
        ("LOCK", "TEST_EN", false)
    );

    let broken = xml
        .replace(
            "<field>regs.EVENTS.FLUSH</field>",
            "<field>regs.EVENTS.MODE</field>",
        )
        .replace(
            "<register>regs.BAUD_FINE</register>",
            "<register>regs.NOPE</register>",
        );
    let imported = from_str(&broken).expect("imports");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        messages,
        [
            "vendorExtensions.singlePulses: `regs.EVENTS.MODE` is no oneToSet field of this \
             device: left out",
            "vendorExtensions.locks: the lock of `regs.NOPE` by `LOCK.CFG_LOCK` names no \
             register and bit: left out",
        ]
    );
    let events = imported.device.blocks[0]
        .registers
        .iter()
        .find(|r| *r.name == "EVENTS")
        .unwrap();
    let flush = events.fields.iter().find(|f| *f.name == "FLUSH").unwrap();
    assert_eq!(
        flush.side_effect.map(|s| *s),
        Some(SideEffect::WriteOneToSet)
    );
}

/// Index and strap resets travel under `<vendorExtensions><resetFrom>`: read back as
/// written, without the description note the export adds; an entry the spec cannot hold is
/// reported naming the register and field, and the field's reset is what SVD says of it.
#[test]
fn index_and_strap_resets_read_back_from_vendor_extensions() {
    use gba_codegen::model::ResetFrom;
    let xml = read("gba-pac/gba.svd");
    assert!(xml.contains("<strap>global.PORT_ID.PORT</strap>"));
    assert!(xml.contains("<index>group.GROUP_ID.ID</index>"));
    let reset_of = |device: &gba_codegen::model::Device, path: &str| {
        let [b, r, f] = path.split('.').collect::<Vec<_>>()[..] else {
            panic!("{path}")
        };
        let block = device.blocks.iter().find(|x| *x.name == b).unwrap();
        let register = block.registers.iter().find(|x| *x.name == r).unwrap();
        let field = register.fields.iter().find(|x| *x.name == f).unwrap();
        (field.reset_from.map(|r| *r), register.description.clone())
    };
    let imported = from_str(&xml).expect("imports");
    assert_eq!(imported.warnings, vec![]);
    let (port, port_description) = reset_of(&imported.device, "global.PORT_ID.PORT");
    assert_eq!(port, Some(ResetFrom::Strap));
    assert!(!port_description.contains("Reset:"), "{port_description}");
    let (id, _) = reset_of(&imported.device, "group.GROUP_ID.ID");
    assert_eq!(id, Some(ResetFrom::Index));

    // Without the extension (a vendor's file): the bits out of `<resetMask>` are what SVD
    // says of them, not reset, and the note stays as the description's own words.
    let start = xml.find("    <resetFrom>").unwrap();
    let end = xml.find("    </resetFrom>\n").unwrap() + "    </resetFrom>\n".len();
    let plain = format!("{}{}", &xml[..start], &xml[end..]);
    let imported = from_str(&plain).expect("imports");
    assert_eq!(imported.warnings, vec![]);
    let (port, port_description) = reset_of(&imported.device, "global.PORT_ID.PORT");
    assert_eq!(port, Some(ResetFrom::NotReset));
    assert!(
        port_description.contains("\n\nReset: `PORT` is strapped"),
        "{port_description}"
    );

    let broken = xml
        .replace(
            "<strap>global.PORT_ID.PORT</strap>",
            "<fuse>global.PORT_ID.PORT</fuse>\n      <strap>global.PORT_ID.NOPE</strap>\n      \
             <index>global.PORT_ID.PORT</index>\n      <strap>global.DEVICE_ID.ID</strap>",
        )
        .replace(
            "<index>group.GROUP_ID.ID</index>",
            "<index>group.GROUP_ID</index>",
        );
    let imported = from_str(&broken).expect("a bad entry is no reason to refuse the file");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    let kept = "the field's reset is what resetValue and resetMask say (left out)";
    assert_eq!(
        messages,
        [
            format!(
                "vendorExtensions.resetFrom: `<fuse>global.PORT_ID.PORT</fuse>`: `fuse` is no \
                 reset kind (`index` or `strap`); {kept}"
            ),
            format!(
                "vendorExtensions.resetFrom: `<strap>global.PORT_ID.NOPE</strap>`: register \
                 `global.PORT_ID` has no field `NOPE`; {kept}"
            ),
            format!(
                "vendorExtensions.resetFrom: `<index>global.PORT_ID.PORT</index>`: register \
                 `global.PORT_ID` is in no array, so field `PORT` has no index; {kept}"
            ),
            format!(
                "vendorExtensions.resetFrom: `<strap>global.DEVICE_ID.ID</strap>`: register \
                 `global.DEVICE_ID`'s resetValue 0x47424131 sets bits of field `ID`, which \
                 must be 0 for a reset from its index or a strap; {kept}"
            ),
            format!(
                "vendorExtensions.resetFrom: `<index>group.GROUP_ID</index>`: not a path \
                 `BLOCK.REGISTER.FIELD`; {kept}"
            ),
        ]
    );
    // Out of `<resetMask>`: not reset, as SVD says.
    assert_eq!(
        reset_of(&imported.device, "global.PORT_ID.PORT").0,
        Some(ResetFrom::NotReset)
    );
    assert_eq!(
        reset_of(&imported.device, "group.GROUP_ID.ID").0,
        Some(ResetFrom::NotReset)
    );
}

#[test]
fn gba_svd_reads_back_as_gba_yaml() {
    round_trip("gba.yaml", "gba-pac/gba.svd");
}

#[test]
fn uart_svd_reads_back_as_uart_yaml() {
    round_trip(
        "tests/fixtures/uart/uart.yaml",
        "tests/fixtures/uart/pac/uart.svd",
    );
}

/// Block and register arrays are SVD arrays, not expanded copies.
#[test]
fn arrays_stay_arrays() {
    let parsed = strict_parse(&read("gba-pac/gba.svd"));
    let group = parsed
        .peripherals
        .iter()
        .find(|p| p.name == "group[%s]")
        .expect("group is a peripheral array");
    let svd_parser::svd::Peripheral::Array(_, dim) = group else {
        panic!("group is not a dim peripheral");
    };
    assert_eq!((dim.dim, dim.dim_increment), (32, 0x2000));
    let mask = group
        .registers()
        .find(|r| r.name == "MEMBER_MASK[%s]")
        .expect("MEMBER_MASK is a register array");
    assert!(mask.is_array());
}

#[test]
fn spec_writer_round_trips_the_project_specs() {
    for spec in ["gba.yaml", "tests/fixtures/uart/uart.yaml"] {
        let device = parse_str(&read(spec)).expect("valid");
        let text = write_spec(&device, "header line\n\nafter a blank");
        assert!(text.starts_with("# header line\n#\n# after a blank\n"));
        let back = parse_str(&text).unwrap_or_else(|d| panic!("{spec}: {d:?}\n{text}"));
        assert_eq!(back, device, "{spec}");
        assert_eq!(write_spec(&back, "header line\n\nafter a blank"), text);
    }
}

// ---------------------------------------------------------------------------------------
// The importer on SVD features our emitter never writes

const FEATURES: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3" xmlns:xs="http://www.w3.org/2001/XMLSchema-instance">
  <name>chip</name>
  <version>2</version>
  <description>Every hard case at once</description>
  <cpu><name>CM0PLUS</name><revision>r0p1</revision><endian>little</endian>
    <mpuPresent>true</mpuPresent><fpuPresent>false</fpuPresent><nvicPrioBits>2</nvicPrioBits>
    <vendorSystickConfig>false</vendorSystickConfig></cpu>
  <addressUnitBits>8</addressUnitBits>
  <width>32</width>
  <size>32</size>
  <access>read-write</access>
  <resetValue>0</resetValue>
  <resetMask>0xFFFFFFFF</resetMask>
  <peripherals>
    <peripheral>
      <name>TIMER0</name>
      <description>A timer</description>
      <baseAddress>0x40000000</baseAddress>
      <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>
      <interrupt><name>TIMER0_IRQ</name><value>3</value></interrupt>
      <registers>
        <register>
          <name>CTRL</name>
          <addressOffset>0x0</addressOffset>
          <resetValue>0x5</resetValue>
          <fields>
            <field><name>EN</name><bitRange>[0:0]</bitRange></field>
            <field><name>type</name><bitOffset>1</bitOffset><bitWidth>2</bitWidth>
              <writeConstraint><range><minimum>0</minimum><maximum>2</maximum></range></writeConstraint>
              <enumeratedValues>
                <enumeratedValue><name>1X</name><value>0</value></enumeratedValue>
                <enumeratedValue><name>set</name><value>1</value></enumeratedValue>
                <enumeratedValue><name>other</name><isDefault>true</isDefault></enumeratedValue>
              </enumeratedValues>
            </field>
            <field><name>FLAG</name><lsb>4</lsb><msb>4</msb>
              <modifiedWriteValues>oneToClear</modifiedWriteValues></field>
            <field><name>TOGGLE</name><lsb>5</lsb><msb>5</msb>
              <modifiedWriteValues>oneToToggle</modifiedWriteValues></field>
          </fields>
        </register>
        <register>
          <name>CTRL_ALT</name>
          <alternateRegister>CTRL</alternateRegister>
          <addressOffset>0x0</addressOffset>
        </register>
        <register>
          <name>COUNT</name>
          <addressOffset>0x4</addressOffset>
          <access>read-only</access>
          <fields><field><name>VALUE</name><bitRange>[31:0]</bitRange>
            <readAction>clear</readAction></field></fields>
        </register>
        <register>
          <name>ODD</name>
          <addressOffset>0x8</addressOffset>
          <size>24</size>
        </register>
        <register>
          <dim>4</dim><dimIncrement>4</dimIncrement>
          <name>CMP[%s]</name>
          <addressOffset>0x10</addressOffset>
        </register>
        <register>
          <dim>2</dim><dimIncrement>4</dimIncrement><dimIndex>A,B</dimIndex>
          <name>LOAD_%s</name>
          <addressOffset>0x20</addressOffset>
        </register>
        <cluster>
          <dim>2</dim><dimIncrement>0x10</dimIncrement>
          <name>CH[%s]</name>
          <addressOffset>0x40</addressOffset>
          <register><name>CFG</name><addressOffset>0</addressOffset></register>
          <register><name>DATA</name><addressOffset>4</addressOffset></register>
        </cluster>
        <cluster>
          <name>ctrl</name>
          <addressOffset>0x60</addressOffset>
          <register><name>X</name><addressOffset>0</addressOffset></register>
        </cluster>
        <register>
          <name>CTRL_X</name>
          <addressOffset>0x68</addressOffset>
        </register>
        <register derivedFrom="COUNT">
          <name>COUNT2</name>
          <addressOffset>0x70</addressOffset>
        </register>
      </registers>
    </peripheral>
    <peripheral derivedFrom="TIMER0">
      <name>TIMER1</name>
      <baseAddress>0x40001000</baseAddress>
    </peripheral>
    <peripheral>
      <name>ALIAS</name>
      <baseAddress>0x40001000</baseAddress>
      <registers><register><name>R</name><addressOffset>0</addressOffset></register></registers>
    </peripheral>
  </peripherals>
</device>
"#;

#[test]
fn importer_carries_what_it_can_and_reports_the_rest() {
    let imported = from_str(FEATURES).expect("imports");
    let device = &imported.device;
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    let has = |needle: &str| {
        assert!(
            messages.iter().any(|m| m.contains(needle)),
            "no warning containing {needle:?} in {messages:#?}"
        )
    };
    has("chip: not represented in the spec format: cpu (all but its name and nvicPrioBits)");
    // The interrupt is carried, at its peripheral's block instance (TIMER0 and TIMER1 became
    // the array TIMER), once (TIMER1 derives it too); the core's name and priority bits
    // too, and the window sits at fixed addresses.
    assert!(
        !messages.iter().any(|m| m.contains("interrupt")),
        "{messages:#?}"
    );
    let irqs: Vec<(&str, u64, Option<&str>, Option<u64>)> = device
        .interrupts
        .iter()
        .map(|i| {
            (
                i.name.as_str(),
                *i.number,
                i.block.as_deref().map(String::as_str),
                i.index.as_deref().copied(),
            )
        })
        .collect();
    assert_eq!(irqs, [("TIMER0_IRQ", 3, Some("TIMER"), Some(0))]);
    let cpu = device.cpu.as_ref().expect("the cpu");
    assert_eq!(
        (cpu.name.as_str(), cpu.nvic_prio_bits.as_deref()),
        ("CM0PLUS", Some(&2))
    );
    assert_eq!(device.address.as_deref(), Some(&0));
    has("TIMER0.CTRL.type: writeConstraint not represented");
    has("enumerated value `1X` renamed `V_1X`");
    has("enumerated value `set` renamed `set_`: reserved");
    has("TIMER0.CTRL.type.other: isDefault");
    assert!(
        !messages.iter().any(|m| m.contains("TOGGLE")),
        "oneToToggle is carried (as `wot`): {messages:#?}"
    );
    has("TIMER0.ODD: <size>24</size>: no bus access of 24 bits; read as 32");
    has("TIMER0.CTRL_X: register `CTRL_X` renamed `CTRL_X_2`: the name (ignoring case) is taken");
    has("enumerated value `1X` renamed `V_1X`: `1X` is not an identifier");
    has("field `type` renamed `type_`: `type` is a Rust or C keyword");
    // TIMER1 derives from TIMER0: once resolved they are equal and 0x1000 apart, so they
    // become one block array; ALIAS lies on TIMER1.
    has(
        "TIMER: blocks TIMER0, TIMER1 imported as one block array `TIMER` (2 instances, 0x1000 apart)",
    );
    has(
        "ALIAS: overlaps block `TIMER` (no alternatePeripheral declared): imported as an \
         alternate of `TIMER`",
    );

    let names: Vec<&str> = device.blocks.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        ["TIMER", "ALIAS"],
        "ALIAS overlaps TIMER[1]: kept as a view"
    );
    assert_eq!(
        device.blocks[1].alternate_of.as_deref().map(String::as_str),
        Some("TIMER")
    );
    let timer0 = &device.blocks[0];
    let array = timer0.array.as_ref().expect("TIMER is a block array");
    assert_eq!(
        (*timer0.offset, *array.count, *array.stride),
        (0x4000_0000, 2, 0x1000)
    );
    let register = |name: &str| {
        timer0
            .registers
            .iter()
            .find(|r| *r.name == name)
            .unwrap_or_else(|| panic!("no register {name}"))
    };
    let ctrl = register("CTRL");
    assert_eq!(*ctrl.reset, 5);
    let alternate = register("CTRL_ALT");
    assert_eq!(
        alternate.alternate_of.as_deref().map(String::as_str),
        Some("CTRL")
    );
    let kind = ctrl.fields.iter().find(|f| *f.name == "type_").unwrap();
    let values: Vec<(&str, u64)> = kind
        .values
        .iter()
        .map(|v| (v.name.as_str(), *v.value))
        .collect();
    assert_eq!(values, [("V_1X", 0), ("set_", 1)]);
    let flag = ctrl.fields.iter().find(|f| *f.name == "FLAG").unwrap();
    assert_eq!(
        flag.side_effect.map(|s| *s),
        Some(gba_codegen::model::SideEffect::WriteOneToClear)
    );
    let toggle = ctrl.fields.iter().find(|f| *f.name == "TOGGLE").unwrap();
    assert_eq!(
        toggle.side_effect.map(|s| *s),
        Some(gba_codegen::model::SideEffect::WriteOneToToggle)
    );
    let count = register("COUNT");
    assert_eq!(
        count.fields[0].side_effect.map(|s| *s),
        Some(gba_codegen::model::SideEffect::ReadToClear)
    );
    let count2 = register("COUNT2");
    assert_eq!(count2.fields, count.fields, "register derivedFrom resolved");
    assert_eq!(*count2.access, gba_codegen::model::Access::ReadOnly);
    let cmp = register("CMP");
    let array = cmp.array.as_ref().expect("CMP stays an array");
    assert_eq!((*array.count, *array.stride), (4, 4));
    assert_eq!(*register("LOAD_A").offset, 0x20);
    assert_eq!(*register("LOAD_B").offset, 0x24);
    let cfg = register("CH_CFG");
    assert_eq!(*cfg.offset, 0x40);
    let array = cfg.array.as_ref().expect("cluster array → register array");
    assert_eq!((*array.count, *array.stride), (2, 0x10));
    assert_eq!(*register("ctrl_X").offset, 0x60);
    assert_eq!(*register("CTRL_X_2").offset, 0x68);
    assert_eq!(
        *register("ODD").width,
        32,
        "a 24-bit register is reached by 32 bits"
    );

    // The written spec is accepted by the spec reader and means the same.
    let text = write_spec(device, "features");
    assert_eq!(parse_str(&text).expect("valid spec"), *device);
}

#[test]
fn malformed_svd_is_an_error_not_a_panic() {
    let cases = [
        ("", "not a valid SVD file"),
        ("<device>", "not a valid SVD file"),
        ("<nodevice/>", "not a valid SVD file"),
        (
            "<device><name>d</name><peripherals><peripheral><name>A</name>\
             <baseAddress>zz</baseAddress></peripheral></peripherals></device>",
            "not a valid SVD file",
        ),
    ];
    for (xml, expected) in cases {
        let error = from_str(xml).expect_err(xml);
        assert!(error.to_string().contains(expected), "{xml}: {error}");
    }
    let cyclic = FEATURES.replace(
        "<peripheral>\n      <name>TIMER0</name>",
        "<peripheral derivedFrom=\"TIMER1\">\n      <name>TIMER0</name>",
    );
    let error = from_str(&cyclic).expect_err("cycle");
    assert!(matches!(error, ImportError::Derive(_)), "{error}");
    // Hostile numbers: a bit offset near 2^32 and a base address near 2^64 are reported;
    // a huge dim is refused before anything expands it.
    let hostile = FEATURES
        .replace(
            "<bitOffset>1</bitOffset>",
            "<bitOffset>4294967295</bitOffset>",
        )
        .replace(
            "<baseAddress>0x40001000</baseAddress>\n      <registers>",
            "<baseAddress>0xFFFFFFFFFFFFFFF0</baseAddress>\n      <registers>",
        );
    let imported = from_str(&hostile).expect("imports with warnings");
    assert!(
        imported.warnings.iter().any(|w| w
            .to_string()
            .contains("TIMER0.CTRL.type: bits [4294967296:4294967295] do not fit")),
        "{:#?}",
        imported.warnings
    );
    let huge = FEATURES.replace("<dim>4</dim>", "<dim>4000000000</dim>");
    let error = from_str(&huge).expect_err("huge dim");
    assert!(error.to_string().contains("has dim 4000000000"), "{error}");
    let unknown = FEATURES.replace("derivedFrom=\"COUNT\"", "derivedFrom=\"NOPE\"");
    let error = from_str(&unknown).expect_err("unknown source");
    assert!(error.to_string().contains("`NOPE`: not found"), "{error}");
}

// ---------------------------------------------------------------------------------------
// Vendor files as they are: slips repaired (or refused with --strict), names made to pass
// every check `gba check` runs

/// A device of two numbered peripherals `CMP_0`, `CMP_1` (merged into a block array, which
/// once became `CMP_` and then `cmp__unchecked`, refused by `gba check`), with the slips of
/// real vendor files in `CMP_0`'s register.
fn slipped_svd(access: &str, reset: &str, wide_value: &str) -> String {
    let peripheral = |n: u32, registers: &str| {
        format!(
            "<peripheral><name>CMP_{n}</name><baseAddress>{:#x}</baseAddress>\n\
             <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>\n\
             <registers>{registers}</registers></peripheral>\n",
            0x4000_0000 + n * 0x1000
        )
    };
    let register = |access: &str, reset: &str, wide_value: &str| {
        format!(
            "<register><name>CTRL</name><addressOffset>0</addressOffset>\n\
             <access>{access}</access>\n\
             <resetValue>{reset}</resetValue>\n\
             <fields><field><name>MODE</name><bitOffset>0</bitOffset><bitWidth>2</bitWidth>\n\
             <enumeratedValues><enumeratedValue><name>OFF</name><value>0</value></enumeratedValue>\n\
             <enumeratedValue><name>HUGE</name><value>{wide_value}</value></enumeratedValue>\n\
             </enumeratedValues></field></fields></register>"
        )
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<device schemaVersion=\"1.3\">\n\
         <name>chip</name><version>1</version><description>slips</description>\n\
         <addressUnitBits>8</addressUnitBits><width>32</width><size>32</size>\n\
         <peripherals>\n{}{}</peripherals></device>\n",
        peripheral(0, &register(access, reset, wide_value)),
        peripheral(1, &register(access, reset, wide_value)),
    )
}

#[test]
fn slips_are_repaired_with_a_warning_naming_the_line_and_refused_when_strict() {
    use gba_codegen::import::svd::{Mode, from_str_with};
    let xml = slipped_svd("read-writeonce", "0xfffffffffffffff1", "7");
    let imported = from_str_with(&xml, Mode::Lenient).expect("a lenient import repairs");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    let has = |needle: &str| {
        assert!(
            messages.iter().any(|m| m.contains(needle)),
            "no warning containing {needle:?} in {messages:#?}"
        )
    };
    // Repairs are cited as every import warning is: the item's path, and its line apart
    // (`gba import-svd` prints `warning: FILE:LINE: PATH: …`).
    let line_of = |needle: &str| {
        imported
            .warnings
            .iter()
            .find(|w| w.message.contains(needle))
            .and_then(|w| w.line)
    };
    has("CMP_0.CTRL: <access>read-writeonce</access> read as `read-writeOnce`");
    assert_eq!(line_of("<access>read-writeonce"), Some(9));
    has(
        "CMP_0.CTRL: <resetValue>0xfffffffffffffff1</resetValue> does not fit in 32 bits: cut to 0xfffffff1",
    );
    assert_eq!(line_of("<resetValue>0xfffffffffffffff1"), Some(10));
    has("CMP_0.CTRL.MODE.HUGE: enumerated value `HUGE` = 7 does not fit the 2-bit field: left out");
    assert!(
        messages.iter().all(|m| !m.contains("line ")),
        "no line inside the text: {messages:#?}"
    );
    has("blocks CMP_0, CMP_1 imported as one block array `CMP`");
    let block = &imported.device.blocks[0];
    assert_eq!(*block.name, "CMP");
    let ctrl = &block.registers[0];
    assert_eq!(*ctrl.reset, 0xffff_fff1);
    let values: Vec<&str> = ctrl.fields[0]
        .values
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        values,
        ["OFF"],
        "only the value that does not fit is left out"
    );
    // What the import writes, `gba check` accepts, for every output.
    let text = write_spec(&imported.device, "slips");
    assert_eq!(parse_str(&text).expect("check accepts it"), imported.device);

    for (access, reset, value, expected) in [
        ("read-writeonce", "0", "1", "read-writeonce"),
        ("read-write", "0", "7", "out of range"),
    ] {
        let error = from_str_with(&slipped_svd(access, reset, value), Mode::Strict)
            .expect_err("strict refuses");
        assert!(error.to_string().contains(expected), "{error}");
    }
    // `<access>read</access>` is read-only.
    let imported = from_str(&slipped_svd("read", "0", "1")).expect("imports");
    assert_eq!(
        *imported.device.blocks[0].registers[0].access,
        gba_codegen::model::Access::ReadOnly
    );
}

/// An empty `<resetValue>` once ended the import of the whole file (svd-parser's error): it
/// is read as missing, so the register inherits the peripheral's reset value, with a
/// warning counted as a repair; `--strict` still refuses it.
#[test]
fn an_empty_reset_value_is_read_as_missing_and_refused_when_strict() {
    use gba_codegen::import::summary;
    use gba_codegen::import::svd::{Mode, from_str_with};
    for empty in [
        "<resetValue></resetValue>",
        "<resetValue/>",
        "<resetValue> </resetValue>",
    ] {
        // The peripheral's own reset value is what the register then inherits.
        let xml = slipped_svd("read-write", "0", "1")
            .replace("<resetValue>0</resetValue>", empty)
            .replace(
                "<name>CMP_0</name>",
                "<name>CMP_0</name><resetValue>0x2</resetValue>",
            );
        let imported = from_str_with(&xml, Mode::Lenient)
            .unwrap_or_else(|e| panic!("{empty}: a lenient import repairs: {e}"));
        let repairs: Vec<_> = imported
            .warnings
            .iter()
            .filter(|w| w.message.contains("is empty"))
            .collect();
        assert_eq!(
            repairs.len(),
            2,
            "one per peripheral: {:#?}",
            imported.warnings
        );
        assert_eq!(
            repairs[0].to_string(),
            "CMP_0.CTRL: <resetValue> is empty: read as missing (the register inherits its \
             cluster's, peripheral's or device's, else 0)"
        );
        assert_eq!(repairs[0].line, Some(10), "{empty}");
        let summary = summary(&imported.warnings).expect("warnings");
        assert!(summary.contains("2 repaired"), "{summary}");
        // CMP_0 inherits 0x2 and CMP_1 nothing: they differ, so stay two blocks.
        let resets: Vec<u64> = imported
            .device
            .blocks
            .iter()
            .map(|b| *b.registers[0].reset)
            .collect();
        assert_eq!(resets, [2, 0], "{empty}");
        let error = from_str_with(&xml, Mode::Strict).expect_err("strict refuses");
        assert!(error.to_string().contains("resetValue"), "{empty}: {error}");
    }
}

/// A vendor file in the corpus has `<resetValue>0x</resetValue>`: svd-parser's error used to
/// refuse the whole file. The value alone is lost, with a warning at its line.
#[test]
fn a_reset_value_that_is_no_number_is_read_as_missing_and_refused_when_strict() {
    use gba_codegen::import::svd::{Mode, from_str_with};
    for slip in ["0x", "0xZZ", "none"] {
        let xml = slipped_svd("read-write", "0", "1").replace(
            "<resetValue>0</resetValue>",
            &format!("<resetValue>{slip}</resetValue>"),
        );
        let imported = from_str_with(&xml, Mode::Lenient)
            .unwrap_or_else(|e| panic!("{slip}: a lenient import repairs: {e}"));
        let repairs: Vec<_> = imported
            .warnings
            .iter()
            .filter(|w| w.message.contains("is not a number"))
            .collect();
        assert_eq!(
            repairs.len(),
            2,
            "one per peripheral: {:#?}",
            imported.warnings
        );
        assert_eq!(
            repairs[0].to_string(),
            format!(
                "CMP_0.CTRL: <resetValue>{slip}</resetValue> is not a number: read as missing \
                 (the register inherits its cluster's, peripheral's or device's, else 0)"
            )
        );
        assert_eq!(repairs[0].line, Some(10), "{slip}");
        assert!(
            imported
                .device
                .blocks
                .iter()
                .all(|b| *b.registers[0].reset == 0),
            "{slip}"
        );
        let error = from_str_with(&xml, Mode::Strict).expect_err("strict refuses");
        assert!(error.to_string().contains("resetValue"), "{slip}: {error}");
    }
}

// ---------------------------------------------------------------------------------------
// Numbered registers → register arrays

/// One peripheral holding `(name, offset, description, reset, fields XML)` registers.
fn numbered_svd(registers: &[(&str, u32, &str, u32, &str)]) -> String {
    let registers: String = registers
        .iter()
        .map(|(name, offset, description, reset, fields)| {
            format!(
                "<register><name>{name}</name><description>{description}</description>\
                 <addressOffset>{offset:#x}</addressOffset><resetValue>{reset:#x}</resetValue>\
                 <fields>{fields}</fields></register>\n"
            )
        })
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3" xmlns:xs="http://www.w3.org/2001/XMLSchema-instance">
  <name>chip</name>
  <version>1</version>
  <description>Numbered registers</description>
  <addressUnitBits>8</addressUnitBits>
  <width>32</width>
  <size>32</size>
  <access>read-write</access>
  <resetValue>0</resetValue>
  <resetMask>0xFFFFFFFF</resetMask>
  <peripherals>
    <peripheral>
      <name>P</name>
      <baseAddress>0x40000000</baseAddress>
      <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>
      <registers>
{registers}      </registers>
    </peripheral>
  </peripherals>
</device>
"#
    )
}

#[test]
fn numbered_registers_of_one_shape_become_register_arrays() {
    const EN: &str = "<field><name>EN</name><bitRange>[0:0]</bitRange></field>";
    const A: &str = "<field><name>A</name><bitRange>[0:0]</bitRange></field>";
    const B: &str = "<field><name>B</name><bitRange>[0:0]</bitRange></field>";
    let xml = numbered_svd(&[
        // Two interleaved runs (descriptions differ only by the number): two arrays.
        ("CH0_CFG", 0x00, "Channel 0 configuration", 0, EN),
        ("CH0_DATA", 0x04, "Data", 0, ""),
        ("CH1_CFG", 0x08, "Channel 1 configuration", 0, EN),
        ("CH1_DATA", 0x0c, "Data", 0, ""),
        ("CH2_CFG", 0x10, "Channel 2 configuration", 0, EN),
        ("CH2_DATA", 0x14, "Data", 0, ""),
        // A gap in the numbers: none merge.
        ("GAP0", 0x20, "", 0, EN),
        ("GAP1", 0x24, "", 0, EN),
        ("GAP3", 0x2c, "", 0, EN),
        // A different field.
        ("FLD0", 0x30, "", 0, A),
        ("FLD1", 0x34, "", 0, B),
        // A different stride.
        ("STR0", 0x40, "", 0, EN),
        ("STR1", 0x44, "", 0, EN),
        ("STR2", 0x4c, "", 0, EN),
        // A different reset.
        ("RST0", 0x50, "", 0, EN),
        ("RST1", 0x54, "", 1, EN),
        // The merged name is taken.
        ("X0", 0x60, "", 0, EN),
        ("X1", 0x64, "", 0, EN),
        ("X", 0x68, "", 0, EN),
        // Numbers that do not start at 0, and a lone element.
        ("ONE1", 0x70, "", 0, EN),
        ("ONE2", 0x74, "", 0, EN),
        ("LONE0", 0x78, "", 0, EN),
        // A field named after its register: merged, named without the number.
        (
            "MEM0",
            0x80,
            "Memory word 0",
            0,
            "<field><name>MEM0</name><bitRange>[15:0]</bitRange></field>",
        ),
        (
            "MEM1",
            0x84,
            "Memory word 1",
            0,
            "<field><name>MEM1</name><bitRange>[15:0]</bitRange></field>",
        ),
        // A number elsewhere in the description that is not the index: not merged.
        ("ODD0", 0x90, "Lane 0, see lane 1", 0, EN),
        ("ODD1", 0x94, "Lane 1, see lane 1", 0, EN),
    ]);
    let imported = from_str(&xml).expect("imports");
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    let block = &imported.device.blocks[0];
    let names: Vec<&str> = block.registers.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "CH_CFG", "CH_DATA", "GAP0", "GAP1", "GAP3", "FLD0", "FLD1", "STR0", "STR1", "STR2",
            "RST0", "RST1", "X0", "X1", "X", "ONE1", "ONE2", "LONE0", "MEM", "ODD0", "ODD1",
        ],
        "{messages:#?}"
    );
    let register = |name: &str| block.registers.iter().find(|r| *r.name == name).unwrap();
    let shape = |name: &str| {
        let r = register(name);
        let a = r.array.as_ref().expect("an array");
        (*r.offset, *a.count, *a.stride)
    };
    assert_eq!(shape("CH_CFG"), (0x0, 3, 8));
    assert_eq!(shape("CH_DATA"), (0x4, 3, 8));
    assert_eq!(shape("MEM"), (0x80, 2, 4));
    assert_eq!(register("CH_CFG").description, "Channel n configuration");
    assert_eq!(register("CH_DATA").description, "Data");
    assert_eq!(*register("CH_CFG").fields[0].name, "EN");
    assert_eq!(*register("MEM").fields[0].name, "MEM");
    assert_eq!(register("MEM").description, "Memory word n");
    let merges: Vec<&String> = messages
        .iter()
        .filter(|m| m.contains("register array"))
        .collect();
    assert_eq!(
        merges,
        [
            "P.CH_CFG: registers CH0_CFG … CH2_CFG imported as one register array `CH_CFG` \
             (3 elements, 0x8 apart): same shape",
            "P.CH_DATA: registers CH0_DATA … CH2_DATA imported as one register array `CH_DATA` \
             (3 elements, 0x8 apart): same shape",
            "P.MEM: registers MEM0 … MEM1 imported as one register array `MEM` \
             (2 elements, 0x4 apart): same shape",
        ]
    );

    // The written spec is accepted by the spec reader and means the same.
    let text = write_spec(&imported.device, "numbered");
    assert_eq!(parse_str(&text).expect("valid spec"), imported.device);
}

// ---------------------------------------------------------------------------------------
// A real vendor file: rp2040-pac 0.6.0's svd/rp2040.svd

/// The directory of a package that cargo has locked for this workspace.
fn package_dir(name_and_version: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        // Not `--offline`: on a fresh machine `cargo test` has not fetched these packages
        // (they are never compiled), and `cargo metadata` fetches what it lists.
        .args(["metadata", "--format-version", "1"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json = String::from_utf8(output.stdout).expect("utf-8");
    let needle = format!("{name_and_version}/Cargo.toml\"");
    let end = json
        .find(&needle)
        .unwrap_or_else(|| panic!("{name_and_version} not in cargo metadata"));
    let start = json[..end].rfind('"').expect("a JSON string") + 1;
    PathBuf::from(&json[start..end + name_and_version.len()])
}

fn rp2040_svd() -> String {
    let path = package_dir("rp2040-pac-0.6.0").join("svd/rp2040.svd");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The import is clean (it validates), keeps the map's size, reports what it cannot carry,
/// and the committed tests/fixtures/rp2040 spec and crate are what it produces today.
#[test]
fn rp2040_imports_and_its_committed_spec_and_crate_are_current() {
    let imported = from_str(&rp2040_svd()).expect("rp2040.svd imports");
    let device = &imported.device;
    assert_eq!(device.blocks.len(), 32);
    // Numbered registers became arrays: fewer registers, as many register elements.
    let registers: usize = device.blocks.iter().map(|b| b.registers.len()).sum();
    let elements: usize = device
        .blocks
        .iter()
        .flat_map(|b| &b.registers)
        .map(|r| r.element_offsets().count())
        .sum();
    assert!(registers > 500, "{registers} registers");
    assert!(elements > 1000, "{elements} register elements");
    let warnings: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    // Interrupts are carried, each at the block instance its peripheral is: UART0's line
    // names instance 0 of the UART array that UART0 and UART1 became.
    assert!(
        !warnings.iter().any(|w| w.contains("interrupt")),
        "{warnings:?}"
    );
    let uart0 = device
        .interrupts
        .iter()
        .find(|i| *i.name == "UART0_IRQ")
        .expect("UART0_IRQ");
    assert_eq!(
        (
            *uart0.number,
            uart0.block.as_deref().map(String::as_str),
            uart0.index.as_deref()
        ),
        (20, Some("UART"), Some(&0))
    );
    let uart1 = device.interrupts.iter().find(|i| *i.name == "UART1_IRQ");
    assert_eq!(uart1.and_then(|i| i.index.as_deref()), Some(&1));
    assert_eq!(device.interrupts.len(), 26);
    assert_eq!(
        device.cpu.as_ref().map(|c| c.name.as_str()),
        Some("CM0PLUS")
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("modifiedWriteValues clear not represented"))
    );
    // UART1 is derivedFrom UART0 in the SVD, 0x4000 after it: one block array.
    let uart = device
        .blocks
        .iter()
        .find(|b| *b.name == "UART")
        .expect("UART");
    let array = uart.array.as_ref().expect("UART is a block array");
    assert_eq!(
        (*uart.offset, *array.count, *array.stride),
        (0x4003_4000, 2, 0x4000)
    );
    assert!(uart.registers.iter().any(|r| *r.name == "UARTDR"));
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("blocks UART0, UART1 imported as one block array `UART`"))
    );

    for (block, register, shape) in [
        ("IO_BANK0", "GPIO_STATUS", (0x0, 30, 8)),
        ("DMA", "CH_READ_ADDR", (0x0, 12, 0x40)),
        ("SIO", "SPINLOCK", (0x100, 32, 4)),
        ("PIO", "INSTR_MEM", (0x48, 32, 4)),
    ] {
        let r = device
            .blocks
            .iter()
            .find(|b| *b.name == block)
            .and_then(|b| b.registers.iter().find(|r| *r.name == register))
            .unwrap_or_else(|| panic!("no {block}.{register}"));
        let a = r.array.as_ref().expect("a register array");
        assert_eq!(
            (*r.offset, *a.count, *a.stride),
            shape,
            "{block}.{register}"
        );
    }
    // GPIOn_CTRL stay apart: each pin's FUNCSEL has its own enumerated values.
    assert!(warnings.iter().any(|w| w.contains(
        "registers GPIO0_STATUS … GPIO29_STATUS imported as one register array `GPIO_STATUS`"
    )));
    assert!(!warnings.iter().any(|w| w.contains("`GPIO_CTRL`")));

    let committed = read("tests/fixtures/rp2040/rp2040.yaml");
    let parsed = parse_str(&committed).expect("the committed spec validates");
    assert_eq!(
        &parsed, device,
        "tests/fixtures/rp2040/rp2040.yaml is stale: run \
        `gba import-svd <rp2040-pac 0.6.0>/svd/rp2040.svd --out tests/fixtures/rp2040/rp2040.yaml`"
    );
    let target = Target::custom(
        "tests/fixtures/rp2040/rp2040.yaml".into(),
        "tests/fixtures/rp2040/pac".into(),
    )
    .with_outputs(&[Output::Rust]);
    let stale = project::check(&root(), &target).expect("renders");
    assert!(stale.is_empty(), "run `{}`: {stale:?}", target.command());
}
