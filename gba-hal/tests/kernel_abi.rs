//! gba-hal's private `backends/kernel_abi.rs` against `driver/gba_ioctl.h`: a C program compiled with gcc
//! prints every size, field offset, constant and ioctl number the header gives, and each must
//! equal the Rust mirror's. A changed header without the mirror (or the reverse) fails here.

use std::mem::{offset_of, size_of};
use std::path::Path;
use std::process::Command;

// The ABI is private to the kernel backend: the test compiles its file on its own.
#[allow(dead_code)]
#[path = "../src/backends/kernel_abi.rs"]
mod kernel_abi;
use kernel_abi::*;

/// (C expression, Rust value): each line the C program prints is `expression value`.
fn expected() -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = Vec::new();
    let mut add = |e: &str, x: u64| v.push((e.to_string(), x));
    macro_rules! fields {
        ($c:literal, $r:ty, [$($f:ident),*]) => {
            add(concat!("sizeof(struct ", $c, ")"), size_of::<$r>() as u64);
            $(add(concat!("offsetof(struct ", $c, ", ", stringify!($f), ")"), offset_of!($r, $f) as u64);)*
        };
    }
    fields!(
        "gba_info",
        Info,
        [
            device_id,
            version,
            caps,
            port_id,
            group_enabled,
            groups_busy,
            groups_per_uid,
            held_by_caller,
            barriers_completed,
            window_size
        ]
    );
    fields!(
        "gba_claim_req",
        ClaimReq,
        [
            group,
            local,
            index,
            flags,
            key,
            members,
            result,
            reason,
            owner_uid,
            files,
            run_offset,
            shared_offset,
            flag_iova,
            rank,
            reserved
        ]
    );
    fields!(
        "gba_state",
        State,
        [
            group,
            arrival_count,
            member_count,
            local_member_id,
            control,
            status,
            release_seq,
            release_addr,
            member_mask,
            arrived_mask
        ]
    );
    fields!(
        "gba_claim_entry",
        ClaimEntry,
        [group, uid, pid, local, files, member_count, flag_iova]
    );
    fields!("gba_claims", Claims, [count, reserved, entries]);
    fields!("gba_local", Local, [pid, uid, index, rank, entered]);
    fields!("gba_locals", Locals, [group, count, entries]);
    for (e, x) in [
        ("GBA_IOCTL_MEMBER_WORDS", MEMBER_WORDS as u64),
        ("GBA_IOCTL_GROUPS", GROUPS as u64),
        ("GBA_IOCTL_MAX_LOCAL", MAX_LOCAL as u64),
        ("GBA_IOCTL_SHARED_BASE", SHARED_BASE),
        ("GBA_IOCTL_SHARED_SIZE", SHARED_SIZE),
        ("GBA_IOCTL_LINE", LINE as u64),
        ("GBA_IOCTL_KEY_BYTES", KEY_BYTES as u64),
        ("GBA_UID_HIDDEN", UID_HIDDEN.into()),
        ("GBA_CLAIM_WON", CLAIM_WON.into()),
        ("GBA_CLAIM_JOINED", CLAIM_JOINED.into()),
        ("GBA_CLAIM_BUSY", CLAIM_BUSY.into()),
        ("GBA_CLAIM_DENIED", CLAIM_DENIED.into()),
        ("GBA_REASON_NONE", REASON_NONE.into()),
        ("GBA_REASON_OTHER_TEAM", REASON_OTHER_TEAM.into()),
        ("GBA_REASON_QUOTA", REASON_QUOTA.into()),
        ("GBA_REASON_MEMBERS", REASON_MEMBERS.into()),
        ("GBA_REASON_INDEX", REASON_INDEX.into()),
        ("GBA_REASON_RESET_TIMEOUT", REASON_RESET_TIMEOUT.into()),
        ("GBA_REASON_NO_MEMORY", REASON_NO_MEMORY.into()),
        ("GBA_IOC_INFO", IOC_INFO),
        ("GBA_IOC_CLAIM", IOC_CLAIM),
        ("GBA_IOC_STATE", IOC_STATE),
        ("GBA_IOC_CLAIMS", IOC_CLAIMS),
        ("GBA_IOC_LOCALS", IOC_LOCALS),
    ] {
        add(e, x);
    }
    v
}

#[test]
fn the_mirror_matches_the_header_as_gcc_compiles_it() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    let expected = expected();
    let mut c = String::from(
        "#include <stddef.h>\n#include <stdio.h>\n#include \"gba_ioctl.h\"\nint main(void)\n{\n",
    );
    for (e, _) in &expected {
        c += &format!("    printf(\"%s %llu\\n\", \"{e}\", (unsigned long long)({e}));\n");
    }
    c += "    return 0;\n}\n";
    let src = dir.path().join("abi.c");
    let exe = dir.path().join("abi");
    std::fs::write(&src, c).unwrap();
    let out = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(repo.join("driver"))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("gcc could not be run: install it (apt-get install gcc; tests/install.sh does)");
    assert!(
        out.status.success(),
        "gcc failed on driver/gba_ioctl.h:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(run.status.success());
    let printed = String::from_utf8(run.stdout).unwrap();
    let got: Vec<(String, u64)> = printed
        .lines()
        .map(|l| {
            let (e, x) = l.rsplit_once(' ').unwrap();
            (e.to_string(), x.parse().unwrap())
        })
        .collect();
    let differ: Vec<String> = expected
        .iter()
        .zip(&got)
        .filter(|(r, c)| r != c)
        .map(|((e, r), (_, c))| format!("{e}: gcc says {c}, kernel_abi.rs says {r}"))
        .collect();
    assert_eq!(got.len(), expected.len());
    assert!(
        differ.is_empty(),
        "kernel_abi.rs differs from driver/gba_ioctl.h:\n{}",
        differ.join("\n")
    );
}
