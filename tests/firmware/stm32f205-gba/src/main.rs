//! Prints a line on USART1, counts TICKS interrupts of TIM2 (1 ms apart), prints the count,
//! and resets the chip (QEMU, run with `-no-reboot`, exits). QEMU models no clock gating,
//! so RCC is left alone; on a real STM32F205 the firmware would first enable the clocks of
//! USART1 (APB2ENR) and TIM2 (APB1ENR).

#![no_std]
#![no_main]

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m_rt::entry;
use stm32f20x_pac::tock_registers::interfaces::{Readable, Writeable};
use stm32f20x_pac::{Interrupt, NVIC, Peripherals, interrupt, usart::Usart};

/// Interrupts to count before the firmware reports and stops.
const TICKS: u32 = 5;

/// TIM2 interrupts taken so far (written by the handler only).
static COUNT: AtomicU32 = AtomicU32::new(0);

#[entry]
fn main() -> ! {
    let Some(p) = Peripherals::take() else {
        panic!("taken twice")
    };
    let usart = p.usart1;
    usart.cr1().set((1 << 13) | (1 << 3)); // UE, TE
    print(usart, b"stm32f205 (gba PAC): hello\n");
    // The singleton is handed out once.
    if Peripherals::take().is_none() {
        print(usart, b"second take: none\n");
    }

    let timer = p.tim2;
    timer.psc().set(999); // QEMU's timer clock is 1 GHz: 1 MHz
    // QEMU's model (7.2) counts from the last write of CNT, else from boot, and schedules the
    // first update when ARR is written: without this write, a firmware that reaches here more
    // than ARR ticks after boot (a loaded host) never gets one. Harmless on the chip.
    timer.cnt().set(0);
    timer.arr().set(1000); // 1 ms
    timer.dier().set(1); // UIE
    // SAFETY: the handler below is ready, and nothing here relies on TIM2 being masked.
    unsafe { NVIC::unmask(Interrupt::TIM2) };
    timer.cr1().set(1); // CEN
    while COUNT.load(Ordering::Relaxed) < TICKS {
        cortex_m::asm::wfi();
    }
    timer.cr1().set(0);
    NVIC::mask(Interrupt::TIM2);

    print(usart, b"tim2 interrupts: ");
    print(usart, &[b'0' + COUNT.load(Ordering::Relaxed) as u8, b'\n']);
    cortex_m::peripheral::SCB::sys_reset();
}

#[interrupt]
fn TIM2() {
    // SAFETY: the handler only acknowledges TIM2's update, which `main` never touches once
    // it started the timer.
    let timer = unsafe { Peripherals::steal() }.tim2;
    timer.sr().set(0);
    COUNT.store(COUNT.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// Any USART of the chip: USART1, 2, 3 and 6 are instances of one block type.
fn print(usart: Usart, bytes: &[u8]) {
    for &byte in bytes {
        while usart.sr().get() & (1 << 7) == 0 {} // TXE
        usart.dr().set(u32::from(byte));
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        cortex_m::asm::bkpt();
    }
}
