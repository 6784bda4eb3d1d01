#!/usr/bin/env bash
# The kernel driver (driver/gba.ko) in a QEMU guest (TCG), against the simulated switch
# stepped on the host (`gba sim run`), as tests/vm/cluster.sh boots its guests:
#
# - gba.ko is built on the host by DKMS (driver/dkms.conf, the steps of docs/admin.md, in a
#   private DKMS tree) against the guest kernel's headers (linux-headers-<guest version>,
#   installed by tests/install.sh), and loaded in the guest with ivshmem=1 groups_per_uid=3;
#   the guest's systemd-udevd (the host's, with its libraries) applies driver/99-gba.rules,
#   byte for byte in /etc/udev/rules.d, to /dev/gba0 (group gba, 0660), and again when the
#   module is loaded a second time at the end;
# - two unprivileged users, alice (1001) and bob (1002), both in group gba, run a team of two
#   processes each on the one port at once (tests/vm/kernel_test.c: claim or join by ioctl,
#   mmap of the run-time page and the shared flag memory, host combining), every process
#   checking after each release that its whole team had entered (no early release);
# - meanwhile bob replays the attacks on alice's group (mmap of configuration pages, of her
#   run-time page and flag memory, claim and join with her key, more groups than the quota):
#   each must be refused by name, and alice's team must finish unharmed; nothing of her job
#   (uid, pid, locals, bus address, answer to a wrong key versus her key) shows to bob;
# - carol (1003, not in gba) cannot open the device; a holder killed with SIGKILL has its group
#   freed by the driver (GROUP_ENABLED cleared, another uid can claim it); rmmod at the end.
# - dkms.conf's PACKAGE_VERSION is the driver's MODULE_VERSION and the built module's; the
#   same sources build with warnings fatal (GBA_WERROR=1, which DKMS does not set), clean under
#   sparse (C=2) and checkpatch.pl --strict (from linux-source-6.1) but one justified exception;
# - the port pulled away (PCI remove) from a holder of 32 mapped groups: its old files get
#   ENODEV, its old mappings SIGBUS (flag, ARRIVAL, CONTROL), every group is quiesced before
#   its memory is freed, and the kernel log's time for remove is printed; after a rescan,
#   another user claims; the same revoke at a function reset through sysfs (the port sits
#   behind a PCIe root port, so it has one), after which new claims are served;
#
# - the library's own path over the driver (gba-hal's KernelBackend, address /dev/gba0):
#   the backend conformance suite (gba-sim/tests/suite/conformance.rs, as gba-sim's
#   `conformance` example: identity, DMA memory only with a claim, the claims' flags zeroed,
#   written by a release and zeroed again); `gba dump` lists the driver's claims with their uid
#   and each claim's local processes (GBA_IOC_LOCALS: pid, team rank, entered), and alice runs
#   gba-barrier's `vm_team` (two processes, one team, host combining; the port must count each
#   barrier once) unchanged over /dev/gba0, and again with a straggler whose timeout must name
#   the local process that did not arrive;
#
# Usage: tests/vm/kernel.sh [TARGET_DIR]   (default target/debug: gba, examples/vm_team,
#   examples/conformance)
# Environment: GBA_VM_CACHE (default ~/.cache/gba-vm), GBA_VM_KEEP=1 (keep the work directory),
#   GBA_KERNEL_EPISODES (each team's minimum, default 300), GBA_KERNEL_COMPARE=R (then boot a
#   second guest, behind intel-iommu in passthrough mode, that runs R alternating rounds of
#   GBA_KERNEL_COMPARE_EPISODES (default 2000) barriers of examples/vm_member over the same
#   port bound to gba.ko, uio_pci_generic and vfio-pci in turn, and report each path's minimum
#   and median: a measurement, no check), GBA_KERNEL_COMM=R (then boot a guest that runs R
#   alternating rounds of OpenMPI jobs measuring communicator creation, MPI_Comm_dup + 0, 1, 10
#   barriers + MPI_Comm_free with coll/gba_barrier against OpenMPI's own, over the port bound to
#   gba.ko, uio_pci_generic and vfio-pci in turn: a measurement; needs the component built,
#   GBA_OMPI_BUILD names another build).
# Exit 0 every check passed, 1 one failed, 77 QEMU cannot run here (one line says why).
# Bounded: the guest is killed after 300 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"
target=${1:-$repo/target/debug}
gba=$target/gba
episodes=${GBA_KERNEL_EPISODES:-300}
cache=${GBA_VM_CACHE:-$HOME/.cache/gba-vm}
mkdir -p "$cache"

vm_need_qemu
team=$target/examples/vm_team
suite=$target/examples/conformance
member=$target/examples/vm_member
for bin in "$gba" "$team" "$suite" "$member"; do
    [ -x "$bin" ] || { echo "kernel: $bin is missing (cargo build -p gba -p gba-barrier -p gba-sim --bins --example vm_team --example vm_member --example conformance)"; exit 1; }
done
vm_kernel "$cache"
# The guest kernel's version, from a module's vermagic (the cache keeps no other trace of it).
vermagic() { grep -ao 'vermagic=[^ ]*' "$1" | head -1 | cut -d= -f2; }
kver=$(vermagic "$(find "$vm_kdir/modules" -name 'uio.ko*' | head -1)")
if [ ! -d "/lib/modules/$kver/build" ]; then
    echo "kernel: no headers for the guest kernel $kver: apt-get install linux-headers-$kver (tests/install.sh does)"
    exit 1
fi

for tool in dkms udevadm; do
    command -v "$tool" >/dev/null ||
        { echo "kernel: $tool is missing: apt-get install --no-install-recommends dkms udev (tests/install.sh does)"; exit 1; }
done

vm_scratch kernel

check() { vm_check "$@"; }

# The module as DKMS builds it on a node: the source tree docs/admin.md has the administrator
# copy to /usr/src/gba-VERSION, added and built against the guest's headers, but in a DKMS tree
# and source tree under $work (nothing is written to /usr/src, /var/lib/dkms or /lib/modules).
# DKMS signs what it builds, making a key when it finds none (by default /var/lib/dkms/mok.key):
# that key is made under $work too. The guest kernel does not enforce signatures.
ver=$(sed -n 's/^PACKAGE_VERSION="\([^"]*\)"$/\1/p' "$repo/driver/dkms.conf")
[ -n "$ver" ] || { echo "kernel: FAILED: driver/dkms.conf has no PACKAGE_VERSION=\"...\" line"; exit 1; }
check "driver/dkms.conf's PACKAGE_VERSION ($ver) is driver/gba.c's MODULE_VERSION" \
    grep -q "^MODULE_VERSION(\"$ver\");\$" "$repo/driver/gba.c"
mkdir -p "$work/src" "$work/dkms"
cp -r "$repo/driver" "$work/src/gba-$ver"
cp "$repo/gba-pac/include/gba_regs.h" "$work/src/gba-$ver/"
rm -f "$work/src/gba-$ver"/*.ko "$work/src/gba-$ver"/*.o # a stale build in driver/ is no source
dkms_() {
    mok_signing_key=$work/dkms/mok.key mok_certificate=$work/dkms/mok.pub \
        dkms --dkmstree "$work/dkms" --sourcetree "$work/src" "$@"
}
start=$(date +%s%N)
if ! { dkms_ add -m gba -v "$ver" && dkms_ build -m gba -v "$ver" -k "$kver"; } >"$work/dkms.log" 2>&1; then
    cat "$work/dkms.log"
    find "$work/dkms" -name make.log -exec sh -c 'echo "kernel: DKMS $1:"; cat "$1"' _ {} \;
    echo "kernel: FAILED: DKMS did not build gba $ver for $kver"
    exit 1
fi
ko=$(find "$work/dkms/gba/$ver/$kver" -path '*/module/gba.ko*' | head -1)
[ -n "$ko" ] || { cat "$work/dkms.log"; echo "kernel: FAILED: DKMS built no gba.ko"; exit 1; }
echo "kernel: DKMS built $(dkms_ status gba) in $((($(date +%s%N) - start) / 1000000)) ms (vermagic $(vermagic "$ko"))"
check "the module DKMS built declares version $ver" [ "$(modinfo -F version "$ko")" = "$ver" ]

# The project's own build of the same sources: warnings fatal (GBA_WERROR=1; a DKMS rebuild on a
# node keeps them warnings, so that a new compiler's warning never leaves it without the
# driver), with sparse over every file (C=2), and checkpatch.pl --strict over the sources.
start=$(date +%s%N)
cp -r "$repo/driver" "$work/strict"
rm -f "$work/strict"/*.ko "$work/strict"/*.o
strict_ok=true
make -C "/lib/modules/$kver/build" M="$work/strict" GBA_REGS_DIR="$repo/gba-pac/include" GBA_WERROR=1 C=2 \
    CHECK="sparse -Wsparse-error" modules >"$work/strict.log" 2>&1 || strict_ok=false
$strict_ok || cat "$work/strict.log"
check "gba.c builds with warnings fatal and sparse finds nothing (make GBA_WERROR=1 C=2)" $strict_ok
check "and the build ran sparse" grep -q "CHECK.*gba.c" "$work/strict.log"
echo "kernel: the strict build and sparse took $((($(date +%s%N) - start) / 1000000)) ms"
# checkpatch.pl from Debian's linux-source-6.1 (the script and the two data files it reads),
# unpacked once into the cache.
checkpatch=$cache/checkpatch/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ] && [ -e /usr/src/linux-source-6.1.tar.xz ]; then
    mkdir -p "$cache/checkpatch"
    tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$cache/checkpatch" --strip-components=1 --wildcards \
        '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' '*/scripts/const_structs.checkpatch'
fi
if [ -x "$checkpatch" ]; then
    start=$(date +%s%N)
    # The one exception, justified where it stands: the version test of gba_vma_flags (an
    # out-of-tree module built for every kernel a node installs), which checkpatch reports as
    # LINUX_VERSION_CODE and, mistaking the macros for variables, CONSTANT_COMPARISON.
    allowed=$(grep -n '^#if LINUX_VERSION_CODE' "$repo/driver/gba.c" | cut -d: -f1)
    (cd "$repo/driver" && perl "$checkpatch" --strict --no-tree --terse --show-types -f gba.c gba_ioctl.h) \
        >"$work/checkpatch.log" 2>&1 || true
    findings=$(grep -E '^gba' "$work/checkpatch.log" |
        grep -vE "^gba\.c:${allowed:-none}: WARNING:(LINUX_VERSION_CODE|CONSTANT_COMPARISON):" || true)
    [ -z "$findings" ] || echo "$findings"
    check "checkpatch.pl --strict finds nothing in gba.c and gba_ioctl.h but the justified exception" \
        [ -z "$findings" ] && [ "$(grep -c '^#if LINUX_VERSION_CODE' "$repo/driver/gba.c")" = 1 ]
    echo "kernel: checkpatch.pl took $((($(date +%s%N) - start) / 1000000)) ms"
else
    check "checkpatch.pl is there (apt-get install linux-source-6.1; tests/install.sh does)" false
fi
gcc -std=c11 -Wall -Wextra -Werror -O2 -I "$repo/driver" -I "$repo/gba-pac/include" \
    "$here/kernel_test.c" -o "$work/kernel_test"

cat > "$work/init" <<INIT
$VM_INIT_PRELUDE
t=kernel_test
# The initramfs root is made by mktemp (0700): unprivileged users need to traverse it.
chmod 0755 / && chmod 1777 /tmp
insmod /lib/modules/gba.ko ivshmem=1 groups_per_uid=3; echo "GUEST: insmod rc=\$?"
echo "GUEST: loaded version \$(cat /sys/module/gba/version)"
dmesg | grep -a ' gba ' | sed 's/^/GUEST: dmesg: /'
ls -ln /dev/gba0 | sed 's/^/GUEST: before the rule: /'
# udev applies 99-gba.rules to the node already there, as after an administrator installs the
# rule (docs/admin.md: udevadm trigger); the same again when the module is loaded at the end.
ln -s udevadm /bin/systemd-udevd
systemd-udevd --daemon; echo "GUEST: udevd rc=\$?"
udevadm trigger --action=add --subsystem-match=misc --sysname-match='gba*'
udevadm settle --timeout=60; echo "GUEST: settle rc=\$?"
ls -ln /dev/gba0 | sed 's/^/GUEST: after udev: /'
# The backend conformance suite over KernelBackend, before any other claim (every group free;
# its one release is counted before the teams' count starts).
conformance /dev/gba0 0 2>&1 | sed 's/^/GUEST: suite: /'
\$t claims /dev/gba0 | sed 's/^/GUEST: after the suite: /'
\$t info /dev/gba0 | sed 's/^/GUEST: before: /'
\$t --as 1003:1003 info /dev/gba0 2>&1 | sed 's/^/GUEST: carol: /'

# Two users' teams at once on the one port; bob attacks alice's group meanwhile.
\$t --as 1001 team /dev/gba0 1 0xa11ce 2 $episodes /tmp/stop > /tmp/alice 2>&1 &
a=\$!
\$t --as 1002 team /dev/gba0 2 0xb0b 2 $episodes /tmp/stop > /tmp/bob 2>&1 &
b=\$!
n=0
until \$t claims /dev/gba0 | grep -q 'g=1 uid=1001 .* files=2' && \$t claims /dev/gba0 | grep -q 'g=2 uid=1002 .* files=2'; do
    n=\$((n + 1)); [ \$n -gt 100 ] && break; sleep 0.1
done
\$t claims /dev/gba0 | sed 's/^/GUEST: during: /'
\$t --as 1002 attack /dev/gba0 1 0xa11ce 2>&1 | sed 's/^/GUEST: bob: /'
\$t claims /dev/gba0 | sed 's/^/GUEST: after the attacks: /'
touch /tmp/stop
wait \$a; echo "GUEST: alice rc=\$?"
wait \$b; echo "GUEST: bob rc=\$?"
sed 's/^/GUEST: alice: /' /tmp/alice
sed 's/^/GUEST: bob: /' /tmp/bob
\$t info /dev/gba0 | sed 's/^/GUEST: after the teams: /'
\$t --as 1002 info /dev/gba0 | sed 's/^/GUEST: bob after the teams: /'

# A holder killed: the driver frees its group.
\$t --as 1001 hold /dev/gba0 5 0xdead > /tmp/hold 2>&1 &
h=\$!
n=0; until grep -q 'held 5' /tmp/hold; do n=\$((n + 1)); [ \$n -gt 100 ] && break; sleep 0.1; done
\$t claims /dev/gba0 | grep 'g=5' | sed 's/^/GUEST: held: /'
echo "GUEST: holder pid \$h"
gba dump --device /dev/gba0 2>&1 | grep -a 'PORT_ID\|claims\|g5=\|slot' | sed 's/^/GUEST: dump: /'
# what a node's epilog runs: on the kernel path nothing to reclaim, the live claim left alone
gba reclaim --device /dev/gba0 2>&1 | sed 's/^/GUEST: reclaim: /'
\$t info /dev/gba0 | sed 's/^/GUEST: held: /'
\$t --as 1002 claim /dev/gba0 5 0xb0b 2>&1 | sed 's/^/GUEST: bob while held: /'
kill -9 \$h; wait \$h
\$t claims /dev/gba0 | sed 's/^/GUEST: after the kill: /'
\$t info /dev/gba0 | sed 's/^/GUEST: after the kill: /'
\$t --as 1002 claim /dev/gba0 5 0xb0b 2>&1 | sed 's/^/GUEST: bob after the kill: /'
# The library over the driver: gba-barrier's team of two processes on this port, as alice.
mkdir -p /tmp/team && chmod 1777 /tmp/team
\$t --as 1001 exec vm_team /dev/gba0 2 100 /tmp/team/a 2>&1 | sed 's/^/GUEST: alice: /'
\$t claims /dev/gba0 | sed 's/^/GUEST: after vm_team: /'
# A local process that does not arrive: the timeout names it (GBA_IOC_LOCALS).
\$t --as 1001 exec vm_team /dev/gba0 2 5 /tmp/team/s --straggler 2>&1 | sed 's/^/GUEST: straggler: /'
# A plain barrier (no Team) whose wait times out: one of two local processes on the port, the
# other never comes. Its text must say what is known, never "no member is missing".
\$t --as 1001 exec vm_member /dev/gba0 1 6 0 --then-until-timeout 2 --lone-of 2 2>&1 | sed 's/^/GUEST: plain: /'
# The port pulled away with 32 groups claimed and mapped (PCI remove): every old file and
# mapping revoked, every group quiesced before its memory is freed; then back (rescan).
echo 32 > /sys/module/gba/parameters/groups_per_uid
\$t revoke /dev/gba0 32 /tmp/go-remove > /tmp/revoke 2>&1 &
r=\$!
n=0; until grep -q 'held 32' /tmp/revoke; do n=\$((n + 1)); [ \$n -gt 300 ] && break; sleep 0.1; done
echo 1 > /sys/bus/pci/devices/\$bdf/remove; echo "GUEST: remove rc=\$?"
touch /tmp/go-remove
wait \$r; echo "GUEST: revoke rc=\$?"
sed 's/^/GUEST: remove: /' /tmp/revoke
dmesg | grep -a 'removed: ' | sed 's/^/GUEST: dmesg: /'
dmesg | grep -a 'not quiesced' | sed 's/^/GUEST: dmesg: /'
echo 1 > /sys/bus/pci/rescan; udevadm settle --timeout=60
\$t --as 1002 claim /dev/gba0 7 0x77 2>&1 | sed 's/^/GUEST: after rescan: /'
# A function reset through sysfs, where the port has a reset method: the same revoke.
if [ -e /sys/bus/pci/devices/\$bdf/reset ]; then
    rm -f /tmp/go-remove
    \$t revoke /dev/gba0 2 /tmp/go-remove > /tmp/revoke 2>&1 &
    r=\$!
    n=0; until grep -q 'held 2' /tmp/revoke; do n=\$((n + 1)); [ \$n -gt 300 ] && break; sleep 0.1; done
    echo 1 > /sys/bus/pci/devices/\$bdf/reset; echo "GUEST: reset rc=\$?"
    touch /tmp/go-remove
    wait \$r
    sed 's/^/GUEST: reset: /' /tmp/revoke
    dmesg | grep -a 'function reset done' | sed 's/^/GUEST: dmesg: /'
    \$t --as 1002 claim /dev/gba0 8 0x78 2>&1 | sed 's/^/GUEST: after reset: /'
else
    echo "GUEST: reset: no reset method (\$(cat /sys/bus/pci/devices/\$bdf/reset_method 2>&1))"
fi
rmmod gba; echo "GUEST: rmmod rc=\$?"
# Loaded again with udevd running, as at boot: the new node's add event meets the rule.
echo "GUEST: after rmmod: \$(ls /dev/gba0 2>&1)"
insmod /lib/modules/gba.ko ivshmem=1; udevadm settle --timeout=60
ls -ln /dev/gba0 | sed 's/^/GUEST: reloaded: /'
rmmod gba
# Everything above, revokes included, left the kernel nothing to complain about.
dmesg | grep -aE 'WARNING|BUG|Oops|general protection|corruption|bad page|refcount' | sed 's/^/GUEST: kernel complaint: /'
echo "GUEST: done"
poweroff -f
INIT
# The users: alice and bob in group gba (kernel_test --as gives them 990), carol not.
printf 'root:x:0:0:root:/:/bin/sh\nalice:x:1001:990::/tmp:/bin/sh\nbob:x:1002:990::/tmp:/bin/sh\ncarol:x:1003:1003::/tmp:/bin/sh\n' >"$work/passwd"
printf 'root:x:0:\ngba:x:990:alice,bob\ncarol:x:1003:\n' >"$work/group"
VM_EXTRA_MODULES="$ko" \
    VM_EXTRA_FILES="$repo/driver/99-gba.rules:/etc/udev/rules.d/99-gba.rules $work/passwd:/etc/passwd $work/group:/etc/group" \
    vm_initramfs "$work/initramfs.gz" "$work/init" "$work/kernel_test" "$gba" "$team" "$suite" "$member" "$(command -v udevadm)"

# The port sits alone behind a PCIe root port, so that it has a reset method (a secondary bus
# reset) and `echo 1 > .../reset` runs the driver's reset_prepare and reset_done.
fabric=$work/fabric
"$gba" sim create --ports 1 --per-port-windows --guest-ram 256M --path "$fabric" >/dev/null
"$gba" sim run --path "$fabric" 2>/dev/null &
pids+=($!)
start=$(date +%s%N)
log=$work/guest.log
timeout 300 qemu-system-x86_64 -machine q35,memory-backend=ram0 -accel tcg -m 256M -smp 2 \
    -nographic -no-reboot -kernel "$vm_kdir/vmlinuz" -initrd "$work/initramfs.gz" \
    -append "console=ttyS0 quiet panic=-1 no_timer_check" \
    -object memory-backend-file,id=ram0,mem-path="$fabric/guest-0.ram",size=256M,share=on \
    -object memory-backend-file,id=gba0,mem-path="$fabric/window-0",size=512K,share=on \
    -device pcie-root-port,id=rp0,chassis=1 -device ivshmem-plain,memdev=gba0,bus=rp0 > "$log" 2>&1 || true
echo "kernel: the guest ran in $((($(date +%s%N) - start) / 1000000)) ms"
grep -a 'GUEST: ' "$log" | sed 's/^GUEST: /kernel: guest: /'

has() { grep -aq -- "$1" "$log"; }
check "gba.ko loads (ivshmem=1)" has "GUEST: insmod rc=0"
check "the driver bound the port as /dev/gba0" has "GUEST: dmesg: .*/dev/gba0: GBA port 0"
check "the module loaded is DKMS's (version $ver)" grep -aEq "GUEST: loaded version ${ver//./\\.}\s*\$" "$log"
check "/dev/gba0 is root's only before the rule" grep -aEq "GUEST: before the rule: crw------- +1 0 +0 " "$log"
check "systemd-udevd runs in the guest" has "GUEST: udevd rc=0"
check "udev settled" has "GUEST: settle rc=0"
check "udev's 99-gba.rules made /dev/gba0 root:gba (990) 0660" grep -aEq "GUEST: after udev: crw-rw---- +1 0 +990 " "$log"
check "rmmod removed the node" has "GUEST: after rmmod: ls: /dev/gba0: No such file or directory"
check "and udev gave the new node of a module loaded while udevd runs the same" grep -aEq "GUEST: reloaded: crw-rw---- +1 0 +990 " "$log"
check "carol (not in group gba) cannot open it" has "GUEST: carol: kernel_test: open /dev/gba0: Permission denied"
check "both teams held their groups at once" has "GUEST: during: claim g=1 uid=1001 .* files=2"
check "bob's team held group 2 meanwhile" has "GUEST: during: claim g=2 uid=1002 .* files=2"
for attack in "mmap the victim's run-time page, no claim" "mmap the global page, no claim" \
    "GBA_IOC_STATE with no claim" "claim the victim's group with another key" \
    "join the victim's group with its stolen key" \
    "mmap its own group's configuration page (RELEASE_ADDR)" "mmap the victim's configuration page" \
    "mmap the victim's run-time page" "mmap the victim's flag memory" "mmap the global page" \
    "mmap its own run-time page and the next one" "mmap its own run-time page privately" \
    "mmap its own run-time page executable" "tell a wrong key from the stolen one" \
    "read the victim's claim (uid, pid, flag address)" "read the victim's local processes (GBA_IOC_LOCALS)" \
    "mprotect its own run-time page executable" "mprotect its own flag memory executable" \
    "a second claim on one file" "a member set past MAX_MEMBERS" "claim every free group"; do
    check "refused: $attack" has "GUEST: bob: refused: $attack ("
done
check "no attack got through" has "GUEST: bob: attacks: 21 refused, 0 breaches"
check "alice's group is still hers after the attacks" has "GUEST: after the attacks: claim g=1 uid=1001 .* files=2"
check "alice's team finished: no early release" has "GUEST: alice: team 1: ok: "
check "bob's team finished: no early release" has "GUEST: bob: team 2: ok: "
check "no process saw an early release" bash -c "! grep -aq 'EARLY RELEASE' '$log'"
check "alice's processes exited 0" has "GUEST: alice rc=0"
check "bob's processes exited 0" has "GUEST: bob rc=0"
# Each team of two is one member: the port counts each of its barriers once.
count() { sed -n "s/.*GUEST: $1: .* \([0-9][0-9]*\) episodes, .*/\1/p" "$log" | head -1; }
completed() { sed -n "s/.*GUEST: $1: .*BARRIERS_COMPLETED \([0-9]*\) .*/\1/p" "$log" | head -1; }
a=$(count alice) b=$(count bob) c0=$(completed before) c1=$(completed "after the teams")
echo "kernel: alice ${a:-?} + bob ${b:-?} barriers; BARRIERS_COMPLETED ${c0:-?} -> ${c1:-?}"
counted_once() { [ -n "$a" ] && [ -n "$b" ] && [ -n "$c0" ] && [ -n "$c1" ] && [ $((c1 - c0)) = $((a + b)) ]; }
check "the port counted each team's barriers once" counted_once
check "the holder's claim is listed with its uid" has "GUEST: held: claim g=5 uid=1001 "
check "its group is enabled on the port while held" grep -aEq "GUEST: held: info: .*GROUP_ENABLED 0x20 " "$log"
check "bob cannot take it while held, nor learn whose it is" has "GUEST: bob while held: claim 5: busy (held by another team), owner hidden"
check "bob, holding no group, sees no other job's barriers (BARRIERS_COMPLETED 0 to him)" \
    grep -aEq "GUEST: bob after the teams: info: .*BARRIERS_COMPLETED 0 " "$log"
check "while root sees the port's count" grep -aEq "GUEST: after the teams: info: .*BARRIERS_COMPLETED [1-9]" "$log"
check "the killed holder's group is freed by the driver" bash -c "! grep -aq 'GUEST: after the kill: claim g=5' '$log'"
check "and disabled on the port" grep -aEq "GUEST: after the kill: info: .*GROUP_ENABLED 0x0 " "$log"
check "bob can claim it after the kill" has "GUEST: bob after the kill: claim 5: won"
check "gba dump lists the driver's claim with its uid" grep -aEq "GUEST: dump:   g5=[0-9]+ uid 1001 held joined 1/1" "$log"
holder=$(sed -n 's/.*GUEST: holder pid \([0-9]*\).*/\1/p' "$log" | head -1)
check "gba reclaim over /dev/gba0 leaves it to the driver" has "GUEST: reclaim: .*the kernel driver frees a claim when its last file closes"
check "and lists the held claim as live, left alone" grep -aEq "GUEST: reclaim:   g5=[0-9]+ uid 1001 .*\(live: left alone\)" "$log"
check "gba dump names the claim's local process (GBA_IOC_LOCALS)" \
    grep -aEq "GUEST: dump:     slot 0: pid ${holder:-none} team rank 0 entered 0" "$log"
check "the conformance suite passes over KernelBackend" \
    has "GUEST: suite: conformance: ok: /dev/gba0 (port 0)"
check "the suite's claims were freed when it exited" has "GUEST: after the suite: claims: 0"
check "gba-barrier's team of two ran over /dev/gba0, each barrier counted once" \
    has "GUEST: alice: vm_team: ok: 2 processes on one port (ranks 0..1 of 2), 100 barriers"
check "vm_team's group was freed when it exited" has "GUEST: after vm_team: claims: 0"
check "a timeout over /dev/gba0 names the local process that did not arrive" \
    grep -aEq "GUEST: straggler: vm_team: straggler: .*on this host not arrived: pid [0-9]+ \(team rank 1\)" "$log"
# the driver maps no ARRIVED_MASK to the process but reads it for the claim's holder
# (GBA_IOC_STATE): the port whose process is late is named as not arrived, from the device's
# own mask, never "every host's port arrived"
check "that timeout names this host's port as not arrived, read through the driver" \
    grep -aEq "GUEST: straggler: vm_team: straggler: .*hosts never arrived: port 0 \(.*this host\)" "$log"
check "and does not fall back to saying it cannot read the arrivals" \
    bash -c "! grep -a 'GUEST: straggler: ' '$log' | grep -q 'cannot read'"
# the same for a plain barrier (Barrier::wait, as gba_barrier_wait): the device's count, not
# "nobody"
check "a plain barrier's timeout over /dev/gba0 names the member that did not arrive" \
    grep -aEq "GUEST: plain: member 0: .*GBA group 6 \(member 0\): episode 1 not released .*members \[0\] never arrived" "$log"
check "and never that no member is missing" bash -c "! grep -a 'GUEST: plain: ' '$log' | grep -q 'no member is missing'"
# Removal with 32 groups claimed and mapped.
check "PCI remove with 32 groups claimed" has "GUEST: remove rc=0"
check "an old file's ioctl gets ENODEV after remove" has "GUEST: remove: old file: GBA_IOC_INFO: No such device"
check "an old file's mmap gets ENODEV after remove" has "GUEST: remove: old file: mmap: No such device"
check "a load of an old flag mapping gets SIGBUS" has "GUEST: remove: old mapping: load of the flag: SIGBUS"
check "a store to an old ARRIVAL gets SIGBUS (no doorbell rung)" has "GUEST: remove: old mapping: store to ARRIVAL: SIGBUS"
check "a store to an old CONTROL gets SIGBUS (no RESET written)" has "GUEST: remove: old mapping: store to CONTROL: SIGBUS"
check "remove revoked the 32 claims and quiesced every group" has "GUEST: dmesg: .*removed: 32 claims revoked, 32 groups quiesced in"
check "every group quiesced: no flag memory kept" bash -c "! grep -aq 'GUEST: dmesg: .*not quiesced' '$log'"
check "the holder exited cleanly" has "GUEST: revoke rc=0"
check "after rescan, another user claims on the new port" has "GUEST: after rescan: claim 7: won"
removal=$(sed -n 's/.*GUEST: dmesg: .*removed: 32 claims revoked, 32 groups quiesced in \([0-9]*\) us.*/\1/p' "$log" | head -1)
echo "kernel: remove with 32 groups claimed took ${removal:-?} us (in the TCG guest)"
check "the port has a reset method (behind its root port)" has "GUEST: reset rc=0"
check "the driver revoked at the function reset and served again after it" has "GUEST: dmesg: .*function reset done"
check "an old file's ioctl gets ENODEV after a function reset" has "GUEST: reset: old file: GBA_IOC_INFO: No such device"
check "a load of an old flag mapping gets SIGBUS after a function reset" has "GUEST: reset: old mapping: load of the flag: SIGBUS"
check "a store to an old ARRIVAL gets SIGBUS after a function reset" has "GUEST: reset: old mapping: store to ARRIVAL: SIGBUS"
check "after the reset, another user claims" has "GUEST: after reset: claim 8: won"
check "rmmod once every file is closed" has "GUEST: rmmod rc=0"
check "the kernel logged no warning, bug or bad page" bash -c "! grep -aq 'GUEST: kernel complaint: ' '$log'"
check "the guest ran to its end" has "GUEST: done"

# The guests' way to move the port between drivers (written into their init scripts).
GUEST_REBIND='rebind() { # rebind DRIVER
    [ -e /sys/bus/pci/devices/$bdf/driver ] && echo $bdf > /sys/bus/pci/devices/$bdf/driver/unbind
    echo $1 > /sys/bus/pci/devices/$bdf/driver_override
    echo $bdf > /sys/bus/pci/drivers_probe
}'

# The comparison: one guest, the port rebound between the three drivers every round.
compare() {
    local rounds=$1 n=${GBA_KERNEL_COMPARE_EPISODES:-2000} member=$target/examples/vm_member
    [ -x "$member" ] || { echo "kernel: compare: $member is missing (cargo build -p gba-barrier --example vm_member)"; return 0; }
    cat > "$work/init-compare" <<INIT
$VM_INIT_PRELUDE
insmod /lib/modules/gba.ko ivshmem=1
$GUEST_REBIND
export GBA_VFIO_IOVA=physical
for r in \$(seq $rounds); do
    rebind gba; vm_member /dev/gba0 1 3 $n 2>&1 | tail -1 | sed "s/^/GUEST: compare \$r kernel: /"
    rebind uio_pci_generic; vm_member /dev/uio0 1 3 $n 2>&1 | tail -1 | sed "s/^/GUEST: compare \$r uio: /"
    rebind vfio-pci; vm_member vfio:\$bdf 1 3 $n 2>&1 | tail -1 | sed "s/^/GUEST: compare \$r vfio: /"
done
poweroff -f
INIT
    VM_EXTRA_MODULES="$ko" vm_initramfs "$work/initramfs-compare.gz" "$work/init-compare" "$member"
    local clog=$work/compare.log
    timeout 600 qemu-system-x86_64 -machine q35,memory-backend=ram0 -accel tcg -m 256M -smp 1 \
        -nographic -no-reboot -kernel "$vm_kdir/vmlinuz" -initrd "$work/initramfs-compare.gz" \
        -append "console=ttyS0 quiet panic=-1 no_timer_check intel_iommu=on iommu=pt" -device intel-iommu \
        -object memory-backend-file,id=ram0,mem-path="$fabric/guest-0.ram",size=256M,share=on \
        -object memory-backend-file,id=gba0,mem-path="$fabric/window-0",size=512K,share=on \
        -device ivshmem-plain,memdev=gba0 > "$clog" 2>&1 || true
    grep -a 'GUEST: compare' "$clog" | sed 's/^GUEST: /kernel: /'
    local path rows
    for path in kernel uio vfio; do
        # "median min" per round
        rows=$(grep -a "GUEST: compare [0-9]* $path: member 0: " "$clog" |
            sed -n 's/.* median \([0-9]*\) ns, p99 [0-9]* ns, min \([0-9]*\) ns.*/\1 \2/p')
        if [ -z "$rows" ]; then echo "kernel: compare $path: no round ran"; continue; fi
        echo "kernel: compare $path: $(wc -l <<<"$rows") rounds, min $(cut -d' ' -f2 <<<"$rows" | sort -n | head -1) ns," \
            "median of medians $(cut -d' ' -f1 <<<"$rows" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }') ns"
    done
}
if [ -n "${GBA_KERNEL_COMPARE:-}" ]; then compare "$GBA_KERNEL_COMPARE"; fi

# Communicator creation over each path: OpenMPI 4.1 jobs of two ranks in one guest (both on the
# port: host combining), MPI_Comm_dup + 0, 1 or 10 MPI_Barrier + MPI_Comm_free with
# coll/gba_barrier against OpenMPI's own communicator in the same job (bench_barrier's
# communicator rows, teams formed at their first barrier), the port rebound between the three
# drivers every round. The guest runs the host's own OpenMPI and builds: the host's root is
# shared read-only over 9p and the jobs run chrooted into it.
comm() {
    local rounds=$1 build=${GBA_OMPI_BUILD:-$repo/runtimes/openmpi/build} path
    [ -x "$build/bench_barrier" ] && [ -e "$build/mca_coll_gba_barrier.so" ] ||
        { echo "kernel: comm: build the OpenMPI component first (runtimes/openmpi/test.sh, or make -C runtimes/openmpi all tests)"; return 0; }
    # OpenMPI's default component path plus the build (runtimes/openmpi/ompi_env.sh).
    path=$(. "$repo/runtimes/openmpi/ompi_env.sh" && gba_ompi_env "$build" /unused && echo "$OMPI_MCA_mca_base_component_path")
    cat > "$work/init-comm" <<INIT
$VM_INIT_PRELUDE
insmod /lib/modules/gba.ko ivshmem=1
$GUEST_REBIND
mkdir -p /host && mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host || echo "GUEST: comm: no 9p root"
mount -t proc proc /host/proc; mount -t sysfs sys /host/sys; mount -t devtmpfs dev /host/dev
mount -t tmpfs shm /host/dev/shm; mount -t tmpfs tmp /host/tmp; mount -t tmpfs -o mode=0755 run /host/run
ifconfig lo 127.0.0.1 up; hostname gba-guest
job() { # job PATH-NAME DEVICE FORM_AFTER
    chroot /host env -i PATH=/usr/bin:/bin HOME=/tmp GBA_VFIO_IOVA=physical GBA_BENCH_COMM_ONLY=1 \\
        OMPI_MCA_mca_base_component_path=$path OMPI_MCA_coll_gba_barrier_device_path=\$2 \\
        OMPI_MCA_coll_gba_barrier_form_after=\$3 OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=false \\
        mpirun --allow-run-as-root --oversubscribe -np 2 -x GBA_VFIO_IOVA -x GBA_BENCH_COMM_ONLY \\
        $build/bench_barrier 100 2 2>&1 | sed "s/^/GUEST: comm \$r \$1 form_after=\$3: /"
}
for r in \$(seq $rounds); do
    # form_after 1: every team formed at its first barrier (a formation's cost); 0: the
    # automatic choice (this one-node communicator forms at its 64th, so dup + 1 or 10 stay
    # in software)
    for f in 1 0; do
        rebind gba; job kernel /dev/gba0 \$f
        rebind uio_pci_generic; job uio /dev/uio0 \$f
        rebind vfio-pci; job vfio vfio:\$bdf \$f
    done
done
poweroff -f
INIT
    VM_EXTRA_MODULES="$ko" vm_initramfs "$work/initramfs-comm.gz" "$work/init-comm"
    local clog=$work/comm.log
    timeout 1800 qemu-system-x86_64 -machine q35,memory-backend=ram0 -accel tcg -m 256M -smp 2 \
        -nographic -no-reboot -kernel "$vm_kdir/vmlinuz" -initrd "$work/initramfs-comm.gz" \
        -append "console=ttyS0 quiet panic=-1 no_timer_check intel_iommu=on iommu=pt" -device intel-iommu \
        -object memory-backend-file,id=ram0,mem-path="$fabric/guest-0.ram",size=256M,share=on \
        -object memory-backend-file,id=gba0,mem-path="$fabric/window-0",size=512K,share=on \
        -device ivshmem-plain,memdev=gba0 \
        -fsdev local,id=hostroot,path=/,security_model=none,readonly=on \
        -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot > "$clog" 2>&1 || true
    grep -a 'GUEST: comm' "$clog" | sed 's/^GUEST: /kernel: /'
}
if [ -n "${GBA_KERNEL_COMM:-}" ]; then comm "$GBA_KERNEL_COMM"; fi

if [ "$failed" != 0 ]; then
    echo "kernel: the guest's log:"
    tail -40 "$log"
fi
echo "kernel: $passed passed, $failed failed"
[ "$failed" = 0 ]
