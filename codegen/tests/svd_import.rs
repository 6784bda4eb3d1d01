//! The SVD importer on what vendor files declare about overlaps and sizes: which register of
//! two at one offset is the primary, an `alternateRegister` that overlaps nothing, registers
//! of 24 and 1 bits, an address block that swallows its neighbours; and the SVD line that
//! each warning cites.

use gba_codegen::import::svd::{Mode, from_str, from_str_with};
use gba_codegen::model::{Block, Register};
use gba_codegen::{parse_str, write_spec};

/// A device of one peripheral per `(name, base, address block size, registers)`.
fn svd(peripherals: &[(&str, u64, u64, &str)]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<device schemaVersion=\"1.3\">\n\
         <name>chip</name>\n<version>1</version>\n<description>d</description>\n\
         <addressUnitBits>8</addressUnitBits>\n<width>32</width>\n<size>32</size>\n\
         <access>read-write</access>\n<resetValue>0</resetValue>\n\
         <resetMask>0xFFFFFFFF</resetMask>\n<peripherals>\n",
    );
    for (name, base, size, registers) in peripherals {
        xml.push_str(&format!(
            "<peripheral>\n<name>{name}</name>\n<baseAddress>{base:#x}</baseAddress>\n\
             <addressBlock><offset>0</offset><size>{size:#x}</size><usage>registers</usage>\
             </addressBlock>\n<registers>\n{registers}</registers>\n</peripheral>\n"
        ));
    }
    xml.push_str("</peripherals>\n</device>\n");
    xml
}

fn register(name: &str, offset: u64, extra: &str) -> String {
    format!(
        "<register>\n<name>{name}</name>\n<addressOffset>{offset:#x}</addressOffset>\n{extra}\
         </register>\n"
    )
}

/// Imports, checks that the written spec reads back as the same device, and returns the
/// device's blocks and the warnings as `LINE: AT: MESSAGE`.
fn import(xml: &str) -> (Vec<Block>, Vec<String>) {
    let imported = from_str(xml).expect("imports");
    let text = write_spec(&imported.device, "test");
    assert_eq!(
        parse_str(&text).expect("the written spec is valid"),
        imported.device
    );
    let warnings = imported
        .warnings
        .iter()
        .map(|w| format!("{}: {w}", w.line.map_or("-".into(), |l| l.to_string())))
        .collect();
    (imported.device.blocks, warnings)
}

fn find<'a>(block: &'a Block, name: &str) -> &'a Register {
    block
        .registers
        .iter()
        .find(|r| *r.name == name)
        .unwrap_or_else(|| panic!("no register {name} in {:?}", block.registers))
}

fn alternate_of(block: &Block, name: &str) -> Option<String> {
    find(block, name)
        .alternate_of
        .as_ref()
        .map(|of| of.value.clone())
}

fn has(warnings: &[String], needle: &str) {
    assert!(
        warnings.iter().any(|w| w.contains(needle)),
        "no warning containing {needle:?} in {warnings:#?}"
    );
}

#[test]
fn the_register_an_alternate_declares_is_the_primary_wherever_it_stands() {
    // The alternate comes first in the file: it must not become the primary.
    let registers = [
        register(
            "MODE_IN",
            0,
            "<alternateRegister>MODE_OUT</alternateRegister>\n",
        ),
        register("OTHER", 0, ""),
        register("MODE_OUT", 0, ""),
    ]
    .concat();
    let (blocks, warnings) = import(&svd(&[("T", 0x4000_0000, 0x10, &registers)]));
    let t = &blocks[0];
    // MODE_OUT declares nothing, but OTHER, first in the file, is the primary among the
    // registers that declare nothing; MODE_IN's declared register is an alternate then, so
    // MODE_IN is an alternate of the primary it overlaps.
    assert_eq!(alternate_of(t, "OTHER"), None);
    assert_eq!(alternate_of(t, "MODE_OUT").as_deref(), Some("OTHER"));
    assert_eq!(alternate_of(t, "MODE_IN").as_deref(), Some("OTHER"));
    has(&warnings, "no alternateRegister declared");
    has(
        &warnings,
        "declared an alternate of `MODE_OUT`, which is no register of the block, or an alternate",
    );

    let registers = [
        register(
            "CCMR1_Input",
            0x18,
            "<alternateRegister>CCMR1_Output</alternateRegister>\n",
        ),
        register("CCMR1_Output", 0x18, ""),
    ]
    .concat();
    let (blocks, warnings) = import(&svd(&[("TIM", 0x4000_0000, 0x40, &registers)]));
    assert_eq!(alternate_of(&blocks[0], "CCMR1_Output"), None);
    assert_eq!(
        alternate_of(&blocks[0], "CCMR1_Input").as_deref(),
        Some("CCMR1_Output")
    );
    // Carried as declared: nothing to say.
    assert!(
        !warnings.iter().any(|w| w.contains("CCMR1_Input")),
        "{warnings:#?}"
    );
    // Source order is kept.
    let names: Vec<&str> = blocks[0]
        .registers
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(names, ["CCMR1_Input", "CCMR1_Output"]);
}

#[test]
fn a_declared_alternate_in_a_cluster_names_its_register_as_flattened() {
    let registers = "<cluster>\n<name>CH</name>\n<addressOffset>0x10</addressOffset>\n".to_string()
        + &register("B", 0, "<alternateRegister>A</alternateRegister>\n")
        + &register("A", 0, "")
        + "</cluster>\n";
    let (blocks, _) = import(&svd(&[("P", 0x4000_0000, 0x20, &registers)]));
    assert_eq!(alternate_of(&blocks[0], "CH_B").as_deref(), Some("CH_A"));
    assert_eq!(alternate_of(&blocks[0], "CH_A"), None);
}

#[test]
fn an_alternate_that_overlaps_nothing_is_a_register_of_its_own_with_a_warning() {
    let registers = [
        register("A", 0, ""),
        register("B", 4, "<alternateRegister>A</alternateRegister>\n"),
        register("C", 8, "<alternateRegister>NONE</alternateRegister>\n"),
        register("D", 12, "<alternateGroup>G</alternateGroup>\n"),
    ]
    .concat();
    let (blocks, warnings) = import(&svd(&[("P", 0x4000_0000, 0x10, &registers)]));
    for name in ["A", "B", "C", "D"] {
        assert_eq!(alternate_of(&blocks[0], name), None, "{name}");
    }
    has(
        &warnings,
        "P.B: alternateRegister `A` declared, but the two share no byte: imported as a register of its own",
    );
    has(
        &warnings,
        "P.C: alternateRegister `NONE` declared, but the block has no such register",
    );
    has(
        &warnings,
        "P.D: alternateGroup `G` declared, but the register overlaps no other",
    );
}

#[test]
fn registers_of_24_and_1_bits_are_imported_at_the_access_that_reaches_them() {
    let registers = [
        register(
            "WIDE",
            0,
            "<size>24</size>\n<resetValue>0xABCDEF</resetValue>\n<fields><field><name>F</name>\
             <bitRange>[23:0]</bitRange></field></fields>\n",
        ),
        register("BYTE", 4, "<size>1</size>\n<resetValue>0xFF</resetValue>\n"),
        register("HUGE", 8, "<size>128</size>\n"),
    ]
    .concat();
    let (blocks, warnings) = import(&svd(&[("P", 0x4000_0000, 0x10, &registers)]));
    let wide = find(&blocks[0], "WIDE");
    assert_eq!((*wide.width, *wide.reset), (32, 0xAB_CDEF));
    let byte = find(&blocks[0], "BYTE");
    assert_eq!((*byte.width, *byte.reset), (8, 0xFF));
    assert!(blocks[0].registers.iter().all(|r| *r.name != "HUGE"));
    has(
        &warnings,
        "21: P.WIDE: <size>24</size>: no bus access of 24 bits; read as 32",
    );
    has(
        &warnings,
        "28: P.BYTE: <size>1</size>: no bus access of 1 bits; read as 8",
    );
    has(&warnings, "P.HUGE: size 128 bits: no bus access reaches");

    // Strict: no repair, so the 1-bit register's reset value 0xFF is refused (svd-parser),
    // and without it the 24-bit register is imported as 32 bits by the conversion.
    let strict = |xml: &str| from_str_with(xml, Mode::Strict);
    assert!(strict(&svd(&[("P", 0x4000_0000, 0x10, &registers)])).is_err());
    let registers = register("WIDE", 0, "<size>24</size>\n");
    let imported = strict(&svd(&[("P", 0x4000_0000, 0x10, &registers)])).expect("imports");
    assert_eq!(*imported.device.blocks[0].registers[0].width, 32);
    let messages: Vec<String> = imported.warnings.iter().map(|w| w.to_string()).collect();
    has(
        &messages,
        "P.WIDE: size 24 bits: imported as a 32-bit register (the access that reaches it)",
    );
}

#[test]
fn an_address_block_that_swallows_its_neighbours_is_cut_and_they_stay() {
    let r = register("R", 0, "");
    let (blocks, warnings) = import(&svd(&[
        ("BIG", 0x4000_0000, 0x0FFF_F004, &r),
        ("N1", 0x4000_1000, 0x100, &r),
        ("N2", 0x4000_2000, 0x100, &r),
    ]));
    let names: Vec<(&str, u64)> = blocks.iter().map(|b| (b.name.as_str(), *b.size)).collect();
    assert_eq!(names, [("BIG", 0x1000), ("N1", 0x100), ("N2", 0x100)]);
    has(
        &warnings,
        "BIG: addressBlock of 0xffff004 bytes reaches into block `N1` at 0x40001000: cut to 0x1000 bytes",
    );
}

/// Ambiq's Apollo3 (ambiq-apollo3-pac 0.1.0): RSTGEN's `STAT` lies at 0x4FFFF000, so the
/// block really reaches over thirteen others, none of which may be cut or dropped.
#[test]
fn a_block_whose_far_register_reaches_over_its_neighbours_is_their_alternate() {
    let r = register("R", 0, "");
    let far = format!("{r}{}", register("STAT", 0x0FFF_F000, ""));
    let (blocks, warnings) = import(&svd(&[
        ("N1", 0x4000_1000, 0x100, &r),
        ("N2", 0x4000_2000, 0x100, &r),
        ("N3", 0x5000_0000, 0x100, &r),
        ("RST", 0x4000_0000, 0x0FFF_F004, &far),
    ]));
    let sizes: Vec<(&str, u64)> = blocks.iter().map(|b| (b.name.as_str(), *b.size)).collect();
    assert_eq!(
        sizes,
        [
            ("N1", 0x100),
            ("N2", 0x100),
            ("N3", 0x100),
            ("RST", 0x0FFF_F004)
        ]
    );
    // Of the last block below its end (the choice names a primary; the accessors are the
    // same either way), and the warning names every block it covers.
    assert_eq!(block_alternate_of(&blocks, "RST").as_deref(), Some("N2"));
    has(
        &warnings,
        "RST: overlaps block `N2` and 1 more (`N1`) (no alternatePeripheral declared; its \
         register `STAT` lies at offset 0xffff000): imported as an alternate of `N2` \
         (`alternate_of: N2`) so that none of them is dropped",
    );
}

#[test]
fn an_address_block_past_the_32_bit_address_space_is_cut_to_its_registers() {
    let r = register("R", 0x10, "");
    let (blocks, warnings) = import(&svd(&[("NVIC", 0xE000_E000, 0xFFFF_F3FF, &r)]));
    assert_eq!(*blocks[0].size, 0x14);
    has(
        &warnings,
        "NVIC: addressBlock ends at 0xfffff3ff from base 0xe000e000, past the 32-bit address \
         space: cut to 0x14 bytes",
    );
}

#[test]
fn warnings_cite_the_line_of_the_item() {
    let registers = [
        register("CTRL", 0, ""),
        register("ctrl", 4, ""),
        register("type", 8, ""),
    ]
    .concat();
    let xml = svd(&[("P", 0x4000_0000, 0x10, &registers)]);
    let line_of = |needle: &str| {
        xml.lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .unwrap()
    };
    let (_, warnings) = import(&xml);
    has(
        &warnings,
        &format!(
            "{}: P.ctrl: register `ctrl` renamed `ctrl_2`",
            line_of("<name>ctrl</name>")
        ),
    );
    has(
        &warnings,
        &format!(
            "{}: P.type: register `type` renamed",
            line_of("<name>type</name>")
        ),
    );
}

fn block<'a>(blocks: &'a [Block], name: &str) -> &'a Block {
    blocks
        .iter()
        .find(|b| *b.name == name)
        .unwrap_or_else(|| panic!("no block {name}"))
}

fn block_alternate_of(blocks: &[Block], name: &str) -> Option<String> {
    block(blocks, name)
        .alternate_of
        .as_ref()
        .map(|of| of.value.clone())
}

/// A peripheral with `<alternatePeripheral>` (after the name, where the schema puts it).
fn alternate_peripheral(name: &str, of: &str) -> String {
    format!("{name}</name>\n<alternatePeripheral>{of}</alternatePeripheral>\n<name_>")
}

#[test]
fn an_alternate_peripheral_becomes_an_alternate_block() {
    let r = register("R", 0, "");
    // The alternate comes first in the file: what it declares decides, not the order.
    let alt = alternate_peripheral("ALT", "UNIT");
    let xml = svd(&[
        (&alt, 0x4000_0000, 0x100, &r),
        ("UNIT", 0x4000_0000, 0x100, &r),
        ("ALIAS", 0x4000_0000, 0x100, &r),
        ("OTHER", 0x4000_1000, 0x100, &r),
    ])
    .replace("<name_></name>\n", "");
    let (blocks, warnings) = import(&xml);
    assert_eq!(block_alternate_of(&blocks, "UNIT"), None);
    assert_eq!(block_alternate_of(&blocks, "ALT").as_deref(), Some("UNIT"));
    // Declares nothing, lies on UNIT: kept as its alternate, not left out.
    assert_eq!(
        block_alternate_of(&blocks, "ALIAS").as_deref(),
        Some("UNIT")
    );
    assert_eq!(block_alternate_of(&blocks, "OTHER"), None);
    // Carried as declared: nothing to say.
    assert!(
        !warnings.iter().any(|w| w.contains("ALT:")),
        "{warnings:#?}"
    );
    has(
        &warnings,
        "ALIAS: overlaps block `UNIT` and 1 more (`ALT`) (no alternatePeripheral declared): \
         imported as an alternate of `UNIT`",
    );
    assert!(
        !warnings.iter().any(|w| w.contains("not represented")),
        "{warnings:#?}"
    );
}

#[test]
fn an_alternate_peripheral_that_overlaps_nothing_is_a_block_of_its_own() {
    let r = register("R", 0, "");
    let far = alternate_peripheral("FAR", "UNIT");
    let gone = alternate_peripheral("GONE", "NOWHERE");
    let xml = svd(&[
        ("UNIT", 0x4000_0000, 0x100, &r),
        (&far, 0x4000_1000, 0x100, &r),
        (&gone, 0x4000_2000, 0x100, &r),
    ])
    .replace("<name_></name>\n", "");
    let (blocks, warnings) = import(&xml);
    for name in ["UNIT", "FAR", "GONE"] {
        assert_eq!(block_alternate_of(&blocks, name), None, "{name}");
    }
    has(
        &warnings,
        "FAR: alternatePeripheral `UNIT` declared, but the two share no byte: imported as a block \
         of its own",
    );
    has(
        &warnings,
        "GONE: alternatePeripheral `NOWHERE` declared, but the device has no such block",
    );
}

#[test]
fn the_registers_of_an_alternate_cluster_are_alternates_of_their_counterparts() {
    // MODE1 is another view of MODE0 (RTC modes of a SAM D), and comes first in the file.
    let cluster = |name: &str, alternate: &str, registers: &str| {
        format!(
            "<cluster>\n<name>{name}</name>\n{alternate}<addressOffset>0</addressOffset>\n\
             {registers}</cluster>\n"
        )
    };
    let registers = cluster(
        "MODE1",
        "<alternateCluster>MODE0</alternateCluster>\n",
        &[
            register("CTRL", 0, "<size>16</size>\n"),
            register("COUNT", 4, ""),
            register("PER", 0x20, ""),
        ]
        .concat(),
    ) + &cluster(
        "MODE0",
        "",
        &[register("CTRL", 0, ""), register("COUNT", 4, "")].concat(),
    );
    let (blocks, warnings) = import(&svd(&[("RTC", 0x4000_0000, 0x40, &registers)]));
    let rtc = &blocks[0];
    assert_eq!(alternate_of(rtc, "MODE0_CTRL"), None);
    assert_eq!(
        alternate_of(rtc, "MODE1_CTRL").as_deref(),
        Some("MODE0_CTRL")
    );
    assert_eq!(
        alternate_of(rtc, "MODE1_COUNT").as_deref(),
        Some("MODE0_COUNT")
    );
    // Where the other cluster has nothing: a register of its own, and no warning.
    assert_eq!(alternate_of(rtc, "MODE1_PER"), None);
    // Carried as declared: nothing to say.
    assert!(
        !warnings
            .iter()
            .any(|w| w.contains("not represented") || w.contains("MODE1")),
        "{warnings:#?}"
    );
}

/// Each warning says what was done with its item, and the summary counts each kind, so that
/// what was left out stands out of a vendor file's thousands of renames.
#[test]
fn every_warning_names_its_treatment_and_the_summary_counts_them() {
    use gba_codegen::import::{Treatment, summary};
    let values = "<fields><field><name>MODE</name><bitRange>[1:0]</bitRange>\
                  <enumeratedValues><enumeratedValue><name>0</name><value>0</value>\
                  </enumeratedValue><enumeratedValue><name>BIG</name><value>7</value>\
                  </enumeratedValue></enumeratedValues></field></fields>\n";
    let registers = [
        register("CTRL", 0, values),
        register("DATA0", 4, ""),
        register("DATA1", 8, ""),
        register("ODD", 0xD, "<size>16</size>\n"),
        register("RST", 0x10, "<resetValue>0x1FFFFFFFF</resetValue>\n"),
        register(
            "RA",
            0x14,
            // Write-once is carried by fields; a register without fields cannot carry it.
            "<access>writeOnce</access>\n",
        ),
    ]
    .concat();
    let xml = svd(&[("P", 0x4000_0000, 0x100, &registers)]);
    let imported = from_str(&xml).expect("imports");
    let treatment_of = |needle: &str| {
        let found: Vec<Treatment> = imported
            .warnings
            .iter()
            .filter(|w| w.to_string().contains(needle))
            .map(|w| w.treatment)
            .collect();
        assert_eq!(found.len(), 1, "{needle:?} in {:#?}", imported.warnings);
        found[0]
    };
    assert_eq!(treatment_of("`0` renamed `V_0`"), Treatment::Renamed);
    assert_eq!(
        treatment_of("imported as one register array"),
        Treatment::Reshaped
    );
    assert_eq!(treatment_of("P.RST: <resetValue>"), Treatment::Repaired);
    assert_eq!(treatment_of("access writeOnce"), Treatment::NotRepresented);
    assert_eq!(treatment_of("P.ODD: offset 0xd"), Treatment::LeftOut);
    assert_eq!(treatment_of("`BIG` = 7 does not fit"), Treatment::LeftOut);
    let by = |t: Treatment| {
        imported
            .warnings
            .iter()
            .filter(|w| w.treatment == t)
            .count()
    };
    let n = imported.warnings.len();
    assert_eq!(
        summary(&imported.warnings).as_deref(),
        Some(
            format!(
                "{n} warning(s): the items above are not carried over as they are ({} renamed, \
                 {} reshaped, {} repaired, {} not represented, {} left out)",
                by(Treatment::Renamed),
                by(Treatment::Reshaped),
                by(Treatment::Repaired),
                by(Treatment::NotRepresented),
                by(Treatment::LeftOut),
            )
            .as_str()
        )
    );
    // Kinds that did not happen are not listed.
    let first = &imported.warnings[..1];
    assert_eq!(
        summary(first),
        Some(format!(
            "1 warning(s): the items above are not carried over as they are (1 {})",
            first[0].treatment.as_str()
        ))
    );
    assert_eq!(summary(&[]), None);
}

/// An SVD field of the given bits.
fn field(name: &str, range: &str) -> String {
    format!("<field><name>{name}</name><bitRange>[{range}]</bitRange></field>")
}

/// The names of a register's fields, in order.
fn field_names(register: &Register) -> Vec<String> {
    register
        .fields
        .iter()
        .map(|f| f.name.value.clone())
        .collect()
}

/// Fields that overlap (one bit read as one thing, written as another) are fields of
/// alternate views of their register, each in the first view where it overlaps nothing; a
/// view of a register that is itself an alternate is an alternate of that one's primary.
#[test]
fn overlapping_fields_move_to_alternate_views_of_their_register() {
    let fields = [
        field("A", "0:0"),
        field("B", "2:0"),
        field("C", "4:4"),
        field("D", "0:0"),
    ]
    .concat();
    let alt = "<alternateRegister>R</alternateRegister>\n";
    let registers = [
        register("R", 0, &format!("<fields>{fields}</fields>\n")),
        register(
            "Q",
            0,
            &format!(
                "{alt}<fields>{}</fields>\n",
                field("E", "1:0") + &field("F", "0:0")
            ),
        ),
        // The vendor's own register of the name the first view would take.
        register("R_ALT", 4, ""),
        // T overlaps S without declaring it: an alternate of S, and so is T's view.
        register("S", 8, ""),
        register(
            "T",
            8,
            &format!(
                "<fields>{}</fields>\n",
                field("G", "1:0") + &field("H", "0:0")
            ),
        ),
    ]
    .concat();
    let (blocks, warnings) = import(&svd(&[("P", 0x4000_0000, 0x10, &registers)]));
    let names = |r: &str| field_names(find(&blocks[0], r));
    assert_eq!(names("R"), ["A", "C"]);
    assert_eq!(names("R_ALT"), ["B"]);
    assert_eq!(names("R_ALT2"), ["D"]);
    assert_eq!(alternate_of(&blocks[0], "R"), None);
    assert_eq!(alternate_of(&blocks[0], "R_ALT").as_deref(), Some("R"));
    assert_eq!(alternate_of(&blocks[0], "R_ALT2").as_deref(), Some("R"));
    // Q is an alternate of R: its view too, since an alternate cannot have alternates.
    assert_eq!(names("Q"), ["E"]);
    assert_eq!(names("Q_ALT"), ["F"]);
    assert_eq!(alternate_of(&blocks[0], "Q").as_deref(), Some("R"));
    assert_eq!(alternate_of(&blocks[0], "Q_ALT").as_deref(), Some("R"));
    // The vendor's `R_ALT` is renamed, with a note, and stays a register of its own.
    assert_eq!(alternate_of(&blocks[0], "R_ALT_2"), None);
    has(
        &warnings,
        "P.R_ALT: register `R_ALT` renamed `R_ALT_2`: the name (ignoring case) is taken",
    );
    assert_eq!(names("T_ALT"), ["H"]);
    assert_eq!(alternate_of(&blocks[0], "T").as_deref(), Some("S"));
    assert_eq!(alternate_of(&blocks[0], "T_ALT").as_deref(), Some("S"));
    let view = find(&blocks[0], "R_ALT2");
    let own = find(&blocks[0], "R");
    assert_eq!(
        (*view.offset, *view.width, *view.access, *view.reset),
        (*own.offset, *own.width, *own.access, *own.reset)
    );
    has(
        &warnings,
        "P.R.B: overlaps field `A`: imported as a field of `R_ALT`, an alternate view of \
         `R`'s bytes",
    );
    has(
        &warnings,
        "P.R.D: overlaps field `A`: imported as a field of `R_ALT2`",
    );
    has(
        &warnings,
        "P.Q.F: overlaps field `E`: imported as a field of `Q_ALT`",
    );
    // One word per moved field and per undeclared overlap, nothing about the views' own
    // placing, and nothing left out.
    assert_eq!(
        warnings
            .iter()
            .filter(|w| w.contains("overlaps register"))
            .count(),
        1,
        "{warnings:#?}"
    );
    assert!(
        !warnings.iter().any(|w| w.contains("left out")),
        "{warnings:#?}"
    );
}

#[test]
fn a_reserved_field_drawn_over_real_ones_is_what_moves_to_the_view() {
    // NXP's LPC5410x `VFIFO.CTLCLRSPI0`: `RESERVED` declared over bits that real fields use.
    let fields = [
        field("RESERVED", "7:0"),
        field("RXCLR", "0:0"),
        field("TXCLR", "1:1"),
        field("Reserved2", "31:2"),
    ]
    .concat();
    let registers = register("R", 0, &format!("<fields>{fields}</fields>\n"));
    let (blocks, warnings) = import(&svd(&[("P", 0x4000_0000, 0x10, &registers)]));
    let names = |r: &str| field_names(find(&blocks[0], r));
    // The real fields stay in the register, in the SVD's order.
    assert_eq!(names("R"), ["RXCLR", "TXCLR", "Reserved2"]);
    assert_eq!(names("R_ALT"), ["RESERVED"]);
    has(
        &warnings,
        "P.R.RESERVED: overlaps field `RXCLR`: imported as a field of `R_ALT`",
    );
}

/// nrf51.svd's style: a field with values for reading and others for writing (`DIRSET`'s
/// `Input`/`Output` read, `Set` written). Both are carried (`values`, `write_values`), the
/// SVD output writes both sets back, and the Rust field module's constants are the write
/// values while `Value` decodes reads. Derived peripherals with the same registers become one
/// block type, named by what their names share.
#[test]
fn read_and_write_enumerations_are_both_carried() {
    let field = "<fields><field><name>PIN0</name><bitOffset>0</bitOffset><bitWidth>1</bitWidth>\
        <enumeratedValues><usage>read</usage>\
        <enumeratedValue><name>Input</name><value>0</value></enumeratedValue>\
        <enumeratedValue><name>Output</name><value>1</value></enumeratedValue>\
        </enumeratedValues>\
        <enumeratedValues><usage>write</usage>\
        <enumeratedValue><name>Drive</name><description>Make the pin an output.</description><value>1</value></enumeratedValue>\
        </enumeratedValues></field></fields>";
    let regs = register("DIRSET", 0, field);
    let xml = svd(&[
        ("GPIOA", 0x1000, 0x100, &regs),
        ("GPIOB", 0x2000, 0x100, &regs),
    ]);
    let (blocks, warnings) = import(&xml);
    assert!(
        !warnings.iter().any(|w| w.contains("enumeratedValues")),
        "{warnings:#?}"
    );
    let pin = &find(&blocks[0], "DIRSET").fields[0];
    let names = |values: &[gba_codegen::model::EnumValue]| -> Vec<String> {
        values.iter().map(|v| v.name.value.clone()).collect()
    };
    assert_eq!(names(&pin.values), ["Input", "Output"]);
    assert_eq!(names(&pin.write_values), ["Drive"]);
    // One type for the two ports.
    let types: Vec<_> = blocks
        .iter()
        .map(|b| b.instance_of.as_ref().map(|t| t.name.value.clone()))
        .collect();
    assert_eq!(types, [Some("GPIO".to_string()), Some("GPIO".to_string())]);

    let device = from_str(&xml).expect("imports").device;
    let device = gba_codegen::validate(device, &gba_codegen::Output::ALL).expect("valid");
    let provenance = gba_codegen::emit::Provenance {
        spec: "chip.yaml".into(),
        command: "gba gen".into(),
    };
    let svd_out = gba_codegen::emit::render_svd(&device, &provenance).expect("renders");
    assert!(svd_out.contains("<usage>read</usage>"), "{svd_out}");
    assert!(svd_out.contains("<usage>write</usage>"), "{svd_out}");
    assert!(
        svd_out.contains("<derivedFrom>") || svd_out.contains("derivedFrom=\"GPIOA\""),
        "{svd_out}"
    );
    let back = from_str(&svd_out).expect("reads back").device;
    assert_eq!(
        back,
        *device.device(),
        "the SVD output reads back as the spec"
    );
    let files = gba_codegen::emit::all(&device, &provenance).expect("emits");
    let module = &files
        .iter()
        .find(|f| f.path == "src/gpio.rs")
        .expect("one module for the type")
        .contents;
    assert!(
        module.contains("pub const DRIVE: FieldValue<u32, Register> = value(0x1);"),
        "{module}"
    );
    assert!(!module.contains("pub const INPUT: FieldValue"), "{module}");
    assert!(module.contains("INPUT = 0x0"), "{module}");
    let header = &files
        .iter()
        .find(|f| f.path.ends_with(".h"))
        .expect("header")
        .contents;
    assert!(header.contains("CHIP_GPIO_DIRSET_PIN0_DRIVE"), "{header}");
    // IP-XACT says each value's use; SystemRDL has one `encode` for both and says what it
    // leaves out.
    let ipxact = &files
        .iter()
        .find(|f| f.path.ends_with(".xml"))
        .expect("IP-XACT")
        .contents;
    let uses: Vec<(&str, &str)> = ipxact
        .split("<ipxact:enumeratedValue ")
        .skip(1)
        .filter_map(|v| {
            let usage = v.strip_prefix("usage=\"")?.split('"').next()?;
            let name = v.split("<ipxact:name>").nth(1)?.split('<').next()?;
            Some((usage, name))
        })
        .collect();
    assert_eq!(
        uses,
        [("read", "Input"), ("read", "Output"), ("write", "Drive")].repeat(2),
        "{ipxact}"
    );
    let dropped: Vec<&str> = device
        .warnings()
        .iter()
        .map(|w| w.message.as_str())
        .filter(|m| m.contains("write values"))
        .collect();
    assert_eq!(
        dropped,
        [
            "the SystemRDL output cannot carry the write values of field `GPIOA.DIRSET.PIN0`",
            "the SystemRDL output cannot carry the write values of field `GPIOB.DIRSET.PIN0`",
        ]
    );
}
