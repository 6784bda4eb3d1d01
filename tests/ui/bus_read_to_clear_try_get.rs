// Over a bus a read-to-clear register still has one read only, `try_read_and_clear`.
fn peek<B: uart_pac::common::Bus>(bus: &B) -> Result<u32, B::Error> {
    uart_pac::Device::on_bus(bus, 0).regs().error_count().try_get()
}

fn main() {}
