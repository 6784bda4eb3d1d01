//! Semantic checks over a parsed device, the rules every spec obeys whatever it is generated
//! into: every problem is collected, none stops the others. Validation knows no output: a
//! device that passes these and the checks of the outputs it is meant for (`crate::emit`)
//! becomes a [`Validated`](crate::Validated) in `crate::validated`.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::location::{Loc, Located};
use crate::model::{Access, Block, Device, EnumValue, Field, Register, ResetFrom, SideEffect};
use crate::names;

/// What a valid spec may hold but probably does not mean.
pub(crate) fn warnings(device: &Device) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for block in &device.blocks {
        for register in &block.registers {
            for field in &register.fields {
                let access = field.effective_access(register);
                let set = *register.reset & field.bits.mask();
                if access == Access::WriteOnly && set != 0 {
                    warnings.push(
                        Diagnostic::warning(
                            format!(
                                "register `{}` (block `{}`): reset value {:#x} sets bits of \
                                 write-only field `{}`",
                                *register.name, *block.name, *register.reset, *field.name
                            ),
                            register.reset.loc,
                            format!("bits {set:#x} cannot be read back"),
                        )
                        .also(field.bits.loc, format!("`{}` is write-only", *field.name)),
                    );
                }
            }
        }
    }
    warnings
}

/// Instances (block copies, register elements) that one overlap check expands at the most;
/// a spec beyond this is refused rather than checked for minutes.
const MAX_EXPANDED: u64 = 1 << 20;

/// Overlap reports per scope (a block, the device, a register) at the most: past this the
/// spec is broken wholesale and more of the same helps no one (and costs quadratic time).
const MAX_OVERLAP_REPORTS: usize = 64;

/// The rules every spec obeys, whatever it is generated into.
pub fn device(device: &Device) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    name(&device.name, "device", &mut diags);
    unique(
        device.constants.iter().map(|c| &c.name),
        "constant",
        "the device",
        &mut diags,
    );
    for constant in &device.constants {
        name(&constant.name, "constant", &mut diags);
        if *constant.value > u64::from(u32::MAX) {
            diags.push(Diagnostic::error(
                format!("constant `{}` is too large", *constant.name),
                constant.value.loc,
                "constants are limits and counts: at most 0xFFFF_FFFF",
            ));
        }
    }
    if device.blocks.is_empty() {
        diags.push(Diagnostic::error(
            format!("device `{}` has no blocks", *device.name),
            device.name.loc,
            "add at least one block under `blocks:`",
        ));
    }
    unique(
        device.blocks.iter().map(|b| &b.name),
        "block",
        "the device",
        &mut diags,
    );
    for (index, block) in device.blocks.iter().enumerate() {
        name(&block.name, "block", &mut diags);
        reserved_accessor(&block.name, "block", &mut diags);
        // The registers of a type's later instances are its first's (`block_types::check`
        // says so): they are checked once, not reported once per instance.
        let repeat = crate::block_types::is_repeat(device, index);
        self::block(block, repeat, &mut diags);
    }
    diags.extend(crate::block_types::check(device));
    block_overlaps(device, &mut diags);
    crate::interrupts::validate(device, &mut diags);
    diags
}

pub(crate) fn name(name: &Located<String>, kind: &str, diags: &mut Vec<Diagnostic>) {
    if let Some(problem) = names::problem(name) {
        diags.push(Diagnostic::error(
            format!("invalid {kind} name"),
            name.loc,
            problem,
        ));
    }
}

fn reserved_accessor(name: &Located<String>, kind: &str, diags: &mut Vec<Diagnostic>) {
    if names::is_reserved_accessor(name) {
        diags.push(Diagnostic::error(
            format!("invalid {kind} name"),
            name.loc,
            format!(
                "`{}` would clash with the generated method `{}`",
                name.value,
                names::lower(name)
            ),
        ));
    }
}

/// Reports each name that repeats an earlier one (ignoring case), pointing at both.
pub(crate) fn unique<'a>(
    items: impl Iterator<Item = &'a Located<String>>,
    kind: &str,
    scope: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen: HashMap<String, &Located<String>> = HashMap::new();
    for item in items {
        match seen.get(&names::clash_key(item)) {
            Some(first) => diags.push(
                Diagnostic::error(
                    format!("duplicate {kind} name `{}` in {scope}", item.value),
                    item.loc,
                    "defined again here",
                )
                .also(
                    first.loc,
                    format!("first defined here as `{}`", first.value),
                )
                .note(
                    "names are compared ignoring case, because generated code changes their case",
                ),
            ),
            None => {
                seen.insert(names::clash_key(item), item);
            }
        }
    }
}

/// The checks of a block's registers among themselves, for a block whose own keys had a
/// problem.
pub(crate) fn registers_only(block: &Block) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let what = format!("block `{}`", *block.name);
    unique(
        block.registers.iter().map(|r| &r.name),
        "register",
        &what,
        &mut diags,
    );
    for register in &block.registers {
        self::register(register, block, &mut diags);
    }
    register_overlaps(block, &mut diags);
    diags
}

/// The checks of a register's fields among themselves, for a register whose own keys had a
/// problem.
pub(crate) fn fields_only(register: &Register) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let what = format!("register `{}`", *register.name);
    unique(
        register.fields.iter().map(|f| &f.name),
        "field",
        &what,
        &mut diags,
    );
    for field in &register.fields {
        self::field(field, register, &what, &mut diags);
    }
    field_overlaps(register, &what, &mut diags);
    diags
}

fn block(block: &Block, repeat: bool, diags: &mut Vec<Diagnostic>) {
    let what = format!("block `{}`", *block.name);
    if *block.size == 0 {
        diags.push(Diagnostic::error(
            format!("{what} has size 0"),
            block.size.loc,
            "a block must own at least one byte",
        ));
    }
    let widest = block
        .registers
        .iter()
        .map(Register::bytes)
        .max()
        .unwrap_or(1);
    aligned(&block.offset, widest, &what, "offset", diags);
    if let Some(array) = &block.array {
        count(&array.count, &what, diags);
        aligned(&array.stride, widest, &what, "stride", diags);
        if *array.stride < *block.size && *array.count > 1 {
            diags.push(
                Diagnostic::error(
                    format!("the instances of {what} overlap each other"),
                    array.stride.loc,
                    format!(
                        "stride {:#x} is smaller than the block size {:#x}",
                        *array.stride, *block.size
                    ),
                )
                .also(block.size.loc, "size given here"),
            );
        }
    }
    if repeat {
        return;
    }
    unique(
        block.registers.iter().map(|r| &r.name),
        "register",
        &what,
        diags,
    );
    for register in &block.registers {
        self::register(register, block, diags);
    }
    register_overlaps(block, diags);
}

fn count(count: &Located<u64>, what: &str, diags: &mut Vec<Diagnostic>) {
    if count.value == 0 {
        diags.push(Diagnostic::error(
            format!("{what} is an array of 0 elements"),
            count.loc,
            "`count` must be at least 1",
        ));
    }
}

fn aligned(
    value: &Located<u64>,
    alignment: u64,
    what: &str,
    key: &str,
    diags: &mut Vec<Diagnostic>,
) {
    if alignment > 1 && !value.value.is_multiple_of(alignment) {
        diags.push(Diagnostic::error(
            format!("{what}: {key} {:#x} is misaligned", value.value),
            value.loc,
            format!("must be a multiple of {alignment} bytes (the widest register's size)"),
        ));
    }
}

fn register(register: &Register, block: &Block, diags: &mut Vec<Diagnostic>) {
    let what = format!("register `{}` (block `{}`)", *register.name, *block.name);
    name(&register.name, "register", diags);
    reserved_accessor(&register.name, "register", diags);
    let bytes = register.bytes();
    if !register.offset.is_multiple_of(bytes) {
        diags.push(Diagnostic::error(
            format!("{what}: offset {:#x} is misaligned", *register.offset),
            register.offset.loc,
            format!(
                "a {}-bit register needs an offset that is a multiple of {bytes}",
                *register.width
            ),
        ));
    }
    let mut last_offset = Some(*register.offset);
    if let Some(array) = &register.array {
        count(&array.count, &what, diags);
        if !array.stride.is_multiple_of(bytes) || *array.stride < bytes {
            diags.push(Diagnostic::error(
                format!(
                    "{what}: stride {:#x} does not fit the register",
                    *array.stride
                ),
                array.stride.loc,
                format!("must be a non-zero multiple of the register's {bytes} bytes"),
            ));
        }
        last_offset = array
            .count
            .saturating_sub(1)
            .checked_mul(*array.stride)
            .and_then(|span| span.checked_add(*register.offset));
    }
    let end = last_offset.and_then(|o| o.checked_add(bytes));
    if end.is_none_or(|end| end > *block.size) {
        let (loc, label) = match (&register.array, last_offset) {
            (Some(array), Some(last)) => (
                array.count.loc,
                format!(
                    "its last element, {}, spans {last:#x}..{:#x}",
                    array.count.saturating_sub(1),
                    last.saturating_add(bytes)
                ),
            ),
            (Some(array), None) => (array.count.loc, "its elements reach past 2^64".into()),
            (None, _) => (
                register.offset.loc,
                format!(
                    "spans {:#x}..{:#x}",
                    *register.offset,
                    register.offset.saturating_add(bytes)
                ),
            ),
        };
        diags.push(
            Diagnostic::error(
                format!(
                    "{what} runs past the end of its block (size {:#x})",
                    *block.size
                ),
                loc,
                label,
            )
            .also(block.size.loc, "block size given here"),
        );
    }
    if *register.width < 64 && *register.reset >> *register.width != 0 {
        diags.push(Diagnostic::error(
            format!("{what}: reset value {:#x} is too wide", *register.reset),
            register.reset.loc,
            format!("does not fit in {} bits", *register.width),
        ));
    }
    unique(
        register.fields.iter().map(|f| &f.name),
        "field",
        &what,
        diags,
    );
    for field in &register.fields {
        self::field(field, register, &what, diags);
        reset_from(field, register, block, &what, diags);
        write_once(field, register, &what, diags);
    }
    field_overlaps(register, &what, diags);
    bit_order(register, &what, diags);
}

/// A register's fields of two bits or more have one bit order: SystemRDL writes msb0 as the
/// form of a register's ranges (`[0:3]`), and refuses both forms in one register, so such a
/// register could not reach the SystemRDL output, nor the RTL built from it.
fn bit_order(register: &Register, what: &str, diags: &mut Vec<Diagnostic>) {
    let mut wide = register.fields.iter().filter(|f| f.bits.width() > 1);
    let Some(first) = wide.next() else {
        return;
    };
    if let Some(other) = wide.find(|f| f.is_msb0() != first.is_msb0()) {
        let order = |f: &Field| if f.is_msb0() { "msb0" } else { "lsb0" };
        diags.push(
            Diagnostic::error(
                format!(
                    "{what}: field `{}` is {} but field `{}` is {}",
                    *other.name,
                    order(other),
                    *first.name,
                    order(first)
                ),
                other.name.loc,
                "a register's fields of two bits or more have one `bit_order` (SystemRDL writes \
                 it as the form of the register's ranges, `[0:3]` or `[3:0]`, and refuses both \
                 in one register); give them all `bit_order: msb0`, or none",
            )
            .also(first.name.loc, "the first field of two bits or more"),
        );
    }
}

/// A write-once field is one that software writes.
fn write_once(field: &Field, register: &Register, what: &str, diags: &mut Vec<Diagnostic>) {
    let access = field.effective_access(register);
    if field.write_once && !access.is_writable() {
        diags.push(Diagnostic::error(
            format!(
                "{what}: field `{}` is `write_once` but `{}`",
                *field.name,
                access.keyword()
            ),
            field.name.loc,
            "write-once needs a field that software writes (`wo` or `rw`); drop `write_once`",
        ));
    }
}

/// A field whose reset is its index or a strap, or that is not reset: its bits of the
/// register's `reset` are 0 (that value is what every element and instance shares), and an
/// index fits the field.
fn reset_from(
    field: &Field,
    register: &Register,
    block: &Block,
    register_what: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(from) = field.reset_from else {
        return;
    };
    let what = format!("field `{}` of {register_what}", *field.name);
    let set = *register.reset & field.bits.mask();
    if set != 0 {
        diags.push(
            Diagnostic::error(
                format!(
                    "{what}: reset value {:#x} sets bits of a field whose reset is `{}`",
                    *register.reset,
                    from.keyword()
                ),
                register.reset.loc,
                format!("bits {set:#x} must be 0"),
            )
            .also(
                from.loc,
                format!("the field's reset is `{}`", from.keyword()),
            )
            .note(
                "the register's `reset` holds the bits every element and instance shares; \
                 the field's own value comes from its index or strap, or it has none",
            ),
        );
    }
    if *from == ResetFrom::Index {
        let array = register.array.as_ref().or(block.array.as_ref());
        match array {
            None => diags.push(Diagnostic::error(
                format!("{what}: `reset: index` outside an array"),
                from.loc,
                "neither the register nor its block has a `count`",
            )),
            Some(array) => {
                let last = array.count.saturating_sub(1);
                if last > field.bits.value_mask() {
                    diags.push(
                        Diagnostic::error(
                            format!(
                                "{what}: index {last} does not fit in {} bits",
                                field.bits.width()
                            ),
                            from.loc,
                            "the field resets to its element's index",
                        )
                        .also(array.count.loc, format!("{} elements", *array.count)),
                    );
                }
            }
        }
    }
}

fn field(field: &Field, register: &Register, register_what: &str, diags: &mut Vec<Diagnostic>) {
    let what = format!("field `{}` of {register_what}", *field.name);
    name(&field.name, "field", diags);
    if field.bits.msb >= *register.width {
        diags.push(
            Diagnostic::error(
                format!("{what} lies outside its register"),
                field.bits.loc,
                format!(
                    "bits {} do not fit in a {}-bit register (bits 0 to {})",
                    *field.bits,
                    *register.width,
                    *register.width - 1
                ),
            )
            .also(register.width.loc, "register width given here"),
        );
    }
    let access = field.effective_access(register);
    if let Some(field_access) = field.access {
        let widens = (field_access.is_writable() && !register.access.is_writable())
            || (field_access.is_readable() && !register.access.is_readable());
        if widens {
            diags.push(
                Diagnostic::error(
                    format!("{what} allows more than its register"),
                    field_access.loc,
                    format!("field is `{}`", field_access.keyword()),
                )
                .also(
                    register.access.loc,
                    format!("register is `{}`", register.access.keyword()),
                ),
            );
        }
    }
    if let Some(effect) = field.side_effect {
        let fits = if effect.on_read() {
            access.is_readable()
        } else {
            access.is_writable()
        };
        if !fits {
            diags.push(Diagnostic::error(
                format!(
                    "{what}: side effect `{}` needs a field that can be {}",
                    effect.keyword(),
                    if effect.on_read() { "read" } else { "written" }
                ),
                effect.loc,
                format!("the field is `{}`", access.keyword()),
            ));
        }
        // A pulse lasts one cycle: it reads 0 again before any read could see it.
        if *effect == SideEffect::SinglePulse && field.bits.width() != 1 {
            diags.push(
                Diagnostic::error(
                    format!(
                        "{what}: `singlepulse` on a field of {} bits",
                        field.bits.width()
                    ),
                    effect.loc,
                    "a single pulse is one bit",
                )
                .note("split it into one-bit fields, one pulse each (as SystemRDL requires)"),
            );
        }
    }
    value_list(&field.values, field, &what, "enumerated value", diags);
    if !field.write_values.is_empty() {
        let write_what = format!("{what} (write values)");
        value_list(
            &field.write_values,
            field,
            &write_what,
            "write value",
            diags,
        );
        if !field.effective_access(register).is_writable() {
            diags.push(Diagnostic::error(
                format!("{what} has write values but cannot be written"),
                field.write_values[0].name.loc,
                "`write_values` name what a write takes: only a writable field has them",
            ));
        }
        for write in &field.write_values {
            let read = field
                .values
                .iter()
                .find(|v| names::clash_key(&v.name) == names::clash_key(&write.name));
            if let Some(read) = read.filter(|r| *r.value != *write.value) {
                diags.push(
                    Diagnostic::error(
                        format!(
                            "{what}: `{}` names {} for writing and {} for reading",
                            *write.name, *write.value, *read.value
                        ),
                        write.name.loc,
                        "a name in both `values` and `write_values` must name one number",
                    )
                    .also(read.name.loc, "the read value"),
                );
            }
        }
    }
}

/// The rules of one list of enumerated values (`values` or `write_values`).
fn value_list(
    values: &[EnumValue],
    field: &Field,
    what: &str,
    kind: &str,
    diags: &mut Vec<Diagnostic>,
) {
    unique(values.iter().map(|v| &v.name), kind, what, diags);
    let mut by_value: HashMap<u64, &Located<String>> = HashMap::new();
    for value in values {
        name(&value.name, "enumerated value", diags);
        if names::is_reserved_value(&value.name) {
            diags.push(Diagnostic::error(
                "invalid enumerated value name",
                value.name.loc,
                format!(
                    "`{}` is reserved: {} name generated items",
                    *value.name,
                    names::RESERVED_VALUE_NAMES.join(", ")
                ),
            ));
        }
        if *value.value > field.bits.value_mask() {
            diags.push(
                Diagnostic::error(
                    format!("{what}: enumerated value `{}` is too wide", *value.name),
                    value.value.loc,
                    format!(
                        "{:#x} does not fit in the field's {} bit{}",
                        *value.value,
                        field.bits.width(),
                        if field.bits.width() == 1 { "" } else { "s" }
                    ),
                )
                .also(field.bits.loc, "field bits given here"),
            );
        }
        match by_value.get(&*value.value) {
            Some(first) => diags.push(
                Diagnostic::error(
                    format!("{what}: value {} has two names", *value.value),
                    value.value.loc,
                    format!("`{}` repeats this value", *value.name),
                )
                .also(first.loc, format!("already named `{}`", first.value)),
            ),
            None => {
                by_value.insert(*value.value, &value.name);
            }
        }
    }
}

/// Reports every pair of overlapping fields (bit ranges are inclusive, so fields sharing one
/// boundary bit overlap), naming the later-written field first.
fn field_overlaps(register: &Register, what: &str, diags: &mut Vec<Diagnostic>) {
    let mut fields: Vec<&Field> = register.fields.iter().collect();
    fields.sort_by_key(|f| (f.bits.lsb, f.bits.msb));
    let mut active: Vec<&Field> = Vec::new();
    let mut reports = 0;
    for field in fields {
        active.retain(|a| a.bits.msb >= field.bits.lsb);
        for other in &active {
            reports += 1;
            if reports > MAX_OVERLAP_REPORTS {
                return;
            }
            let (later, earlier) = if other.name.loc > field.name.loc {
                (*other, field)
            } else {
                (field, *other)
            };
            diags.push(
                Diagnostic::error(
                    format!(
                        "fields `{}` and `{}` of {what} overlap",
                        *later.name, *earlier.name
                    ),
                    later.bits.loc,
                    format!("`{}` is bits {}", *later.name, *later.bits),
                )
                .also(
                    earlier.bits.loc,
                    format!("`{}` is bits {}", *earlier.name, *earlier.bits),
                ),
            );
        }
        active.push(field);
    }
}

/// One byte range that something occupies, for the overlap sweeps.
struct Extent<'a> {
    start: u64,
    end: u64,
    owner: usize,
    element: u64,
    is_array: bool,
    loc: Loc,
    name: &'a str,
    /// A register or block declared as an alternate view (`alternate_of`): it may overlap
    /// others.
    alternate: bool,
}

fn register_overlaps(block: &Block, diags: &mut Vec<Diagnostic>) {
    let mut extents = Vec::new();
    let mut total = 0u64;
    for (owner, register) in block.registers.iter().enumerate() {
        // An array whose elements overlap each other is reported by the stride check; only
        // its first element takes part here, which keeps the sweep linear.
        let count = register
            .array
            .as_ref()
            .filter(|a| *a.stride >= register.bytes())
            .map_or(1, |a| *a.count);
        total = total.saturating_add(count);
        if total > MAX_EXPANDED {
            diags.push(Diagnostic::error(
                format!(
                    "block `{}` has too many register instances to check",
                    *block.name
                ),
                register.name.loc,
                format!("more than {MAX_EXPANDED} registers counting array elements"),
            ));
            return;
        }
        for (element, start) in register.element_offsets().take(count as usize).enumerate() {
            extents.push(Extent {
                start,
                end: start.saturating_add(register.bytes()),
                owner,
                element: element as u64,
                is_array: register.array.is_some(),
                loc: register.offset.loc,
                name: &register.name,
                alternate: register.alternate_of.is_some(),
            });
        }
    }
    overlaps(
        extents,
        &format!("block `{}`", *block.name),
        "register",
        diags,
    );
    alternates(block, diags);
    locks(block, diags);
}

/// `locked_by`/`write_enable` name a readable one-bit field of another plain register of the
/// same block, and lock a register that can be written.
fn locks(block: &Block, diags: &mut Vec<Diagnostic>) {
    for register in &block.registers {
        let Some(lock) = &register.lock else {
            continue;
        };
        let what = format!("register `{}` (block `{}`)", *register.name, *block.name);
        let key = lock.keyword();
        let at = lock.register.loc;
        let refuse = |diags: &mut Vec<Diagnostic>, message: String, label: &str| {
            diags.push(Diagnostic::error(message, at, label.to_string()));
        };
        if !register.access.is_writable() {
            refuse(
                diags,
                format!(
                    "{what} is `{}`: `{key}` locks its writes, and it has none",
                    register.access.keyword()
                ),
                "a lock on a register that cannot be written",
            );
        }
        let Some(holder) = block.registers.iter().find(|r| *r.name == *lock.register) else {
            refuse(
                diags,
                format!(
                    "{what}: `{key}` names register `{}`, which is no register of block `{}`",
                    *lock.register, *block.name
                ),
                "not a register of this block",
            );
            continue;
        };
        if std::ptr::eq(holder, register) {
            refuse(
                diags,
                format!("{what}: `{key}` names a bit of the register itself"),
                "name a bit of another register (a lock register, as OpenTitan's REGWEN)",
            );
            continue;
        }
        if holder.array.is_some() {
            refuse(
                diags,
                format!("{what}: `{key}` names register array `{}`", *holder.name),
                "which element's bit would lock? name a plain register",
            );
            continue;
        }
        let Some(bit) = holder.fields.iter().find(|f| *f.name == *lock.field) else {
            diags.push(
                Diagnostic::error(
                    format!(
                        "{what}: `{key}` names field `{}`, which is no field of register `{}`",
                        *lock.field, *holder.name
                    ),
                    at,
                    "not a field of that register",
                )
                .also(holder.name.loc, "that register is here"),
            );
            continue;
        };
        if bit.bits.width() != 1 {
            diags.push(
                Diagnostic::error(
                    format!(
                        "{what}: lock bit `{}.{}` has {} bits",
                        *holder.name,
                        *bit.name,
                        bit.bits.width()
                    ),
                    at,
                    "a lock is one bit",
                )
                .also(bit.bits.loc, "its bits"),
            );
        }
        if !bit.effective_access(holder).is_readable() {
            diags.push(
                Diagnostic::error(
                    format!(
                        "{what}: lock bit `{}.{}` cannot be read",
                        *holder.name, *bit.name
                    ),
                    at,
                    "software must be able to see whether the register is locked",
                )
                .also(bit.name.loc, "the field is write-only"),
            );
        } else if holder.read_has_effect() {
            diags.push(
                Diagnostic::error(
                    format!(
                        "{what}: lock bit `{}.{}` is in a register that reading changes",
                        *holder.name, *bit.name
                    ),
                    at,
                    "checking the lock would change the device",
                )
                .also(
                    holder.name.loc,
                    "a register with read-to-clear or read-to-set fields",
                ),
            );
        }
    }
}

/// A register's `alternate_of` names another register of its block, one that is not an
/// alternate itself, and whose bytes it overlaps: an alternate is another view of them.
fn alternates(block: &Block, diags: &mut Vec<Diagnostic>) {
    alternate_rules(
        &block.registers,
        &Views {
            noun: "register",
            not_found: format!("which is no register of block `{}`", *block.name),
            not_found_label: "not a register of this block",
            name: |r: &Register| &r.name,
            of: |r: &Register| r.alternate_of.as_ref(),
            offset: |r: &Register| r.offset.loc,
            spans: |r: &Register| {
                r.element_offsets()
                    .take(MAX_EXPANDED as usize)
                    .map(|s| (s, s.saturating_add(r.bytes())))
                    .collect()
            },
        },
        diags,
    );
}

/// What [`alternate_rules`] needs to know of registers or of blocks.
struct Views<T> {
    noun: &'static str,
    /// Completes "X is an alternate of `Y`, …" when Y is not there.
    not_found: String,
    not_found_label: &'static str,
    name: fn(&T) -> &Located<String>,
    of: fn(&T) -> Option<&Located<String>>,
    offset: fn(&T) -> Loc,
    spans: fn(&T) -> Vec<(u64, u64)>,
}

/// The rules an alternate view obeys, the same for registers and for blocks: it names an
/// item of its scope, not itself, not another alternate, and shares a byte with it.
fn alternate_rules<T>(items: &[T], views: &Views<T>, diags: &mut Vec<Diagnostic>) {
    let noun = views.noun;
    for item in items {
        let Some(of) = (views.of)(item) else {
            continue;
        };
        let what = format!("{noun} `{}`", (views.name)(item).value);
        let Some(target) = items.iter().find(|t| *(views.name)(t).value == of.value) else {
            diags.push(Diagnostic::error(
                format!("{what} is an alternate of `{}`, {}", **of, views.not_found),
                of.loc,
                views.not_found_label,
            ));
            continue;
        };
        if std::ptr::eq(target, item) {
            diags.push(Diagnostic::error(
                format!("{what} is declared an alternate of itself"),
                of.loc,
                format!("name the {noun} whose bytes this one is another view of"),
            ));
            continue;
        }
        if (views.of)(target).is_some() {
            diags.push(
                Diagnostic::error(
                    format!("{what} is an alternate of `{}`, itself an alternate", **of),
                    of.loc,
                    format!("name the {noun} that the other alternates are views of"),
                )
                .also((views.name)(target).loc, "declared an alternate here"),
            );
            continue;
        }
        if !share_a_byte(&(views.spans)(item), &(views.spans)(target)) {
            diags.push(
                Diagnostic::error(
                    format!(
                        "{what} is an alternate of `{}` but shares no byte with it",
                        **of
                    ),
                    of.loc,
                    "an alternate is another view of the same bytes",
                )
                .also(
                    (views.offset)(target),
                    format!("`{}` is here", (views.name)(target).value),
                ),
            );
        }
    }
}

fn block_overlaps(device: &Device, diags: &mut Vec<Diagnostic>) {
    let mut extents = Vec::new();
    let mut total = 0u64;
    for (owner, block) in device.blocks.iter().enumerate() {
        // Instances overlapping each other are reported by the stride check; only the first
        // takes part here, which keeps the sweep linear.
        let (count, stride) = block
            .array
            .as_ref()
            .filter(|a| *a.stride >= *block.size)
            .map_or((1, 0), |a| (*a.count, *a.stride));
        total = total.saturating_add(count);
        if total > MAX_EXPANDED {
            diags.push(Diagnostic::error(
                "too many block instances to check",
                block.name.loc,
                format!("more than {MAX_EXPANDED} blocks counting array elements"),
            ));
            return;
        }
        for element in 0..count {
            let start = element
                .checked_mul(stride)
                .and_then(|s| s.checked_add(*block.offset));
            let end = start.and_then(|s| s.checked_add(*block.size));
            let (Some(start), Some(end)) = (start, end) else {
                diags.push(Diagnostic::error(
                    format!(
                        "block `{}` reaches past the end of the address space",
                        *block.name
                    ),
                    block.offset.loc,
                    format!("instance {element} ends beyond 2^64"),
                ));
                break;
            };
            extents.push(Extent {
                start,
                end,
                owner,
                element,
                is_array: block.array.is_some(),
                loc: block.offset.loc,
                name: &block.name,
                alternate: block.alternate_of.is_some(),
            });
        }
    }
    overlaps(extents, "the device", "block", diags);
    block_alternates(device, diags);
}

/// Whether two lists of byte ranges, each in ascending order of start and end (an array's
/// elements), share a byte: one merge-like walk, linear in their lengths.
pub(crate) fn share_a_byte(a: &[(u64, u64)], b: &[(u64, u64)]) -> bool {
    let (mut i, mut j) = (0, 0);
    while let (Some(&(s, e)), Some(&(ts, te))) = (a.get(i), b.get(j)) {
        if e <= ts {
            i += 1;
        } else if te <= s {
            j += 1;
        } else {
            return true;
        }
    }
    false
}

/// The byte ranges of a block's instances (at most [`MAX_EXPANDED`] of them).
pub(crate) fn block_spans(block: &Block) -> Vec<(u64, u64)> {
    let (count, stride) = block
        .array
        .as_ref()
        .map_or((1, 0), |a| (*a.count, *a.stride));
    (0..count.min(MAX_EXPANDED))
        .map_while(|i| {
            let start = i.checked_mul(stride)?.checked_add(*block.offset)?;
            Some((start, start.saturating_add(*block.size)))
        })
        .collect()
}

/// A block's `alternate_of` names another block of the device, one that is not an
/// alternate itself, and whose bytes it overlaps: the same rules as for registers.
fn block_alternates(device: &Device, diags: &mut Vec<Diagnostic>) {
    alternate_rules(
        &device.blocks,
        &Views {
            noun: "block",
            not_found: "which is no block of the device".to_string(),
            not_found_label: "not a block of this device",
            name: |b: &Block| &b.name,
            of: |b: &Block| b.alternate_of.as_ref(),
            offset: |b: &Block| b.offset.loc,
            spans: block_spans,
        },
        diags,
    );
}

/// Sorts the extents and reports each pair of distinct owners whose extents intersect, once,
/// naming the later-written owner first. Overlaps among elements of the same array are
/// reported by the stride checks instead.
fn overlaps(mut extents: Vec<Extent<'_>>, scope: &str, kind: &str, diags: &mut Vec<Diagnostic>) {
    extents.sort_by_key(|e| (e.start, e.end, e.owner));
    let mut reported = std::collections::HashSet::new();
    let mut active: Vec<&Extent<'_>> = Vec::new();
    for extent in &extents {
        active.retain(|a| a.end > extent.start);
        for other in &active {
            if other.owner == extent.owner
                || other.alternate
                || extent.alternate
                || !reported.insert((other.owner.min(extent.owner), other.owner.max(extent.owner)))
            {
                continue;
            }
            if reported.len() > MAX_OVERLAP_REPORTS {
                return;
            }
            let (later, earlier) = if other.owner > extent.owner {
                (*other, extent)
            } else {
                (extent, *other)
            };
            diags.push(
                Diagnostic::error(
                    format!(
                        "{kind}s `{}` and `{}` overlap in {scope}",
                        later.name, earlier.name
                    ),
                    later.loc,
                    span_label(later),
                )
                .also(earlier.loc, span_label(earlier)),
            );
        }
        active.push(extent);
    }
}

fn span_label(extent: &Extent<'_>) -> String {
    format!(
        "{}{} spans {:#x}..{:#x}",
        extent.name,
        element_suffix(extent),
        extent.start,
        extent.end
    )
}

fn element_suffix(extent: &Extent<'_>) -> String {
    if extent.is_array {
        format!("[{}]", extent.element)
    } else {
        String::new()
    }
}
