// CONTROL has a write-1-to-set bit (RESET): tock-registers' blanket read-modify-write, which
// would write a RESET read back as 1, is not available; only the inherent, masking `modify`.
use gba_pac::group::CONTROL;
use gba_pac::tock_registers::interfaces::ReadWriteable;

fn enable(device: gba_pac::Device) {
    let control = device.group(0).unwrap().control();
    ReadWriteable::modify(&control, CONTROL::ENABLE::SET);
}

fn main() {}
