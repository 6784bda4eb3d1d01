// A register that another register's bit can lock has no plain write: a write the device
// would ignore without a word needs `unlocked(lock)` (which reads the lock) or
// `assume_unlocked()` in the code.
use uart_pac::tock_registers::interfaces::Writeable;

fn write(regs: uart_pac::regs::Regs) {
    regs.baud_fine().set(5);
}

fn main() {}
