// Nor a read-modify-write: reading a locked register is allowed, writing it is not.
use uart_pac::regs::BAUD_FINE;
use uart_pac::tock_registers::interfaces::ReadWriteable;

fn modify(regs: uart_pac::regs::Regs) {
    regs.baud_fine().modify(BAUD_FINE::FRACTION.val(3));
}

fn main() {}
