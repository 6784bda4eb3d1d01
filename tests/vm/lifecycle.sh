#!/usr/bin/env bash
# The kernel driver's lifecycle (issue 35, items 5 and 6): gba.ko in a QEMU guest (TCG) against
# the simulated switch on the host, as tests/vm/kernel.sh boots it, with the port behind a PCIe
# root port (so that a sysfs function reset has a method: the port's secondary bus reset).
#
# - An ioctl fuzzer (tests/vm/ioctl_fuzz.c) as bob: random and boundary arguments for every
#   ioctl of driver/gba_ioctl.h, threads mixing open, claim, close, fork, mmap, mprotect and
#   mremap. Then every group of the port is free and the port still runs barriers.
# - While alice's job (gba-barrier's vm_member over /dev/gbaN) runs barriers and bob's processes
#   hold claims and their mappings (tests/vm/lifecycle.c sessions), root moves the port:
#   unbind and bind; PCI remove and rescan; a sysfs function reset; a fatal PCIe AER error
#   injected at the port's root port (QEMU's monitor: pcie_aer_inject_error rp0 DLP, sent by
#   lifecycle_sampler.py), which the kernel's AER recovery answers with the driver's
#   error_detected, a link reset, slot_reset and resume, then a non-fatal one (POISON_TLP:
#   error_detected with the channel working, then resume); rmmod attempts; a swap to
#   uio_pci_generic and back. Each time alice then claims the group bob held before, and bob
#   rings the doorbell and writes RESET through his old mapping. Checked: bob's old mapping is
#   revoked (SIGBUS), his old file answers ENODEV, alice's group is neither released early nor
#   reset, alice's running job ends with a clear error (not a hang), and a job over UIO after
#   the swap is not disturbed.
# - DMA after free, seen from the host (tests/vm/lifecycle_sampler.py reads the register window
#   and guest RAM files while the guest runs): after a remove, alice's claim is closed (its
#   flag memory freed) and bob's old mapping re-arms and rings the group; the device must not
#   complete an episode whose RELEASE_ADDR is memory the driver freed.
# - After the port comes back, a team of two runs 100 barriers; every file closed, no group is
#   held, rmmod succeeds, and dmesg has no WARNING, BUG or Oops.
#
# Usage: tests/vm/lifecycle.sh [TARGET_DIR]   (default target/debug: gba, examples/vm_member)
# Environment: GBA_VM_CACHE (default ~/.cache/gba-vm), GBA_VM_KEEP=1 (keep the work directory),
#   GBA_LIFECYCLE_FUZZ_CALLS (the fuzzer's calls, default 20000: a few seconds; the documented
#   long run is 200000, docs/driver.md), GBA_LIFECYCLE_FUZZ_SEED (default: the time).
# Prints `lifecycle: N passed, M failed`. Exit 0 every check passed, 1 one failed, 77 QEMU
# cannot run here. Bounded: the guest is killed after 300 s (and 1 s more per 500 fuzzer calls).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"
target=${1:-$repo/target/debug}
gba=$target/gba
member=$target/examples/vm_member
cache=${GBA_VM_CACHE:-$HOME/.cache/gba-vm}
fuzz_calls=${GBA_LIFECYCLE_FUZZ_CALLS:-20000}
fuzz_seed=${GBA_LIFECYCLE_FUZZ_SEED:-$(date +%s)}
mkdir -p "$cache"

vm_need_qemu
for bin in "$gba" "$member"; do
    [ -x "$bin" ] || { echo "lifecycle: $bin is missing (cargo build -p gba -p gba-barrier --bins --example vm_member)"; exit 1; }
done
vm_kernel "$cache"
kver=$(vm_kernel_version)
vm_scratch lifecycle
VM_CHECK_SAY_OK=1

check() { vm_check "$@"; }

ko=$(vm_gba_module "$work/module" "$kver") || { echo "lifecycle: FAILED: gba.ko did not build for $kver"; exit 1; }
for prog in lifecycle ioctl_fuzz kernel_test; do
    gcc -std=c11 -Wall -Wextra -Werror -O2 -pthread -I "$repo/driver" -I "$repo/gba-pac/include" \
        "$here/$prog.c" -o "$work/$prog"
done

cat > "$work/init" <<INIT
$VM_INIT_PRELUDE
# A session that died must not take init with it (a write to its fifo).
trap '' PIPE
chmod 0755 / && chmod 1777 /tmp
insmod /lib/modules/gba.ko ivshmem=1 groups_per_uid=8; echo "GUEST: insmod rc=\$?"
# The port's node, whatever its number (old files keep an old port's number taken), given the
# mode and group driver/99-gba.rules gives it (no udevd in this guest).
node() {
    n=0; d=
    while [ \$n -lt 100 ]; do d=\$(ls /dev/gba* 2>/dev/null | tail -1); [ -n "\$d" ] && break; n=\$((n + 1)); sleep 0.1; done
    [ -n "\$d" ] && chgrp 990 \$d && chmod 0660 \$d
    echo \$d
}
# start FD NAME UID DEV GROUP KEY: a lifecycle session whose commands go to file descriptor FD.
start() {
    mkfifo /tmp/\$2.in; : > /tmp/\$2.out
    lifecycle --as \$3 session \$4 \$5 \$6 < /tmp/\$2.in > /tmp/\$2.out 2>&1 &
    # Read-write: opening a FIFO so never blocks (a blocked open that a child's SIGCHLD
    # interrupts is a failed redirection of exec, which ends the shell: init).
    eval "pid_\$2=\$!; exec \$1<>/tmp/\$2.in"
    n=0; until [ -s /tmp/\$2.out ] || [ \$n -gt 100 ]; do n=\$((n + 1)); sleep 0.1; done
    echo "GUEST: \$2: \$(head -1 /tmp/\$2.out)"
}
# say FD NAME COMMAND: one command, its answer.
say() {
    eval "p=\\\$pid_\$2"
    if ! kill -0 \$p 2>/dev/null; then echo "GUEST: \$2: \$3 -> (session gone)"; return; fi
    before=\$(wc -l < /tmp/\$2.out)
    echo "\$3" >&\$1
    n=0; while [ "\$(wc -l < /tmp/\$2.out)" -le "\$before" ] && [ \$n -lt 200 ]; do n=\$((n + 1)); sleep 0.1; done
    echo "GUEST: \$2: \$3 -> \$(tail -1 /tmp/\$2.out)"
}
# end FD: the session reads end of file and exits (its file closed, its mappings gone).
end() { eval "exec \$1>&-"; }
# sample TAG GROUP: the host reads GROUP's registers and the word its RELEASE_ADDR points at.
sample() { echo "GUEST: sample \$1 \$2"; sleep 1; }
dev=/sys/bus/pci/devices/\$bdf
D=\$(node); echo "GUEST: node \$D"

# 1. The fuzzer, as bob; then every group is free and the port runs barriers.
echo "GUEST: before the fuzzer: \$(grep -E '^(MemFree|Slab):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
start=\$(date +%s)
ioctl_fuzz --as 1002 \$D $fuzz_calls 4 $fuzz_seed 2>&1 | sed 's/^/GUEST: /'
echo "GUEST: fuzz took \$((\$(date +%s) - start)) s"
kernel_test claims \$D | sed 's/^/GUEST: after the fuzzer: /'
echo "GUEST: after the fuzzer: \$(grep -E '^(MemFree|Slab):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
start 3 F0 1001 \$D 0 0xf0; say 3 F0 "barrier 20"; end 3

# 2. Unbind and bind while alice's job runs on group 2 and bob holds groups 5 and 9.
kernel_test --as 1001 exec vm_member \$D 1 2 50 --rounds 100000 --pause-ms 20 > /tmp/job.out 2>&1 &
job=\$!
n=0; until kernel_test claims \$D | grep -q 'g=2 uid=1001' || [ \$n -gt 100 ]; do n=\$((n + 1)); sleep 0.1; done
start 3 B5 1002 \$D 5 0xb0b5
start 4 B9 1002 \$D 9 0xb0b9
# and a second fuzzer, which the unbind meets mid-call
GBA_FUZZ_STOP=/tmp/fuzz2.stop ioctl_fuzz --as 1002 \$D 100000000 2 $((fuzz_seed + 1)) > /tmp/fuzz2.out 2>&1 &
fuzz2=\$!
# and a job of alice's that opened the port and claims only after the unbind (a communicator
# made later): its claim must fail naming the device file it opened
kernel_test --as 1001 exec vm_member \$D 1 3 5 --idle-first 5 > /tmp/idle.out 2>&1 &
idle=\$!
echo "GUEST: idle job opened \$D"
sleep 1
echo \$bdf > /sys/bus/pci/drivers/gba/unbind; echo \$bdf > /sys/bus/pci/drivers/gba/bind
D=\$(node); echo "GUEST: unbind and bind: node \$D"
sleep 1; touch /tmp/fuzz2.stop
wait \$fuzz2; echo "GUEST: fuzzer across the unbind: rc=\$?"; sed 's/^/GUEST: fuzzer across the unbind: /' /tmp/fuzz2.out
n=0; while kill -0 \$job 2>/dev/null && [ \$n -lt 600 ]; do n=\$((n + 1)); sleep 0.1; done
if kill -0 \$job 2>/dev/null; then echo "GUEST: job: still running 60 s after the unbind"; kill -9 \$job; fi
wait \$job; echo "GUEST: job: rc=\$? after \$((n / 10)) s"
tail -3 /tmp/job.out | sed 's/^/GUEST: job: /'
wait \$idle; echo "GUEST: idle job: rc=\$?"
tail -3 /tmp/idle.out | sed 's/^/GUEST: idle job: /'
start 5 V5 1001 \$D 5 0xa5
say 5 V5 check
say 3 B5 ring; sleep 1
say 5 V5 check
say 3 B5 reset; sleep 1
say 5 V5 check
say 5 V5 "barrier 3"
say 3 B5 state
say 3 B5 claim
say 3 B5 mmap
end 3; end 5

# 3. PCI remove and rescan. Alice claims group 9 (bob's mapping of it is from before the
#    unbind), the port is removed, alice's claim closed (its flag memory freed), and bob's old
#    mapping re-arms and rings group 9: the host watches where the device writes.
start 5 V9 1001 \$D 9 0xa9
start 3 B6 1002 \$D 6 0xb0b6
sample armed 9
echo 1 > \$dev/remove
say 5 V9 close; end 5
sample freed 9
say 4 B9 arm
say 4 B9 ring
sleep 1; sample struck 9
echo 1 > /sys/bus/pci/rescan
D=\$(node); echo "GUEST: remove and rescan: node \$D"
start 5 V6 1001 \$D 6 0xa6
say 3 B6 ring; sleep 1
say 5 V6 check
say 3 B6 reset; sleep 1
say 5 V6 check
say 5 V6 "barrier 3"
say 3 B6 state
end 3; end 4; end 5

# 4. A function reset through sysfs while bob holds group 4.
start 3 B4 1002 \$D 4 0xb0b4
echo "GUEST: reset_method \$(cat \$dev/reset_method 2>&1)"
echo 1 > \$dev/reset; echo "GUEST: reset rc=\$?"
D=\$(node); echo "GUEST: reset: node \$D"
start 5 V4 1001 \$D 4 0xa4
say 3 B4 ring; sleep 1
say 5 V4 check
say 3 B4 reset; sleep 1
say 5 V4 check
say 5 V4 "barrier 3"
say 3 B4 state
end 3; end 5

# 4b. A PCIe AER error (fatal: Data Link Protocol) injected at the port's root port through
#     QEMU's monitor while bob holds group 8: the kernel's AER recovery calls error_detected
#     (frozen), resets the link below the port, then slot_reset and resume. The host samples
#     group 8 before and after.
start 3 B8 1002 \$D 8 0xb0b8
sample aer-armed 8
echo "GUEST: inject aer rp0 DLP"
n=0; until dmesg | grep -q 'recovered; new claims' || [ \$n -gt 150 ]; do n=\$((n + 1)); sleep 0.1; done
dmesg | grep -aiE 'aer|pcieport|gba.*(PCI error|recovered|revoked|quiesc)' | tail -20 | sed 's/^/GUEST: aer dmesg: /'
sample aer-recovered 8
D=\$(node); echo "GUEST: aer: node \$D"
start 5 V8 1001 \$D 8 0xa8
say 3 B8 ring; sleep 1
say 5 V8 check
say 3 B8 reset; sleep 1
say 5 V8 check
say 5 V8 "barrier 3"
say 3 B8 state
end 3; end 5

# 4c. A non-fatal AER error (Poisoned TLP) while bob holds group 10: error_detected with the
#     channel still working (it quiesces there), then resume; no link reset.
start 3 B10 1002 \$D 10 0xb0ba
sample aer2-armed 10
echo "GUEST: inject aer rp0 POISON_TLP"
n=0; until [ "\$(dmesg | grep -c 'recovered; new claims')" -ge 2 ] || [ \$n -gt 150 ]; do n=\$((n + 1)); sleep 0.1; done
dmesg | grep -aiE 'AER: .*(error message|recovery)|gba.*(PCI error|recovered)' | tail -4 | sed 's/^/GUEST: aer2 dmesg: /'
echo "GUEST: aer2: recoveries \$(dmesg | grep -c 'recovered; new claims')"
sample aer2-recovered 10
start 5 V10 1001 \$D 10 0xaa
say 3 B10 ring; sleep 1
say 5 V10 check
say 3 B10 reset; sleep 1
say 5 V10 check
say 5 V10 "barrier 3"
say 3 B10 state
end 3; end 5

# 5. rmmod while files are open: refused, and the port goes on.
start 3 R1 1001 \$D 1 0xa1
rmmod gba 2>/dev/null; echo "GUEST: rmmod with a file open rc=\$?"
say 3 R1 "barrier 5"
end 3

# 6. A swap to uio_pci_generic and back while bob holds group 7: a job of root's over UIO on
#    group 7 meanwhile.
start 3 B7 1002 \$D 7 0xb0b7
echo \$bdf > /sys/bus/pci/drivers/gba/unbind
echo uio_pci_generic > \$dev/driver_override; echo \$bdf > /sys/bus/pci/drivers_probe
n=0; until [ -e /dev/uio0 ] || [ \$n -gt 50 ]; do n=\$((n + 1)); sleep 0.1; done
echo "GUEST: swapped to \$(basename \$(readlink \$dev/driver))"
vm_member /dev/uio0 1 7 100 --rounds 30 --pause-ms 100 > /tmp/uio.out 2>&1 &
uio=\$!
sleep 2
say 3 B7 reset
say 3 B7 ring
wait \$uio; echo "GUEST: uio job rc=\$?"
tail -2 /tmp/uio.out | sed 's/^/GUEST: uio job: /'
say 3 B7 state
end 3
echo \$bdf > /sys/bus/pci/drivers/uio_pci_generic/unbind
echo gba > \$dev/driver_override; echo \$bdf > /sys/bus/pci/drivers_probe
D=\$(node); echo "GUEST: swapped back to \$(basename \$(readlink \$dev/driver)): node \$D"

# 7. The port back: new jobs run normally; once every file is closed nothing is held.
touch /tmp/stop
kernel_test --as 1001 team \$D 1 0xa11ce 2 100 /tmp/stop 2>&1 | sed 's/^/GUEST: after: /'
sleep 1
kernel_test claims \$D | sed 's/^/GUEST: at the end: /'
rmmod gba; echo "GUEST: rmmod at the end rc=\$?"
dmesg | grep -aE 'WARNING|BUG|Oops|Call Trace|general protection' | sed 's/^/GUEST: dmesg: /'
echo "GUEST: dmesg warnings \$(dmesg | grep -acE 'WARNING|BUG|Oops|Call Trace|general protection')"
echo "GUEST: done"
poweroff -f
INIT
printf 'root:x:0:0:root:/:/bin/sh\nalice:x:1001:990::/tmp:/bin/sh\nbob:x:1002:990::/tmp:/bin/sh\n' >"$work/passwd"
printf 'root:x:0:\ngba:x:990:alice,bob\n' >"$work/group"
VM_EXTRA_MODULES="$ko" VM_EXTRA_FILES="$work/passwd:/etc/passwd $work/group:/etc/group" \
    vm_initramfs "$work/initramfs.gz" "$work/init" "$work/lifecycle" "$work/ioctl_fuzz" "$work/kernel_test" "$member"

fabric=$work/fabric
"$gba" sim create --ports 1 --per-port-windows --guest-ram 256M --path "$fabric" >/dev/null
"$gba" sim run --path "$fabric" 2>/dev/null &
pids+=($!)
log=$work/guest.log samples=$work/samples
: >"$log"
reg() { sed -n "s/^#define $1 \(0x[0-9A-Fa-f]*\)U*\$/\1/p" "$repo/gba-pac/include/gba_regs.h"; }
python3 "$here/lifecycle_sampler.py" "$log" "$fabric/window-0" "$fabric/guest-0.ram" "$samples" \
    "$(reg GBA_GROUP_OFFSET)" "$(reg GBA_GROUP_STRIDE)" "$(reg GBA_GROUP_RELEASE_ADDR_OFFSET)" \
    "$(reg GBA_GROUP_CONTROL_OFFSET)" "$(reg GBA_GROUP_RELEASE_SEQ_OFFSET)" "$work/monitor.sock" &
pids+=($!)
start=$(date +%s%N)
timeout $((300 + fuzz_calls / 500)) qemu-system-x86_64 -machine q35,memory-backend=ram0 -accel tcg -m 256M -smp 2 \
    -nographic -no-reboot -kernel "$vm_kdir/vmlinuz" -initrd "$work/initramfs.gz" \
    -append "console=ttyS0 quiet panic=-1 no_timer_check" \
    -object memory-backend-file,id=ram0,mem-path="$fabric/guest-0.ram",size=256M,share=on \
    -object memory-backend-file,id=gba0,mem-path="$fabric/window-0",size=512K,share=on \
    -device pcie-root-port,id=rp0,chassis=1 -device ivshmem-plain,memdev=gba0,bus=rp0 \
    -monitor unix:"$work/monitor.sock",server=on,wait=off >"$log" 2>&1 || true
echo "lifecycle: the guest ran in $((($(date +%s%N) - start) / 1000000)) ms"
sleep 0.5
grep -a 'GUEST: ' "$log" | sed 's/^GUEST: /lifecycle: guest: /'
sed 's/^/lifecycle: host: /' "$samples" 2>/dev/null || true

has() { grep -aEq -- "$1" "$log"; }
lacks() { ! grep -aEq -- "$1" "$log"; }
# answer NAME COMMAND: what session NAME answered to COMMAND (the last time).
# (The console's lines end in CR LF.)
answer() { grep -a "GUEST: $1: $2 -> " "$log" | tail -1 | sed "s/.*GUEST: $1: $2 -> //" | tr -d '\r'; }
# the Nth check of session NAME: "flag F seq S control C"
nth_check() { grep -a "GUEST: $1: check -> " "$log" | sed -n "${2}p" | tr -d '\r'; }
untouched() { # untouched NAME N: the Nth check saw no release and an enabled, armed group
    local c
    c=$(nth_check "$1" "$2")
    [[ "$c" =~ flag\ 0\ seq\ 0\ control\ 0x5$ ]]
}
check "gba.ko loads" has "GUEST: insmod rc=0"
check "the fuzzer made its calls ($fuzz_calls, seed $fuzz_seed) and exited" has "GUEST: fuzz: $fuzz_calls calls"
check "after the fuzzer every group of the port is free" has "GUEST: after the fuzzer: claims: 0"
check "after the fuzzer the port runs barriers" has "GUEST: F0: barrier 20 -> barrier: 20 ok"
check "a fuzzer across the unbind exits 0 (no crash, no hang)" has "GUEST: fuzzer across the unbind: rc=0"

# The AER error: what QEMU answered, and whether the driver's handlers ran.
aer_said=$(sed -n 's/^aer rp0 DLP: //p' "$samples" 2>/dev/null | head -1)
echo "lifecycle: QEMU's monitor answered pcie_aer_inject_error rp0 DLP with '${aer_said}'"
check "aer: QEMU took the injection (monitor: '${aer_said:-no answer}')" bash -c "grep -q '^aer rp0 DLP: OK id: rp0' '$samples'"
check "aer: the driver's error_detected ran (frozen channel)" has "GUEST: aer dmesg: .*PCI error \\(channel state 2\\): every file revoked"
check "aer: slot_reset and resume ran: the port recovered" has "GUEST: aer dmesg: .*recovered; new claims are served"
aer_field() { sed -n "s/^sample $1 g=8 .*$2=\([^ ]*\).*/\1/p" "$samples" | head -1; }
check "aer: bob's group 8 pointed at his flag before (RELEASE_ADDR $(aer_field aer-armed addr))" \
    bash -c "[ -n '$(aer_field aer-armed addr)' ] && [ '$(aer_field aer-armed addr)' != 0x0 ]"
check "aer: recovery cleared its RELEASE_ADDR (now $(aer_field aer-recovered addr))" [ "$(aer_field aer-recovered addr)" = 0x0 ]
aer2_field() { sed -n "s/^sample $1 g=10 .*$2=\([^ ]*\).*/\1/p" "$samples" | head -1; }
check "non-fatal aer: QEMU took the injection" bash -c "grep -q '^aer rp0 POISON_TLP: OK id: rp0' '$samples'"
check "non-fatal aer: error_detected ran with the channel working" has "GUEST: aer2 dmesg: .*PCI error \\(channel state 1\\): every file revoked"
check "non-fatal aer: resume ran: the port recovered (a second time)" has "GUEST: aer2: recoveries 2"
check "non-fatal aer: bob's group 10 pointed at his flag before (RELEASE_ADDR $(aer2_field aer2-armed addr))" \
    bash -c "[ -n '$(aer2_field aer2-armed addr)' ] && [ '$(aer2_field aer2-armed addr)' != 0x0 ]"
check "non-fatal aer: error_detected cleared its RELEASE_ADDR (now $(aer2_field aer2-recovered addr))" [ "$(aer2_field aer2-recovered addr)" = 0x0 ]

for s in "B5 V5 unbind and bind" "B6 V6 remove and rescan" "B4 V4 a function reset" "B8 V8 a fatal AER error" "B10 V10 a non-fatal AER error"; do
    set -- $s
    b=$1 v=$2
    shift 2
    what="$*"
    check "$what: alice's claim of bob's old group wins" has "GUEST: $v: session: won "
    check "$what: bob's old mapping is revoked (SIGBUS on ring)" [ "$(answer "$b" ring)" = "ring: SIGBUS" ]
    check "$what: no early release of alice's group by bob's old mapping" untouched "$v" "$(($(grep -ac "GUEST: $v: check -> " "$log") - 1))"
    check "$what: no RESET of alice's group through bob's old mapping" untouched "$v" "$(grep -ac "GUEST: $v: check -> " "$log")"
    check "$what: alice's group then runs barriers" [ "$(answer "$v" "barrier 3")" = "barrier: 3 ok" ]
    check "$what: bob's old file answers ENODEV" [ "$(answer "$b" state)" = "state: errno ENODEV" ]
done
check "unbind: bob's old file cannot claim again (ENODEV)" [ "$(answer B5 claim)" = "claim: errno ENODEV" ]
check "unbind: bob's old file cannot map again" bash -c "[[ '$(answer B5 mmap)' =~ ^mmap:\ errno ]]"
# alice's running job: a clear error, not a hang.
job_rc=$(sed -n 's/.*GUEST: job: rc=\([0-9]*\) after .*/\1/p' "$log" | head -1)
job_s=$(sed -n 's/.*GUEST: job: rc=[0-9]* after \([0-9]*\) s.*/\1/p' "$log" | head -1)
# Not a hang: well before the library's own 60 s wait runs out (what it took before the fix).
check "unbind: alice's running job ended within 10 s (exit ${job_rc:-none} after ${job_s:-?} s)" \
    bash -c "[ -n '$job_s' ] && [ '$job_s' -le 10 ]"
# a claim after the unbind on a device opened before: the library's error names that device file.
idle_dev=$(sed -n 's/.*GUEST: idle job opened \([^ ]*\).*/\1/p' "$log" | head -1 | tr -d '\r')
check "unbind: the port opened before knows it was revoked before any claim (what a team votes)" \
    has "GUEST: idle job: member: revoked before the claim: ${idle_dev:-/dev/none} was removed, unbound or reset \\(ENODEV\\)"
check "unbind: a claim on the port opened before fails (exit 1)" has "GUEST: idle job: rc=1"
check "unbind: its error names the device file (${idle_dev:-?}) and says it was removed, unbound or reset" \
    has "GUEST: idle job: member: error: this host's arbiter refused group 3: ${idle_dev:-/dev/none} was removed, unbound or reset \\(ENODEV\\)"
# The library's last word names the device: its SIGBUS handler before the default action
# (gba-hal's backends/revoked.rs), or the error of a call on the revoked file (ENODEV).
check "unbind: alice's job failed (exit ${job_rc:-none}) saying which device went away" \
    bash -c "[ '${job_rc:-0}' != 0 ] && grep -aE 'GUEST: job: .*/dev/gba[0-9]+.*(removed, unbound or reset|ENODEV)' '$log' >/dev/null"

# DMA after free, from the host's samples.
field() { sed -n "s/^sample $1 g=9 .*$2=\([^ ]*\).*/\1/p" "$samples" | head -1; }
armed_addr=$(field armed addr) freed_addr=$(field freed addr) freed_seq=$(field freed seq) struck_seq=$(field struck seq)
echo "lifecycle: group 9: alice's flag at ${armed_addr:-?}; after the remove and her close RELEASE_ADDR ${freed_addr:-?}, RELEASE_SEQ ${freed_seq:-?}; after bob's ring ${struck_seq:-?}"
sampled() { [ -n "$armed_addr" ] && [ -n "$freed_addr" ] && [ -n "$struck_seq" ]; }
check "the host sampled group 9 three times" sampled
check "remove: alice's freed flag memory is no longer the group's RELEASE_ADDR" [ "${freed_addr:-x}" = 0x0 ]
check "remove: no device write into memory the driver freed (no episode completed with RELEASE_ADDR at a freed page)" \
    bash -c "[ '${freed_addr:-x}' = 0x0 ] || [ '${freed_seq:-x}' = '${struck_seq:-y}' ]"
check "remove: the device completes no episode of group 9 after the port is gone (RELEASE_SEQ ${freed_seq:-?} -> ${struck_seq:-?})" \
    [ "${freed_seq:-x}" = "${struck_seq:-y}" ]
check "remove: bob's old mapping is revoked (SIGBUS on arm)" [ "$(answer B9 arm)" = "arm: SIGBUS" ]

check "a function reset has a method here" has "GUEST: reset rc=0"
check "rmmod is refused while a file is open" bash -c "grep -aq 'GUEST: rmmod with a file open rc=[1-9]' '$log'"
check "and the port goes on" has "GUEST: R1: barrier 5 -> barrier: 5 ok"
check "swap: the port went to uio_pci_generic" has "GUEST: swapped to uio_pci_generic"
check "swap: bob's old mapping is revoked (SIGBUS on reset)" [ "$(answer B7 reset)" = "reset: SIGBUS" ]
check "swap: root's job over UIO was not disturbed by bob's old mapping" has "GUEST: uio job rc=0"
check "swap: and back to gba" has "GUEST: swapped back to gba"
check "after the port returns a team of two runs 100 barriers, no early release" has "GUEST: after: team 1: ok: "
check "no early release anywhere" lacks "EARLY RELEASE"
check "every file closed: no group is held" has "GUEST: at the end: claims: 0"
check "rmmod once every file is closed" has "GUEST: rmmod at the end rc=0"
check "dmesg has no WARNING, BUG or Oops" has "GUEST: dmesg warnings 0"
check "the guest ran to its end" has "GUEST: done"
if [ "$failed" != 0 ]; then
    echo "lifecycle: the guest's log (panics and the OOM killer, then its end):"
    grep -a -A2 'Kernel panic\|Out of memory\|invoked oom-killer\|segfault' "$log" | head -20
    grep -av '^\[ *[0-9.]*\]  ' "$log" | tail -30
fi
echo "lifecycle: $passed passed, $failed failed"
[ "$failed" = 0 ]
