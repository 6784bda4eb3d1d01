// A write-only register (the arrival doorbell) has no way to be read.
use gba_pac::tock_registers::interfaces::Readable;

fn peek(device: gba_pac::Device) -> u64 {
    device.group(0).unwrap().arrival().get()
}

fn main() {}
