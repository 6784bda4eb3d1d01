// Field values are typed by their register: STATUS's fields cannot be written to CONTROL.
use gba_pac::group::STATUS;

fn confuse(device: gba_pac::Device) {
    device.group(0).unwrap().control().write(STATUS::READY::SET);
}

fn main() {}
