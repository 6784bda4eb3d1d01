// A register with read-to-clear fields has no plain read (nor `modify`): a debugger-style
// print or a read-modify-write cannot clear it by accident; `read_and_clear` says it does.
use uart_pac::tock_registers::interfaces::Readable;

fn peek(regs: uart_pac::regs::Regs) -> u32 {
    regs.error_count().get()
}

fn main() {}
