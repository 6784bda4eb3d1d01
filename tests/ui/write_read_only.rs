// A read-only register has no way to be written.
use gba_pac::tock_registers::interfaces::Writeable;

fn poke(device: gba_pac::Device) {
    device.global().device_id().set(0);
}

fn main() {}
