// Over a bus the access modes are the same types: the write-only doorbell has no `try_get`.
fn peek<B: gba_pac::common::Bus>(bus: &B) -> Result<u64, B::Error> {
    gba_pac::Device::on_bus(bus, 0).group(0).unwrap().arrival().try_get()
}

fn main() {}
