//! Prints a line on UART0, counts TICKS interrupts of TIMER0 (1 ms apart), prints the
//! count, and resets the chip (QEMU, run with `-no-reboot`, exits).

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m_rt::entry;
use nrf51_pac::tock_registers::interfaces::{Readable, Writeable};
use nrf51_pac::{Device, Interrupt, NVIC, Peripherals, interrupt, uart0::Uart0};

/// Interrupts to count before the firmware reports and stops.
const TICKS: u32 = 5;

/// TIMER0 interrupts taken so far (written by the handler only).
static COUNT: AtomicU32 = AtomicU32::new(0);

#[entry]
fn main() -> ! {
    let Some(p) = Peripherals::take() else {
        panic!("taken twice")
    };
    let uart = p.uart0;
    uart.enable().set(4);
    uart.pseltxd().set(24);
    uart.tasks_starttx().set(1);
    print(uart, b"nrf51 (gba PAC): hello\n");
    // The singleton is handed out once.
    if Peripherals::take().is_none() {
        print(uart, b"second take: none\n");
    }

    let timer = p.timer0;
    timer.mode().set(0); // timer
    timer.bitmode().set(3); // 32 bits
    timer.prescaler().set(4); // 1 MHz
    if let Some(cc) = timer.cc(0) {
        cc.set(1000); // 1 ms
    }
    timer.shorts().set(1); // COMPARE0 → CLEAR
    timer.intenset().set(1 << 16); // COMPARE0
    // SAFETY: the handler below is ready, and nothing here relies on TIMER0 being masked.
    unsafe { NVIC::unmask(Interrupt::TIMER0) };
    timer.tasks_start().set(1);
    while COUNT.load(Ordering::Relaxed) < TICKS {
        cortex_m::asm::wfi();
    }
    timer.tasks_stop().set(1);
    NVIC::mask(Interrupt::TIMER0);

    print(uart, b"timer0 interrupts: ");
    print(uart, &[b'0' + COUNT.load(Ordering::Relaxed) as u8, b'\n']);
    cortex_m::peripheral::SCB::sys_reset();
}

#[interrupt]
fn TIMER0() {
    // SAFETY: the window sits at `Device::ADDRESS` (the device's memory-mapped I/O, the
    // contract of `from_ptr`), and the handler only acknowledges TIMER0's event, which `main`
    // never touches once it started the timer. (As svd2rust's `&*TIMER0::ptr()`; `steal()`
    // would also mark the singleton taken, one store more.)
    let device =
        unsafe { Device::from_ptr(core::ptr::with_exposed_provenance_mut(Device::ADDRESS)) };
    let timer = device.timer0();
    if let Some(event) = timer.events_compare(0) {
        event.set(0);
    }
    COUNT.store(COUNT.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

fn print(uart: Uart0, bytes: &[u8]) {
    for &byte in bytes {
        uart.events_txdrdy().set(0);
        uart.txd().set(u32::from(byte));
        while uart.events_txdrdy().get() == 0 {}
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        cortex_m::asm::bkpt();
    }
}
