//! The firmware of nrf51-gba/ on svd2rust's nrf51-pac: prints a line on UART0, counts TICKS
//! interrupts of TIMER0 (1 ms apart), prints the count, and resets the chip.

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m_rt::entry;
use nrf51_pac::{Interrupt, NVIC, Peripherals, UART0, interrupt};

/// Interrupts to count before the firmware reports and stops.
const TICKS: u32 = 5;

/// TIMER0 interrupts taken so far (written by the handler only).
static COUNT: AtomicU32 = AtomicU32::new(0);

#[entry]
fn main() -> ! {
    let Some(p) = Peripherals::take() else {
        panic!("taken twice")
    };
    let uart = &p.UART0;
    // SAFETY (each `bits`): the raw values are the ones nrf51-gba writes.
    uart.enable.write(|w| unsafe { w.bits(4) });
    uart.pseltxd.write(|w| unsafe { w.bits(24) });
    uart.tasks_starttx.write(|w| unsafe { w.bits(1) });
    print(uart, b"nrf51 (svd2rust PAC): hello\n");
    // The singleton is handed out once.
    if Peripherals::take().is_none() {
        print(uart, b"second take: none\n");
    }

    let timer = &p.TIMER0;
    timer.mode.write(|w| unsafe { w.bits(0) });
    timer.bitmode.write(|w| unsafe { w.bits(3) });
    timer.prescaler.write(|w| unsafe { w.bits(4) });
    timer.cc[0].write(|w| unsafe { w.bits(1000) });
    timer.shorts.write(|w| unsafe { w.bits(1) });
    timer.intenset.write(|w| unsafe { w.bits(1 << 16) });
    // SAFETY: the handler below is ready, and nothing here relies on TIMER0 being masked.
    unsafe { NVIC::unmask(Interrupt::TIMER0) };
    timer.tasks_start.write(|w| unsafe { w.bits(1) });
    while COUNT.load(Ordering::Relaxed) < TICKS {
        cortex_m::asm::wfi();
    }
    timer.tasks_stop.write(|w| unsafe { w.bits(1) });
    NVIC::mask(Interrupt::TIMER0);

    print(uart, b"timer0 interrupts: ");
    print(uart, &[b'0' + COUNT.load(Ordering::Relaxed) as u8, b'\n']);
    cortex_m::peripheral::SCB::sys_reset();
}

#[interrupt]
fn TIMER0() {
    // SAFETY: TIMER0's registers sit at `ptr()` for the whole program; the handler only
    // acknowledges its event, which `main` never touches once it started the timer.
    let timer = unsafe { &*nrf51_pac::TIMER0::ptr() };
    timer.events_compare[0].write(|w| unsafe { w.bits(0) });
    COUNT.store(COUNT.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

fn print(uart: &UART0, bytes: &[u8]) {
    for &byte in bytes {
        uart.events_txdrdy.write(|w| unsafe { w.bits(0) });
        uart.txd.write(|w| unsafe { w.bits(u32::from(byte)) });
        while uart.events_txdrdy.read().bits() == 0 {}
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        cortex_m::asm::bkpt();
    }
}
