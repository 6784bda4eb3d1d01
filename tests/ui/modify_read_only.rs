// Read-modify-write needs a writable register.
use gba_pac::group::STATUS;
use gba_pac::tock_registers::interfaces::ReadWriteable;

fn clear_error(device: gba_pac::Device) {
    device.group(0).unwrap().status().modify(STATUS::ERROR::CLEAR);
}

fn main() {}
