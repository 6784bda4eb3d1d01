// A handle on a bus has no memory address: `as_ptr` is for memory mechanisms only (it once
// returned the register's offset in the window, which looked like a pointer). A register on a
// bus has `bus_address` instead.
fn pointer<B: gba_pac::common::Bus>(bus: &B) -> *mut u32 {
    gba_pac::Device::on_bus(bus, 0x4000_0000).group(0).unwrap().member_count().as_ptr()
}

fn base<B: gba_pac::common::Bus>(bus: &B) -> *mut u8 {
    gba_pac::Device::on_bus(bus, 0x4000_0000).as_ptr()
}

fn main() {}
