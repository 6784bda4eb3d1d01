//! `gba dump`: every register of a port, or of one group, decoded into field and enumerated
//! value names.
//!
//! The description comes from the spec the PAC was generated from (gba.yaml, embedded at
//! build time; `gba gen --check` keeps the two identical), so a new register or field is
//! dumped without touching this file. A register whose read has a side effect is not read.

use std::fmt::Write;
use std::process::ExitCode;

use clap::Args;
use gba_barrier::AnyDevice;
use gba_barrier::error_chain;
use gba_codegen::model::{Access, Block, Register, SideEffect};
use gba_hal::DeviceAddress;

const SPEC: &str = include_str!("../../gba.yaml");

#[derive(Args)]
pub struct DumpArgs {
    /// The device: `sim:<fabric-dir>#<port>`, `/dev/gbaN`, `/dev/uioN` or `vfio:BDF` (default:
    /// $GBA_DEVICE).
    #[arg(long)]
    device: Option<String>,
    /// Dump only this group's block (default: the global block and every enabled group).
    #[arg(long)]
    group: Option<usize>,
    /// Print one JSON document (for scripts) instead of the text.
    #[arg(long)]
    json: bool,
}

/// One block (the global block, or one group's) as read.
struct BlockView {
    name: String,
    index: Option<usize>,
    base: usize,
    registers: Vec<RegisterView>,
}

struct RegisterView {
    name: String,
    offset: usize,
    width: u32,
    reading: Reading,
}

enum Reading {
    Value {
        raw: u64,
        fields: Vec<FieldView>,
    },
    /// Not read, and why (write-only, a read would change it, outside the window).
    NotRead(String),
}

struct FieldView {
    name: String,
    raw: u64,
    /// The enumerated value's name, when the spec names this value.
    value: Option<String>,
}

pub fn run(args: DumpArgs) -> ExitCode {
    let spec = match gba_codegen::parse_str(SPEC) {
        Ok(spec) => spec,
        Err(_) => {
            eprintln!("error: the embedded gba.yaml does not validate; rebuild the gba tool");
            return ExitCode::from(2);
        }
    };
    let device = match open_device(args.device.as_deref(), "") {
        Ok(device) => device,
        Err(code) => return code,
    };
    // The simulator's fast path leaves its bookkeeping (RELEASE_SEQ, STATUS, the counters) to
    // the next switch step: step it first, as `gba sim status` does, so that what is printed
    // is current. On hardware this does nothing: the registers are live.
    device.progress();
    let read = |offset: usize, width: u32| device.read_raw(offset, width);
    let max_groups = device.identity().max_groups;
    if let Some(g) = args.group
        && g >= max_groups
    {
        eprintln!(
            "error: group {g} does not exist: {device} has groups 0 to {}",
            max_groups - 1
        );
        return ExitCode::from(1);
    }
    // The kernel driver maps no group's registers to a process that does not hold it: its
    // global block (from the driver, read at open) and its claims are what there is to show.
    let kernel = matches!(device.address(), DeviceAddress::Kernel(_));
    let mut blocks = Vec::new();
    for block in &spec.blocks {
        let count = block.array.as_ref().map_or(1, |a| *a.count as usize);
        let stride = block.array.as_ref().map_or(0, |a| *a.stride as usize);
        for index in 0..count {
            let base = *block.offset as usize + index * stride;
            let selected = match (args.group, &block.array) {
                (_, Some(_)) if kernel => false,
                (Some(g), Some(_)) => index == g,
                (Some(_), None) => false,
                (None, Some(_)) => group_enabled(&spec.blocks, &read, index),
                (None, None) => true,
            };
            if selected {
                blocks.push(read_block(block, index, base, &read));
            }
        }
    }
    let claims: Vec<_> = device
        .host_claims()
        .into_iter()
        .filter(|c| args.group.is_none_or(|g| g == c.group))
        .collect();
    if args.json {
        println!("{}", json(&device, &blocks, &claims, kernel));
        return ExitCode::SUCCESS;
    }
    let mut out = format!("{device}\n");
    for block in &blocks {
        text_block(&mut out, block);
    }
    if kernel {
        out += "\ngroup registers: mapped only by a group's holder (the kernel driver)\n";
    }
    // The claims of this port, as its arbiter reports them (the host segment's on the
    // simulator, UIO and VFIO; the driver's): group, owner pid and uid, state, team key,
    // joined of L, and each local process.
    let _ = writeln!(out, "host claims ({}):", claims.len());
    for c in &claims {
        let _ = writeln!(out, "  {c}");
        for s in device.host().slot_list(c.group) {
            let _ = writeln!(
                out,
                "    slot {}: pid {}{} team rank {} entered {}",
                s.slot,
                s.pid,
                if s.alive { "" } else { " (dead)" },
                s.rank,
                s.entered
            );
        }
    }
    for h in gba_sim::holdings(&claims) {
        let _ = writeln!(out, "groups held: {h}");
    }
    print!("{out}");
    ExitCode::SUCCESS
}

/// Whether the global block's GROUP_ENABLED has bit `index` (the spec's names decide).
fn group_enabled(
    blocks: &[Block],
    read: &impl Fn(usize, u32) -> Option<u64>,
    index: usize,
) -> bool {
    blocks
        .iter()
        .filter(|b| b.array.is_none())
        .flat_map(|b| b.registers.iter().map(move |r| (b, r)))
        .find(|(_, r)| *r.name == "GROUP_ENABLED")
        .and_then(|(b, r)| read(*b.offset as usize + *r.offset as usize, *r.width))
        .is_some_and(|v| v & (1 << index) != 0)
}

fn read_block(
    block: &Block,
    index: usize,
    base: usize,
    read: &impl Fn(usize, u32) -> Option<u64>,
) -> BlockView {
    let mut registers = Vec::new();
    for register in &block.registers {
        let count = register.array.as_ref().map_or(1, |a| *a.count as usize);
        let stride = register.array.as_ref().map_or(0, |a| *a.stride as usize);
        for element in 0..count {
            let offset = base + *register.offset as usize + element * stride;
            let name = match &register.array {
                Some(_) => format!("{}[{element}]", *register.name),
                None => register.name.to_string(),
            };
            registers.push(RegisterView {
                name,
                offset,
                width: *register.width,
                reading: read_register(register, offset, read),
            });
        }
    }
    BlockView {
        name: block.name.to_string(),
        index: block.array.as_ref().map(|_| index),
        base,
        registers,
    }
}

fn read_register(
    register: &Register,
    offset: usize,
    read: &impl Fn(usize, u32) -> Option<u64>,
) -> Reading {
    if *register.access == Access::WriteOnly {
        return Reading::NotRead("write-only: not readable".into());
    }
    // A register a read would change is named, not read.
    for (effect, verb) in [
        (SideEffect::ReadToClear, "clears"),
        (SideEffect::ReadToSet, "sets"),
    ] {
        let fields: Vec<&str> = register
            .fields
            .iter()
            .filter(|f| f.side_effect.as_ref().is_some_and(|s| **s == effect))
            .map(|f| f.name.as_str())
            .collect();
        if !fields.is_empty() {
            return Reading::NotRead(format!("not read: reading {verb} {}", fields.join(", ")));
        }
    }
    let Some(raw) = read(offset, *register.width) else {
        return Reading::NotRead("outside the window".into());
    };
    let fields = register
        .fields
        .iter()
        .filter(|f| f.bits.width() < *register.width || register.fields.len() > 1)
        .map(|f| {
            let bits = *f.bits;
            let field_raw = (raw >> bits.lsb) & mask(bits.width());
            FieldView {
                name: f.name.to_string(),
                raw: field_raw,
                value: f
                    .values
                    .iter()
                    .find(|v| *v.value == field_raw)
                    .map(|v| v.name.to_string()),
            }
        })
        .collect();
    Reading::Value { raw, fields }
}

fn text_block(out: &mut String, block: &BlockView) {
    match block.index {
        Some(index) => {
            let _ = writeln!(out, "\n{}[{index}] at {:#x}", block.name, block.base);
        }
        None => {
            let _ = writeln!(out, "\n{} at {:#x}", block.name, block.base);
        }
    }
    for r in &block.registers {
        let (offset, name) = (r.offset, &r.name);
        match &r.reading {
            Reading::NotRead(why) => {
                let _ = writeln!(out, "  {offset:#07x} {name:<20} ({why})");
            }
            Reading::Value { raw, fields } => {
                let digits = (r.width / 4) as usize;
                let _ = write!(out, "  {offset:#07x} {name:<20} 0x{raw:0digits$x}");
                let fields: Vec<String> = fields
                    .iter()
                    .map(|f| match &f.value {
                        Some(v) => format!("{}={v}", f.name),
                        None if f.raw < 0x1_0000 => format!("{}={}", f.name, f.raw),
                        None => format!("{}={:#x}", f.name, f.raw),
                    })
                    .collect();
                if !fields.is_empty() {
                    let _ = write!(out, "  {}", fields.join(" "));
                }
                out.push('\n');
            }
        }
    }
}

/// `gba dump --json`: the same content as the text, as one document.
fn json(
    device: &AnyDevice,
    blocks: &[BlockView],
    claims_in: &[gba_hal::ClaimReport],
    kernel: bool,
) -> serde_json::Value {
    use serde_json::json;
    let blocks: Vec<_> = blocks
        .iter()
        .map(|b| {
            let registers: Vec<_> = b
                .registers
                .iter()
                .map(|r| match &r.reading {
                    Reading::NotRead(why) => json!({
                        "name": r.name, "offset": r.offset, "width": r.width, "not_read": why,
                    }),
                    Reading::Value { raw, fields } => json!({
                        "name": r.name, "offset": r.offset, "width": r.width, "value": raw,
                        "fields": fields.iter().map(|f| json!({
                            "name": f.name, "value": f.raw, "named": f.value,
                        })).collect::<Vec<_>>(),
                    }),
                })
                .collect();
            json!({"block": b.name, "index": b.index, "base": b.base, "registers": registers})
        })
        .collect();
    let claims: Vec<_> = claims_in
        .iter()
        .map(|c| {
            let slots: Vec<_> = device
                .host()
                .slot_list(c.group)
                .iter()
                .map(|s| {
                    json!({"slot": s.slot, "pid": s.pid, "alive": s.alive, "team_rank": s.rank, "entered": s.entered})
                })
                .collect();
            let mut claim = crate::sim::claim_json(c);
            claim["slots"] = json!(slots);
            claim
        })
        .collect();
    json!({
        "device": device.to_string(),
        "group_registers_hidden_by_driver": kernel,
        "blocks": blocks,
        "claims": claims,
        "holders": crate::sim::holders_json(&gba_sim::holdings(claims_in)),
    })
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}

/// The device `arg` names (default: $GBA_DEVICE), opened; on failure one `error:` line,
/// `doing` (e.g. "cannot reclaim: ") before the reason, and the exit code to return. Parsed
/// here, not by clap, so that a bad address is one `error:` line like every other.
pub(crate) fn open_device(arg: Option<&str>, doing: &str) -> Result<AnyDevice, ExitCode> {
    let address = DeviceAddress::parse_or_env(arg).map_err(|error| {
        eprintln!("error: {error}");
        ExitCode::from(1)
    })?;
    AnyDevice::open(&address).map_err(|error| {
        eprintln!("error: {doing}{}", error_chain(&error));
        ExitCode::from(1)
    })
}
