// A read-to-set field (a semaphore taken by reading) makes every read an action: no plain
// read, only `read_and_clear`.
use uart_pac::tock_registers::interfaces::Readable;

fn peek(regs: uart_pac::regs::Regs) -> u8 {
    regs.semaphore().get()
}

fn main() {}
