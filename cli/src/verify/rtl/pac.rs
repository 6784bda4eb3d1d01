//! The generated PAC's typed handles driving the RTL: `gba_pac::Device::on_bus(&rtl, 0)`
//! configures a group of gba.yaml's register block under Verilator through the same calls a
//! driver makes over MMIO (`try_write`, `try_modify`, `try_read_as_enum`, …), and reads back
//! what the RTL holds. The hardware-written fields are driven by the test through the harness.
//!
//! The RTL is gba.yaml's window with 2 groups instead of 32 (the same registers at the same
//! addresses, a short Verilator build), built under `target/tmp/cosim/pac` and reused while it
//! is the same. Needs python3 with peakrdl-regblock and verilator: `tests/run.sh cosim` runs
//! it (`cargo test -p gba --bin gba -- --ignored verify::rtl::pac`). This is a unit test
//! because the `gba` package has no library for an integration test to reach `RtlBus` through.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::OnceLock;

use gba_pac::common::{OnBus, Width};
use gba_pac::group::{self, ARRIVAL, CONTROL, MEMBER_COUNT, MEMBER_MASK, RELEASE_ADDR, STATUS};

use super::RtlBus;
use crate::verify::Bus as _;

/// The 2-group RTL, generated and built (or found built) once for all the tests of this
/// module, which run in parallel; a harness of its own for the caller.
fn start() -> RtlBus {
    static BUILT: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    let (harness, hwif) = BUILT.get_or_init(build);
    RtlBus::start(harness, hwif).unwrap()
}

/// `gba rtl` and the harness build: the harness and the hardware-write table.
fn build() -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    // The test binary is target/<profile>/deps/gba-<hash>; its target directory holds tmp/.
    let target = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.parent()?.to_path_buf()))
        .unwrap_or_else(|| root.join("target"));
    let dir = target.join("tmp").join("cosim").join("pac");
    std::fs::create_dir_all(&dir).unwrap();
    let spec = dir.join("two_groups.yaml");
    let yaml = std::fs::read_to_string(root.join("gba.yaml"))
        .unwrap()
        .replace("    count: 32\n", "    count: 2\n");
    std::fs::write(&spec, yaml).unwrap();
    let args = crate::rtl::RtlArgs {
        spec: Some(spec.clone()),
        rdl: None,
        out: dir.clone(),
        no_lint: true,
    };
    let name = crate::rtl::run(&args, &spec).unwrap_or_else(|e| panic!("gba rtl: {e}"));
    let harness =
        super::build(&dir, &name, &dir.join("obj")).unwrap_or_else(|e| panic!("verilator: {e}"));
    (harness, dir.join(format!("{name}_hwif.tsv")))
}

/// Group `g` of the window at address 0 of `bus`, through the generated PAC.
fn group<B: gba_pac::common::Bus>(bus: &B, g: usize) -> group::Group<OnBus<'_, B>> {
    gba_pac::Device::on_bus(bus, 0).group(g).unwrap()
}

/// A bus that forwards to another and keeps the writes it forwarded: what the typed handles
/// actually sent.
struct Logged<'a> {
    bus: &'a RtlBus,
    writes: RefCell<Vec<(u64, u64)>>,
}

impl gba_pac::common::Bus for Logged<'_> {
    type Error = String;

    fn read(&self, address: u64, width: Width) -> Result<u64, String> {
        gba_pac::common::Bus::read(self.bus, address, width)
    }

    fn write(&self, address: u64, width: Width, value: u64) -> Result<(), String> {
        self.writes.borrow_mut().push((address, value));
        gba_pac::common::Bus::write(self.bus, address, width, value)
    }
}

#[test]
#[ignore = "needs verilator and peakrdl-regblock, and a minute: run by tests/run.sh cosim"]
fn the_typed_pac_configures_a_group_of_the_rtl() {
    let mut rtl = start();
    rtl.reset().unwrap();

    // Configuration, as gba-hal writes it over MMIO, here as transactions on the RTL.
    let g1 = group(&rtl, 1);
    let members = [0x8000_0000_0000_0003, 0x0000_0001_0000_0000];
    for (w, &word) in members.iter().enumerate() {
        g1.member_mask(w)
            .unwrap()
            .try_write(MEMBER_MASK::MEMBERS.val(word))
            .unwrap();
    }
    g1.member_count()
        .try_write(MEMBER_COUNT::COUNT.val(4))
        .unwrap();
    g1.release_addr()
        .try_write(RELEASE_ADDR::ADDR.val(0x1234_5678_9abc_def0))
        .unwrap();
    g1.control()
        .try_modify(CONTROL::ENABLE::SET + CONTROL::ARM::SET)
        .unwrap();

    // Read back by the typed handles: the RTL holds what they wrote, 64-bit registers
    // included (two APB transfers each).
    for (w, &word) in members.iter().enumerate() {
        assert_eq!(g1.member_mask(w).unwrap().try_get(), Ok(word), "word {w}");
    }
    assert_eq!(g1.member_mask(2).unwrap().try_get(), Ok(0));
    assert_eq!(g1.member_count().try_read(MEMBER_COUNT::COUNT), Ok(4));
    assert_eq!(
        g1.release_addr().try_read(RELEASE_ADDR::ADDR),
        Ok(0x1234_5678_9abc_def0)
    );
    let control = g1.control().try_extract().unwrap();
    assert!(control.is_set(CONTROL::ENABLE) && control.is_set(CONTROL::ARM));
    // Group 0 was not touched: each write reached only its own register.
    assert_eq!(group(&rtl, 0).member_count().try_get(), Ok(0));
    assert_eq!(group(&rtl, 0).member_mask(0).unwrap().try_get(), Ok(0));

    // The read-only STATUS, written by the hardware (driven here through the harness), read
    // by the typed fields, enumerations included.
    assert_eq!(group(&rtl, 1).status().try_is_set(STATUS::READY), Ok(false));
    assert!(rtl.hw_write("group_1.STATUS.READY", 1).unwrap());
    assert!(rtl.hw_write("group_1.STATUS.ERROR_CODE", 6).unwrap());
    let status = group(&rtl, 1).status();
    assert_eq!(status.try_is_set(STATUS::READY), Ok(true));
    assert_eq!(
        status.try_read_as_enum(STATUS::ERROR_CODE),
        Ok(Some(STATUS::ERROR_CODE::Value::GROUP_BUSY))
    );
    assert_eq!(group(&rtl, 0).status().try_get(), Ok(0));
}

#[test]
#[ignore = "needs verilator and peakrdl-regblock, and a minute: run by tests/run.sh cosim"]
fn the_typed_write_one_and_write_only_registers_on_the_rtl() {
    let mut rtl = start();
    rtl.reset().unwrap();
    let logged = Logged {
        bus: &rtl,
        writes: RefCell::new(Vec::new()),
    };
    let g0 = group(&logged, 0);
    let control_at = (0x1_0000 + group::offset::CONTROL) as u64;

    // RESET is write-1-to-set: the typed write pulses it, and a modify of other fields
    // writes it as 0 (no effect), whatever it reads as.
    g0.control().try_write(CONTROL::RESET::SET).unwrap();
    g0.control().try_modify(CONTROL::ENABLE::SET).unwrap();
    g0.control().try_modify(CONTROL::ARM::SET).unwrap();
    assert_eq!(
        logged.writes.take(),
        [
            (control_at, 0b010),
            (control_at, 0b001),
            (control_at, 0b101)
        ]
    );
    let control = g0.control().try_extract().unwrap();
    assert!(control.is_set(CONTROL::ENABLE) && control.is_set(CONTROL::ARM));

    // The write-only doorbell takes a typed write (it has no read: tests/ui covers that).
    g0.arrival()
        .try_write(ARRIVAL::MEMBER_ID.val(0) + ARRIVAL::SEQUENCE.val(1))
        .unwrap();
    assert_eq!(
        logged.writes.take(),
        [((0x1_0000 + group::offset::ARRIVAL) as u64, 1)]
    );
}

/// The strap is an input of the RTL's wrapper: driven (as a board's pins would) and reset,
/// the typed PAC reads the port number it was given; each group reads its own index.
#[test]
#[ignore = "needs verilator and peakrdl-regblock, and a minute: run by tests/run.sh cosim"]
fn the_typed_pac_reads_the_strap_the_rtl_is_driven_with() {
    use gba_pac::global::PORT_ID;
    use gba_pac::group::GROUP_ID;
    let mut rtl = start();
    rtl.reset().unwrap();
    let port_id = || gba_pac::Device::on_bus(&rtl, 0).global().port_id();
    assert_eq!(port_id().try_read(PORT_ID::PORT), Ok(0));
    assert_eq!(rtl.strap("global.PORT_ID.PORT"), Some(0));
    rtl.drive_strap("global.PORT_ID.PORT", 0x2a5).unwrap();
    assert_eq!(port_id().try_read(PORT_ID::PORT), Ok(0x2a5));
    assert_eq!(rtl.strap("global.PORT_ID.PORT"), Some(0x2a5));
    for g in 0..2 {
        assert_eq!(
            group(&rtl, g).group_id().try_read(GROUP_ID::ID),
            Ok(g as u32)
        );
    }
    // Another value, another reset: the field takes it.
    rtl.drive_strap("global.PORT_ID.PORT", 7).unwrap();
    assert_eq!(port_id().try_read(PORT_ID::PORT), Ok(7));
    let error = rtl.drive_strap("global.DEVICE_ID.ID", 1).unwrap_err();
    assert!(
        error.contains("no strap input for `global.DEVICE_ID.ID`"),
        "{error}"
    );
}

#[test]
#[ignore = "needs verilator and peakrdl-regblock, and a minute: run by tests/run.sh cosim"]
fn a_harness_that_is_gone_is_an_error_not_a_panic() {
    let mut rtl = start();
    rtl.reset().unwrap();
    rtl.child.kill().unwrap();
    rtl.child.wait().unwrap();
    let error = group(&rtl, 0).member_count().try_get().unwrap_err();
    assert!(error.contains("the harness"), "{error}");
    let error = group(&rtl, 0)
        .control()
        .try_modify(CONTROL::ARM::SET)
        .unwrap_err();
    assert!(error.contains("the harness"), "{error}");
}
