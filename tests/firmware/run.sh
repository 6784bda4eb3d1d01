#!/usr/bin/env bash
# Firmware on emulated boards (part of the svd stage of tests/run.sh): PACs generated from
# vendor SVDs of the cmsis-svd PyPI package (fetched at test time, outside the repository, as
# tests/bench/svd_sample.sh does) run interrupt-driven firmware under QEMU:
#   - microbit (nRF51822, Cortex-M0): nrf51-gba/ on the PAC from Nordic's nrf51.svd prints on
#     UART0 and counts TIMER0 interrupts taken through the PAC's vector table;
#   - netduino2 (STM32F205, Cortex-M3): stm32f205-gba/ on the PAC from ST's STM32F20x.svd,
#     USART1 and TIM2 likewise (that SVD has no <cpu>: `cpu: CM3` is added to the spec);
#   - with GBA_FIRMWARE_PEER=1 (not in CI: its build takes minutes), nrf51-svd2rust/, the nRF51
#     firmware on svd2rust's nrf51-pac 0.12 (crates.io), runs too and is the size peer: both
#     .text sizes are printed side by side.
# Each board must print its hello line, "second take: none" (Peripherals::take() hands the
# singleton out once) and "… interrupts: 5"; the script fails otherwise.
# Built with nightly's -Zbuild-std=core (rust-src; `rustup target add` is not needed).
# Needs qemu-system-arm and binutils-arm-none-eabi (tests/install.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=$ROOT/target/firmware
mkdir -p "$OUT"
cargo build -q -p gba
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS # (tests/run.sh's lint wrapper: not for nightly's thumb builds)
GBA=$ROOT/target/debug/gba
CORPUS=$(python3 -c 'import sys; sys.path.insert(0, "tests/bench"); import svd_corpus; print(svd_corpus.corpus_dir())')

# pac SVD NAME [CPU]: the PAC of SVD into $OUT/NAME-pac (the spec beside it); CPU is added
# to the spec when the SVD names no core.
pac() {
    local svd=$1 name=$2 cpu=${3:-}
    "$GBA" import-svd "$CORPUS/$svd" --out "$OUT/$name.yaml" 2>/dev/null
    if [ -n "$cpu" ]; then
        sed -i "s/^  address: 0x0\$/  cpu: $cpu\n  address: 0x0/" "$OUT/$name.yaml"
        grep -q "^  cpu: $cpu\$" "$OUT/$name.yaml"
    fi
    "$GBA" gen --spec "$OUT/$name.yaml" --out "$OUT/$name-pac" --emit rust >/dev/null
}
pac Nordic/nrf51.svd nrf51
pac STMicro/STM32F20x.svd stm32f20x CM3

# build CRATE TARGET: prints the firmware's ELF.
build() {
    (cd "tests/firmware/$1" &&
        nice -n 5 cargo +nightly build -q --release -Zbuild-std=core --target "$2" \
            --target-dir "$OUT/target")
    echo "$OUT/target/$2/release/firmware-$1"
}

# run BOARD ELF EXPECTED…: runs the firmware until it resets the chip; every EXPECTED line
# must be in its serial output.
run() {
    local board=$1 elf=$2 log
    shift 2
    log=$(timeout 60 qemu-system-arm -M "$board" -nographic -no-reboot -kernel "$elf" </dev/null) || {
        echo "FAIL: $board: qemu exited with $? (output: $log)"
        exit 1
    }
    for line in "$@"; do
        if ! grep -qxF "$line" <<<"$log"; then
            echo "FAIL: $board: no line \"$line\" in: $log"
            exit 1
        fi
    done
    echo "ok: $board: $(tr '\n' '|' <<<"$log")"
}

text() { arm-none-eabi-size -A "$1" | awk '$1 == ".text" { print $2 }'; }

t0=$(date +%s)
nrf51=$(build nrf51-gba thumbv6m-none-eabi)
# The size peer, svd2rust's nrf51-pac (a build of minutes): GBA_FIRMWARE_PEER=1.
peer=
[ -n "${GBA_FIRMWARE_PEER:-}" ] && peer=$(build nrf51-svd2rust thumbv6m-none-eabi)
stm32=$(build stm32f205-gba thumbv7m-none-eabi)
run microbit "$nrf51" "nrf51 (gba PAC): hello" "second take: none" "timer0 interrupts: 5"
[ -z "$peer" ] || run microbit "$peer" "nrf51 (svd2rust PAC): hello" "second take: none" "timer0 interrupts: 5"
run netduino2 "$stm32" "stm32f205 (gba PAC): hello" "second take: none" "tim2 interrupts: 5"
echo ".text bytes (arm-none-eabi-size -A, release, opt-level s, LTO):"
echo "  nrf51 firmware on the gba PAC:       $(text "$nrf51")"
if [ -n "$peer" ]; then
    echo "  nrf51 firmware on svd2rust nrf51-pac: $(text "$peer")"
else
    echo "  nrf51 firmware on svd2rust nrf51-pac: not built (GBA_FIRMWARE_PEER=1 builds it)"
fi
echo "  stm32f205 firmware on the gba PAC:   $(text "$stm32")"
echo "firmware: $(($(date +%s) - t0)) s"
