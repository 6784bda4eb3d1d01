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
use gba_barrier::error::chain;
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
}

pub fn run(args: DumpArgs) -> ExitCode {
    let spec = match gba_codegen::parse_str(SPEC) {
        Ok(spec) => spec,
        Err(_) => {
            eprintln!("error: the embedded gba.yaml does not validate; rebuild the gba tool");
            return ExitCode::from(2);
        }
    };
    // Parsed here, not by clap, so that a bad address is one `error:` line like every other.
    let address = match DeviceAddress::parse_or_env(args.device.as_deref()) {
        Ok(address) => address,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(1);
        }
    };
    let device = match AnyDevice::open(&address) {
        Ok(device) => device,
        Err(error) => {
            eprintln!("error: {}", chain(&error));
            return ExitCode::from(1);
        }
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
    let mut out = format!("{device}\n");
    // The kernel driver maps no group's registers to a process that does not hold it: its
    // global block (from the driver, read at open) and its claims are what there is to show.
    let kernel = matches!(device.address(), DeviceAddress::Kernel(_));
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
                dump_block(&mut out, block, index, base, &read);
            }
        }
    }
    if kernel {
        out += "\ngroup registers: mapped only by a group's holder (the kernel driver)\n";
    }
    host_claims(&mut out, &device, args.group);
    print!("{out}");
    ExitCode::SUCCESS
}

/// The claims of this port, as its arbiter reports them (the host segment's on the
/// simulator, UIO and VFIO): group, owner pid and uid, state, team key, joined of L, and each
/// local process.
fn host_claims(out: &mut String, device: &AnyDevice, group: Option<usize>) {
    let claims: Vec<_> = device
        .host_claims()
        .into_iter()
        .filter(|c| group.is_none_or(|g| g == c.group))
        .collect();
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

fn dump_block(
    out: &mut String,
    block: &Block,
    index: usize,
    base: usize,
    read: &impl Fn(usize, u32) -> Option<u64>,
) {
    match &block.array {
        Some(_) => {
            let _ = writeln!(out, "\n{}[{index}] at {base:#x}", *block.name);
        }
        None => {
            let _ = writeln!(out, "\n{} at {base:#x}", *block.name);
        }
    }
    for register in &block.registers {
        let count = register.array.as_ref().map_or(1, |a| *a.count as usize);
        let stride = register.array.as_ref().map_or(0, |a| *a.stride as usize);
        for element in 0..count {
            let offset = base + *register.offset as usize + element * stride;
            let name = match &register.array {
                Some(_) => format!("{}[{element}]", *register.name),
                None => register.name.to_string(),
            };
            dump_register(out, register, &name, offset, read);
        }
    }
}

fn dump_register(
    out: &mut String,
    register: &Register,
    name: &str,
    offset: usize,
    read: &impl Fn(usize, u32) -> Option<u64>,
) {
    // Fields a read would change: such a register is named, not read.
    let changed_by_reading = |effect: SideEffect| -> Vec<&str> {
        register
            .fields
            .iter()
            .filter(|f| f.side_effect.as_ref().is_some_and(|s| **s == effect))
            .map(|f| f.name.as_str())
            .collect()
    };
    if *register.access == Access::WriteOnly {
        let _ = writeln!(out, "  {offset:#07x} {name:<20} (write-only: not readable)");
        return;
    }
    for (effect, verb) in [
        (SideEffect::ReadToClear, "clears"),
        (SideEffect::ReadToSet, "sets"),
    ] {
        let fields = changed_by_reading(effect);
        if !fields.is_empty() {
            let _ = writeln!(
                out,
                "  {offset:#07x} {name:<20} (not read: reading {verb} {})",
                fields.join(", ")
            );
            return;
        }
    }
    let Some(value) = read(offset, *register.width) else {
        let _ = writeln!(out, "  {offset:#07x} {name:<20} (outside the window)");
        return;
    };
    let digits = (*register.width / 4) as usize;
    let _ = write!(out, "  {offset:#07x} {name:<20} 0x{value:0digits$x}");
    let fields: Vec<String> = register
        .fields
        .iter()
        .filter(|f| f.bits.width() < *register.width || register.fields.len() > 1)
        .map(|f| {
            let bits = *f.bits;
            let raw = (value >> bits.lsb) & mask(bits.width());
            let named = f.values.iter().find(|v| *v.value == raw);
            match named {
                Some(v) => format!("{}={}", *f.name, *v.name),
                None if raw < 0x1_0000 => format!("{}={raw}", *f.name),
                None => format!("{}={raw:#x}", *f.name),
            }
        })
        .collect();
    if !fields.is_empty() {
        let _ = write!(out, "  {}", fields.join(" "));
    }
    out.push('\n');
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    }
}
