// A bus whose transactions can fail has no infallible reads: `get` (tock-registers'
// `Readable`) needs a mechanism whose error is `Infallible`, so the failure cannot be lost.
use gba_pac::tock_registers::interfaces::Readable;

fn peek<B: gba_pac::common::Bus<Error = String>>(bus: &B) -> u32 {
    gba_pac::Device::on_bus(bus, 0).group(0).unwrap().member_count().get()
}

fn main() {}
