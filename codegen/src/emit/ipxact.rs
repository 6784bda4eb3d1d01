//! IP-XACT, IEEE 1685-2014 (`<device>.xml`): one `component` with one `memoryMap`.
//!
//! Mapping: a block is an `addressBlock` (`baseAddress`, `range` = its size); a block array
//! an `addressBlock` spanning every instance that holds one `registerFile` array (`dim`,
//! `range` = the stride), since 1685-2014 has no address-block arrays; a register a
//! `register` (`size`, `access`); a register array a `register` with `dim` when its elements
//! are contiguous, else one register per element (1685-2014 has no register stride);
//! a field a `field` with its part of the reset value, `access` only where it differs from
//! the register's (the standard's own inheritance), `modifiedWriteValue`/`readAction` for its
//! side effect (`crate::interchange::EFFECTS`) and `enumeratedValues`.
//!
//! Alternate blocks and alternate registers are alternate views of the address space: they
//! go into a `memoryRemap` (remap state `gba_alternate`), an alternate register in an
//! `addressBlock` of its own at its block's offset. The rest is carried in
//! `vendorExtensions` in the namespace `crate::interchange::ext::NAMESPACE`: the version
//! (exactly, as the VLNV needs one), the constants, a block's size and array shape, a
//! register array's shape, reset bits outside every field, a field's reset from its element's
//! index or a strap (`resetFrom`; a register's bus access width when narrower than the
//! register, `accessWidth`, which IP-XACT 1685-2014 has no element for; a strapped field has no `resets`, its value not being known
//! in the description), a stand-in field for a register without fields, and alternates'
//! targets and places.

use std::fmt::Write;

use super::{GeneratedFile, Place, Provenance};
use crate::Validated;
use crate::interchange::ext::ALTERNATE_STATE;
use crate::interchange::{self, ext};
use crate::model::{Block, Device, Field, Register};

pub const IPXACT_NS: &str = "http://www.accellera.org/XMLSchema/IPXACT/1685-2014";

pub fn files(device: &Validated, provenance: &Provenance) -> Vec<GeneratedFile> {
    vec![GeneratedFile {
        place: Place::Crate,
        path: format!("{}.xml", crate::names::lower(&device.name)),
        contents: render(device, provenance),
    }]
}

fn escape(text: &str) -> String {
    super::text::xml(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A number as IP-XACT 1685-2014 writes one (a SystemVerilog literal).
fn hex(value: u64) -> String {
    format!("'h{value:x}")
}

struct Xml {
    out: String,
    depth: usize,
}

impl Xml {
    fn open(&mut self, tag: &str) {
        let _ = writeln!(self.out, "{:w$}<{tag}>", "", w = self.depth * 2);
        self.depth += 1;
    }
    fn open_with(&mut self, tag: &str, attributes: &str) {
        let _ = writeln!(
            self.out,
            "{:w$}<{tag} {attributes}>",
            "",
            w = self.depth * 2
        );
        self.depth += 1;
    }
    fn close(&mut self, tag: &str) {
        self.depth -= 1;
        let _ = writeln!(self.out, "{:w$}</{tag}>", "", w = self.depth * 2);
    }
    fn leaf(&mut self, tag: &str, text: &str) {
        let _ = writeln!(
            self.out,
            "{:w$}<{tag}>{}</{tag}>",
            "",
            escape(text),
            w = self.depth * 2
        );
    }
    fn description(&mut self, text: &str) {
        if !text.is_empty() {
            self.leaf("ipxact:description", text);
        }
    }
}

fn comment_safe(text: &str) -> String {
    let mut out = text.to_string();
    while out.contains("--") {
        out = out.replace("--", "- -");
    }
    out
}

/// The device as one IP-XACT 1685-2014 component (the text of `<device>.xml`), whose
/// first comment is the preamble. What IP-XACT cannot carry is left out:
/// [`warnings`](super::warnings) lists it.
pub fn render(device: &Device, provenance: &Provenance) -> String {
    let mut x = Xml {
        out: format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--{}-->\n",
            comment_safe(&provenance.preamble("")).trim_end_matches('\n')
        ),
        depth: 0,
    };
    x.open_with(
        "ipxact:component",
        &format!(
            "xmlns:ipxact=\"{IPXACT_NS}\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
             xmlns:{p}=\"{ns}\" xsi:schemaLocation=\"{IPXACT_NS} {IPXACT_NS}/index.xsd\"",
            p = ext::PREFIX,
            ns = ext::NAMESPACE
        ),
    );
    x.leaf("ipxact:vendor", "gba-codegen");
    x.leaf("ipxact:library", &device.name);
    x.leaf("ipxact:name", &device.name);
    x.leaf(
        "ipxact:version",
        if device.version.is_empty() {
            "0"
        } else {
            &device.version
        },
    );
    x.description(&device.description);
    x.open("ipxact:memoryMaps");
    x.open("ipxact:memoryMap");
    x.leaf("ipxact:name", &device.name);
    let mut alternates = Vec::new();
    for (position, block) in device.blocks.iter().enumerate() {
        if block.alternate_of.is_some() {
            alternates.push((position, block));
        } else if interchange::interleaved_block(device, block) {
            // Other blocks lie between the instances: one address block per instance.
            let Some(array) = &block.array else { continue };
            for index in 0..*array.count {
                let instance = Block {
                    name: crate::location::Located::synthetic(format!("{}_{index}", *block.name)),
                    offset: crate::location::Located::synthetic(
                        block
                            .offset
                            .saturating_add(index.saturating_mul(*array.stride)),
                    ),
                    array: None,
                    ..block.clone()
                };
                address_block(&mut x, &instance, None);
                // The marker goes inside the address block just written.
                if let Some(end) = x.out.rfind("</ipxact:vendorExtensions>") {
                    let at = x.out[..end].rfind('\n').map_or(0, |n| n + 1);
                    x.out.insert_str(
                        at,
                        &format!(
                            "          <gba:element>\n            <gba:array>{}</gba:array>\n            <gba:index>{index}</gba:index>\n            <gba:count>{}</gba:count>\n            <gba:stride>{}</gba:stride>\n          </gba:element>\n",
                            escape(&block.name),
                            *array.count,
                            hex(*array.stride)
                        ),
                    );
                }
            }
        } else {
            address_block(&mut x, block, None);
        }
    }
    let views = device
        .blocks
        .iter()
        .any(|b| b.alternate_of.is_some() || b.registers.iter().any(|r| r.alternate_of.is_some()));
    if views {
        x.open("ipxact:memoryRemap");
        x.leaf("ipxact:name", ALTERNATE_STATE);
        x.leaf("ipxact:remapState", ALTERNATE_STATE);
        for block in &device.blocks {
            if let Some(position) = alternates
                .iter()
                .find(|(_, b)| std::ptr::eq(*b, block))
                .map(|(p, _)| *p)
            {
                address_block(&mut x, block, Some(Alternate::Block(position)));
            }
            for (position, register) in block.registers.iter().enumerate() {
                if register.alternate_of.is_some() {
                    address_block(&mut x, block, Some(Alternate::Register(position)));
                }
            }
        }
        x.close("ipxact:memoryRemap");
    }
    x.leaf("ipxact:addressUnitBits", "8");
    x.close("ipxact:memoryMap");
    x.close("ipxact:memoryMaps");
    x.open("ipxact:vendorExtensions");
    x.leaf("gba:version", &device.version);
    if !device.constants.is_empty() {
        x.open("gba:constants");
        for c in &device.constants {
            x.open("gba:constant");
            x.leaf("gba:name", &c.name);
            x.leaf("gba:value", &c.value.to_string());
            if !c.description.is_empty() {
                x.leaf("gba:description", &c.description);
            }
            x.close("gba:constant");
        }
        x.close("gba:constants");
    }
    if !device.interrupts.is_empty() {
        x.open("gba:interrupts");
        for i in &device.interrupts {
            x.open("gba:interrupt");
            x.leaf("gba:name", &i.name);
            x.leaf("gba:number", &i.number.to_string());
            if let Some(block) = &i.block {
                x.leaf("gba:block", block);
            }
            if let Some(index) = &i.index {
                x.leaf("gba:index", &index.to_string());
            }
            if !i.description.is_empty() {
                x.leaf("gba:description", &i.description);
            }
            x.close("gba:interrupt");
        }
        x.close("gba:interrupts");
    }
    if let Some(cpu) = &device.cpu {
        x.leaf("gba:cpu", &cpu.name);
        if let Some(bits) = &cpu.nvic_prio_bits {
            x.leaf("gba:nvicPrioBits", &bits.to_string());
        }
    }
    if let Some(address) = &device.address {
        x.leaf("gba:address", &format!("{:#x}", **address));
    }
    x.close("ipxact:vendorExtensions");
    x.close("ipxact:component");
    x.out
}

/// What an address block in the memoryRemap stands for.
#[derive(Clone, Copy)]
enum Alternate {
    /// An alternate block, at this place among the device's blocks.
    Block(usize),
    /// The alternate register at this place among its block's registers.
    Register(usize),
}

fn address_block(x: &mut Xml, block: &Block, alternate: Option<Alternate>) {
    let registers: Vec<&Register> = match alternate {
        Some(Alternate::Register(position)) => vec![&block.registers[position]],
        _ => block
            .registers
            .iter()
            .filter(|r| r.alternate_of.is_none())
            .collect(),
    };
    let span = match &block.array {
        Some(a) => a.stride.saturating_mul(a.count.saturating_sub(1)) + *block.size,
        None => *block.size,
    };
    let width = block.registers.iter().map(|r| *r.width).max().unwrap_or(32);
    x.open("ipxact:addressBlock");
    match alternate {
        Some(Alternate::Register(position)) => x.leaf(
            "ipxact:name",
            &format!("{}__{}", *block.name, *block.registers[position].name),
        ),
        _ => {
            x.leaf("ipxact:name", &block.name);
            x.description(&block.description);
        }
    }
    x.leaf("ipxact:baseAddress", &hex(*block.offset));
    x.leaf("ipxact:range", &hex(span));
    x.leaf("ipxact:width", &width.to_string());
    x.leaf("ipxact:usage", "register");
    match &block.array {
        Some(a) => {
            x.open("ipxact:registerFile");
            x.leaf("ipxact:name", &block.name);
            x.leaf("ipxact:dim", &a.count.to_string());
            x.leaf("ipxact:addressOffset", &hex(0));
            x.leaf("ipxact:range", &hex(*a.stride));
            for r in &registers {
                register(x, block, r);
            }
            x.close("ipxact:registerFile");
        }
        None => {
            for r in &registers {
                register(x, block, r);
            }
        }
    }
    x.open("ipxact:vendorExtensions");
    x.leaf("gba:size", &hex(*block.size));
    if let Some(a) = &block.array {
        x.open("gba:array");
        x.leaf("gba:count", &a.count.to_string());
        x.leaf("gba:stride", &hex(*a.stride));
        x.close("gba:array");
    }
    match alternate {
        Some(Alternate::Block(position)) => {
            if let Some(of) = &block.alternate_of {
                x.leaf("gba:alternateOf", of);
            }
            x.leaf("gba:position", &position.to_string());
        }
        Some(Alternate::Register(position)) => {
            x.leaf("gba:viewOf", &block.name);
            x.leaf("gba:position", &position.to_string());
        }
        None => {}
    }
    x.close("ipxact:vendorExtensions");
    x.close("ipxact:addressBlock");
}

fn register(x: &mut Xml, block: &Block, register: &Register) {
    match &register.array {
        // 1685-2014 has no register stride: an array whose elements are not contiguous is
        // written element by element (`NAME_0`, `NAME_1`, …), each marked `gba:element`.
        Some(array) if *array.stride != register.bytes() => {
            for (index, offset) in register.element_offsets().enumerate() {
                let element = Register {
                    name: crate::location::Located::synthetic(format!(
                        "{}_{index}",
                        *register.name
                    )),
                    offset: crate::location::Located::synthetic(offset),
                    array: None,
                    ..register.clone()
                };
                register_as(
                    x,
                    block,
                    &element,
                    Some((&register.name, index, *array.count, *array.stride)),
                );
            }
        }
        _ => register_as(x, block, register, None),
    }
}

fn register_as(
    x: &mut Xml,
    block: &Block,
    register: &Register,
    element: Option<(&str, usize, u64, u64)>,
) {
    x.open("ipxact:register");
    x.leaf("ipxact:name", &register.name);
    x.description(&register.description);
    if let Some(a) = &register.array {
        x.leaf("ipxact:dim", &a.count.to_string());
    }
    x.leaf("ipxact:addressOffset", &hex(*register.offset));
    x.leaf("ipxact:size", &register.width.to_string());
    x.leaf(
        "ipxact:access",
        interchange::ipxact_access(*register.access),
    );
    if register.fields.is_empty() {
        x.open("ipxact:field");
        x.leaf("ipxact:name", "VALUE");
        x.leaf("ipxact:bitOffset", "0");
        resets(x, *register.reset);
        x.leaf("ipxact:bitWidth", &register.width.to_string());
        x.open("ipxact:vendorExtensions");
        x.leaf("gba:implicit", "true");
        x.close("ipxact:vendorExtensions");
        x.close("ipxact:field");
    }
    for f in &register.fields {
        field(x, register, f);
    }
    let field_bits = register.fields.iter().fold(0, |m, f| m | f.bits.mask());
    let extra_reset = *register.reset & !field_bits != 0 && !register.fields.is_empty();
    // A lock the formats cannot carry is left out, as validation warned
    // (`interchange::check`).
    let lock = register
        .lock
        .as_ref()
        .filter(|_| interchange::lock_carried(block, register));
    let split = register.access_pieces() > 1;
    if extra_reset
        || register.alternate_of.is_some()
        || element.is_some()
        || lock.is_some()
        || split
        || register.hardware.external
    {
        x.open("ipxact:vendorExtensions");
        if register.hardware.external {
            x.leaf(&format!("gba:{}", interchange::ext::EXTERNAL), "true");
        }
        if split {
            x.leaf("gba:accessWidth", &register.access_bits().to_string());
            if let Some(protocol) = &register.split_read {
                x.leaf("gba:splitRead", protocol.keyword());
            }
        }
        if let Some(lock) = lock {
            x.leaf(
                &format!("gba:{}", interchange::lock_property(lock)),
                &format!("{}.{}", *lock.register, *lock.field),
            );
        }
        if extra_reset {
            x.leaf("gba:reset", &hex(*register.reset));
        }
        if let Some(of) = &register.alternate_of {
            x.leaf("gba:alternateOf", of);
        }
        if let Some((array, index, count, stride)) = element {
            x.open("gba:element");
            x.leaf("gba:array", array);
            x.leaf("gba:index", &index.to_string());
            x.leaf("gba:count", &count.to_string());
            x.leaf("gba:stride", &hex(stride));
            x.close("gba:element");
        }
        x.close("ipxact:vendorExtensions");
    }
    x.close("ipxact:register");
}

fn resets(x: &mut Xml, value: u64) {
    x.open("ipxact:resets");
    x.open("ipxact:reset");
    x.leaf("ipxact:value", &hex(value));
    x.close("ipxact:reset");
    x.close("ipxact:resets");
}

fn field(x: &mut Xml, register: &Register, field: &Field) {
    x.open("ipxact:field");
    x.leaf("ipxact:name", &field.name);
    x.description(&field.description);
    x.leaf("ipxact:bitOffset", &field.bits.lsb.to_string());
    use crate::model::ResetFrom;
    // A strapped field's reset is not known in the description, and a field not reset has
    // none: neither has `<resets>` (1685-2014's own "not reset").
    let from = field.reset_from.map(|r| *r);
    if !matches!(from, Some(ResetFrom::Strap | ResetFrom::NotReset)) {
        // The field's reset is its value: an msb0 field's bits reversed.
        resets(
            x,
            field.value_of_bits((*register.reset & field.bits.mask()) >> field.bits.lsb),
        );
    }
    let from = from.filter(|r| *r != ResetFrom::NotReset);
    x.leaf("ipxact:bitWidth", &field.bits.width().to_string());
    let pulse = field
        .side_effect
        .is_some_and(|e| *e == crate::model::SideEffect::SinglePulse);
    if pulse {
        x.leaf("ipxact:volatile", "true");
    }
    if field.write_once {
        // Write-once has no register-level form here: the field says it, whatever its
        // register's access.
        let access = field.effective_access(register);
        x.leaf(
            "ipxact:access",
            interchange::ipxact_field_access(access, true),
        );
    } else if let Some(access) = &field.access {
        x.leaf("ipxact:access", interchange::ipxact_access(**access));
    }
    enumerated_values(x, field);
    // modifiedWriteValue comes before readAction in the schema; a field has at most one
    // side effect.
    let effect = field.side_effect.map(|e| match *e {
        crate::model::SideEffect::SinglePulse => interchange::SINGLE_PULSE_IPXACT,
        other => interchange::written_as(other),
    });
    if let Some(s) = effect.and_then(interchange::spelling) {
        x.leaf(&format!("ipxact:{}", s.ipxact_element), s.ipxact_value);
    }
    let stood_in = field
        .side_effect
        .filter(|e| interchange::stand_in(**e).is_some());
    let hw = field.hardware.access.as_deref();
    let strobes = [
        (interchange::ext::SWMOD, field.hardware.swmod),
        (interchange::ext::SWACC, field.hardware.swacc),
    ];
    let msb0 = field.is_msb0();
    if pulse || from.is_some() || stood_in.is_some() || msb0 || !field.hardware.is_empty() {
        x.open("ipxact:vendorExtensions");
        if msb0 {
            x.leaf(&format!("gba:{}", interchange::ext::BIT_ORDER), "msb0");
        }
        if pulse {
            x.leaf(&format!("gba:{}", interchange::SINGLE_PULSE), "true");
        }
        if let Some(hw) = hw {
            x.leaf(&format!("gba:{}", interchange::ext::HW), hw.keyword());
        }
        for (name, _) in strobes.iter().filter(|(_, set)| *set) {
            x.leaf(&format!("gba:{name}"), "true");
        }
        if let Some(effect) = stood_in {
            x.leaf(
                &format!("gba:{}", interchange::ext::ONREAD),
                effect.keyword(),
            );
        }
        if let Some(from) = from {
            x.leaf(
                &format!("gba:{}", interchange::ext::RESET_FROM),
                from.keyword(),
            );
        }
        x.close("ipxact:vendorExtensions");
    }
    x.close("ipxact:field");
}

/// A field's values: where it has values for writing of its own, each value says its use
/// (`usage="read"`, `"write"`, or `"read-write"` for a name both lists hold, which names one
/// number); otherwise the values serve both, as the schema's default `read-write` says.
fn enumerated_values(x: &mut Xml, field: &crate::model::Field) {
    if field.values.is_empty() && field.write_values.is_empty() {
        return;
    }
    let key = |v: &crate::model::EnumValue| crate::names::clash_key(&v.name);
    let in_both = |v: &crate::model::EnumValue, list: &[crate::model::EnumValue]| {
        list.iter().any(|w| key(w) == key(v))
    };
    let split = !field.write_values.is_empty();
    x.open("ipxact:enumeratedValues");
    for v in &field.values {
        let usage = match (split, in_both(v, &field.write_values)) {
            (false, _) => None,
            (true, true) => Some("read-write"),
            (true, false) => Some("read"),
        };
        value(x, v, usage);
    }
    for v in field
        .write_values
        .iter()
        .filter(|w| !in_both(w, &field.values))
    {
        value(x, v, Some("write"));
    }
    x.close("ipxact:enumeratedValues");
}

fn value(x: &mut Xml, v: &crate::model::EnumValue, usage: Option<&str>) {
    match usage {
        Some(usage) => x.open_with("ipxact:enumeratedValue", &format!("usage=\"{usage}\"")),
        None => x.open("ipxact:enumeratedValue"),
    }
    x.leaf("ipxact:name", &v.name);
    x.description(&v.description);
    x.leaf("ipxact:value", &hex(*v.value));
    x.close("ipxact:enumeratedValue");
}
