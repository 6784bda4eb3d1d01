// Over a bus a register that another register's bit can lock has no plain write either: the
// writable handle comes from `try_unlocked(lock)` (which reads the lock over the bus).
fn write<B: uart_pac::common::Bus>(bus: &B) -> Result<(), B::Error> {
    uart_pac::Device::on_bus(bus, 0).regs().baud_fine().try_set(5)
}

fn main() {}
